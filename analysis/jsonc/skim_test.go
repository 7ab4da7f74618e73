package jsonc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// skimKeep is the keep list of the tests: the shape of ~/.claude.json's,
// plus short keys the fuzzer finds easily.
var skimKeep = [][]string{
	{"mcpServers"},
	{"projects", "*", "mcpServers"},
	{"projects", "*", "enabledMcpjsonServers"},
	{"a"},
	{"b", "*", "c"},
}

// pruned is the oracle of Skim: Parse's tree without the members Skim
// leaves out, which are decided here independently of the scanner: off the
// kept paths, and strict JSON by encoding/json's validator (plus valid
// UTF-8 and the parser's depth limit, which it does not check).
func pruned(src []byte, keep [][]string) *File {
	f := Parse(src)
	s := &skimmer{keep: keep}
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		if n.Kind != Object {
			return
		}
		var kept []*Member
		for _, m := range n.Members() {
			keepIt, filter := s.decide(m.Key.Str)
			text := src[m.Value.Span.Start:m.Value.Span.End]
			if !keepIt && m.Colon >= 0 && json.Valid(text) && utf8.Valid(text) && nesting(text) <= MaxDepth-depth &&
				!errorIn(f, m.Colon, m.Value.Span.Start) {
				continue
			}
			kept = append(kept, m)
			if keepIt && filter {
				s.path = append(s.path, m.Key.Str)
				walk(m.Value, depth+1)
				s.path = s.path[:len(s.path)-1]
			}
		}
		n.setMembers(kept)
	}
	if f.Root != nil {
		walk(f.Root, 1)
	}
	return f
}

// errorIn reports whether f's text in [start, end) holds more than the
// colon, whitespace and comments: junk between a colon and its value.
func errorIn(f *File, start, end int) bool {
	for i := start + 1; i < end; i++ {
		if isSpace(f.Src[i]) {
			continue
		}
		inComment := false
		for _, c := range f.Comments {
			if c.Start <= i && i < c.End {
				inComment, i = true, c.End-1
				break
			}
		}
		if !inComment {
			return true
		}
	}
	return false
}

// nesting is the deepest nesting of brackets in valid JSON text.
func nesting(text []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

func checkSkim(t *testing.T, src []byte) {
	t.Helper()
	orig := bytes.Clone(src)
	got := Skim(src, skimKeep)
	if !bytes.Equal(src, orig) {
		t.Fatalf("Skim modified its input")
	}
	checkInvariants(t, src, got)
	if g, w := dump(got), dump(pruned(src, skimKeep)); g != w {
		t.Fatalf("Skim differs from the pruned Parse of %q\n--- skim\n%s--- want\n%s", src, g, w)
	}
}

func TestSkim(t *testing.T) {
	for _, src := range []string{
		`{"history": [1, {"x": "y"}], "mcpServers": {"s": {"command": "npx"}}}`,
		`{"projects": {"/p": {"history": ["a", "b"], "mcpServers": {"x": {"url": "u"}}, "enabledMcpjsonServers": ["x"], "n": 1}}}`,
		"{\"history\": [1, // a comment is Parse's business\n 2], \"mcpServers\": {}}",
		`{"history": [1, 2,], "mcpServers": {}}`,
		`{"history": "bad \q escape", "mcpServers": {}}`,
		`{"history": 01, "mcpServers": {}}`,
		`{"history": trueish, "a": 1}`,
		"{\"history\": \"tab\there\", \"a\": 1}",
		"{\"history\": \"\xff\", \"a\": 1}",
		`{"history": "\ud800 lone surrogate is fine", "a": 1}`,
		`{"history": {"x": [1, 2, {"y": null}]}, "a": [true, false]}`,
		`{"history": {"x": [1, 2, {"y": null}]}`,
		`{"history" {"x": 1}, "a": 2}`,
		`{"history": , "a": 2}`,
		`{"a": 1, "history": 2 "b": {"z": {"c": 3, "d": 4}}}`,
		`{"b": {"z": {"c": 3, "d": 4}, "y": []}}`,
		`[{"history": 1}]`,
		`{"mcpServers": {"history": [1]}}`,
		`{"h": ` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `, "a": 1}`,
		`{"h": "\u00e9t\u00E9", "a": -1.5e+3}`,
		"\uFEFF{\"h\": 1}",
		`{"h": 1}{"a": 2}`,
		`{"h": [1, 2`,
	} {
		t.Run("", func(t *testing.T) { checkSkim(t, []byte(src)) })
	}
}

// TestSkimLeavesOut: the point of Skim, checked directly rather than
// against the oracle.
func TestSkimLeavesOut(t *testing.T) {
	src := []byte(`{"history": [{"display": "a prompt"}], "mcpServers": {"s": {}}, "projects": {"/p": {"history": [], "mcpServers": {"t": {}}}}}`)
	f := Skim(src, skimKeep)
	if len(f.Errors) != 0 || len(f.Root.Members()) != 2 {
		t.Fatalf("errors %v, members %d; want only mcpServers and projects", f.Errors, len(f.Root.Members()))
	}
	p := f.Root.Get("projects").Value.Get("/p").Value
	if len(p.Members()) != 1 || p.Members()[0].Key.Str != "mcpServers" {
		t.Fatalf("project keeps %d members", len(p.Members()))
	}
	if got := string(src[p.Members()[0].Span.Start:p.Members()[0].Span.End]); got != `"mcpServers": {"t": {}}` {
		t.Fatalf("kept member spans %q", got)
	}
}

// TestSkimCorpus runs the oracle over Parse's fuzz corpus.
func TestSkimCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParse", "*"))
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src, ok := corpusBytes(data)
		if !ok {
			t.Fatalf("%s: not a corpus file", name)
		}
		t.Run(filepath.Base(name), func(t *testing.T) { checkSkim(t, src) })
	}
}

