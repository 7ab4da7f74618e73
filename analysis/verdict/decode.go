package verdict

import (
	"encoding/json"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Decode converts a node to the value encoding/json would produce with
// UseNumber (maps, slices, strings, json.Number, bools, nil), without
// re-encoding the text: this is what schema validation consumes. Invalid
// nodes (recovered syntax errors) decode to nil. Duplicate keys keep the
// last value, as every tool does.
func Decode(n *jsonc.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case jsonc.Object:
		obj := make(map[string]any, len(n.Members()))
		for _, m := range n.Members() {
			if m.Key != nil {
				obj[m.Key.Str] = Decode(m.Value)
			}
		}
		return obj
	case jsonc.Array:
		arr := make([]any, len(n.Elements()))
		for i, e := range n.Elements() {
			arr[i] = Decode(e)
		}
		return arr
	case jsonc.String:
		return n.Str
	case jsonc.Number:
		return json.Number(n.Str)
	case jsonc.True:
		return true
	case jsonc.False:
		return false
	}
	return nil
}

// lastMembers returns the members of the object n that are the last with
// their key (the ones every tool reads), in file order.
func lastMembers(n *jsonc.Node) []*jsonc.Member {
	last := make(map[string]int, len(n.Members()))
	for i, m := range n.Members() {
		if m.Key != nil {
			last[m.Key.Str] = i
		}
	}
	out := make([]*jsonc.Member, 0, len(last))
	for i, m := range n.Members() {
		if m.Key != nil && last[m.Key.Str] == i {
			out = append(out, m)
		}
	}
	return out
}

// Widen returns the span to flag for a bad value: the value itself, or,
// for a one-byte value (0, 1, a bare digit), the whole "key": value member
// or the enclosing array, because a one-character squiggle is too easy to
// miss.
func Widen(n *jsonc.Node) span.Span {
	if n.Span.Len() >= 2 || n.Parent == nil {
		return n.Span
	}
	if m := n.Member(); m != nil {
		return m.Span
	}
	return n.Parent.Span
}

// DescribeKind names the kind of a value for messages: "an object", "a
// string", "null".
func DescribeKind(k jsonc.Kind) string {
	switch k {
	case jsonc.Object:
		return "an object"
	case jsonc.Array:
		return "an array"
	case jsonc.String:
		return "a string"
	case jsonc.Number:
		return "a number"
	case jsonc.True, jsonc.False:
		return "a boolean"
	case jsonc.Null:
		return "null"
	}
	return "a value"
}
