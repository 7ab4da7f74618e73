package jsonc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// sameFile fails t unless got, from Reparse, is what Parse gave want: the
// same tree (kinds, spans, strings, Closed, colons, KeysUnique, indexes
// and parent links), errors, comments, trailing commas, BOM and
// duplicate-key facts.
func sameFile(t *testing.T, got, want *File) {
	t.Helper()
	if !bytes.Equal(got.Src, want.Src) {
		t.Fatalf("Src differs")
	}
	if g, w := dump(got), dump(want); g != w {
		t.Fatalf("Reparse differs from Parse of %q:\n%s", want.Src, lineDiff(g, w))
	}
	if got.sizes != want.sizes {
		t.Fatalf("sizes: got %+v, want %+v", got.sizes, want.sizes)
	}
	if got.keysChecked != want.keysChecked || got.keysRepeat != want.keysRepeat || got.parsed != want.parsed {
		t.Fatalf("facts: got checked %v repeat %v parsed %v, want %v %v %v",
			got.keysChecked, got.keysRepeat, got.parsed, want.keysChecked, want.keysRepeat, want.parsed)
	}
	if (got.Root == nil) != (want.Root == nil) {
		t.Fatalf("root: got %v, want %v", got.Root, want.Root)
	}
	if got.Root != nil {
		if got.Root.Parent != nil {
			t.Fatalf("root has a parent")
		}
		sameNode(t, got.Root, want.Root)
	}
	checkInvariants(t, got.Src, got)
}

// sameNode compares what dump leaves out: KeysUnique, index and links.
func sameNode(t *testing.T, got, want *Node) {
	t.Helper()
	if got.keysUnique != want.keysUnique || got.index() != want.index() || got.nkids != want.nkids {
		t.Fatalf("node %v: got unique %v index %d kids %d, want %v %d %d",
			want.Span, got.keysUnique, got.index(), got.nkids, want.keysUnique, want.index(), want.nkids)
	}
	for i, m := range got.Members() {
		if m.Key.Parent != got || m.Value.Parent != got || m.Key.Member() != m || m.Value.Member() != m {
			t.Fatalf("member %v is not linked to its object", m.Span)
		}
		sameNode(t, m.Key, want.Members()[i].Key)
		sameNode(t, m.Value, want.Members()[i].Value)
	}
	for i, e := range got.Elements() {
		if e.Parent != got {
			t.Fatalf("element %v is not linked to its array", e.Span)
		}
		sameNode(t, e, want.Elements()[i])
	}
}

func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}

// reparseDocs are the documents the random edits start from: the
// generated config (LF and CRLF), one with comments, trailing commas and
// non-ASCII text, and every seed of FuzzParse.
func reparseDocs(t *testing.T) map[string][]byte {
	t.Helper()
	mcp := benchgen.MCPJSON(12, true, true)
	docs := map[string][]byte{
		"mcp":      mcp,
		"mcp-crlf": bytes.ReplaceAll(mcp, []byte("\n"), []byte("\r\n")),
		"jsonc": []byte("\uFEFF{\r\n  // servers\r\n  \"mcpServers\": {\r\n    \"é\": {\"command\": \"naïve\", /* 😀 */ \"args\": [\"-y\", \"日本\",],},\r\n" +
			"    \"b\": {\"url\": \"https://x/\\u00e9\", \"env\": {\"K\": \"v\\n\"}, \"n\": [1, -2.5e3, true, null, {}]}\r\n  },\r\n}\r\n"),
	}
	seeds, err := filepath.Glob("testdata/fuzz/FuzzParse/*")
	if err != nil || len(seeds) == 0 {
		t.Fatalf("no FuzzParse seeds: %v", err)
	}
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		// A seed file is "go test fuzz v1" then []byte("...").
		var src []byte
		if _, err := fmt.Sscanf(string(bytes.SplitN(data, []byte("\n"), 2)[1]), "[]byte(%q)", &src); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !strings.HasPrefix(filepath.Base(s), "deep_") { // dump is quadratic in depth: see TestReparseDeep
			docs[filepath.Base(s)] = src
		}
	}
	return docs
}

// snippets are what the random edits type: the bytes that make and
// break JSON, line breaks of every kind, and multi-byte characters.
var snippets = []string{
	"x", "1", " ", "\n", "\r\n", "\r", "\t", `"`, `\`, `\"`, `\u00e9`, "'", ",", ":", "{", "}", "[", "]",
	"//", "/*", "*/", "é", "😀", "\xff", "true", "null", `"k": "v"`, `, "a": 1`, `{"x": [1, 2]}`, "\u2028",
}

