package rules

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The memos (Cache: verdicts, reconciled schema findings, semantic and
// project-rule findings) must be invisible: after any sequence of edits, an analysis with warm memos
// gives exactly what a cold one gives.

// memoVersion is one version of a file in an editing session.
type memoVersion struct {
	name, path, content string
	tools               []registry.ToolID
}

// memoVSCode is a .vscode/mcp.json whose servers draw findings from most
// rules: foreign interpolation, undefined inputs, literal secrets, type
// spellings, foreign keys, invalid URLs, a command not found, an empty
// command, a missing url.
const memoVSCode = `{
  "inputs": [
    {"id": "token", "type": "promptString", "description": "Token", "password": true}
  ],
  "servers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {"Authorization": "Bearer ${input:token}", "X-Other": "${input:other}"}
    },
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"],
      "env": {"HOME_DIR": "${HOME}", "API_KEY": "sk-proj-abcdefghijklmnopqrstuvwxyz0123"}
    },
    "local": {"type": "local", "command": "./bin/srv", "environment": {"A": "1"}},
    "missing": {"command": "no-such-program", "args": []},
    "remote": {"type": "sse", "serverUrl": "https://example.com/sse"},
    "bad-url": {"type": "http", "url": "localhost:3000/mcp"},
    "empty": {"command": ""}
  }
}
`

// memoMCP is a .mcp.json, read by Claude Code and Copilot CLI.
const memoMCP = `{
  "mcpServers": {
    "workspace": {"command": "npx", "args": ["srv"]},
    "url-only": {"url": "https://example.com/mcp"},
    "opencode-style": {"type": "local", "command": ["npx", "srv"], "environment": {"K": "{env:K}"}},
    "port": {"type": "http", "url": "http://localhost:${PORT}/mcp"},
    "ok": {"command": "node", "args": ["server.js"], "env": {"TOKEN": "${TOKEN}"}},
    "home": {"command": "/home/ann/bin/srv", "args": ["--root=/Users/bob/src"]},
    "plain": {"type": "http", "url": "http://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
    "secret": {"type": "http", "url": "https://x.example/mcp", "headers": {"Authorization": "Bearer abcdefghijklmnopqrstuvwxyz012345"}}
  }
}
`

func memoVersions() []memoVersion {
	const vs, mcp = ".vscode/mcp.json", ".mcp.json"
	fs := `    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"],
      "env": {"HOME_DIR": "${HOME}", "API_KEY": "sk-proj-abcdefghijklmnopqrstuvwxyz0123"}
    },
`
	moved := strings.Replace(memoVSCode, fs, "", 1)
	moved = strings.Replace(moved, `    "empty": {"command": ""}`, `    "empty": {"command": ""},`+"\n"+strings.TrimSuffix(fs, ",\n"), 1)
	return []memoVersion{
		{name: "vscode", path: vs, content: memoVSCode},
		{name: "unchanged", path: vs, content: memoVSCode},
		{name: "moved a server", path: vs, content: moved},
		{name: "text before the servers", path: vs, content: strings.Replace(memoVSCode, "{\n", "{\n  // servers of the project\n", 1)},
		{name: "changed a field", path: vs, content: strings.Replace(memoVSCode, `"type": "sse"`, `"type": "SSE"`, 1)},
		{name: "declared an input", path: vs, content: strings.Replace(memoVSCode, `"password": true}`, `"password": true},`+"\n"+`    {"id": "other", "type": "promptString"}`, 1)},
		{name: "renamed the input", path: vs, content: strings.Replace(memoVSCode, `"id": "token"`, `"id": "Token"`, 1)},
		{name: "no inputs", path: vs, content: strings.Replace(memoVSCode, `"inputs"`, `"inputz"`, 1)},
		{name: "vscode again", path: vs, content: memoVSCode},
		{name: "syntax error", path: vs, content: strings.Replace(memoVSCode, `"command": "./bin/srv",`, `"command": "./bin/srv" "x": 1,`, 1)},
		{name: "syntax error on another line", path: vs, content: strings.Replace(memoVSCode, `"url": "localhost:3000/mcp"`, `"url": "localhost:3000/mcp`, 1)},
		{name: "one line", path: vs, content: strings.ReplaceAll(memoVSCode, "\n", " ")},
		{name: "one line, syntax error", path: vs, content: strings.ReplaceAll(strings.Replace(memoVSCode, `"args": []`, `"args": [}`, 1), "\n", " ")},
		{name: "mcp", path: mcp, content: memoMCP},
		{name: "mcp, Claude Code only", path: mcp, content: memoMCP, tools: []registry.ToolID{"claude-code"}},
		{name: "mcp, Copilot CLI only", path: mcp, content: memoMCP, tools: []registry.ToolID{"copilot-cli"}},
		{name: "mcp, both", path: mcp, content: memoMCP, tools: []registry.ToolID{"copilot-cli", "claude-code"}},
		{name: "mcp, Claude Code only, edited", path: mcp, content: strings.Replace(memoMCP, `"args": ["srv"]`, `"args": ["srv", "--x"]`, 1), tools: []registry.ToolID{"claude-code"}},
		{name: "mcp servers in opencode.json", path: "opencode.json", content: strings.Replace(memoMCP, `"mcpServers"`, `"mcp"`, 1)},
		{name: "vscode servers in .mcp.json", path: mcp, content: strings.Replace(memoVSCode, `"servers"`, `"mcpServers"`, 1)},
		{name: "duplicate server", path: mcp, content: strings.Replace(memoMCP, `"ok": {`, `"port": {"command": "x"}, "ok": {`, 1)},
		{name: "mcp again", path: mcp, content: memoMCP},
	}
}

func memoInput(t *testing.T, v memoVersion) FileInput {
	path := filepath.FromSlash("/work/proj/" + v.path)
	return FileInput{
		Path:     path,
		Content:  []byte(v.content),
		Parsed:   jsonc.Parse([]byte(v.content)),
		Kind:     kindFor(t, "/work/proj/"+v.path),
		Config:   Config{Tools: v.tools},
		Resolver: fakeResolver{programs: map[string]bool{"npx": true, "node": true, "/work/proj|./bin/srv": true}},
		Cache:    testCache,
	}
}

// testCache is the session cache the memo tests share.
var testCache = NewCache()

func resetAllMemos() { testCache.Reset() }

func TestMemoMatchesColdRun(t *testing.T) {
	resetAllMemos()
	t.Cleanup(resetAllMemos)
	for _, v := range memoVersions() {
		warm := AnalyzeFile(memoInput(t, v))
		resetAllMemos()
		cold := AnalyzeFile(memoInput(t, v))
		if !reflect.DeepEqual(warm, cold) {
			t.Errorf("%s: with memos:\n%s\nwithout:\n%s", v.name, memoDump(warm), memoDump(cold))
		}
		// Warm the memos with this version again, as the next one edits it.
		AnalyzeFile(memoInput(t, v))
	}
}

// TestMemoFindingsAreNotShared: a caller may modify the findings it is
// given (their spans, messages, related places) without changing what the
// next analysis returns. Data is read-only (Diagnostic.Data): a memo
// shares it.
func TestMemoFindingsAreNotShared(t *testing.T) {
	resetAllMemos()
	t.Cleanup(resetAllMemos)
	v := memoVersions()[0]
	want := AnalyzeFile(memoInput(t, v))
	got := AnalyzeFile(memoInput(t, v))
	for i := range got {
		got[i].Span.Start++
		got[i].Message = "changed"
		for j := range got[i].Related {
			got[i].Related[j].Span.Start++
		}
	}
	if again := AnalyzeFile(memoInput(t, v)); !reflect.DeepEqual(again, want) {
		t.Errorf("findings changed:\n%s\nwant:\n%s", memoDump(again), memoDump(want))
	}
	if len(want) < 10 {
		t.Errorf("only %d findings: the test file no longer exercises the rules", len(want))
	}
}

func memoDump(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %v %v %s: %s %v\n", d.Span, d.Severity, d.Code, d.Message, d.Data)
	}
	return b.String()
}

