package lsp

import (
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// A client that negotiated UTF-8 sends byte columns in its edits and gets
// byte columns back: an edit after an astral character lands on the right
// byte (else the JSON breaks and a syntax error shows), and a hint after
// the name sits at its byte column, not its UTF-16 one.
func TestUTF8PositionsOverLSP(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	caps := c.initializeCaps(dir, encodingCaps(EncodingUTF8))
	if string(caps["positionEncoding"]) != `"utf-8"` {
		t.Fatalf("positionEncoding %s, want utf-8", caps["positionEncoding"])
	}
	// "é😀" is 6 bytes but 3 UTF-16 units: the name's key ends at byte
	// column 24 (UTF-16 column 21); "command" starts at byte 27.
	uri := c.open(filepath.Join(dir, ".mcp.json"), "{\"mcpServers\": {\"é😀\": {\"command\": \"x\"}}}\r\n")
	at := protocol.Position{Line: 0, Character: 27}
	c.change(uri, &protocol.Range{Start: at, End: at}, `"args": ["ü"], `)
	p := c.waitDiagnostics(uri, "version 2", func(p publishParams) bool { return p.Version != nil && *p.Version == 2 })
	for _, d := range p.Diagnostics {
		if d.Severity == protocol.DiagnosticSeverityError {
			t.Errorf("the edit landed on the wrong byte: %s at %v", d.Message, d.Range)
		}
	}
	var hints []inlayHint
	if err := c.call(methodInlayHint, inlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: protocol.Range{End: protocol.Position{Line: 2}}}, &hints); err != nil {
		t.Fatal(err)
	}
	if len(hints) == 0 || hints[0].Position != (protocol.Position{Line: 0, Character: 24}) {
		t.Errorf("hints %+v, want the first at byte column 24", hints)
	}
}
