package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

func (c *testClient) hover(uri protocol.DocumentURI, p protocol.Position) string {
	c.t.Helper()
	var h *protocol.Hover
	err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: p,
	}}, &h)
	if err != nil {
		c.t.Fatalf("hover: %v", err)
	}
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// TestHoverShowsEffectiveServerWithoutSecrets: hover on a server name shows
// per tool what it will start and where each part comes from; secret
// values never appear.
func TestHoverShowsEffectiveServerWithoutSecrets(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	write := func(rel, content string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("home/.claude.json", `{"mcpServers": {"db": {"command": "psql-user"}}, "projects": {"`+filepath.ToSlash(filepath.Join(dir, "proj"))+`": {"hasTrustDialogAccepted": true}}}`)
	write("proj/.claude/settings.json", `{"enableAllProjectMcpServers": true}`)
	mcp := write("proj/.mcp.json", `{"mcpServers": {"db": {"command": "psql-mcp", "args": ["--token=`+secret+`"], "env": {"TOKEN": "`+secret+`"}}}}`)

	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initialize(filepath.Join(dir, "proj"))
	content, _ := os.ReadFile(mcp)
	uri := c.open(mcp, string(content))

	h := c.hover(uri, pos(0, 18)) // on "db"
	for _, want := range []string{
		"**db**",
		"**Claude Code** (modelled on 2.1.328): uses this definition (project scope)",
		"command: `psql-mcp`",
		"env: names `TOKEN` (values hidden)",
		"also defined in ~/.claude.json:1 (user scope, shadowed)",
		"tool names: `mcp__db__<tool>`",
		"**GitHub Copilot CLI** (modelled on 1.0.102): not started: folder not trusted",
		"`db-<tool>`, 61 characters left for tool names under the 64-character limit",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, secret) || strings.Contains(c.logBuf.String(), secret) {
		t.Errorf("a secret leaked into hover or logs:\n%s", h)
	}

	// On a field: its documentation and which tools use it.
	h = c.hover(uri, pos(0, 25)) // on "command"
	if !strings.Contains(h, "**command**") || !strings.Contains(h, "Used by Claude Code, GitHub Copilot CLI") {
		t.Errorf("field hover:\n%s", h)
	}
	// Elsewhere: nothing.
	if h := c.hover(uri, pos(0, 1)); h != "" {
		t.Errorf("hover on the top-level key: %q", h)
	}
}

// TestEffectiveRequest: mcp-lsp/effective (the VS Code command "MCP: Show
// effective configuration") answers per tool, sources included, secrets
// masked.
func TestEffectiveRequest(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	dir := t.TempDir()
	mcp := filepath.Join(dir, ".mcp.json")
	mustWrite(t, mcp, `{"mcpServers": {"db": {"command": "psql-mcp", "env": {"TOKEN": "`+secret+`"}}}}`)
	mustWrite(t, filepath.Join(dir, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
	mustWrite(t, filepath.Join(dir, "home", ".claude.json"), `{"projects": {"`+filepath.ToSlash(dir)+`": {"hasTrustDialogAccepted": true}}}`)
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initialize(dir)
	var raw json.RawMessage
	if err := c.call("mcp-lsp/effective", map[string]any{"textDocument": map[string]any{"uri": pathToURI(mcp)}}, &raw); err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Tool    string
		Servers []struct {
			Name    string
			Started bool
			Source  struct {
				Path string
				Line int
			}
			Env map[string]string
		}
	}
	if err := json.Unmarshal(raw, &tools); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if len(tools) == 0 || tools[0].Tool != "claude-code" || len(tools[0].Servers) != 1 {
		t.Fatalf("unexpected answer: %s", raw)
	}
	if s := tools[0].Servers[0]; !s.Started || s.Source.Path != ".mcp.json" || s.Env["TOKEN"] != "••••••" {
		t.Errorf("db: %+v", s)
	}
	if strings.Contains(string(raw), secret) {
		t.Error("secret leaked")
	}
}

// TestHoverLinksToolDocsAndRules: each tool's section of a server's hover
// ends with a link to that tool's own documentation of its MCP
// configuration (the registry's docs field), and a tool-name budget with
// no room left links its rule's documentation, the page diagnostics link.
func TestHoverLinksToolDocsAndRules(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("ü", 30) + strings.Repeat("x", 30) // 60 characters, non-ASCII
	mcp := filepath.Join(dir, ".mcp.json")
	content := "{\r\n  \"mcpServers\": {\r\n    \"" + long + "\": {\"command\": \"x\"}\r\n  }\r\n}\r\n"
	if err := os.WriteFile(mcp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initialize(dir)
	uri := c.open(mcp, content)
	h := c.hover(uri, pos(2, 6))
	reg := registry.Default()
	for _, id := range []registry.ToolID{"claude-code", "copilot-cli"} {
		tool, _ := reg.Tool(id)
		link := "- docs: [" + tool.Name + " MCP configuration](" + tool.Docs + ")"
		if tool.Docs == "" || strings.Count(h, link) != 1 {
			t.Errorf("hover should link %s's docs once (%q):\n%s", tool.Name, link, h)
		}
	}
	if want := "**no room left** under the 64-character limit ([tool-name-budget](" + RulesDocURL + "#tool-name-budget))"; !strings.Contains(h, want) {
		t.Errorf("hover lacks the rule link %q:\n%s", want, h)
	}
}
