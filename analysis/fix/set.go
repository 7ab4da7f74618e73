package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/format"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Value-level edits of a whole JSON or JSONC file: set the value at a path
// of object keys, remove it, add a string to a list or take it out. They
// are what `mcp-lsp sync`, `enable` and `disable` (and the code actions
// built on them) write with, and they keep everything else of the file:
// comments, formatting, key order, line endings, a byte order mark and
// every key they were not asked to change.
//
// Each takes content and returns the new content; the caller turns the
// difference into an [Edit] with [DiffEdits]. Each refuses content that
// does not parse (a file the tools cannot read is the user's to mend; an
// edit into it could only guess) and checks that what it returns parses,
// so no caller ever writes a broken file. Content that is empty or only
// white space is a new file.
//
// A path names object keys from the root. Where a key is defined more
// than once, the last definition is the one every tool reads, so that is
// the one edited (RemoveJSON removes them all).

// ErrSyntax is returned (wrapped) for content that does not parse.
var ErrSyntax = errors.New("the file does not parse")

// SetJSON returns content with the value at path equal to v (as
// convert.RenderEntry takes it). A value that is already equal is left
// byte for byte. An object replacing an object is merged key by key, so
// comments and formatting inside it stay where its members stay; new keys
// go at its end. Missing objects along the path are created.
func SetJSON(content []byte, path []string, v any) ([]byte, error) {
	if len(path) == 0 {
		return nil, errors.New("set: empty path")
	}
	d, err := parseForEdit(content)
	if err != nil {
		return nil, err
	}
	root := d.parsed().Root
	if root == nil {
		l := DefaultLayout
		out := append(convert.RenderEntry(nestValue(path, v), l.Indent, l.Newline), l.Newline...)
		return append(bytes.Clone(content[:leadingBOM(content)]), out...), nil
	}
	obj := root
	for i, key := range path {
		if obj.Kind != jsonc.Object {
			return nil, fmt.Errorf("%s is not an object", pathName(path[:i]))
		}
		m := obj.Get(key)
		if m == nil {
			edits, ok := d.appendMembers(obj, []newMember{{key: key, value: nestValue(path[i+1:], v)}})
			if !ok {
				return nil, fmt.Errorf("cannot insert into %s", pathName(path[:i]))
			}
			return applyChecked(d, edits)
		}
		if i < len(path)-1 {
			obj = m.Value
			continue
		}
		if equalValue(m.Value, v) {
			return content, nil
		}
		if nv, ok := v.(convert.Object); ok && m.Value.Kind == jsonc.Object && m.Value.Closed {
			return mergeObject(content, path, m.Value, nv)
		}
		l := d.Layout()
		text := compact(convert.RenderEntry(v, "", "\n"))
		if startsLine(d.Content, m.Span.Start) {
			text = nest(convert.RenderEntry(v, l.Indent, l.Newline), l, indentAt(d.Content, m.Span.Start))
		}
		return applyChecked(d, []Edit{d.edit(m.Value.Span.Start, m.Value.Span.End, text)})
	}
	return content, nil // not reached: the loop returns at the last key
}

