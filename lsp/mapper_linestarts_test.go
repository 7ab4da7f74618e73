package lsp

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lineStarts finds a file's lines with the vectorized search when it has
// no carriage return, with a byte loop otherwise: both agree with the
// definition (a line ends after "\n", "\r\n" or a lone "\r").
func TestLineStartsBothWays(t *testing.T) {
	reference := func(s string) []uint32 {
		starts := []uint32{0}
		for i := 0; i < len(s); i++ {
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			if s[i] == '\n' || s[i] == '\r' {
				starts = append(starts, uint32(i+1))
			}
		}
		return starts
	}
	for _, s := range []string{
		"", "\n", "\n\n", "a", "a\n", "a\nb", "{\n  \"é\": 1\n}\n", strings.Repeat("x\n", 1000) + "tail",
		"\r", "a\r\nb", "a\rb\nc\r\n", "\r\n\r\n", strings.Repeat("日本\r\n", 100),
	} {
		if got, want := lineStarts([]byte(s)), reference(s); !slices.Equal(got, want) {
			t.Errorf("lineStarts(%q) = %v, want %v", s, got, want)
		}
	}
	// Random texts of short lines, long lines (which the vectorized
	// search takes over) and runs of line feeds, at every alignment.
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"\n", "\n\n", "x", "é日", strings.Repeat("y", 70), strings.Repeat("z", 7), "\r\n", "\r"}
	for n := range 3000 {
		var b strings.Builder
		for range r.IntN(40) {
			p := pieces[r.IntN(len(pieces))]
			if n%2 == 0 && strings.Contains(p, "\r") {
				p = "\n" // half the texts without a CR, the line-feed path's
			}
			b.WriteString(p)
		}
		s := b.String()
		if got, want := lineStarts([]byte(s)), reference(s); !slices.Equal(got, want) {
			t.Fatalf("lineStarts(%q) = %v, want %v", s, got, want)
		}
	}
}
