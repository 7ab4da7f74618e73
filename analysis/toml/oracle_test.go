package toml

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gotoml "github.com/pelletier/go-toml/v2"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// The checks shared by the tests and the fuzz target: the tree is well
// formed, and it says what go-toml's decoder says.

// checkTree checks what every consumer of a jsonc tree relies on: spans
// inside the source, keys naming their own bytes, children linked to
// their parent (Path and Member work), members ordered by end so that
// File.NodeAt can search them, errors sorted and in bounds, and no
// internal error.
func checkTree(t *testing.T, src []byte, f *jsonc.File) {
	t.Helper()
	if f.Root == nil || f.Root.Kind != jsonc.Object {
		t.Fatalf("root = %+v, want an object", f.Root)
	}
	inBounds := func(s span.Span) bool { return 0 <= s.Start && s.Start <= s.End && s.End <= len(src) }
	for i, e := range f.Errors {
		if !inBounds(e.Span) {
			t.Errorf("error %d %+v: span out of bounds", i, e)
		}
		if e.Code == CodeInternal {
			t.Errorf("internal error: %s", e.Message)
		}
		if i > 0 && f.Errors[i-1].Span.Start > e.Span.Start {
			t.Errorf("errors not sorted: %v before %v", f.Errors[i-1].Span, e.Span)
		}
	}
	var walk func(n *jsonc.Node, depth int)
	walk = func(n *jsonc.Node, depth int) {
		if !inBounds(n.Span) {
			t.Fatalf("node %s at %v: span out of bounds (len %d)", n.Kind, n.Span, len(src))
		}
		if depth > jsonc.MaxDepth {
			t.Fatalf("tree deeper than %d", jsonc.MaxDepth)
		}
		for i, m := range n.Members() {
			if m.Key.Parent != n || m.Value.Parent != n || m.Key.Member() != m || m.Value.Member() != m {
				t.Fatalf("member %q of %v: not linked to its object", m.Key.Str, n.Span)
			}
			if !inBounds(m.Key.Span) || m.Key.Span.IsEmpty() {
				t.Fatalf("key %q: bad span %v", m.Key.Str, m.Key.Span)
			}
			if k := string(src[m.Key.Span.Start:m.Key.Span.End]); k[0] != '"' && k[0] != '\'' && k != m.Key.Str {
				t.Errorf("bare key %q spans %q", m.Key.Str, k)
			}
			if m.Span != m.Key.Span.Cover(m.Value.Span) {
				t.Errorf("member %q: span %v, want key %v to value %v", m.Key.Str, m.Span, m.Key.Span, m.Value.Span)
			}
			if i > 0 && n.Members()[i-1].Span.End > m.Span.End {
				t.Errorf("members of %v not ordered by end: %q before %q", n.Span, n.Members()[i-1].Key.Str, m.Key.Str)
			}
			if n.Get(m.Key.Str) != m {
				t.Errorf("key %q defined twice in one table", m.Key.Str)
			}
			walk(m.Value, depth+1)
		}
		for _, e := range n.Elements() {
			if e.Parent != n {
				t.Fatalf("element of %v: not linked to its array", n.Span)
			}
			walk(e, depth+1)
		}
	}
	walk(f.Root, 0)
}

// checkOracle checks that Parse and go-toml's decoder agree on whether src
// is valid TOML, and on its value when it is. (A leading byte order mark,
// which go-toml rejects and Parse skips, is removed first; documents Parse
// cuts for depth or error count are not compared.)
func checkOracle(t *testing.T, src []byte, f *jsonc.File) {
	t.Helper()
	for _, e := range f.Errors {
		if e.Code == jsonc.CodeTooDeep || e.Code == jsonc.CodeTooManyErrors {
			return
		}
	}
	var want map[string]any
	err := gotoml.Unmarshal(bytes.TrimPrefix(src, bom), &want)
	switch {
	case err != nil && len(f.Errors) == 0:
		t.Errorf("go-toml rejects the document (%v), Parse accepts it:\n%s", err, src)
	case err == nil && len(f.Errors) > 0:
		t.Errorf("go-toml accepts the document, Parse reports %v:\n%s", f.Errors, src)
	case err == nil:
		if got, want := render(decode(f.Root)), render(want); got != want {
			t.Errorf("values differ:\n got %s\nwant %s\nsource:\n%s", got, want, src)
		}
	}
}

// decode turns the tree into Go values the way go-toml's decoder does
// (int64, float64), dates as the text written.
func decode(n *jsonc.Node) any {
	switch n.Kind {
	case jsonc.Object:
		m := map[string]any{}
		for _, mm := range n.Members() {
			m[mm.Key.Str] = decode(mm.Value)
		}
		return m
	case jsonc.Array:
		a := []any{}
		for _, e := range n.Elements() {
			a = append(a, decode(e))
		}
		return a
	case jsonc.String:
		return n.Str
	case jsonc.Number:
		if i, err := strconv.ParseInt(n.Str, 10, 64); err == nil {
			return i
		}
		if strings.HasSuffix(n.Str, "nan") {
			return math.NaN()
		}
		f, _ := strconv.ParseFloat(n.Str, 64)
		return f
	case jsonc.True:
		return true
	case jsonc.False:
		return false
	}
	return fmt.Sprintf("<%s>", n.Kind)
}

// render prints a decoded value canonically: keys sorted, dates and times
// as "<date>" (Parse keeps their text, go-toml a typed value).
func render(v any) string {
	var b strings.Builder
	var r func(v any)
	r = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			b.WriteByte('{')
			for _, k := range keys {
				fmt.Fprintf(&b, "%q:", k)
				r(v[k])
				b.WriteByte(',')
			}
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for _, e := range v {
				r(e)
				b.WriteByte(',')
			}
			b.WriteByte(']')
		case gotoml.LocalDate, gotoml.LocalTime, gotoml.LocalDateTime, time.Time:
			b.WriteString("<date>")
		case string:
			if looksLikeDate(v) {
				b.WriteString("<date>")
			} else {
				fmt.Fprintf(&b, "%q", v)
			}
		case float64:
			if math.IsNaN(v) {
				b.WriteString("nan")
			} else {
				fmt.Fprintf(&b, "%gf", v)
			}
		default:
			fmt.Fprintf(&b, "%v", v)
		}
	}
	r(v)
	return b.String()
}

// looksLikeDate tells a date Parse kept as text from a string: only the
// oracle needs it, and a string that happens to look like a date compares
// as one on both sides.
func looksLikeDate(s string) bool {
	if len(s) < 5 {
		return false
	}
	return s[0] >= '0' && s[0] <= '9' && (s[2] == ':' || s[4] == '-') &&
		strings.Trim(s, "0123456789-:.TtZz+ ") == ""
}