// mergeObject sets each member of nv under path, one at a time on the
// result of the last, then removes the members old has and nv does not.
func mergeObject(content []byte, path []string, old *jsonc.Node, nv convert.Object) ([]byte, error) {
	var gone []string
	for _, m := range old.Members() {
		if _, ok := nv.Get(m.Key.Str); !ok && !containsStr(gone, m.Key.Str) {
			gone = append(gone, m.Key.Str)
		}
	}
	out := content
	var err error
	for _, m := range nv {
		if out, err = SetJSON(out, append(clonePath(path), m.Key), m.Value); err != nil {
			return nil, err
		}
	}
	for _, k := range gone {
		if out, err = RemoveJSON(out, append(clonePath(path), k)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RemoveJSON returns content without the member at path (every definition
// of it). A path that is not there is no change.
func RemoveJSON(content []byte, path []string) ([]byte, error) {
	if len(path) == 0 {
		return nil, errors.New("remove: empty path")
	}
	out := content
	for {
		d, err := parseForEdit(out)
		if err != nil {
			return nil, err
		}
		obj := d.parsed().Root.Lookup(path[:len(path)-1]...)
		if obj == nil || obj.Kind != jsonc.Object {
			return out, nil
		}
		m := obj.Get(path[len(path)-1])
		if m == nil {
			return out, nil
		}
		i := indexOf(obj.Members(), m)
		edits := d.removeMember(obj, i)
		if len(obj.Members()) == 1 && obj.Closed && onlyBlanksAround(d, obj, m) {
			// The last member: the object becomes {}, not a brace pair
			// with the blank lines the member left.
			edits = []Edit{d.edit(obj.Span.Start, obj.Span.End, "{}")}
		}
		if out, err = applyChecked(d, edits); err != nil {
			return nil, err
		}
	}
}

// AddToJSONList returns content with item in the array of strings at path:
// appended when absent, the array created when missing. An item already
// there is no change.
func AddToJSONList(content []byte, path []string, item string) ([]byte, error) {
	d, err := parseForEdit(content)
	if err != nil {
		return nil, err
	}
	arr := d.parsed().Root.Lookup(path...)
	if arr == nil {
		return SetJSON(content, path, []any{item})
	}
	if arr.Kind != jsonc.Array {
		return nil, fmt.Errorf("%s is not a list", pathName(path))
	}
	for _, e := range arr.Elements() {
		if e.Kind == jsonc.String && e.Str == item {
			return content, nil
		}
	}
	if !arr.Closed {
		return nil, fmt.Errorf("%s is not a closed list", pathName(path))
	}
	src := d.Content
	if len(arr.Elements()) == 0 {
		return applyChecked(d, []Edit{d.edit(arr.Span.Start, arr.Span.End, "["+quote(item)+"]")})
	}
	last := arr.Elements()[len(arr.Elements())-1]
	comma, hasComma := d.commaAfter(last.Span.End)
	if !startsLine(src, last.Span.Start) {
		if hasComma {
			return applyChecked(d, []Edit{d.edit(comma+1, comma+1, " "+quote(item)+",")})
		}
		return applyChecked(d, []Edit{d.edit(last.Span.End, last.Span.End, ", "+quote(item))})
	}
	// After the rest of the last element's line, so a comment there
	// stays with it (as appendMembers does).
	after := last.Span.End
	if hasComma {
		after = comma + 1
	}
	at := lineEnd(src, after)
	if arr.Span.End-1 < at {
		at = after
	}
	if _, inside := d.commentAt(at); inside {
		at = after
	}
	text := d.Layout().Newline + indentAt(src, last.Span.Start) + quote(item)
	switch {
	case hasComma:
		return applyChecked(d, []Edit{d.edit(at, at, text+",")})
	case at == last.Span.End:
		return applyChecked(d, []Edit{d.edit(at, at, ","+text)})
	}
	return applyChecked(d, []Edit{d.edit(last.Span.End, last.Span.End, ","), d.edit(at, at, text)})
}

// RemoveFromJSONList returns content without item (every occurrence) in
// the array at path. A list that is missing or lacks item is no change;
// a list left empty stays, as [].
func RemoveFromJSONList(content []byte, path []string, item string) ([]byte, error) {
	out := content
	for {
		d, err := parseForEdit(out)
		if err != nil {
			return nil, err
		}
		arr := d.parsed().Root.Lookup(path...)
		if arr == nil {
			return out, nil
		}
		if arr.Kind != jsonc.Array {
			return nil, fmt.Errorf("%s is not a list", pathName(path))
		}
		i := -1
		for j, e := range arr.Elements() {
			if e.Kind == jsonc.String && e.Str == item {
				i = j
			}
		}
		if i < 0 {
			return out, nil
		}
		if len(arr.Elements()) == 1 {
			out, err = applyChecked(d, []Edit{d.edit(arr.Span.Start, arr.Span.End, "[]")})
		} else {
			out, err = applyChecked(d, d.removeElement(arr, i))
		}
		if err != nil {
			return nil, err
		}
	}
}

// JSONList returns the strings of the array at path, and whether there is
// an array there.
func JSONList(content []byte, path []string) ([]string, bool) {
	f := jsonc.Parse(content)
	arr := f.Root.Lookup(path...)
	if arr == nil || arr.Kind != jsonc.Array {
		return nil, false
	}
	var out []string
	for _, e := range arr.Elements() {
		if e.Kind == jsonc.String {
			out = append(out, e.Str)
		}
	}
	return out, true
}

// LookupJSON returns the value at path in content's parse, nil when the
// content does not parse or the path is not there.
func LookupJSON(content []byte, path []string) *jsonc.Node {
	f := jsonc.Parse(content)
	if len(f.Errors) > 0 {
		return nil
	}
	return f.Root.Lookup(path...)
}

// DiffEdits is the edits of the file at path that turn old into new, nil
// when they are equal: the lines between their common prefix and suffix
// compared line by line (format.Diff), each hunk of changed lines then
// narrowed to the bytes that differ. A table merged key by key changes
// lines apart from each other; the lines between them are not rewritten,
// so an editor keeps its markers there and a diff shows only what
// changed. Every change these functions make is local, so the region
// compared is small.
func DiffEdits(path string, old, new []byte) []Edit {
	if bytes.Equal(old, new) {
		return nil
	}
	whole := minimalEdit(path, old, new)
	start := lineStart(old, whole.Span.Start)
	end := nextLine(old, max(whole.Span.End-1, whole.Span.Start))
	if whole.Span.End == whole.Span.Start {
		end = whole.Span.End
	}
	// The same region of new: what precedes start and follows end is
	// common to both.
	region := new[start : len(new)-(len(old)-end)]
	var out []Edit
	for _, h := range format.Diff(old[start:end], region) {
		e := minimalEdit(path, old[start+h.Span.Start:start+h.Span.End], []byte(h.NewText))
		e.Span = span.New(start+h.Span.Start+e.Span.Start, start+h.Span.Start+e.Span.End)
		out = append(out, e)
	}
	if len(out) == 0 {
		return []Edit{whole}
	}
	return out
}

// parseForEdit parses content for editing, refusing syntax errors.
func parseForEdit(content []byte) (*Document, error) {
	d := &Document{Path: "edit.json", Content: content}
	f := d.parsed()
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		return nil, fmt.Errorf("%w: line %d: %s", ErrSyntax, bytes.Count(content[:min(e.Span.Start, len(content))], []byte("\n"))+1, e.Message)
	}
	if f.Root != nil && f.Root.Kind != jsonc.Object {
		return nil, errors.New("the file does not hold a JSON object")
	}
	return d, nil
}

// applyChecked applies edits to d and checks the result still parses.
func applyChecked(d *Document, edits []Edit) ([]byte, error) {
	sortEdits(edits)
	out, err := Apply(d.Content, edits)
	if err != nil {
		return nil, err
	}
	if f := jsonc.Parse(out); len(f.Errors) > 0 {
		return nil, fmt.Errorf("internal error: the edit would break the file (%s); nothing written", f.Errors[0].Message)
	}
	return out, nil
}

// nestValue wraps v in one object per key of path: {"a": {"b": v}}.
func nestValue(path []string, v any) any {
	for i := len(path) - 1; i >= 0; i-- {
		v = convert.Object{{Key: path[i], Value: v}}
	}
	return v
}

// equalValue reports whether node n holds the same JSON value as v:
// the same members in the same order, the same strings after decoding.
func equalValue(n *jsonc.Node, v any) bool {
	got, ok := NodeValue(n)
	if !ok {
		return false
	}
	return bytes.Equal(convert.RenderEntry(got, "", ""), convert.RenderEntry(v, "", ""))
}

// NodeValue converts a parsed value to the form convert.RenderEntry
// takes (convert.Object, []any, string, json.Number as string digits,
// bool, nil). Of duplicate keys the last wins, as every tool reads.
func NodeValue(n *jsonc.Node) (any, bool) {
	if n == nil {
		return nil, false
	}
	switch n.Kind {
	case jsonc.Object:
		o := convert.Object{}
		for _, m := range n.Members() {
			if m.Key == nil || n.Get(m.Key.Str) != m {
				continue
			}
			v, ok := NodeValue(m.Value)
			if !ok {
				return nil, false
			}
			o = append(o, convert.Member{Key: m.Key.Str, Value: v})
		}
		return o, true
	case jsonc.Array:
		out := make([]any, 0, len(n.Elements()))
		for _, e := range n.Elements() {
			v, ok := NodeValue(e)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case jsonc.String:
		return n.Str, true
	case jsonc.Number:
		return json.Number(n.Str), true
	case jsonc.True:
		return true, true
	case jsonc.False:
		return false, true
	case jsonc.Null:
		return nil, true
	}
	return nil, false
}

func pathName(path []string) string {
	if len(path) == 0 {
		return "the top level"
	}
	return quote(strings.Join(path, "."))
}

func leadingBOM(content []byte) int {
	if bytes.HasPrefix(content, []byte("\xef\xbb\xbf")) {
		return 3
	}
	return 0
}

func clonePath(p []string) []string { return append([]string(nil), p...) }

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func indexOf(ms []*jsonc.Member, m *jsonc.Member) int {
	for i, x := range ms {
		if x == m {
			return i
		}
	}
	return -1
}

// CheckJSON returns the error SetJSON would give for content that cannot
// be edited (syntax errors, not an object), nil when it can.
func CheckJSON(content []byte) error {
	_, err := parseForEdit(content)
	return err
}

// onlyBlanksAround reports whether obj holds nothing but its member m and
// white space (no comment to keep).
func onlyBlanksAround(d *Document, obj *jsonc.Node, m *jsonc.Member) bool {
	before := d.Content[obj.Span.Start+1 : m.Span.Start]
	after := d.Content[m.Span.End : obj.Span.End-1]
	after = bytes.TrimLeft(after, " \t\r\n")
	after = bytes.TrimPrefix(after, []byte(","))
	return len(bytes.TrimSpace(before)) == 0 && len(bytes.TrimSpace(after)) == 0
}
