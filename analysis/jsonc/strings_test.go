package jsonc

import (
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

func TestSourceSpan(t *testing.T) {
	for _, tc := range []struct {
		src        string
		start, end int
		want       string
	}{
		{`{"a": "x\u0041y"}`, 1, 2, `\u0041`},
		{`{"a": "x\u0041y"}`, 0, 3, `x\u0041y`},
		{`{"a": "é\"z"}`, 0, 2, `é`},
		{`{"a": "é\"z"}`, 1, 3, `é\"`}, // a range inside a sequence takes all of it
		{`{"a": "\ud83d\ude00!"}`, 4, 5, `!`},
		{`{"a": "\ud83d\ude00!"}`, 0, 4, `\ud83d\ude00`},
	} {
		f := Parse([]byte(tc.src))
		n := f.Root.Members()[0].Value
		sp := n.SourceSpan([]byte(tc.src), tc.start, tc.end)
		if got := tc.src[sp.Start:sp.End]; got != tc.want {
			t.Errorf("%s [%d,%d): %q, want %q", tc.src, tc.start, tc.end, got, tc.want)
		}
	}
	// Out of range, empty or stale: the whole string.
	src := []byte(`{"a": "xyz"}`)
	n := Parse(src).Root.Members()[0].Value
	for _, r := range [][2]int{{2, 9}, {1, 1}, {-1, 2}} {
		if got := n.SourceSpan(src, r[0], r[1]); got != n.Span {
			t.Errorf("%v: %v, want the node's span", r, got)
		}
	}
	if got := n.SourceSpan([]byte(`{"a": "\"yzzy"}`), 0, 1); got != n.Span {
		t.Errorf("stale source: %v", got)
	}
}

func TestSourceSpan_UnquotedKey(t *testing.T) {
	src := `{command: 1}`
	k := Parse([]byte(src)).Root.Members()[0].Key
	if got := k.SourceSpan([]byte(src), 3, 7); got != span.New(4, 8) {
		t.Errorf("got %v", got)
	}
}
