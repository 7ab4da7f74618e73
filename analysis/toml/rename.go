package toml

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Renaming a key of a TOML document: unlike a JSON key, a TOML table is
// named wherever a header or a dotted key passes through it
// ([mcp_servers.fs] and [mcp_servers.fs.env], mcp_servers.fs.command = ...,
// fs.args = [...] under [mcp_servers], fs = { ... } inline), and the tree
// keeps only the segment that defined it. RenameKey finds every segment.

// KeyEdit replaces the bytes at Span with Text.
type KeyEdit struct {
	Span span.Span
	Text string
}

// bareKey is TOML 1.0's bare key: anything else must be quoted.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Key spells name as a TOML key: bare when TOML allows it, else quoted
// (String).
func Key(name string) string {
	if bareKey.MatchString(name) {
		return name
	}
	return String(name)
}

// String spells s as a TOML basic string: non-ASCII kept as is; quotes,
// backslashes and control characters escaped.
func String(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// KeySegments returns the span of every key segment of src that names the
// table or key at path (its last segment): in [headers] and [[headers]],
// in the keys of key-values (dotted or not, relative to the current
// table) and in inline tables. An error when src is not valid TOML: the
// segments after a syntax error cannot be placed.
func KeySegments(src []byte, path []string) ([]span.Span, error) {
	var out []span.Span
	err := walkKeys(src, func(full []string, sp span.Span) {
		if slices.Equal(full, path) {
			out = append(out, sp)
		}
	})
	return out, err
}

// KeySegmentAt returns the key segment of src under offset (its end
// included) and the full path of the table or key it names: on fs in
// [mcp_servers.fs.env], the span of fs and [mcp_servers fs]. ok is false
// elsewhere or when src is not valid TOML.
func KeySegmentAt(src []byte, offset int) (path []string, sp span.Span, ok bool) {
	err := walkKeys(src, func(full []string, s span.Span) {
		if !ok && s.ContainsInclusive(offset) {
			path, sp, ok = slices.Clone(full), s, true
		}
	})
	return path, sp, ok && err == nil
}

// walkKeys calls visit with the full path and the span of every key
// segment of src, in order.
func walkKeys(src []byte, visit func(path []string, sp span.Span)) error {
	base := 0
	if bytes.HasPrefix(src, bom) {
		base = len(bom)
	}
	var cur []string // the table key-values go to
	keys := func(prefix []string, it unstable.Iterator) []string {
		full := slices.Clone(prefix)
		for it.Next() {
			k := it.Node()
			full = append(full, string(k.Data))
			visit(full, rawSpan(base, k.Raw))
		}
		return full
	}
	var value func(prefix []string, v *unstable.Node)
	value = func(prefix []string, v *unstable.Node) {
		if v == nil || v.Kind != unstable.InlineTable {
			return
		}
		for it := v.Children(); it.Next(); {
			kv := it.Node()
			if kv.Kind != unstable.KeyValue {
				continue
			}
			value(keys(prefix, kv.Key()), kv.Value())
		}
	}
	var p unstable.Parser
	p.Reset(src[base:])
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			cur = keys(nil, e.Key())
		case unstable.KeyValue:
			value(keys(cur, e.Key()), e.Value())
		}
	}
	if err := p.Error(); err != nil {
		return fmt.Errorf("the file is not valid TOML (%v)", err)
	}
	return nil
}

// RenameKey returns the edits renaming the table or key at path to name
// everywhere src names it, checked: the document after the edits parses
// with no new error, has the value under the new name and nothing under
// the old one. An error says why not.
func RenameKey(src []byte, path []string, name string) ([]KeyEdit, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("nothing to rename")
	}
	segs, err := KeySegments(src, path)
	if err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("%s is not named in the file", strings.Join(path, "."))
	}
	edits := make([]KeyEdit, len(segs))
	for i, s := range segs {
		edits[i] = KeyEdit{Span: s, Text: Key(name)}
	}
	before := Parse(src)
	after := Parse(applyKeyEdits(src, edits))
	renamed := append(slices.Clone(path[:len(path)-1]), name)
	oldNode, newNode := before.Root.Lookup(path...), after.Root.Lookup(renamed...)
	switch {
	case len(after.Errors) > len(before.Errors):
		return nil, fmt.Errorf("renaming would break the file: %s", after.Errors[0].Message)
	case newNode == nil || after.Root.Lookup(path...) != nil:
		return nil, fmt.Errorf("renaming %s in this file could not be done safely", strings.Join(path, "."))
	case oldNode == nil || !sameShape(oldNode, newNode):
		return nil, fmt.Errorf("renaming %s in this file could not be done safely", strings.Join(path, "."))
	}
	return edits, nil
}

// sameShape reports whether a and b hold the same keys and values.
func sameShape(a, b *jsonc.Node) bool {
	if a.Kind != b.Kind || a.Str != b.Str || len(a.Members()) != len(b.Members()) || len(a.Elements()) != len(b.Elements()) {
		return false
	}
	for i := range a.Members() {
		if a.Members()[i].Key.Str != b.Members()[i].Key.Str || !sameShape(a.Members()[i].Value, b.Members()[i].Value) {
			return false
		}
	}
	for i := range a.Elements() {
		if !sameShape(a.Elements()[i], b.Elements()[i]) {
			return false
		}
	}
	return true
}

// applyKeyEdits applies non-overlapping edits to src.
func applyKeyEdits(src []byte, edits []KeyEdit) []byte {
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(a, b KeyEdit) int { return a.Span.Start - b.Span.Start })
	var out []byte
	at := 0
	for _, e := range sorted {
		out = append(out, src[at:e.Span.Start]...)
		out = append(out, e.Text...)
		at = e.Span.End
	}
	return append(out, src[at:]...)
}