// typed are snippets that often keep a valid document valid, as typing
// in a string or adding space does.
var typed = []string{"x", " ", "é", "😀", `\u00e9`, `\n`, "\r\n"}

// randomEdit returns src with one random change: a snippet typed, a few
// bytes deleted, or both, at a random place.
func randomEdit(r *rand.Rand, src []byte) []byte {
	at := r.IntN(len(src) + 1)
	del := 0
	if r.IntN(4) == 0 {
		del = min(r.IntN(6), len(src)-at)
	}
	ins := ""
	switch {
	case del > 0 && r.IntN(2) == 0:
	case r.IntN(2) == 0:
		ins = typed[r.IntN(len(typed))]
	default:
		ins = snippets[r.IntN(len(snippets))]
	}
	out := make([]byte, 0, len(src)+len(ins))
	out = append(out, src[:at]...)
	out = append(out, ins...)
	return append(out, src[at+del:]...)
}

// TestReparseIsParse chains random edits on each document, reparsing each
// version from the previous one's Reparse, and checks every result
// against Parse, and that old trees are left as they were. Once a version
// has a syntax error, the chain goes back to the document now and then,
// so many edits start from a valid file, and the test checks that many
// edits of the configs took the splice, with and without syntax errors:
// the equality is not merely that of two full parses.
func TestReparseIsParse(t *testing.T) {
	for name, doc := range reparseDocs(t) {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(doc))))
			src, old := doc, Parse(doc)
			spliced, withErrors := 0, 0
			for range 320 {
				if len(old.Errors) > 0 && r.IntN(3) == 0 {
					src, old = doc, Parse(doc)
				}
				next := randomEdit(r, src)
				before := dump(old)
				got := Reparse(old, next)
				if splice(old, next) != nil {
					spliced++
					if len(old.Errors) > 0 || len(got.Errors) > 0 {
						withErrors++
					}
				}
				if dump(old) != before {
					t.Fatalf("Reparse modified the old tree")
				}
				sameFile(t, got, Parse(next))
				src, old = next, got
			}
			if strings.HasPrefix(name, "mcp") && (spliced < 80 || withErrors < 30) {
				t.Errorf("%d of 320 edits of %s were spliced, %d with syntax errors; want 80 or more, 30 or more", spliced, name, withErrors)
			}
		})
	}
}

// respaced reports whether Reparse(old, next) takes the white-space path.
func respaced(old *File, next []byte) bool {
	pre, suf := span.CommonEnds(old.Src, next)
	return old.Root != nil && respace(old, next, pre, suf) != nil
}

// spaceEdit returns src with white space typed, deleted or replaced at a
// random place: between tokens (often), inside strings and comments, and
// across a line comment's end.
func spaceEdit(r *rand.Rand, src []byte) []byte {
	at := r.IntN(len(src) + 1)
	if r.IntN(2) == 0 { // move to a run of white space, if there is one after at
		if i := bytes.IndexAny(src[at:], " \t\r\n"); i >= 0 {
			at += i
		}
	}
	del := 0
	for at+del < len(src) && isSpace(src[at+del]) && r.IntN(3) != 0 {
		del++
	}
	ins := []string{"", " ", "  ", "\n", "\r\n", "\r", "\t", "\n    ", "\r\n\t "}[r.IntN(9)]
	if r.IntN(8) == 0 { // now and then a deletion of whatever is there
		del = min(r.IntN(3), len(src)-at)
	}
	out := make([]byte, 0, len(src)+len(ins))
	out = append(out, src[:at]...)
	out = append(out, ins...)
	return append(out, src[at+del:]...)
}

// TestReparseRespaceIsParse chains edits of white space on each document
// (at any place: between tokens, inside strings and comments, at a line
// comment's end; LF, CRLF and lone CR; around non-ASCII text and a BOM),
// checks every Reparse against Parse, and that many edits of the configs
// took the white-space path.
func TestReparseRespaceIsParse(t *testing.T) {
	for name, doc := range reparseDocs(t) {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(len(doc))))
			src, old := doc, Parse(doc)
			respacedN := 0
			for range 400 {
				if len(old.Errors) > 0 && r.IntN(3) == 0 {
					src, old = doc, Parse(doc)
				}
				next := spaceEdit(r, src)
				before := dump(old)
				if respaced(old, next) {
					respacedN++
				}
				got := Reparse(old, next)
				if dump(old) != before {
					t.Fatalf("Reparse modified the old tree")
				}
				sameFile(t, got, Parse(next))
				src, old = next, got
			}
			if (strings.HasPrefix(name, "mcp") || name == "jsonc") && respacedN < 150 {
				t.Errorf("%d of 400 edits of %s took the white-space path; want 150 or more", respacedN, name)
			}
		})
	}
}

