package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestCommandLookupsCachedUntilTheMachineMayHaveChanged: a command is
// looked up once per (command, PATH, directory), not on every keystroke;
// a save, a watched-file event or a change of PATH looks again, so a
// program installed meanwhile stops being reported.
func TestCommandLookupsCachedUntilTheMachineMayHaveChanged(t *testing.T) {
	dir, bin := t.TempDir(), t.TempDir()
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := startServer(t, Options{})
	c.settings = map[string]any{"commandLookup": true}
	c.initialize(dir)
	c.waitConfigAsked()
	const text = `{"mcpServers": {"a": {"command": "mcp-lsp-test-tool"}}}`
	uri := c.open(filepath.Join(dir, ".mcp.json"), text)
	c.waitDiagnostics(uri, "command-not-found", func(p publishParams) bool { return hasCode(p, "command-not-found") })

	install := func(dir string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "mcp-lsp-test-tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install(bin)
	v := c.change(uri, nil, text+" ")
	p := c.waitDiagnostics(uri, "the edit analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == v })
	if !hasCode(p, "command-not-found") {
		t.Errorf("an edit looked the command up again (no event said the machine changed): %+v", p.Diagnostics)
	}

	c.notify(protocol.MethodTextDocumentDidSave, protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.waitDiagnostics(uri, "found after a save", func(p publishParams) bool { return !hasCode(p, "command-not-found") })

	// A PATH that no longer holds the program: a new key, a new lookup.
	t.Setenv("PATH", t.TempDir())
	v = c.change(uri, nil, text)
	p = c.waitDiagnostics(uri, "the edit analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == v })
	if !hasCode(p, "command-not-found") {
		t.Errorf("a changed PATH was not looked up again: %+v", p.Diagnostics)
	}
}

// TestUnchangedFileReanalysedWhenAFileAppears: a file's findings are
// reused across edits of other files, but not once a file it refers to
// appears on disk (a watched-file event).
func TestUnchangedFileReanalysedWhenAFileAppears(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(dir)
	cfg := filepath.Join(dir, "opencode.json")
	writeFile(t, cfg, `{"mcp": {"a": {"type": "local", "command": ["run", "{file:./prompt.txt}"]}}}`)
	uri := c.open(cfg, `{"mcp": {"a": {"type": "local", "command": ["run", "{file:./prompt.txt}"]}}}`)
	c.waitDiagnostics(uri, "missing file", func(p publishParams) bool { return hasCode(p, "missing-file-reference") })

	// Edits elsewhere leave it as it was.
	other := c.open(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {}}`)
	c.change(other, nil, `{"mcpServers": {"b": {"command": "x"}}}`)
	c.waitDiagnostics(other, "the other file analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == 2 })
	c.mu.Lock()
	p := c.published[uri]
	c.mu.Unlock()
	if !hasCode(p, "missing-file-reference") {
		t.Errorf("finding lost after an edit of another file: %+v", p.Diagnostics)
	}

	prompt := writeFile(t, filepath.Join(dir, "prompt.txt"), "hello")
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
		{URI: pathToURI(prompt), Type: protocol.FileChangeTypeCreated},
	}})
	c.waitDiagnostics(uri, "file found", func(p publishParams) bool { return !hasCode(p, "missing-file-reference") })
}

// TestEditOfAHugeFileJudgesOnlyTheEditedEntry: over a pipe, an edit of
// one server of a map larger than the verdict cache's default generation
// judges that server only: the cache grows to hold the file (Memo.Fit),
// so neither the file's analysis nor the effective view (which judges
// every entry of every file) judges the others again.
func TestEditOfAHugeFileJudgesOnlyTheEditedEntry(t *testing.T) {
	var session *cache.Session
	c := startServer(t, Options{testSession: func(s *cache.Session) { session = s }})
	dir := t.TempDir()
	c.initialize(dir)
	file := func(edited string) string {
		var b strings.Builder
		b.WriteString("{\"mcpServers\": {\n")
		for i := range 2*verdict.MemoGeneration + 1 {
			fmt.Fprintf(&b, "  \"s%d\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg-%d\"]},\n", i, i)
		}
		fmt.Fprintf(&b, "  \"last\": {\"command\": %q}\n}}\n", edited)
		return b.String()
	}
	uri := c.open(filepath.Join(dir, ".mcp.json"), file("npx"))
	c.waitDiagnostics(uri, "the file analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == 1 })
	before := session.VerdictsJudged()
	if before <= 2*verdict.MemoGeneration {
		t.Fatalf("%d verdicts for %d servers", before, 2*verdict.MemoGeneration+2)
	}
	v := c.change(uri, nil, file("node"))
	c.waitDiagnostics(uri, "the edit analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == v })
	// One entry changed, read by a few tools.
	if n := session.VerdictsJudged() - before; n == 0 || n > 8 {
		t.Errorf("the edit of one server judged %d entries, want one per reader of it", n)
	}
}
