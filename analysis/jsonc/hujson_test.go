package jsonc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// crossCheck compares Parse with the hujson reference on src: where hujson
// accepts, Parse must report no error and build the identical File; where
// hujson rejects, Parse must report an error. The exceptions are the
// deliberate differences below, each excluded as narrowly as possible:
//
//  1. A leading BOM: hujson rejects it, Parse skips it. Compared on the
//     input without the BOM, offsets shifted.
//  2. Invalid UTF-8 inside strings: hujson accepts it (it validates
//     literals with encoding/json v1, which does not check UTF-8), Parse
//     reports invalid-utf8 because RFC 8259 requires UTF-8 and an editor
//     cannot show those bytes. The trees must still agree (both decode
//     each bad byte to U+FFFD).
//  3. Nesting deeper than MaxDepth: hujson has no limit, Parse skips it.
//  4. No value at all (empty, whitespace or comments only): hujson
//     rejects, Parse returns a nil Root without error; see File.Root.
//  5. A line comment ended by the end of input or by a lone CR: hujson
//     requires "\n", Parse ends a line comment at CR or LF like VS Code's
//     JSONC parser and the LSP line model, so after a lone CR Parse reads
//     code where hujson still reads comment.
//  6. U+2028 or U+2029 in a line comment: hujson rejects them (they end
//     lines in JavaScript); Parse treats them as comment text, as VS
//     Code's JSONC parser does.
func crossCheck(t *testing.T, src []byte) {
	t.Helper()
	f := Parse(src)
	body, shift := src, 0
	if f.BOM { // difference 1
		body, shift = src[len(bom):], len(bom)
	}
	if lineCommentEndsOddly(src, f) { // difference 5
		return
	}
	ref, err := ParseHuJSON(body)
	if err != nil {
		switch {
		case len(f.Errors) > 0:
		case f.Root == nil: // difference 4
		case lineCommentHasJSSeparator(src, f): // difference 6
		default:
			t.Fatalf("hujson rejects %q (%v), Parse accepts it", src, err)
		}
		return
	}
	for _, e := range f.Errors {
		switch {
		case e.Code == CodeTooDeep: // difference 3
			return
		case e.Code == CodeInvalidUTF8 && inString(f, e.Span): // difference 2
		default:
			t.Fatalf("hujson accepts %q, Parse reports %s", src, errString(src, e))
		}
	}
	shiftFile(ref, shift)
	ref.Src, ref.BOM, ref.Errors = src, f.BOM, f.Errors
	if got, want := dump(f), dump(ref); got != want {
		t.Fatalf("Parse and hujson disagree on %q\nParse:\n%s\nhujson:\n%s", src, got, want)
	}
}

// lineCommentEndsOddly reports whether a line comment in src is ended by
// something other than "\n" or "\r\n".
func lineCommentEndsOddly(src []byte, f *File) bool {
	for _, c := range f.Comments {
		if src[c.Start+1] != '/' {
			continue
		}
		rest := src[c.End:]
		if !bytes.HasPrefix(rest, []byte("\n")) && !bytes.HasPrefix(rest, []byte("\r\n")) {
			return true
		}
	}
	return false
}

func lineCommentHasJSSeparator(src []byte, f *File) bool {
	for _, c := range f.Comments {
		if src[c.Start+1] == '/' && bytes.ContainsAny(src[c.Start:c.End], "\u2028\u2029") {
			return true
		}
	}
	return false
}

// inString reports whether s lies inside a string (a key or a value).
func inString(f *File, s span.Span) bool {
	found := false
	walk(f.Root, func(n *Node) {
		found = found || n.Kind == String && n.Span.Start < s.Start && s.End <= n.Span.End
	})
	return found
}

// shiftFile moves every span in f by delta bytes.
func shiftFile(f *File, delta int) {
	move := func(s *span.Span) { s.Start += delta; s.End += delta }
	var node func(n *Node)
	node = func(n *Node) {
		move(&n.Span)
		for _, m := range n.Members() {
			move(&m.Span)
			m.Colon += delta
			node(m.Key)
			node(m.Value)
		}
		for _, e := range n.Elements() {
			node(e)
		}
	}
	if f.Root != nil {
		node(f.Root)
	}
	for i := range f.Comments {
		move(&f.Comments[i])
	}
	for i := range f.TrailingCommas {
		move(&f.TrailingCommas[i])
	}
}

