package jsonc

import (
	"fmt"
	"strings"
)

// dump renders f for comparisons and golden tests: the tree with kinds,
// spans, decoded strings and Closed, then comments, trailing commas and
// errors, each with the source text it covers.
func dump(f *File) string {
	var b strings.Builder
	if f.BOM {
		b.WriteString("bom\n")
	}
	var node func(n *Node, indent string)
	node = func(n *Node, indent string) {
		fmt.Fprintf(&b, "%s%s %v", indent, n.Kind, n.Span)
		if n.Kind == String || n.Kind == Number {
			fmt.Fprintf(&b, " %q", n.Str)
		}
		if (n.Kind == Object || n.Kind == Array || n.Kind == String) && !n.Closed {
			b.WriteString(" unclosed")
		}
		b.WriteByte('\n')
		for _, m := range n.Members {
			fmt.Fprintf(&b, "%s  member %v colon=%d\n", indent, m.Span, m.Colon)
			node(m.Key, indent+"    ")
			node(m.Value, indent+"    ")
		}
		for _, e := range n.Elements {
			node(e, indent+"  ")
		}
	}
	if f.Root != nil {
		node(f.Root, "")
	}
	for _, c := range f.Comments {
		fmt.Fprintf(&b, "comment %v %q\n", c, f.Src[c.Start:c.End])
	}
	for _, c := range f.TrailingCommas {
		fmt.Fprintf(&b, "trailing-comma %v\n", c)
	}
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "error %s\n", errString(f.Src, e))
	}
	return b.String()
}

// errString renders e with the source text it covers.
func errString(src []byte, e SyntaxError) string {
	return fmt.Sprintf("%s %v %q: %s", e.Code, e.Span, src[e.Span.Start:e.Span.End], e.Message)
}
