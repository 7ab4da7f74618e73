package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestTOMLFileServed: Nyzhi's .nyzhi/config.toml is parsed as TOML by the
// snapshot, and hover, definitions and symbols work on it as on JSON.
func TestTOMLFileServed(t *testing.T) {
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	const toml = "# é: a non-ASCII comment before the servers\r\n" +
		"[mcp.servers.fs]\r\n" +
		"command = \"npx\"\r\n" +
		"args = [\"-y\", \"@modelcontextprotocol/server-filesystem\"]\r\n" +
		"\r\n" +
		"[mcp.servers.\"my server\"]\r\n" +
		"url = \"https://example.com/mcp\"\r\n"
	cfg := writeFile(t, filepath.Join(proj, ".nyzhi", "config.toml"), toml)
	mcp := writeFile(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers": {"fs": {"command": "uvx"}}}`)

	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initialize(proj)
	uri := c.openFile(cfg)

	h := c.hover(uri, pos(1, 14)) // on fs in [mcp.servers.fs]
	for _, want := range []string{"**fs**", "**Nyzhi**: uses the definition in .mcp.json:1 (project .mcp.json) instead", "command: `uvx`"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}

	// From .mcp.json to the TOML header's segment, the winner first.
	locs := c.definition(c.openFile(mcp), pos(0, 18))
	if len(locs) < 2 || !strings.HasSuffix(string(locs[1].URI), "/.nyzhi/config.toml") || formatRange(locs[1].Range) != "1:13-1:15" {
		t.Errorf("definitions of fs = %+v, want .mcp.json's then config.toml 1:13-1:15", locs)
	}

	syms, _ := c.documentSymbols(uri)
	var names []string
	for _, s := range syms {
		names = append(names, s.Name+"@"+formatRange(s.SelectionRange))
	}
	if got := strings.Join(names, " "); got != "fs@1:13-1:15 my server@5:13-5:24" {
		t.Errorf("symbols = %s", got)
	}
}
