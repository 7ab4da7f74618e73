package lsp

import (
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
}