// TestReparseRespace: white space typed between tokens anywhere is not
// parsed again, and what it must not cover is parsed.
func TestReparseRespace(t *testing.T) {
	const doc = "\uFEFF{\r\n  // é\r\n  \"a\": {\"b\": [1, \"x y\"], /* c */ \"d\": true}\r\n}\r\n"
	for _, c := range []struct {
		name, old, new string
		respaced       bool
	}{
		{"after the root", doc, doc + "\n", true},
		{"before the root", doc, strings.Replace(doc, "{", " {", 1), true},
		{"line break in a server", doc, strings.Replace(doc, `"b": [1,`, `"b": [1,`+"\n", 1), true},
		{"right after a token", doc, strings.Replace(doc, `[1,`, `[1 ,`, 1), true},
		{"space removed", doc, strings.Replace(doc, `"b": [`, `"b":[`, 1), true},
		{"CRLF to LF", doc, strings.Replace(doc, "}\r\n}", "}\n}", 1), true},
		{"inside a string", doc, strings.Replace(doc, `"x y"`, `"x  y"`, 1), false},
		{"space in a string removed", doc, strings.Replace(doc, `"x y"`, `"xy"`, 1), false},
		{"inside a comment", doc, strings.Replace(doc, `/* c */`, `/*  c */`, 1), false},
		{"at a line comment's end", doc, strings.Replace(doc, "é\r\n", "é \r\n", 1), false},
		{"line comment's end removed", doc, strings.Replace(doc, "é\r\n  ", "é", 1), false},
		{"before the BOM", doc, " " + doc, false},
		{"splits a literal", doc, strings.Replace(doc, "true", "tr ue", 1), false},
		{"old has an error", `{"a": 1,, "b": 2}`, `{"a": 1,, "b":  2}`, false},
		{"not white space", doc, strings.Replace(doc, "[1,", "[1,\f", 1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := Parse([]byte(c.old))
			if c.old == doc && len(old.Errors) > 0 {
				t.Fatalf("errors in the document: %v", old.Errors)
			}
			if got := respaced(old, []byte(c.new)); got != c.respaced {
				t.Errorf("respaced %v, want %v", got, c.respaced)
			}
			sameFile(t, Reparse(old, []byte(c.new)), Parse([]byte(c.new)))
		})
	}
}

// TestReparseTypingInAServer types into one server of a 200-server file,
// one character per version as a client sends them, CRLF and non-ASCII
// included, then a new argument through the syntax errors on the way:
// every version is spliced, and is Parse's.
func TestReparseTypingInAServer(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		text := strings.ReplaceAll(string(benchgen.MCPJSON(200, true, true)), "\n", eol)
		at := strings.Index(text, `"@example/server-100"`) + len(`"@example/server-100`)
		old := Parse([]byte(text))
		typed := ""
		for _, c := range []string{"-", "é", "x", "😀", `\"`, "/", "*"} {
			typed += c
			next := []byte(text[:at] + typed + text[at:])
			if splice(old, next) == nil {
				t.Fatalf("typing %q was not spliced", typed)
			}
			got := Reparse(old, next)
			sameFile(t, got, Parse(next))
			old = got
		}
		// Typing a new argument passes through invalid text: spliced
		// too, its errors those of Parse.
		text = text[:at] + typed + text[at:]
		at += len(typed) + len(`",`)
		errs := 0
		for i := range len(` "--v",`) {
			next := []byte(text[:at] + ` "--v",`[:i+1] + text[at:])
			if splice(old, next) == nil {
				t.Fatalf("typing %q after the package name was not spliced", ` "--v",`[:i+1])
			}
			got := Reparse(old, next)
			sameFile(t, got, Parse(next))
			errs += len(got.Errors)
			old = got
		}
		if errs == 0 || len(old.Errors) != 0 {
			t.Fatalf("%d errors while typing, %d at the end; want some, then none", errs, len(old.Errors))
		}
	}
}

