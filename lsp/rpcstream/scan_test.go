package rpcstream

import (
	"math/rand/v2"
	"testing"
)

// TestStringEnd: the block-at-a-time stringEnd finds the closing quote a
// byte-by-byte reading finds, wherever the quotes and runs of backslashes
// fall relative to the 64-byte blocks and their eight-byte words
// (strings of up to 300 bytes, some with no quote but the first, some
// with runs of backslashes across a block's end).
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
	alphabet := []byte{'a', '"', '\\', 0xc3, 0xa9, 0x00, 0xff, ' ', '\\', '\\'}
	for n := range 60000 {
		b := make([]byte, 1+r.IntN(300))
		b[0] = '"'
		// Some strings have quotes in every few bytes, some in a few
		// hundred, some only after many backslashes.
		quotes := []int{2, 10, 60, 400}[n%4]
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[r.IntN(len(alphabet))]
			if b[i] == '"' && r.IntN(quotes) != 0 {
				b[i] = 'a'
			}
		}
		if n%7 == 0 { // a long run of backslashes somewhere
			at := r.IntN(len(b))
			for i := at; i < min(len(b), at+r.IntN(140)); i++ {
				b[i] = '\\'
			}
			b[0] = '"'
		}
		if got, want := stringEnd(b, 0), naive(b, 0); got != want {
			t.Fatalf("stringEnd(%q) = %d, want %d", b, got, want)
		}
	}
}