// TestMemoHoldsHugeMaps: a map larger than the default memo generation
// grows the memos (Memo.Fit) instead of cycling through them: a second
// analysis of the same text judges no entry again, with the same
// findings.
func TestMemoHoldsHugeMaps(t *testing.T) {
	resetAllMemos()
	t.Cleanup(resetAllMemos)
	var b strings.Builder
	b.WriteString("{\"mcpServers\": {\n")
	for i := range 2*memoGeneration + 1 {
		fmt.Fprintf(&b, "  \"s%d\": {\"type\": \"local\", \"command\": \"npx\", \"env\": {\"K\": \"{env:K}\"}},\n", i)
	}
	b.WriteString("  \"last\": {\"url\": \"https://x.example/mcp\"}\n}}\n")
	v := memoVersion{name: "huge", path: ".mcp.json", content: b.String()}
	ds := AnalyzeFile(memoInput(t, v))
	judged := testCache.Verdicts.Judged()
	if judged <= 2*memoGeneration {
		t.Fatalf("%d entries judged, want every one of the %d", judged, 2*memoGeneration+2)
	}
	if again := AnalyzeFile(memoInput(t, v)); !reflect.DeepEqual(again, ds) {
		t.Error("a second analysis differs")
	}
	if n := testCache.Verdicts.Judged() - judged; n != 0 {
		t.Errorf("the second analysis judged %d entries again, want 0", n)
	}
	if len(ds) < 2*memoGeneration {
		t.Errorf("%d findings, want several per server", len(ds))
	}
}

