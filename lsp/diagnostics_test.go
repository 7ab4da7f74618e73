package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

func hasCode(p publishParams, code string) bool {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

func versionIs(p publishParams, v int32) bool { return p.Version != nil && *p.Version == v }

// TestDiagnosticsFollowTyping: diagnostics update with incremental edits,
// carry the document version, a stable code and source "mcp-lsp".
func TestDiagnosticsFollowTyping(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home")}})
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, ".mcp.json"), "{\n  \"mcpServers\": {\"a\": {\"command\": \"x\"}}\n}\n")
	c.waitDiagnostics(uri, "version 1 clean", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })

	// Type a comment on line 1: an error appears, on exactly the comment.
	v := c.change(uri, &protocol.Range{Start: pos(1, 0), End: pos(1, 0)}, "  // héllo 😀\n")
	p := c.waitDiagnostics(uri, "comment error", func(p publishParams) bool { return versionIs(p, v) && len(p.Diagnostics) == 1 })
	d := p.Diagnostics[0]
	if d.Code != "comment-in-strict-json" || d.Source != "mcp-lsp" || d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("unexpected diagnostic %+v", d)
	}
	if want := (protocol.Range{Start: pos(1, 2), End: pos(1, 13)}); d.Range != want {
		t.Errorf("range = %v, want %v (UTF-16 units: é is 1, 😀 is 2)", d.Range, want)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(string(d.CodeDescription.Href), "rules.md#comment-in-strict-json") {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}

	// Delete it again: diagnostics clear, with the new version.
	v = c.change(uri, &protocol.Range{Start: pos(1, 0), End: pos(2, 0)}, "")
	c.waitDiagnostics(uri, "cleared", func(p publishParams) bool { return versionIs(p, v) && len(p.Diagnostics) == 0 })

	// A full-text change (no range) replaces everything.
	v = c.change(uri, nil, `{"mcpServers": {"a": 1,}}`)
	c.waitDiagnostics(uri, "full replace", func(p publishParams) bool { return versionIs(p, v) && hasCode(p, "trailing-comma-in-strict-json") })
}

// TestBurstOfEditsEndsOnLatestVersion: a burst of edits coalesces, and the
// last publication is for the last version.
func TestBurstOfEditsEndsOnLatestVersion(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, ".mcp.json"), "")
	text := `{"mcpServers": {"fs": {"command": "node"}}}`
	var v int32
	for i := range text {
		v = c.change(uri, &protocol.Range{Start: pos(0, uint32(i)), End: pos(0, uint32(i))}, text[i:i+1])
	}
	c.waitDiagnostics(uri, "final version clean", func(p publishParams) bool { return versionIs(p, v) && len(p.Diagnostics) == 0 })
	c.mu.Lock()
	n := len(c.history)
	c.mu.Unlock()
	if n >= len(text) {
		t.Logf("note: %d publications for %d edits (no coalescing happened this run)", n, len(text))
	}
}

// TestCloseFallsBackToDisk: closing a buffer publishes the diagnostics of
// the file on disk, or clears them if the file is gone.
func TestCloseFallsBackToDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte("{\"mcpServers\": {\"a\": {\"command\": \"x\"}},}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize(dir)
	uri := c.open(path, `{"mcpServers": {"a": {"command": "x"}}}`)
	c.waitDiagnostics(uri, "buffer clean", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })

	c.notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	p := c.waitDiagnostics(uri, "disk content", func(p publishParams) bool { return p.Version == nil && hasCode(p, "trailing-comma-in-strict-json") })
	if p.Diagnostics[0].Range.Start != pos(0, 38) {
		t.Errorf("disk diagnostics at %v, want 0:38", p.Diagnostics[0].Range.Start)
	}

	// Reopen, delete the file on disk, close: diagnostics disappear.
	uri = c.open(path, `{"mcpServers": {"a": {"command": "x"}}}`)
	c.waitDiagnostics(uri, "reopened", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.mu.Lock()
	before := len(c.history)
	c.mu.Unlock()
	// The buffer was clean and the file is gone: nothing new to show. Prove
	// the close was processed by opening another file and waiting for it.
	other := c.open(filepath.Join(dir, "sub", ".mcp.json"), "{")
	c.waitDiagnostics(other, "other file", func(p publishParams) bool { return len(p.Diagnostics) > 0 })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.history[before:] {
		if p.URI == uri && len(p.Diagnostics) > 0 {
			t.Errorf("diagnostics published for a closed, deleted file: %+v", p)
		}
	}
}

// TestOtherFilesAreLeftAlone: files the registry does not know get no
// diagnostics, whatever their content.
func TestOtherFilesAreLeftAlone(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(dir)
	pkg := c.open(filepath.Join(dir, "package.json"), `{"name": "x",, }`)
	sentinel := c.open(filepath.Join(dir, ".mcp.json"), "{")
	c.waitDiagnostics(sentinel, "sentinel", func(p publishParams) bool { return len(p.Diagnostics) > 0 })
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.published[pkg]; ok {
		t.Errorf("package.json got diagnostics: %+v", c.published[pkg])
	}
}

// TestHugeInputs: a 100,000-deep nesting and a 5 MB file neither crash nor
// hang the server, and their diagnostics arrive.
func TestHugeInputs(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.initialize(dir)

	deep := `{"mcpServers": ` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}"
	uri := c.open(filepath.Join(dir, "deep", ".mcp.json"), deep)
	p := c.waitDiagnostics(uri, "too deep", func(p publishParams) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) > 5 {
		t.Errorf("%d diagnostics for one deep nesting; want a handful", len(p.Diagnostics))
	}

	// Under the race detector (CI's test command) the analysis of 44,000
	// servers outlasts the hang guard on a loaded 2-core machine: 1 MB
	// there, still far past any real project file.
	size := 5 << 20
	if raceDetector {
		size = 1 << 20
	}
	var b strings.Builder
	b.WriteString("{\"mcpServers\": {\n")
	for i := 0; b.Len() < size; i++ {
		b.WriteString(`    "server-` + strings.Repeat("x", 10) + `-` + itoa(i) + `": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},` + "\n")
	}
	b.WriteString("    \"last\": {\"command\": \"x\"},\n  }\n}\n") // one trailing comma near the end
	big := b.String()
	uri = c.open(filepath.Join(dir, "big", ".mcp.json"), big)
	p = c.waitDiagnostics(uri, "5 MB file", func(p publishParams) bool { return hasCode(p, "trailing-comma-in-strict-json") })
	if n := strings.Count(big, "\n"); p.Diagnostics[len(p.Diagnostics)-1].Range.Start.Line != uint32(n-3) {
		t.Errorf("trailing comma reported on line %d, want %d", p.Diagnostics[len(p.Diagnostics)-1].Range.Start.Line, n-3)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{digits[i%10]}, b...)
	}
	return string(b)
}
