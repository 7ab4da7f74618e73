package verdict

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// The memo never holds more than two generations.
func TestSchema_MemoIsBounded(t *testing.T) {
	var m Memo[string, int]
	for i := range 3*MemoGeneration + 7 {
		m.Put("k", []byte(fmt.Sprint(i)), 1)
	}
	if total := len(m.cur) + len(m.old); total > 2*MemoGeneration {
		t.Errorf("memo holds %d entries, bound is %d", total, 2*MemoGeneration)
	}
	if _, ok := m.Get("k", []byte(fmt.Sprint(3*MemoGeneration+6))); !ok {
		t.Error("the most recent entry was evicted")
	}
}

// The memo keeps its own copy of a text: the caller's buffer may change
// afterwards (lookups use the buffer's bytes without copying them).
func TestMemoKeepsNoCallerMemory(t *testing.T) {
	var m Memo[string, int]
	buf := []byte(`{"command": "npx"}`)
	m.Put("k", buf, 1)
	copy(buf, `{"command": "uvx"}`)
	if _, ok := m.Get("k", buf); ok {
		t.Error("a changed buffer still finds what was put under its old text")
	}
	if v, ok := m.Get("k", []byte(`{"command": "npx"}`)); !ok || v != 1 {
		t.Errorf("Get(old text) = %v, %v; want 1, true", v, ok)
	}
	m.Put("k", buf, 2)
	if v, _ := m.Get("k", []byte(`{"command": "uvx"}`)); v != 2 {
		t.Errorf("Get(new text) = %v, want 2", v)
	}
	if v, _ := m.Get("k", []byte(`{"command": "npx"}`)); v != 1 {
		t.Errorf("Get(old text) after a second Put = %v, want 1", v)
	}
}

// Memos keep one copy of a text they all hold: each reader's verdicts and
// the findings memos key on the same entry.
func TestMemosShareTexts(t *testing.T) {
	var a Memo[string, int]
	var b Memo[int, bool]
	text := []byte(`{"command": "npx", "args": ["-y", "@example/shared-text"]}`)
	a.Put("claude-code", text, 1)
	a.Put("vscode", text, 2)
	b.Put(7, text, true)
	var copies []*byte
	for k := range a.cur {
		copies = append(copies, unsafe.StringData(k.text))
	}
	for k := range b.cur {
		copies = append(copies, unsafe.StringData(k.text))
	}
	if len(copies) != 3 || copies[0] != copies[1] || copies[1] != copies[2] {
		t.Errorf("three keys on one text hold %d copies, want one", len(slices.Compact(copies)))
	}
	if copies[0] == unsafe.SliceData(text) {
		t.Error("the memo keeps the caller's buffer")
	}
}

