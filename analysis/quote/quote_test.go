package quote

import (
	"strconv"
	"testing"
)

func TestQuoteIsStrconv(t *testing.T) {
	for _, s := range []string{
		"", "npx", "@example/server-1", "a b", `a"b`, `a\b`, "tab\there", "nl\n", "\x00", "\x7f", "~",
		"é", "😀", "\xff", "a\u2028b", "ok!#$%&'()*+,-./:;<=>?@[]^_`{|}~",
	} {
		if got, want := String(s), strconv.Quote(s); got != want {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(Append([]byte("x"), s)), string(strconv.AppendQuote([]byte("x"), s)); got != want {
			t.Errorf("Append(%q) = %s, want %s", s, got, want)
		}
	}
	// Every single byte, alone and between letters.
	for c := 0; c < 256; c++ {
		for _, s := range []string{string(rune(c)), string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "z"} {
			if got, want := String(s), strconv.Quote(s); got != want {
				t.Errorf("String(%q) = %s, want %s", s, got, want)
			}
		}
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("npx")
	f.Add("a\"b\\c\x00é")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := String(s), strconv.Quote(s); got != want {
			t.Fatalf("String(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(Append(nil, s)), strconv.Quote(s); got != want {
			t.Fatalf("Append(%q) = %s, want %s", s, got, want)
		}
	})
}
