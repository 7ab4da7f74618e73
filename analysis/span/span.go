// Package span defines byte-offset ranges, the only position type the pure
// analysis layer knows about.
//
// Analysis never thinks in lines or UTF-16 code units: those are wire
// concerns, converted in exactly one place (see the lsp package's mapper).
// Keeping analysis in byte offsets makes it cheap, testable without an
// editor, and immune to the CRLF / surrogate-pair class of bugs.
package span

import "fmt"

// Span is a half-open byte range [Start, End) into a document's content.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// New returns the span [start, end).
func New(start, end int) Span { return Span{Start: start, End: end} }

// Len is the number of bytes covered.
func (s Span) Len() int { return s.End - s.Start }

// IsEmpty reports whether the span covers no bytes (an insertion point).
func (s Span) IsEmpty() bool { return s.End <= s.Start }

// Contains reports whether offset lies in the span. An empty span contains
// its own start, so a cursor at an insertion point still "hits" it.
func (s Span) Contains(offset int) bool {
	if s.IsEmpty() {
		return offset == s.Start
	}
	return s.Start <= offset && offset < s.End
}

// ContainsInclusive is Contains but also true at End: a cursor right after
// the last character of a token is still "on" it for hover and completion.
func (s Span) ContainsInclusive(offset int) bool {
	return s.Start <= offset && offset <= s.End
}

// Cover returns the smallest span containing both s and t.
func (s Span) Cover(t Span) Span {
	return Span{Start: min(s.Start, t.Start), End: max(s.End, t.End)}
}

func (s Span) String() string { return fmt.Sprintf("[%d,%d)", s.Start, s.End) }
