package fix

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
)

// Value edits of a TOML file (Codex CLI's config.toml), the counterparts
// of SetJSON and RemoveJSON for one key of a table: they keep comments,
// formatting, key order and line endings, refuse a file that does not
// parse, and check that what they return parses. Only tables written as
// a [header] are edited: a key cannot be added to an inline table or a
// dotted key without rewriting it, which is left to the user.

// SetTOMLKey returns content with key = value (value in TOML syntax:
// `false`, `"text"`) in the table at path. An existing key has its value
// replaced; a new one goes after the table's last key-value line.
func SetTOMLKey(content []byte, path []string, key, value string) ([]byte, error) {
	d, tbl, err := tomlTable(content, path)
	if err != nil {
		return nil, err
	}
	if m := tbl.Get(key); m != nil {
		if string(content[m.Value.Span.Start:m.Value.Span.End]) == value {
			return content, nil
		}
		return applyTOML(d, []Edit{d.edit(m.Value.Span.Start, m.Value.Span.End, value)})
	}
	src := d.Content
	at := afterKeyValues(src, tbl, lineEnd(src, tbl.Span.Start))
	line := convert.TOMLKey(key) + " = " + value
	return applyTOML(d, []Edit{d.edit(at, at, d.Layout().Newline+line)})
}

// RemoveTOMLKey returns content without key in the table at path: its
// line, when the key-value has it to itself. A key that is not there is
// no change.
func RemoveTOMLKey(content []byte, path []string, key string) ([]byte, error) {
	d, tbl, err := tomlTable(content, path)
	if err != nil {
		return nil, err
	}
	m := tbl.Get(key)
	if m == nil {
		return content, nil
	}
	src := d.Content
	start, end := m.Span.Start, m.Span.End
	if startsLine(src, start) && endsLine(src, end) {
		start, end = lineStart(src, start), nextLine(src, end)
	}
	return applyTOML(d, []Edit{d.edit(start, end, "")})
}

// LookupTOML returns the value at path in content's parse, nil when the
// content does not parse or the path is not there.
func LookupTOML(content []byte, path []string) *jsonc.Node {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		return nil
	}
	return f.Root.Lookup(path...)
}

// tomlTable parses content and finds the [header] table at path.
func tomlTable(content []byte, path []string) (*Document, *jsonc.Node, error) {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		return nil, nil, fmt.Errorf("%w: line %d: %s", ErrSyntax, strings.Count(string(content[:min(e.Span.Start, len(content))]), "\n")+1, e.Message)
	}
	d := &Document{Path: "edit.toml", Content: content, Parsed: f}
	tbl := f.Root.Lookup(path...)
	switch {
	case tbl == nil:
		return nil, nil, fmt.Errorf("no table [%s]", strings.Join(path, "."))
	case tbl.Kind != jsonc.Object || !isHeader(content, tbl):
		return nil, nil, fmt.Errorf("[%s] is not written as a [header] table; edit it by hand", strings.Join(path, "."))
	}
	return d, tbl, nil
}

// isHeader reports whether table n is written as a [header].
func isHeader(src []byte, n *jsonc.Node) bool {
	return n.Span.Start < len(src) && src[n.Span.Start] == '['
}

// applyTOML applies edits and checks the result parses as TOML.
func applyTOML(d *Document, edits []Edit) ([]byte, error) {
	sortEdits(edits)
	out, err := Apply(d.Content, edits)
	if err != nil {
		return nil, err
	}
	if f := toml.Parse(out); len(f.Errors) > 0 {
		return nil, errors.New("internal error: the edit would break the file (" + f.Errors[0].Message + "); nothing written")
	}
	return out, nil
}

// SetTOML returns content with the value at path equal to v (as
// convert.RenderEntry takes it): the counterpart of SetJSON for a TOML
// file, with which sync writes a server into Codex CLI's config.toml. A
// value already equal (keys in any order, any string quoting) is left
// byte for byte. A table replaced by a table is merged key by key, so
// only what changed is edited: comments inside and around it, key order,
// line endings and every other key and table stay. A changed value is
// rewritten in place on one line; a new key goes after the table's last
// key-value; a new table is added as a [header] table after its parent's
// last part (a new server after the last [mcp_servers.*] table), or
// inline where its parent is inline. The result is parsed again and must
// hold exactly the old document with v set, else nothing is returned.
func SetTOML(content []byte, path []string, v any) ([]byte, error) {
	if len(path) == 0 {
		return nil, errors.New("set: empty path")
	}
	d, err := parseTOMLForEdit(content)
	if err != nil {
		return nil, err
	}
	out, err := setTOML(d, path, v)
	if err != nil {
		return nil, err
	}
	return checkTOML(d, out, func(root any) any { return setIn(root, path, v) })
}