// corpusBytes decodes a "go test fuzz v1" file holding one []byte.
func corpusBytes(data []byte) ([]byte, bool) {
	lines := strings.SplitN(string(data), "\n", 2)
	if len(lines) < 2 || lines[0] != "go test fuzz v1" {
		return nil, false
	}
	var s string
	if _, err := fmt.Sscanf(strings.TrimSpace(lines[1]), "[]byte(%q)", &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// FuzzSkim checks Skim against its oracle.
func FuzzSkim(f *testing.F) {
	f.Add([]byte(`{"history": [1], "a": {"b": 2}, "b": {"x": {"c": 1, "d": [2]}}}`))
	f.Fuzz(func(t *testing.T, src []byte) { checkSkim(t, src) })
}

// claudeJSON returns a ~/.claude.json the shape Claude Code writes
// (JSON.stringify with two-space indentation): a few user servers, and
// projects each with its prompt history of entries of about 2 KB (escapes
// and non-ASCII text included), a server and approval keys. 70 projects of
// 500 entries make the 69 MB file of issue 11.
func claudeJSON(projects, entries int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"numStartups\": 412,\n  \"mcpServers\": {\n    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://api.githubcopilot.com/mcp/\"\n    }\n  },\n  \"projects\": {\n")
	prompt := strings.Repeat(`Refactor the parser so that it \"never\" gives up; keep the café's spans.\n`, 26)
	for p := range projects {
		fmt.Fprintf(&b, "    \"/home/user/src/project-%d\": {\n      \"allowedTools\": [],\n      \"history\": [\n", p)
		for e := range entries {
			fmt.Fprintf(&b, "        {\n          \"display\": \"%d: %s\",\n          \"pastedContents\": {}\n        }", e, prompt)
			if e < entries-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "      ],\n      \"mcpServers\": {\n        \"local-%d\": {\n          \"command\": \"node\",\n          \"args\": [\"server.js\"]\n        }\n      },\n      \"enabledMcpjsonServers\": [\"a\"],\n      \"disabledMcpjsonServers\": [],\n      \"hasTrustDialogAccepted\": true,\n      \"lastCost\": 0.1234\n    }", p)
		if p < projects-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  },\n  \"userID\": \"0123456789abcdef\"\n}\n")
	return b.Bytes()
}

// TestSkimClaudeJSON: on a generated state file, Skim keeps exactly the
// members Parse has on the kept paths, at the same positions.
func TestSkimClaudeJSON(t *testing.T) {
	src := claudeJSON(3, 20)
	checkSkim(t, src)
	f := Skim(src, skimKeep)
	if len(f.Errors) != 0 {
		t.Fatal(f.Errors)
	}
	full := Parse(src)
	for _, path := range [][]string{{"mcpServers", "github", "url"}, {"projects", "/home/user/src/project-2", "mcpServers", "local-2", "command"}} {
		a, b := find(f.Root, path), find(full.Root, path)
		if a == nil || b == nil || a.Span != b.Span || a.Str != b.Str {
			t.Fatalf("%v: skim %v, parse %v", path, a, b)
		}
	}
	if find(f.Root, []string{"projects", "/home/user/src/project-0", "history"}) != nil {
		t.Fatal("history kept")
	}
}

func find(n *Node, path []string) *Node {
	for _, k := range path {
		m := n.Get(k)
		if m == nil {
			return nil
		}
		n = m.Value
	}
	return n
}

// BenchmarkSkimClaudeJSON measures Skim on the 69 MB ~/.claude.json of
// issue 11 (70 projects x 500 history entries) against Parse:
//
//	go test ./analysis/jsonc -run X -bench ClaudeJSON -benchmem
func BenchmarkSkimClaudeJSON(b *testing.B) {
	src := claudeJSON(70, 500)
	keep := [][]string{{"mcpServers"}, {"projects", "*", "mcpServers"}, {"projects", "*", "enabledMcpjsonServers"}, {"projects", "*", "disabledMcpjsonServers"}, {"projects", "*", "hasTrustDialogAccepted"}}
	for _, bc := range []struct {
		name  string
		parse func() *File
	}{
		{"skim", func() *File { return Skim(src, keep) }},
		{"parse", func() *File { return Parse(src) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if f := bc.parse(); len(f.Errors) > 0 {
					b.Fatal(f.Errors)
				}
			}
		})
	}
}
