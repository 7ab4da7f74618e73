//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Files the server must look at without reading, over a pipe: each test
// ends with diagnostics for a file opened after the hostile one, which a
// diagnostics worker stuck in a read would never publish
// (waitDiagnostics gives up after 10 s). The FIFOs are released at the end
// so that a stuck reader, if any, can finish.

// fifo makes a FIFO at path, released (opened for writing and closed) when
// the test ends.
func fifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if w, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
}

// TestFIFOConfigNeverBlocks: a FIFO named .mcp.json in the workspace (seen
// by discovery) and another reported by a watched-file event are never
// read: diagnostics of the other files keep coming.
func TestFIFOConfigNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo(t, filepath.Join(dir, ".mcp.json"))
	watched := filepath.Join(dir, "sub", ".mcp.json")
	fifo(t, watched)
	broken := filepath.Join(dir, "other", ".mcp.json")
	mustWrite(t, broken, `{"mcpServers": {"s": {}},}`)
	c := startServer(t, Options{Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}})
	c.initialize(dir)
	c.waitDiagnostics(pathToURI(broken), "discovered file next to a FIFO", func(p publishParams) bool { return hasCode(p, "trailing-comma-in-strict-json") })
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
		{URI: pathToURI(watched), Type: protocol.FileChangeTypeCreated},
		{URI: pathToURI(filepath.Join(dir, ".mcp.json")), Type: protocol.FileChangeTypeChanged},
	}})
	uri := c.open(filepath.Join(dir, "later", ".mcp.json"), `{"mcpServers": {"s": {"command": ""}}}`)
	c.waitDiagnostics(uri, "after the watched FIFO", func(p publishParams) bool { return hasCode(p, rules.CodeEmptyCommand) })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range []string{watched, filepath.Join(dir, ".mcp.json")} {
		if pub, ok := c.published[pathToURI(p)]; ok && len(pub.Diagnostics) > 0 {
			t.Errorf("%s: a FIFO got diagnostics %v", p, pub.Diagnostics)
		}
	}
}

// TestFileReferencesAreNotRead: {file:...} naming devices, the standard
// input and a FIFO are looked at (they exist), not read; a settings file
// that links to /dev/zero is not read either.
func TestFileReferencesAreNotRead(t *testing.T) {
	dir := t.TempDir()
	fifo(t, filepath.Join(dir, "pipe"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, rules.ProjectConfigName)); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}})
	c.initialize(dir)
	text := `{"mcp": {"s": {"type": "local", "command": ["node", "{file:/dev/zero}", "{file:/dev/stdin}", "{file:/proc/self/fd/0}", "{file:` + dir + `/pipe}", "{file:` + dir + `/missing}"]}}}`
	uri := c.open(filepath.Join(dir, "opencode.json"), text)
	p := c.waitDiagnostics(uri, "opencode.json", func(p publishParams) bool { return hasCode(p, rules.CodeMissingFileReference) })
	var missing []string
	for _, d := range p.Diagnostics {
		if d.Code == rules.CodeMissingFileReference {
			missing = append(missing, d.Message)
		}
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "/missing") {
		t.Errorf("missing-file-reference: %q, want only the missing file", missing)
	}
}

// TestTooLargeBuffer: an open buffer over the limit gets the one finding,
// and the same file cut to size is analysed again.
func TestTooLargeBuffer(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}})
	c.initialize(dir)
	text := `{"mcpServers": {"s": {"command": ""}}}`
	uri := c.open(filepath.Join(dir, ".mcp.json"), text+strings.Repeat(" ", rules.MaxConfigSize))
	p := c.waitDiagnostics(uri, "too large", func(p publishParams) bool { return hasCode(p, rules.CodeFileTooLarge) })
	if len(p.Diagnostics) != 1 {
		t.Errorf("want one finding, got %v", p.Diagnostics)
	}
	c.change(uri, nil, text)
	c.waitDiagnostics(uri, "cut to size", func(p publishParams) bool { return hasCode(p, rules.CodeEmptyCommand) })
}