// RemoveTOML returns content without the key at path: the lines of a
// key-value, a [header] table with its sub-tables, every line of a table
// made by dotted keys, or the member of an inline table. A path that is
// not there is no change.
func RemoveTOML(content []byte, path []string) ([]byte, error) {
	if len(path) == 0 {
		return nil, errors.New("remove: empty path")
	}
	d, err := parseTOMLForEdit(content)
	if err != nil {
		return nil, err
	}
	out, err := removeTOML(d, path)
	if err != nil {
		return nil, err
	}
	return checkTOML(d, out, func(root any) any {
		root = deleteIn(root, path)
		// A table that was there only as the parent of the removed one
		// ([mcp_servers] of the last [mcp_servers.x], no header of its
		// own) goes with it: an empty one where the result has none.
		for i := len(path) - 1; i > 0; i-- {
			if o, ok := valueAt(root, path[:i]).(convert.Object); !ok || len(o) > 0 || LookupTOML(out, path[:i]) != nil {
				break
			}
			root = deleteIn(root, path[:i])
		}
		return root
	})
}

// valueAt is the value at path in x, nil where a step is missing.
func valueAt(x any, path []string) any {
	for _, k := range path {
		o, ok := x.(convert.Object)
		if !ok {
			return nil
		}
		x = nil
		for _, m := range o {
			if m.Key == k {
				x = m.Value
			}
		}
	}
	return x
}

func setTOML(d *Document, path []string, v any) ([]byte, error) {
	src := d.Content
	parent := d.Parsed.Root
	// hdr is how much of path the nearest table written as a [header]
	// (or the root) spans: a key added to a table made by dotted keys
	// is written with the rest as its prefix.
	hdr := 0
	var parentMember *jsonc.Member
	for i, key := range path {
		m := parent.Get(key)
		if m == nil {
			return insertTOML(d, parent, parentMember, path[:i], hdr, key, nestValue(path[i+1:], v))
		}
		val := m.Value
		if i < len(path)-1 {
			switch {
			case val.Kind != jsonc.Object:
				return nil, fmt.Errorf("%s is not a table", pathName(path[:i+1]))
			case isInline(src, val):
				old, _ := NodeValue(val)
				return replaceTOMLValue(d, val, setIn(old, path[i+1:], v))
			case isHeader(src, val):
				hdr = i + 1
			}
			parent, parentMember = val, m
			continue
		}
		if sameValue(val, v) {
			return src, nil
		}
		nv, isObj := v.(convert.Object)
		written := val.Kind == jsonc.Object && !isInline(src, val) || isArrayOfTables(src, val)
		switch {
		case isObj && val.Kind == jsonc.Object && !isInline(src, val):
			return mergeTOML(src, path, val, nv)
		case written:
			// A table or array of tables becomes a value: its lines go,
			// then the value is added as a new key.
			out, err := RemoveTOML(src, path)
			if err != nil {
				return nil, err
			}
			return SetTOML(out, path, v)
		}
		return replaceTOMLValue(d, val, v)
	}
	return src, nil // not reached: the loop returns at the last key
}

