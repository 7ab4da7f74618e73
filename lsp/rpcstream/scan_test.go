package rpcstream

import (
	"math/rand/v2"
	"testing"
)

// TestStringEnd: the word-at-a-time stringEnd finds the closing quote a
// byte-by-byte reading finds, wherever the quotes and backslashes fall
// relative to the eight-byte words.
func TestStringEnd(t *testing.T) {
	naive := func(b []byte, start int) int {
		for i := start + 1; i < len(b); i++ {
			switch b[i] {
			case '"':
				return i
			case '\\':
				i++
			}
		}
		return len(b) - 1
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', '"', '\\', 0xc3, 0xa9, 0x00, 0xff, ' '}
	for range 20000 {
		b := make([]byte, 1+r.IntN(40))
		b[0] = '"'
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := stringEnd(b, 0), naive(b, 0); got != want {
			t.Fatalf("stringEnd(%q) = %d, want %d", b, got, want)
		}
	}
}
