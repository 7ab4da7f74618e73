//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"
)

// A FIFO or a device named by cwd or envFile is never linked (an editor
// opening it would hang), and stat is all the server does with it.
func TestDocumentLinksSkipFIFOsAndDevices(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.env")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real.env"), []byte("A=1"), 0o644); err != nil {
		t.Fatal(err)
	}
	vs := filepath.Join(dir, ".vscode", "mcp.json")
	text := `{"servers": {"a": {"command": "node", "envFile": "${workspaceFolder}/pipe.env", "cwd": "/dev/zero"}, "b": {"command": "node", "envFile": "${workspaceFolder}/real.env", "args": ["https://example.com/x.js"]}}}`
	c := startServer(t, Options{})
	c.initialize(dir)
	uri := c.open(vs, text)
	var links []protocol.DocumentLink
	if err := c.call(protocol.MethodTextDocumentDocumentLink, protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &links); err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0].Target != pathToURI(filepath.Join(dir, "real.env")) {
		t.Errorf("links %+v, want only real.env", links)
	}
}
