package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

func (c *testClient) format(uri protocol.DocumentURI, opts protocol.FormattingOptions) ([]protocol.TextEdit, json.RawMessage) {
	c.t.Helper()
	var raw json.RawMessage
	err := c.call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Options: opts,
	}, &raw)
	if err != nil {
		c.t.Fatalf("formatting: %v", err)
	}
	var edits []protocol.TextEdit
	if err := json.Unmarshal(raw, &edits); err != nil {
		c.t.Fatalf("formatting result %s: %v", raw, err)
	}
	return edits, raw
}

// TestFormattingOverThePipe formats an open .mcp.json (CRLF, comments,
// non-ASCII keys) with two-space indentation: the edits, applied as an
// editor applies them, give the expected text byte for byte, touch only
// the lines that change, and formatting the result gives no edits. Files
// with syntax errors and TOML files get an empty list, never null.
func TestFormattingOverThePipe(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initialize(proj)

	src := "{\r\n" +
		"  // servers for this project\r\n" +
		"  \"mcpServers\": {\r\n" +
		"    \"dé🙂\": {\r\n" +
		"      \"command\":\"npx\",\r\n" +
		"      \"args\": [\"-y\", \"srv\"]\r\n" +
		"    },\r\n" +
		"    \"b\": {\"url\" : \"https://x\"} /* remote */\r\n" +
		"  }\r\n" +
		"}"
	want := "{\r\n" +
		"  // servers for this project\r\n" +
		"  \"mcpServers\": {\r\n" +
		"    \"dé🙂\": {\r\n" +
		"      \"command\": \"npx\",\r\n" +
		"      \"args\":    [\"-y\", \"srv\"],\r\n" +
		"    },\r\n" +
		"    \"b\": {\"url\": \"https://x\"}, /* remote */\r\n" +
		"  },\r\n" +
		"}\r\n"
	uri := c.open(filepath.Join(proj, ".mcp.json"), src)
	opts := protocol.FormattingOptions{TabSize: 2, InsertSpaces: true, InsertFinalNewline: true}
	edits, _ := c.format(uri, opts)
	got, err := applyTextEdits(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("formatted:\n%q\nwant\n%q", got, want)
	}
	for _, e := range edits {
		if e.Range.Start.Line < 4 {
			t.Errorf("edit touches unchanged lines 0-3: %+v", e)
		}
	}
	if len(edits) < 2 {
		t.Errorf("want one edit per hunk, got %d: %+v", len(edits), edits)
	}

	// Formatting the formatted text changes nothing.
	c.change(uri, nil, got)
	if edits, raw := c.format(uri, opts); len(edits) != 0 || string(raw) != "[]" {
		t.Errorf("already formatted: %s", raw)
	}

	// A syntax error: no edits, so nothing is lost.
	c.change(uri, nil, "{\"mcpServers\": {\"a\": {\"command\":\"x\",}")
	if _, raw := c.format(uri, opts); string(raw) != "[]" {
		t.Errorf("syntax error: %s", raw)
	}

	// TOML: no edits.
	toml := c.open(filepath.Join(proj, ".codex", "config.toml"), "[mcp_servers.x]\ncommand =   \"x\"\n")
	if _, raw := c.format(toml, opts); string(raw) != "[]" {
		t.Errorf("toml: %s", raw)
	}
}