func TestSchema_Suggestions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"comand", "command"}, {"arg", "args"}, {"header", "headers"}, {"tpye", "type"},
		{"URL", "url"}, {"transport", "type"}, {"xyz", ""}, {"ur", "url"}, {"u", ""}, {"environment", "env"},
	} {
		if got := SuggestKey(c.in, []string{"command", "args", "env", "headers", "type", "url"}); got != c.want {
			t.Errorf("suggestKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in    string
		valid []string
		want  string
	}{
		{"local", []string{"stdio", "http"}, "stdio"},
		{"stdio", []string{"local", "remote"}, "local"},
		{"http", []string{"local", "remote"}, "remote"},
		{"HTTP", []string{"stdio", "http"}, "http"},
		{"streamable_http", []string{"http", "streamable-http"}, "http"},
		{"sse", []string{"stdio", "http"}, ""},
	} {
		if got := SuggestValue(c.in, c.valid); got != c.want {
			t.Errorf("suggestValue(%q, %v) = %q, want %q", c.in, c.valid, got, c.want)
		}
	}
}

// The allocation-free check of valid entries (schema_quick.go) must never
// call an entry valid that the validator rejects, nor the reverse when it
// answers at all: run both over every schema test file, every server
// shape, and the entries of the tests above.
func TestSchemaQuick_AgreesWithValidator(t *testing.T) {
	files, err := filepath.Glob("../../testdata/schemas/*/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema test files: %v", err)
	}
	entries := []string{
		`{"command": "x", "args": ["a"], "env": {"A": "b", "A": 1}}`,
		`{"command": "x", "env": {"A": 1, "A": "b"}}`,
		`{"type": "http", "url": "u", "timeout": 1.0}`,
		`{"type": "http", "url": "u", "timeout": 1e3}`,
		`{"type": "remote", "url": "u", "oauth": false, "timeout": 5}`,
		`{"type": "remote", "url": "u", "oauth": {"callbackPort": 65536}}`,
		`{"command": "", "alwaysLoad": null}`,
		`{"command": "é", "args": []}`,
		`{"type": "http", "url": "u", "oauthScopes": ["a"]}`,
		`{"type": "stdio", "command": "x", "dev": {"watch": ["a"], "debug": {"type": "node"}}}`,
		`{"type": "pickString", "id": "a", "description": "d", "options": ["a", {"value": "b", "label": "c"}]}`,
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, string(data))
		root := jsonc.Parse(data).Root
		for _, sm := range []string{"mcpServers", "servers", "mcp"} {
			if m := root.Get(sm); m != nil && m.Value.Kind == jsonc.Object {
				for _, e := range m.Value.Members() {
					entries = append(entries, string(data[e.Value.Span.Start:e.Value.Span.End]))
				}
			}
		}
		if m := root.Get("inputs"); m != nil && m.Value.Kind == jsonc.Array {
			for _, e := range m.Value.Elements() {
				entries = append(entries, string(data[e.Span.Start:e.Span.End]))
			}
		}
	}
	answered := 0
	for dialect, defs := range schemaServerDefs {
		if dialect == "vscode" {
			defs = append(slices.Clone(defs), "input")
		}
		for _, def := range defs {
			s, err := schemas.Branch(dialect, def)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				n := jsonc.Parse([]byte(e)).Root
				valid, ok := schemaQuickValid(s, n)
				if !ok {
					continue
				}
				answered++
				if want := s.Validate(Decode(n)) == nil; valid != want {
					t.Errorf("%s/%s: quick check says valid=%v, validator %v, for\n%s", dialect, def, valid, want, e)
				}
			}
		}
	}
	if answered < 100 {
		t.Errorf("the quick check answered only %d times", answered)
	}
}

// dispatchOf reads from the tree what schemas.ServerDef reads from the
// decoded entry, for every dialect: duplicated keys (the last counts), a
// type that is not a string, keys of every dialect's dispatch.
func TestDispatchOfMatchesServerDef(t *testing.T) {
	for _, text := range []string{
		`{}`,
		`{"type": "stdio", "command": "npx"}`,
		`{"type": 1, "command": "npx"}`,
		`{"type": null, "url": "https://x"}`,
		`{"type": "http", "type": "sse", "url": "https://x"}`,
		`{"type": "sse", "type": 2, "url": "https://x"}`,
		`{"url": "https://x"}`,
		`{"url": "https://x", "command": "npx"}`,
		`{"httpUrl": "https://x", "type": "sse"}`,
		`{"serverUrl": "https://x"}`,
		`{"settings": {}}`,
		`{"type": "local", "command": ["npx"]}`,
		`{"type": "remote", "url": "https://x"}`,
		`{"enabled": false}`,
		`{"type": "streamable-http", "url": "https://x"}`,
		`{"type": "ws", "url": "wss://x"}`,
		`{"type": "HTTP", "url": "https://x"}`,
	} {
		f := jsonc.Parse([]byte(text))
		if len(f.Errors) > 0 {
			t.Fatalf("%s: %v", text, f.Errors)
		}
		decoded := Decode(f.Root).(map[string]any)
		if got, want := dispatchOf(f.Root), schemas.DispatchOf(decoded); got != want {
			t.Errorf("%s: dispatchOf = %+v, DispatchOf = %+v", text, got, want)
		}
		for _, d := range schemas.Dialects() {
			gotDef, gotOK := dispatchOf(f.Root).Def(d)
			wantDef, wantOK := schemas.ServerDef(d, decoded)
			if gotDef != wantDef || gotOK != wantOK {
				t.Errorf("%s, %s: %q %v, ServerDef says %q %v", d, text, gotDef, gotOK, wantDef, wantOK)
			}
		}
	}
}

// A result stored twice for the same key (two goroutines computed it)
// counts once and the later one is kept.
func TestMemoPutTwiceCountsOnce(t *testing.T) {
	var m Memo[string, int]
	m.Put("k", []byte("text"), 1)
	m.Put("k", []byte("text"), 2)
	m.Put("k", []byte("other"), 3)
	if m.Len() != 2 {
		t.Errorf("Len = %d, want 2", m.Len())
	}
	if v, ok := m.Get("k", []byte("text")); !ok || v != 2 {
		t.Errorf("Get = %v, %v; want 2, true", v, ok)
	}
}
