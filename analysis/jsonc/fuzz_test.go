package jsonc

import (
	"bytes"
	"testing"
)

// FuzzParse checks that Parse never panics, keeps its structural
// invariants, leaves its input alone, and agrees with hujson (crossCheck).
// The seed corpus in testdata/fuzz/FuzzParse holds the tricky cases, so a
// plain "go test" runs them all.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		file := Parse(src)
		if !bytes.Equal(src, orig) {
			t.Fatalf("Parse modified its input")
		}
		checkInvariants(t, src, file)
		if len(src) <= 1<<16 {
			checkNavigation(t, file)
		}
		crossCheck(t, src)
	})
}
