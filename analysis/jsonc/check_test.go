package jsonc

import (
	"bytes"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// checkInvariants verifies the structural promises of Parse that hold for
// every input: spans in range and properly nested, parent links
// consistent, lists sorted, error spans non-empty except at the end.
func checkInvariants(t *testing.T, src []byte, f *File) {
	t.Helper()
	inRange := func(what string, s span.Span) {
		t.Helper()
		if s.Start < 0 || s.Start > s.End || s.End > len(src) {
			t.Fatalf("%s span %v out of range [0,%d]", what, s, len(src))
		}
	}
	if f.Root != nil {
		if f.Root.Parent != nil {
			t.Fatalf("root has a parent")
		}
		checkNode(t, f.Root, 0, inRange)
	}
	checkSorted(t, "comment", f.Comments, inRange)
	checkSorted(t, "trailing comma", f.TrailingCommas, inRange)
	for _, c := range f.TrailingCommas {
		if c.Len() != 1 || src[c.Start] != ',' {
			t.Fatalf("trailing comma %v is not a ','", c)
		}
	}
	for _, c := range f.Comments {
		if !bytes.HasPrefix(src[c.Start:], []byte("//")) && !bytes.HasPrefix(src[c.Start:], []byte("/*")) {
			t.Fatalf("comment %v does not start a comment", c)
		}
	}
	if len(f.Errors) > MaxErrors+1 {
		t.Fatalf("%d errors, more than MaxErrors+1", len(f.Errors))
	}
	end := lastTokenEnd(src, f)
	for i, e := range f.Errors {
		inRange("error", e.Span)
		if i > 0 && e.Span.Start < f.Errors[i-1].Span.Start {
			t.Fatalf("errors not sorted: %v", f.Errors)
		}
		if e.Code == "" || e.Message == "" {
			t.Fatalf("error without code or message: %+v", e)
		}
		if e.Span.IsEmpty() && e.Span.Start != end && !(end < e.Span.Start && endsUnterminatedString(src, e.Span.Start)) {
			t.Fatalf("empty error span %v is not at the end of the last token (%d): %s", e.Span, end, errString(src, e))
		}
	}
}

// checkNode checks n and its descendants: children inside n, in order,
// not overlapping, linked back to n; depth within MaxDepth.
func checkNode(t *testing.T, n *Node, depth int, inRange func(string, span.Span)) {
	t.Helper()
	inRange("node", n.Span)
	if depth > MaxDepth {
		t.Fatalf("node %v nested %d deep", n.Span, depth)
	}
	if n.Kind != Object && len(n.Members()) > 0 || n.Kind != Array && len(n.Elements()) > 0 {
		t.Fatalf("%s node %v has children of the wrong kind", n.Kind, n.Span)
	}
	within := func(outer, inner span.Span, what string) {
		t.Helper()
		if inner.Start < outer.Start || inner.End > outer.End {
			t.Fatalf("%s %v not within %v", what, inner, outer)
		}
	}
	prev := n.Span.Start
	for _, m := range n.Members() {
		inRange("member", m.Span)
		within(n.Span, m.Span, "member")
		within(m.Span, m.Key.Span, "key")
		within(m.Span, m.Value.Span, "value")
		if m.Span.Start < prev || m.Key.Span.End > m.Value.Span.Start {
			t.Fatalf("member %v overlaps its predecessor or key overlaps value", m.Span)
		}
		if m.Colon != -1 && (m.Colon < m.Key.Span.End || m.Colon >= m.Value.Span.Start) {
			t.Fatalf("colon %d not between key and value of %v", m.Colon, m.Span)
		}
		if m.Key.Kind != String || m.Key.Member() != m || m.Value.Member() != m {
			t.Fatalf("member %v: bad key kind or parent links", m.Span)
		}
		prev = m.Span.End
		checkNode(t, m.Key, depth+1, inRange)
		checkNode(t, m.Value, depth+1, inRange)
	}
	for i, e := range n.Elements() {
		within(n.Span, e.Span, "element")
		if e.Span.Start < prev || e.Parent != n || e.index() != i {
			t.Fatalf("element %v out of order or badly linked", e.Span)
		}
		prev = e.Span.End
		checkNode(t, e, depth+1, inRange)
	}
}

func checkSorted(t *testing.T, what string, spans []span.Span, inRange func(string, span.Span)) {
	t.Helper()
	for i, s := range spans {
		inRange(what, s)
		if i > 0 && s.Start < spans[i-1].End {
			t.Fatalf("%s spans overlap or are unsorted: %v", what, spans)
		}
	}
}

// lastTokenEnd returns the end of the last byte that is neither whitespace
// nor part of a comment (or after the BOM, if there is nothing else): where
// an error about the end of input belongs (unless an unterminated string
// ending in whitespace comes last).
func lastTokenEnd(src []byte, f *File) int {
	i := len(src)
	comments := f.Comments
	for i > 0 {
		if k := len(comments); k > 0 && comments[k-1].End >= i {
			i = comments[k-1].Start
			comments = comments[:k-1]
			continue
		}
		if c := src[i-1]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		i--
	}
	if f.BOM && i < len(bom) {
		return len(bom)
	}
	return i
}

// endsUnterminatedString reports whether offset may be the end of an
// unterminated string ending in whitespace: a quote precedes it on its line.
func endsUnterminatedString(src []byte, offset int) bool {
	line := src[bytes.LastIndexAny(src[:offset], "\r\n")+1 : offset]
	return bytes.ContainsAny(line, `"'`)
}

// walk calls fn on n and all its descendants, keys included.
func walk(n *Node, fn func(*Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, m := range n.Members() {
		walk(m.Key, fn)
		walk(m.Value, fn)
	}
	for _, e := range n.Elements() {
		walk(e, fn)
	}
}

// checkNavigation checks NodeAt and Find against every node: NodeAt at a
// node's start finds it (or a descendant), and Find(Pointer) finds it (or
// for a key, its value) unless a later duplicate key shadows the path. Only
// nodes near the root are checked: both checks cost the node's depth, so
// checking every level of a 1000-deep input would be quadratic and starve
// the fuzzer.
func checkNavigation(t *testing.T, f *File) {
	t.Helper()
	// want is what Find(n.Pointer()) must return, nil if shadowed.
	var visit func(n, want *Node, depth int)
	visit = func(n, want *Node, depth int) {
		if depth > 32 {
			return
		}
		if !n.Span.IsEmpty() {
			got := f.NodeAt(n.Span.Start)
			a := got
			for a != nil && a != n {
				a = a.Parent
			}
			if a == nil {
				t.Fatalf("NodeAt(%d) = %v, want %s %v or a descendant", n.Span.Start, got, n.Kind, n.Span)
			}
		}
		if ptr := n.Pointer(); want != nil && f.Root.Find(ptr) != want {
			t.Fatalf("Find(%q) = %v, want %s %v", ptr, f.Root.Find(ptr), want.Kind, want.Span)
		}
		for _, m := range n.Members() {
			v := m.Value
			if want == nil || n.Get(m.Key.Str) != m {
				v = nil
			}
			visit(m.Key, v, depth+1)
			visit(m.Value, v, depth+1)
		}
		for _, e := range n.Elements() {
			v := e
			if want == nil {
				v = nil
			}
			visit(e, v, depth+1)
		}
	}
	if f.Root != nil {
		visit(f.Root, f.Root, 0)
	}
}