// TestReparseFallsBack checks the cases Reparse leaves to Parse.
func TestReparseFallsBack(t *testing.T) {
	for _, c := range []struct{ name, old, new string }{
		{"old has an error", `{"a": {"b": 1,, "c": 2}}`, `{"a": {"b": 12,, "c": 2}}`},
		{"old repeats a key", `{"a": {"b": 1}, "a": {"b": 2}}`, `{"a": {"b": 12}, "a": {"b": 2}}`},
		{"change at the root", `{"a": {"b": 1}}`, `{"a": {"b": 1}, "c": 2}`},
		{"bracket edited", `{"a": {"b": 1}}`, `{"a": ["b", 1]}`},
		{"after the root", `{"a": {"b": 1}}` + "\n", `{"a": {"b": 1}}` + "\n\n"},
		{"new error", `{"a": {"b": 1}}`, `{"a": {"b": 1 2}}`},
		{"comment runs past the value", `{"a": {"b": 1}, "c": 2 /* x */}`, `{"a": {"b": 1 /*}, "c": 2 /* x */}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := Parse([]byte(c.old))
			if splice(old, []byte(c.new)) != nil {
				t.Errorf("spliced")
			}
			sameFile(t, Reparse(old, []byte(c.new)), Parse([]byte(c.new)))
		})
	}
	if f := Reparse(Skim([]byte(`{"a": {"b": 1}}`), [][]string{{"a"}}), []byte(`{"a": {"b": 2}}`)); !f.parsed {
		t.Errorf("a skimmed tree was spliced")
	}
}

// TestReparseDeep splices at the deepest level Parse builds, and falls
// back where an edit nests a value deeper than that.
func TestReparseDeep(t *testing.T) {
	deep := func(n int, inner string) []byte {
		return []byte(strings.Repeat(`{"a":`, n) + inner + strings.Repeat("}", n))
	}
	old := Parse(deep(MaxDepth, `"x"`))
	if len(old.Errors) > 0 {
		t.Fatalf("errors: %v", old.Errors)
	}
	next := deep(MaxDepth, `"xy"`)
	if splice(old, next) == nil {
		t.Fatalf("an edit at depth %d was not spliced", MaxDepth)
	}
	sameFile(t, Reparse(old, next), Parse(next))
	old = Parse(deep(MaxDepth-1, `{"b": 1}`))
	next = deep(MaxDepth-1, `{"b": {}}`)
	if splice(old, next) != nil {
		t.Fatalf("an edit nesting deeper than %d was spliced", MaxDepth)
	}
	sameFile(t, Reparse(old, next), Parse(next))
}

// FuzzReparse edits a document (deletes del bytes at at, inserts ins)
// and checks that Reparse from the old version's Parse is Parse of the
// new one.
func FuzzReparse(f *testing.F) {
	f.Add([]byte(`{"a": {"b": "c"}}`), uint(12), uint(0), []byte("x"))
	f.Add([]byte("{\r\n \"a\": [\"é\", {\"b\": 1}]\r\n}"), uint(10), uint(2), []byte("😀"))
	f.Add([]byte(`{"a": {"b": [1, 2,], /* c */ "d": null}}`), uint(14), uint(1), []byte(`"//`))
	f.Add(benchgen.MCPJSON(3, true, true), uint(200), uint(3), []byte(`\u00e9`))
	f.Add(benchgen.MCPJSON(3, true, true), uint(120), uint(0), []byte("\r\n  "))
	f.Add([]byte("{\"a\": [1, 2] // c\n}\n"), uint(13), uint(1), []byte(" "))
	f.Fuzz(func(t *testing.T, src []byte, at, del uint, ins []byte) {
		if len(src) > 1<<16 {
			return
		}
		a := int(at % uint(len(src)+1))
		d := int(del % uint(len(src)-a+1))
		next := append(append(append([]byte(nil), src[:a]...), ins...), src[a+d:]...)
		old := Parse(src)
		before := dump(old)
		sameFile(t, Reparse(old, next), Parse(next))
		if dump(old) != before {
			t.Fatalf("Reparse modified the old tree")
		}
	})
}

// splice is Reparse's path for a change inside one value alone (nil where
// it does not apply), for the tests that check which edits take it.
func splice(old *File, src []byte) *File {
	if old == nil || !old.parsed || old.Root == nil {
		return nil
	}
	pre, suf := span.CommonEnds(old.Src, src)
	if pre == len(old.Src) && pre == len(src) {
		return nil
	}
	return spliceChange(old, src, pre, suf)
}
