package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestChangeSpanIsTheWholeTextMappers: converting an incremental change's
// range from the lines it is on only gives what a Mapper of the whole
// text gives (the offsets, or the same error), in both position
// encodings, on texts with non-ASCII and astral characters, long lines,
// empty lines, a final line with and without its line feed, and texts
// with CRLF and lone CRs (converted whole); positions past a line's end,
// lines past the last, and ranges that end before they start included.
func TestChangeSpanIsTheWholeTextMappers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	long := strings.Repeat("ab😀é", 120) // a line of more than checkpointStride bytes
	pieces := []string{"x", "é", "😀", "日本", " ", "\n", "\n", "\n\n", long, "\xff", "\t"}
	for _, enc := range []Encoding{EncodingUTF16, EncodingUTF8} {
		s := &Server{encoding: enc}
		for n := range 400 {
			var b strings.Builder
			for range r.IntN(60) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			if n%5 == 0 {
				b.WriteString([]string{"\r\n", "\r", "a\rb"}[n%3])
			}
			content := []byte(b.String())
			lines := strings.Count(b.String(), "\n") + 1
			pos := func() protocol.Position {
				return protocol.Position{Line: uint32(r.IntN(lines + 2)), Character: uint32(r.IntN(30) * r.IntN(30))}
			}
			for range 30 {
				rng := protocol.Range{Start: pos(), End: pos()}
				if r.IntN(3) > 0 { // most ranges on one line, as a keystroke's
					rng.End = protocol.Position{Line: rng.Start.Line, Character: rng.Start.Character + uint32(r.IntN(3))}
				}
				m := s.newMapper(content)
				want, wantErr := m.Span(clampRange(m, rng))
				got, err := s.changeSpan(content, rng)
				if got != want || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Fatalf("%s: changeSpan(%q, %v) = %v, %v; want %v, %v", enc, content, rng, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestLineFeedsAfter counts line feeds across the blocks it counts by.
func TestLineFeedsAfter(t *testing.T) {
	text := []byte(strings.Repeat("a\n", 5000) + "tail")
	for _, c := range []struct{ from, n, want int }{
		{0, 0, 0}, {0, 1, 2}, {0, 5000, 10000}, {3, 1, 4}, {4095, 1, 4096}, {4096, 2048, 8192}, {9999, 1, 10000},
	} {
		if got, ok := lineFeedsAfter(text, c.from, c.n); !ok || got != c.want {
			t.Errorf("lineFeedsAfter(%d, %d) = %d, %v; want %d", c.from, c.n, got, ok, c.want)
		}
	}
	if _, ok := lineFeedsAfter(text, 0, 5001); ok {
		t.Errorf("found a 5001st line feed")
	}
	if _, ok := lineFeedsAfter(text, 10000, 1); ok {
		t.Errorf("found a line feed in the tail")
	}
}