func TestParseHuJSONDoesNotModifyInput(t *testing.T) {
	src := []byte(`{"a": /* c */ 1, // x` + "\n" + `"b": [true,],}`)
	orig := bytes.Clone(src)
	f, err := ParseHuJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, orig) {
		t.Fatalf("input modified")
	}
	want := `object [0,36)
  member [1,15) colon=4
    string [1,4) "a"
    number [14,15) "1"
  member [22,34) colon=25
    string [22,25) "b"
    array [27,34)
      true [28,32)
comment [6,13) "/* c */"
comment [17,21) "// x"
trailing-comma [32,33)
trailing-comma [34,35)
`
	if got := dump(f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCrossCheck runs crossCheck on inputs chosen to exercise both sides
// of every documented difference, and on inputs both parsers accept.
func TestCrossCheck(t *testing.T) {
	for _, src := range []string{
		// Both accept: the trees must be identical.
		`{"mcpServers": {"x": {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}}}}`,
		"{\r\n  // comment\r\n  \"a\": 1, /* block */\r\n  \"b\": [1, 2,],\r\n}\r\n",
		`[1, -0.5e+10, 0, true, false, null, "\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t", "\ud800", "\udc00\ud800x"]`,
		`{"a": 1, "a": 2}`, // duplicates are no syntax error
		"/**/1/**/",
		"{\"\u65e5\u672c\": \"\U0001F600\"} // \u00e9\n",
		"[\"\x7f\"]",
		"[\"a\xffb\"]",    // difference 2: error here, same tree
		"\uFEFF{\"a\":1}", // difference 1
		// hujson rejects.
		`{"a": 1 "b": 2}`, `{"a": }`, `[1,,2]`, `{,}`, `[,]`, `{"a":1}}`, `{a: 1}`, `['a']`,
		"[\"a\x01\"]", `"\x"`, `"\u12"`, `01`, `1.`, `-`, `+1`, `.5`, `1e`, `tru`, `/`, `/* x`,
		"[1] \x00", "/* \xff */ 1", "\"\xff\n", "{\"a\" 1}",
		"", " \n", "// c\n", "/* c */", // difference 4
		"1 // c", "[1, // c\r2]\n", // difference 5
		"1 // \u2028\n", // difference 6
	} {
		crossCheck(t, []byte(src))
	}
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) // difference 3
	crossCheck(t, []byte(deep))
}

// TestCrossCheckRandom cross-checks random valid JSONC documents, which
// byte-level fuzzing rarely produces: deep mixes of every kind of value,
// escape, comment, trailing comma and line ending. Each is also checked
// with one random byte edited, as while typing.
func TestCrossCheckRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edits := []byte(`{}[]:,"'/*\ a1-` + "\n\x00\xff")
	for range 2000 {
		var b []byte
		b = randomValue(r, b, 0)
		b = randomTrivia(r, b)
		if _, err := ParseHuJSON(b); err != nil {
			t.Fatalf("generated invalid JSONC %q: %v", b, err)
		}
		crossCheck(t, b)

		i := r.IntN(len(b))
		switch edited := bytes.Clone(b); r.IntN(3) {
		case 0:
			b = slices.Delete(edited, i, i+1)
		case 1:
			b = slices.Insert(edited, i, edits[r.IntN(len(edits))])
		default:
			edited[i] = edits[r.IntN(len(edits))]
			b = edited
		}
		checkInvariants(t, b, Parse(b))
		crossCheck(t, b)
	}
}

func randomValue(r *rand.Rand, b []byte, depth int) []byte {
	b = randomTrivia(r, b)
	k := r.IntN(8)
	if depth > 4 {
		k = r.IntN(6)
	}
	pick := func(choices ...string) []byte { return append(b, choices[r.IntN(len(choices))]...) }
	switch k {
	case 0:
		return pick("true", "false", "null")
	case 1:
		return pick("0", "-0", "12", "-3.25", "1e9", "2E-3", "0.5e+10", "123456789012345678901234567890")
	case 2, 3, 4, 5:
		return randomString(r, b)
	case 6:
		b = append(b, '[')
		n := r.IntN(4)
		for i := range n {
			if i > 0 {
				b = append(randomTrivia(r, b), ',')
			}
			b = randomValue(r, b, depth+1)
		}
		return append(randomTrailingComma(r, b, n > 0), ']')
	default:
		b = append(b, '{')
		n := r.IntN(4)
		for i := range n {
			if i > 0 {
				b = append(randomTrivia(r, b), ',')
			}
			b = randomString(r, randomTrivia(r, b))
			b = append(randomTrivia(r, b), ':')
			b = randomValue(r, b, depth+1)
		}
		return append(randomTrailingComma(r, b, n > 0), '}')
	}
}

func randomString(r *rand.Rand, b []byte) []byte {
	parts := []string{"a", "mcpServers", " ", "é", "日本", "😀", "\x7f", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
		`\u0000`, `\u00e9`, `\uD83D\uDE00`, `\ud800`, `\udc00\ud800`, `\uFFFF`, "//", "/*", "'", ",}]"}
	b = append(b, '"')
	for i, n := 0, r.IntN(5); i < n; i++ {
		b = append(b, parts[r.IntN(len(parts))]...)
	}
	return append(b, '"')
}

func randomTrivia(r *rand.Rand, b []byte) []byte {
	parts := []string{"", "", "", " ", "\n", "\r\n", "\t", "  ", "// c\n", "//\r\n", "/* c */", "/**/", "/* * / \n */", "// é 😀\n"}
	for i, n := 0, r.IntN(3); i < n; i++ {
		b = append(b, parts[r.IntN(len(parts))]...)
	}
	return b
}

// randomTrailingComma adds trivia and, after a non-empty list, maybe a
// trailing comma.
func randomTrailingComma(r *rand.Rand, b []byte, nonEmpty bool) []byte {
	b = randomTrivia(r, b)
	if nonEmpty && r.IntN(3) == 0 {
		b = randomTrivia(r, append(b, ','))
	}
	return b
}