func TestErrorLines(t *testing.T) {
	src := "{\n \"a\": 1 2,\n \"b\": [1,,2],\n \"c\": 3\n \"d\": 'x' 'y'\n}"
	f := jsonc.Parse([]byte(src))
	var got []string
	for _, l := range (*parseIndex)(nil).errorLines(f) {
		got = append(got, strings.TrimSpace(src[l.Start:l.End]))
	}
	want := []string{`"a": 1 2,`, `"b": [1,,2],`, `"d": 'x' 'y'`, "}"} // 'y' is taken for a key without a colon
	if !reflect.DeepEqual(got, want) {
		t.Errorf("error lines %q, want %q (errors: %v)", got, want, f.Errors)
	}
	for _, m := range f.Root.Members() {
		safe := memoSafe(f, nil, m)
		if want := m.Key.Str == "c"; safe != want {
			t.Errorf("memoSafe(%q) = %v, want %v", m.Key.Str, safe, want)
		}
	}
}

// TestMemoMatchesColdRunAfterRandomEdits types, deletes and pastes at
// random places, broken syntax included, and compares each version's
// findings with and without the memos.
func TestMemoMatchesColdRunAfterRandomEdits(t *testing.T) {
	resetAllMemos()
	t.Cleanup(resetAllMemos)
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"\"", "{", "}", "[", "]", ",", ":", "\n", " ", "x", "${input:token}", "{env:K}", `"type": "local", `, `"url": "u", `, "//c\n", "sk-proj-abcdefghijklmnopqrstuvwxyz0123"}
	for _, start := range []memoVersion{memoVersions()[0], memoVersions()[len(memoVersions())-1]} {
		text := start.content
		for i := range 150 {
			at := rng.IntN(len(text) + 1)
			switch rng.IntN(3) {
			case 0:
				text = text[:at] + pieces[rng.IntN(len(pieces))] + text[at:]
			case 1:
				end := min(len(text), at+1+rng.IntN(8))
				text = text[:at] + text[end:]
			default: // move a line elsewhere
				lines := strings.SplitAfter(text, "\n")
				j, k := rng.IntN(len(lines)), rng.IntN(len(lines))
				l := lines[j]
				lines = append(lines[:j], lines[j+1:]...)
				lines = append(lines[:min(k, len(lines))], append([]string{l}, lines[min(k, len(lines)):]...)...)
				text = strings.Join(lines, "")
			}
			v := memoVersion{name: fmt.Sprintf("%s edit %d", start.name, i), path: start.path, content: text}
			warm := AnalyzeFile(memoInput(t, v))
			resetAllMemos()
			cold := AnalyzeFile(memoInput(t, v))
			if !reflect.DeepEqual(warm, cold) {
				t.Fatalf("%s: with memos:\n%s\nwithout:\n%s\ntext:\n%s", v.name, memoDump(warm), memoDump(cold), text)
			}
			// Warm the memos again with a few earlier versions' entries.
			AnalyzeFile(memoInput(t, start))
			AnalyzeFile(memoInput(t, v))
		}
	}
}
