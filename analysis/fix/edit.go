package fix

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Edit replaces the bytes of Span in the file at Path with NewText. An
// empty span is an insertion.
type Edit struct {
	Path    string
	Span    span.Span
	NewText string
}

// Create is a file to create with Content. It does not exist when the
// change is computed; the language server creates it empty and then
// inserts Content, which is what LSP resource operations can express.
type Create struct {
	Path    string
	Content []byte
}

// Change is everything one code action does: files to create, then edits
// to existing files. Edits are sorted by path, then position; edits of one
// file never overlap, and insertions at the same offset apply in order.
type Change struct {
	Creates []Create
	Edits   []Edit
}

// Paths returns the files the change touches, created ones first, each
// once.
func (c *Change) Paths() []string {
	var out []string
	for _, cr := range c.Creates {
		out = append(out, cr.Path)
	}
	for _, e := range c.Edits {
		if !slices.Contains(out, e.Path) {
			out = append(out, e.Path)
		}
	}
	return out
}

// EditsFor returns the edits of path, in order.
func (c *Change) EditsFor(path string) []Edit {
	var out []Edit
	for _, e := range c.Edits {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// sortEdits orders edits by path and start; the sort is stable, so
// insertions at one offset keep the order they were made in.
func sortEdits(es []Edit) {
	slices.SortStableFunc(es, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Span.Start, b.Span.Start))
	})
}

// overlaps reports whether a and b touch the same bytes of one file, or
// one inserts strictly inside what the other replaces. Two insertions at
// one offset, or an insertion at the edge of a replacement, do not
// overlap: their order is well defined.
func overlaps(a, b Edit) bool {
	if a.Path != b.Path {
		return false
	}
	if a.Span.IsEmpty() || b.Span.IsEmpty() {
		ins, other := a, b
		if !a.Span.IsEmpty() {
			ins, other = b, a
		}
		return other.Span.Start < ins.Span.Start && ins.Span.Start < other.Span.End
	}
	return a.Span.Start < b.Span.End && b.Span.Start < a.Span.End
}

// Apply returns content with edits applied. The edits must be of one file,
// sorted (see [Change]) and within content; an error says which is not.
// The language server does not need it (the editor applies edits); tests
// and [FixAll]'s checks do.
func Apply(content []byte, edits []Edit) ([]byte, error) {
	out := make([]byte, 0, len(content))
	at := 0
	for i, e := range edits {
		if e.Span.Start < at || e.Span.End < e.Span.Start || e.Span.End > len(content) {
			return nil, fmt.Errorf("edit %d %v: out of order or out of range (at %d of %d bytes)", i, e.Span, at, len(content))
		}
		out = append(out, content[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	return append(out, content[at:]...), nil
}
