package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestCrossFileDiagnosticsFollowDiskChanges: with one file open, a second
// file changed on disk (reported by the client's file watcher) changes the
// first file's cross-file diagnostics, and the second file, never opened,
// gets its own.
func TestCrossFileDiagnosticsFollowDiskChanges(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	mustWrite(t, filepath.Join(proj, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
	mcp := filepath.Join(proj, ".mcp.json")
	mustWrite(t, mcp, `{"mcpServers": {"db": {"command": "psql-project"}}}`)

	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initialize(proj)
	uri := c.open(mcp, `{"mcpServers": {"db": {"command": "psql-project"}}}`)
	c.waitDiagnostics(uri, "clean at first", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })

	user := filepath.Join(home, ".claude.json")
	mustWrite(t, user, `{"mcpServers": {"db": {"command": "psql-user"}}, "projects": {"`+filepath.ToSlash(proj)+`": {"hasTrustDialogAccepted": true}}}`)
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(user), Type: protocol.FileChangeTypeCreated}}})
	p := c.waitDiagnostics(uri, "overrides the user server", func(p publishParams) bool { return hasCode(p, "overrides-server") })
	if rel := p.Diagnostics[0].RelatedInformation; len(rel) != 1 || rel[0].Location.URI != pathToURI(user) {
		t.Errorf("related information should point at ~/.claude.json: %+v", rel)
	}
	c.waitDiagnostics(pathToURI(user), "shadowed in the user file", func(p publishParams) bool { return hasCode(p, "shadowed-server") })

	mustWrite(t, user, `{"mcpServers": {}}`)
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(user), Type: protocol.FileChangeTypeChanged}}})
	c.waitDiagnostics(uri, "collision gone", func(p publishParams) bool { return len(p.Diagnostics) == 0 })
}

// TestDiscoveryPublishesUnopenedFiles: after initialized, files in the
// workspace are found and their diagnostics published without being
// opened.
func TestDiscoveryPublishesUnopenedFiles(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "sub", ".vscode", "mcp.json")
	mustWrite(t, broken, `{"servers": {"x": {"type": "stdio", "command": "x"}} "inputs": []}`)
	mustWrite(t, filepath.Join(dir, "node_modules", "pkg", ".mcp.json"), `{`)
	c := startServer(t, Options{})
	c.initialize(dir)
	c.waitDiagnostics(pathToURI(broken), "discovered file", func(p publishParams) bool { return hasCode(p, "syntax-error") && p.Version == nil })
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.published[pathToURI(filepath.Join(dir, "node_modules", "pkg", ".mcp.json"))]; ok {
		t.Error("node_modules must not be searched")
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFallbackReaderFollowsThePreferredFile: Kilo Code reads the
// workspace folder's .mcp.json only while no .kilocode/mcp.json exists.
// With the open .mcp.json holding "type": "http" (which Kilo Code
// refuses), its finding naming Kilo Code comes and goes as the preferred
// file is created and deleted on disk, with non-ASCII text and CRLF.
func TestFallbackReaderFollowsThePreferredFile(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "prøj")
	text := "{\r\n  \"mcpServers\": {\r\n    \"ümlaut\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}\r\n  }\r\n}\r\n"
	mcp := filepath.Join(proj, ".mcp.json")
	mustWrite(t, mcp, text)
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initialize(proj)
	uri := c.open(mcp, text)
	kilo := func(p publishParams) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "type-not-accepted" && strings.Contains(d.Message, "Kilo Code") {
				return d.Range.Start.Line == 2 && d.Range.Start.Character == 23 && d.Range.End.Character == 29
			}
		}
		return false
	}
	c.waitDiagnostics(uri, "Kilo Code reads .mcp.json", kilo)

	preferred := filepath.Join(proj, ".kilocode", "mcp.json")
	mustWrite(t, preferred, `{"mcpServers": {}}`)
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(preferred), Type: protocol.FileChangeTypeCreated}}})
	c.waitDiagnostics(uri, "Kilo Code reads .kilocode/mcp.json instead", func(p publishParams) bool { return !kilo(p) && hasCode(p, "fallback-file-ignored") })

	if err := os.Remove(preferred); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(preferred), Type: protocol.FileChangeTypeDeleted}}})
	c.waitDiagnostics(uri, "Kilo Code reads .mcp.json again", func(p publishParams) bool { return kilo(p) && !hasCode(p, "fallback-file-ignored") })
}
