package toml

import (
	"bytes"
	"testing"
)

// FuzzParse checks that Parse never panics or reports an internal error,
// leaves its input alone, builds a well-formed tree (checkTree), and
// agrees with go-toml's decoder on validity and values (checkOracle). The
// seed corpus in testdata/fuzz/FuzzParse holds the tricky cases (broken
// expressions to recover from, spread tables, deep nesting, CRLF, BOM,
// unicode and quoted keys), so a plain "go test" runs them all.
func FuzzParse(f *testing.F) {
	f.Add([]byte(nyzhiConfig))
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		file := Parse(src)
		if !bytes.Equal(src, orig) {
			t.Fatal("Parse modified its input")
		}
		checkTree(t, src, file)
		checkOracle(t, src, file)
	})
}