// mergeTOML sets each member of nv under path, one at a time on the
// result of the last, then removes the members old has and nv does not.
func mergeTOML(content []byte, path []string, old *jsonc.Node, nv convert.Object) ([]byte, error) {
	out := content
	var err error
	for _, m := range nv {
		if out, err = SetTOML(out, append(clonePath(path), m.Key), m.Value); err != nil {
			return nil, err
		}
	}
	for _, m := range old.Members() {
		if _, ok := nv.Get(m.Key.Str); ok {
			continue
		}
		if out, err = RemoveTOML(out, append(clonePath(path), m.Key.Str)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// insertTOML adds key = val to parent, the table at ppath (member pm of
// its own parent; nil for the root).
func insertTOML(d *Document, parent *jsonc.Node, pm *jsonc.Member, ppath []string, hdr int, key string, val any) ([]byte, error) {
	src := d.Content
	nl := d.Layout().Newline
	obj, isObj := val.(convert.Object)
	line := convert.TOMLKey(key) + " = " + convert.TOMLValue(val)
	switch {
	case parent.Kind != jsonc.Object:
		return nil, fmt.Errorf("%s is not a table", pathName(ppath))
	case isInline(src, parent):
		old, _ := NodeValue(parent)
		return replaceTOMLValue(d, parent, setIn(old, []string{key}, val))
	case len(ppath) == 0 && !isObj:
		// A key of the root: after its last key-value, or at the top.
		at, ok := afterKeyValues(src, parent, -1), true
		if at < 0 {
			at, ok = parent.Span.Start, false
		}
		if ok {
			return applyTOML(d, []Edit{d.edit(at, at, nl+line)})
		}
		return applyTOML(d, []Edit{d.edit(at, at, line+nl)})
	case len(ppath) > 0 && hdr < len(ppath):
		// A table made by dotted keys: one more dotted key-value.
		prefix := make([]string, 0, len(ppath)-hdr)
		for _, k := range ppath[hdr:] {
			prefix = append(prefix, convert.TOMLKey(k))
		}
		at := lineEnd(src, parent.Span.End)
		return applyTOML(d, []Edit{d.edit(at, at, nl+strings.Join(prefix, ".")+"."+line)})
	case len(ppath) > 0 && !isObj && ownHeader(src, pm):
		at := afterKeyValues(src, parent, lineEnd(src, pm.Key.Span.Start))
		return applyTOML(d, []Edit{d.edit(at, at, nl+line)})
	}
	// A new [header] table: the object at ppath.key, or (for a value of
	// a table that has no header of its own) the header of ppath with it.
	var block string
	if isObj {
		block = string(convert.RenderTOMLTable(append(clonePath(ppath), key), obj, nl))
	} else {
		block = string(convert.RenderTOMLTable(ppath, convert.Object{{Key: key, Value: val}}, nl))
	}
	block = strings.TrimRight(block, "\r\n")
	if len(ppath) > 0 {
		at := lineEnd(src, parent.Span.End)
		return applyTOML(d, []Edit{d.edit(at, at, nl+nl+block)})
	}
	// At the end of the file, after one blank line.
	text := string(src)
	switch {
	case strings.TrimSpace(text) == "":
		return applyTOML(d, []Edit{d.edit(len(src), len(src), block+nl)})
	case !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r"):
		block = nl + nl + block
	case !strings.HasSuffix(strings.TrimRight(text, " \t"), nl+nl):
		block = nl + block + nl
	default:
		block += nl
	}
	return applyTOML(d, []Edit{d.edit(len(src), len(src), block)})
}

func removeTOML(d *Document, path []string) ([]byte, error) {
	src := d.Content
	parent := d.Parsed.Root.Lookup(path[:len(path)-1]...)
	if parent == nil || parent.Kind != jsonc.Object {
		return src, nil
	}
	key := path[len(path)-1]
	m := parent.Get(key)
	if m == nil {
		return src, nil
	}
	switch {
	case isInline(src, parent):
		old, _ := NodeValue(parent)
		return replaceTOMLValue(d, parent, deleteIn(old, []string{key}))
	case m.Value.Kind == jsonc.Object && isHeader(src, m.Value) || isArrayOfTables(src, m.Value):
		start, end := lineStart(src, m.Value.Span.Start), nextLine(src, m.Value.Span.End)
		// One blank line after it goes too, so two tables do not end up
		// with two blank lines between them.
		if e := nextLine(src, end); end < len(src) && isBlank(src[end:lineEnd(src, end)]) {
			end = e
		}
		if len(bytes.TrimSpace(src[end:])) == 0 {
			// The last table: the blank lines before it go instead, so
			// the file does not end with one.
			start, end = afterLastContent(src, start), len(src)
		}
		return applyTOML(d, []Edit{d.edit(start, end, "")})
	case m.Value.Kind == jsonc.Object && !isInline(src, m.Value):
		// Made by dotted keys: each of its key-values goes.
		out := src
		var err error
		for _, c := range m.Value.Members() {
			if out, err = RemoveTOML(out, append(clonePath(path), c.Key.Str)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	// A key-value has its lines to itself (TOML allows one per line),
	// a trailing comment included.
	return applyTOML(d, []Edit{d.edit(lineStart(src, m.Span.Start), nextLine(src, m.Span.End), "")})
}

// afterLastContent moves start, the start of a line, back over the blank
// lines before it (CRLF or LF).
func afterLastContent(src []byte, start int) int {
	for start > 0 {
		end := start - 1 // the previous line's '\n'
		if end > 0 && src[end] == '\n' && src[end-1] == '\r' {
			end--
		}
		ls := lineStart(src, end)
		if !isBlank(src[ls:end]) {
			break
		}
		start = ls
	}
	return start
}

// replaceTOMLValue rewrites the value n as v, on one line.
func replaceTOMLValue(d *Document, n *jsonc.Node, v any) ([]byte, error) {
	return applyTOML(d, []Edit{d.edit(n.Span.Start, n.Span.End, convert.TOMLValue(v))})
}

// afterKeyValues is the end of the line of tbl's last key-value (its
// sub-tables and arrays of tables left out: their headers come after
// the key-values), at the latest.
func afterKeyValues(src []byte, tbl *jsonc.Node, at int) int {
	for _, m := range tbl.Members() {
		if m.Value.Kind == jsonc.Object && isHeader(src, m.Value) || isArrayOfTables(src, m.Value) {
			continue
		}
		at = max(at, lineEnd(src, m.Span.End))
	}
	return at
}

// isInline reports whether n is an inline table ({ ... }).
func isInline(src []byte, n *jsonc.Node) bool {
	return n.Kind == jsonc.Object && n.Span.Start < len(src) && src[n.Span.Start] == '{'
}

// isArrayOfTables reports whether n is an array of tables ([[header]]).
func isArrayOfTables(src []byte, n *jsonc.Node) bool {
	s := n.Span.Start
	return n.Kind == jsonc.Array && s+1 < len(src) && src[s] == '[' && src[s+1] == '[' && startsLine(src, s)
}

// ownHeader reports whether the table of member m has a [header] of its
// own (its key is the last segment of one), not only headers of its
// sub-tables.
func ownHeader(src []byte, m *jsonc.Member) bool {
	if m == nil || m.Key == nil || !isHeader(src, m.Value) {
		return false
	}
	at := skipBlanks(src, m.Key.Span.End)
	return at < len(src) && src[at] == ']'
}

// parseTOMLForEdit parses content, refusing a file with syntax errors.
func parseTOMLForEdit(content []byte) (*Document, error) {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		return nil, fmt.Errorf("%w: line %d: %s", ErrSyntax, strings.Count(string(content[:min(e.Span.Start, len(content))]), "\n")+1, e.Message)
	}
	return &Document{Path: "edit.toml", Content: content, Parsed: f}, nil
}

// checkTOML checks that out, an edit of d, holds what want makes of d's
// document: the edits here are textual, and TOML's table rules (a header
// takes the key-values after it) make a wrong place change the meaning
// of the file without breaking it.
func checkTOML(d *Document, out []byte, want func(root any) any) ([]byte, error) {
	f := toml.Parse(out)
	if len(f.Errors) > 0 {
		return nil, errors.New("internal error: the edit would break the file (" + f.Errors[0].Message + "); nothing written")
	}
	before, _ := NodeValue(d.Parsed.Root)
	after, _ := NodeValue(f.Root)
	if string(Canonical(after)) != string(Canonical(want(before))) {
		return nil, errors.New("internal error: the edit would change other keys of the file; nothing written")
	}
	return out, nil
}

// sameValue reports whether n holds v, keys in any order.
func sameValue(n *jsonc.Node, v any) bool {
	got, ok := NodeValue(n)
	return ok && string(Canonical(got)) == string(Canonical(v))
}

// Canonical is v as compact JSON with the keys of every object sorted:
// two values are the same document content exactly when their Canonical
// forms are equal (key order and formatting aside).
func Canonical(v any) []byte { return convert.RenderEntry(convert.Plain(v), "", "") }

// setIn returns x with the value at path set to v, objects created along
// the way; x itself is not modified.
func setIn(x any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	o, _ := x.(convert.Object)
	out := slices.Clone(o)
	for i, m := range out {
		if m.Key == path[0] {
			out[i].Value = setIn(m.Value, path[1:], v)
			return out
		}
	}
	return append(out, convert.Member{Key: path[0], Value: setIn(nil, path[1:], v)})
}

// deleteIn returns x without the value at path.
func deleteIn(x any, path []string) any {
	o, ok := x.(convert.Object)
	if !ok || len(path) == 0 {
		return x
	}
	out := convert.Object{}
	for _, m := range o {
		switch {
		case m.Key != path[0]:
			out = append(out, m)
		case len(path) > 1:
			out = append(out, convert.Member{Key: m.Key, Value: deleteIn(m.Value, path[1:])})
		}
	}
	return out
}
