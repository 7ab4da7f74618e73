package jsonc

import (
	"fmt"
	"strconv"
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
		for _, m := range n.Members() {
			fmt.Fprintf(&b, "%s  member %v colon=%d\n", indent, m.Span, m.Colon)
			node(m.Key, indent+"    ")
			node(m.Value, indent+"    ")
		}
		for _, e := range n.Elements() {
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

// shape renders the recovered tree compactly, as JSON-like text: strings
// quoted (without the closing quote if unterminated), containers without
// their closing bracket if unclosed, "?" for a missing value and "!text"
// for an invalid one.
func shape(f *File) string {
	if f.Root == nil {
		return ""
	}
	var b strings.Builder
	var node func(n *Node)
	closer := func(n *Node, c byte) {
		if n.Closed {
			b.WriteByte(c)
		}
	}
	node = func(n *Node) {
		switch n.Kind {
		case Object:
			b.WriteByte('{')
			for i, m := range n.Members() {
				if i > 0 {
					b.WriteByte(',')
				}
				node(m.Key)
				b.WriteByte(':')
				node(m.Value)
			}
			closer(n, '}')
		case Array:
			b.WriteByte('[')
			for i, e := range n.Elements() {
				if i > 0 {
					b.WriteByte(',')
				}
				node(e)
			}
			closer(n, ']')
		case String:
			q := strconv.Quote(n.Str)
			if !n.Closed {
				q = q[:len(q)-1]
			}
			b.WriteString(q)
		case Number:
			b.WriteString(n.Str)
		case Invalid:
			if n.Span.IsEmpty() {
				b.WriteByte('?')
			} else {
				b.WriteString("!" + string(f.Src[n.Span.Start:n.Span.End]))
			}
		default:
			b.WriteString(n.Kind.String())
		}
	}
	node(f.Root)
	return b.String()
}

// errorList renders f's errors as `code [start,end) "text"`, one a line.
func errorList(f *File) string {
	var b strings.Builder
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "%s %v %q\n", e.Code, e.Span, f.Src[e.Span.Start:e.Span.End])
	}
	return b.String()
}
