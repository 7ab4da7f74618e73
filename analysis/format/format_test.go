package format

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// apply applies edits (sorted, non-overlapping, against src) to src.
func apply(t *testing.T, src []byte, edits []Edit) []byte {
	t.Helper()
	var out []byte
	last := 0
	for _, e := range edits {
		if e.Span.Start < last || e.Span.End < e.Span.Start || e.Span.End > len(src) {
			t.Fatalf("bad edit %+v after %d (len %d)", e, last, len(src))
		}
		out = append(out, src[last:e.Span.Start]...)
		out = append(out, e.NewText...)
		last = e.Span.End
	}
	return append(out, src[last:]...)
}

var tabs = Options{TabSize: 4}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		src  string
		opts Options
		want string
	}{{
		name: "tabs",
		src:  "{\n\"mcpServers\":{\n\"fs\":{\n\"command\":\"npx\",\n\"args\":[\"-y\",\"x\"]}}}\n",
		opts: tabs,
		want: "{\n\t\"mcpServers\": {\n\t\t\"fs\": {\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\":    [\"-y\", \"x\"]\n\t\t}\n\t}\n}\n",
	}, {
		name: "2 spaces",
		src:  "{\n\"mcpServers\":{\n\"fs\":{\n\"command\":\"npx\"}}}\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\"\n    }\n  }\n}\n",
	}, {
		name: "4 spaces",
		src:  "{\n\"mcpServers\":{\n\"fs\":{\n\"command\":\"npx\"}}}\n",
		opts: Options{TabSize: 4, InsertSpaces: true},
		want: "{\n    \"mcpServers\": {\n        \"fs\": {\n            \"command\": \"npx\"\n        }\n    }\n}\n",
	}, {
		name: "comments kept",
		src:  "{\n// the servers\n\"mcpServers\": { /* none yet */ }, // trailing\n}\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "{\n  // the servers\n  \"mcpServers\": { /* none yet */ }, // trailing\n}\n",
	}, {
		name: "CRLF kept",
		src:  "{\r\n\"a\":1,\r\n  \"b\" : [1,2]}\r\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "{\r\n  \"a\": 1,\r\n  \"b\": [1, 2]\r\n}\r\n",
	}, {
		name: "BOM kept",
		src:  "\xEF\xBB\xBF{\"a\":1}\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "\xEF\xBB\xBF{\"a\": 1}\n",
	}, {
		name: "unicode keys",
		src:  "{\"café\":1,\"日本\":\"値\",\"🙂\":true}\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "{\"café\": 1, \"日本\": \"値\", \"🙂\": true}\n",
	}, {
		name: "no final newline kept",
		src:  "{\"a\":1}",
		opts: tabs,
		want: "{\"a\": 1}",
	}, {
		name: "final newline inserted",
		src:  "{\"a\":1}",
		opts: Options{TabSize: 4, InsertFinalNewline: true},
		want: "{\"a\": 1}\n",
	}, {
		name: "tabs in strings untouched",
		src:  "{\"a\":{\"b\":\"\\tx\"}}\n",
		opts: Options{TabSize: 2, InsertSpaces: true},
		want: "{\"a\": {\"b\": \"\\tx\"}}\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			orig := bytes.Clone(src)
			got, ok := Format(src, tt.opts)
			if !ok {
				t.Fatal("not formatted")
			}
			if string(got) != tt.want {
				t.Errorf("Format =\n%q\nwant\n%q", got, tt.want)
			}
			if !bytes.Equal(src, orig) {
				t.Errorf("input modified: %q", src)
			}
			if again, _ := Format(got, tt.opts); !bytes.Equal(again, got) {
				t.Errorf("not idempotent:\n%q\n%q", got, again)
			}
			if e := Edits(got, tt.opts); len(e) != 0 {
				t.Errorf("already formatted, got edits %+v", e)
			}
			if res := apply(t, src, Edits(src, tt.opts)); string(res) != tt.want {
				t.Errorf("edits give\n%q\nwant\n%q", res, tt.want)
			}
		})
	}
}

func TestSyntaxErrorNoEdits(t *testing.T) {
	for _, src := range []string{
		`{"mcpServers": {"fs": {"command": "npx",}`,
		`{"a" 1}`,
		"",
		"// only a comment\n",
		"{\"a\": \"unterminated\n}",
	} {
		if _, ok := Format([]byte(src), tabs); ok {
			t.Errorf("%q: formatted", src)
		}
		if e := Edits([]byte(src), tabs); e != nil {
			t.Errorf("%q: edits %+v", src, e)
		}
	}
}

func TestMinimalEdits(t *testing.T) {
	// Only the two lines in need of formatting change; the rest is kept.
	src := "{\n  \"a\": 1,\n  \"b\":2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\":   5,\n}\n"
	edits := Edits([]byte(src), Options{TabSize: 2, InsertSpaces: true})
	if len(edits) != 2 {
		t.Fatalf("want 2 hunks, got %+v", edits)
	}
	for _, e := range edits {
		if strings.Count(src[e.Span.Start:e.Span.End], "\n") != 1 {
			t.Errorf("hunk %+v spans %q", e, src[e.Span.Start:e.Span.End])
		}
	}
	want := "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5,\n}\n"
	if got := apply(t, []byte(src), edits); string(got) != want {
		t.Errorf("got %q", got)
	}
}

// TestDiff checks on random line sequences that the edits rebuild the new
// text, touch only changed lines, and are minimal for simple cases.
func TestDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() []byte {
		var b []byte
		for range r.IntN(12) {
			b = append(b, "abcd"[r.IntN(4)], '\n')
		}
		if r.IntN(3) == 0 {
			b = append(b, 'z')
		}
		return b
	}
	for range 5000 {
		a, b := gen(), gen()
		edits := Diff(a, b)
		if got := apply(t, a, edits); !bytes.Equal(got, b) {
			t.Fatalf("Diff(%q, %q) = %+v gives %q", a, b, edits, got)
		}
		if bytes.Equal(a, b) && len(edits) != 0 {
			t.Fatalf("equal inputs, edits %+v", edits)
		}
		for i := 1; i < len(edits); i++ {
			if edits[i].Span.Start <= edits[i-1].Span.End && edits[i].Span.Start != edits[i-1].Span.End {
				t.Fatalf("overlap %+v", edits)
			}
		}
	}
	// One changed line in the middle is one one-line edit.
	a := []byte("1\n2\n3\n4\n5\n")
	b := []byte("1\n2\nX\n4\n5\n")
	if e := Diff(a, b); len(e) != 1 || e[0].Span.Start != 4 || e[0].Span.End != 6 || e[0].NewText != "X\n" {
		t.Errorf("got %+v", e)
	}
	// An insertion and a deletion far apart are two hunks.
	a = []byte("1\n2\n3\n4\n5\n6\n")
	b = []byte("1\nN\n2\n3\n4\n6\n")
	if e := Diff(a, b); len(e) != 2 {
		t.Errorf("got %+v", e)
	}
}

func TestDiffLarge(t *testing.T) {
	// Beyond the search bound the middle is one edit, still correct.
	var a, b bytes.Buffer
	for i := range 3 * maxEditDistance {
		a.WriteString(strings.Repeat("a", i%7) + "\n")
		b.WriteString(strings.Repeat("b", i%5) + "\n")
	}
	if got := apply(t, a.Bytes(), Diff(a.Bytes(), b.Bytes())); !bytes.Equal(got, b.Bytes()) {
		t.Fatal("large diff wrong")
	}
}
