package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

// TestSettingsTurnRulesOffAndChangeSeverity: the mcpLsp settings section
// (pulled with workspace/configuration, re-pulled on
// didChangeConfiguration) disables rules and overrides severities.
func TestSettingsTurnRulesOffAndChangeSeverity(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.settings = map[string]any{"rules": map[string]any{"duplicate-key": "error"}}
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}, }`)
	c.waitDiagnostics(uri, "duplicate-key as error", func(p publishParams) bool {
		for _, d := range p.Diagnostics {
			if d.Code == "duplicate-key" && d.Severity == protocol.DiagnosticSeverityError {
				return true
			}
		}
		return false
	})

	c.mu.Lock()
	c.settings = map[string]any{"rules": map[string]any{"duplicate-key": "off", "trailing-comma-in-strict-json": "off"}}
	c.mu.Unlock()
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, protocol.DidChangeConfigurationParams{Settings: nil})
	c.waitDiagnostics(uri, "rules off", func(p publishParams) bool { return len(p.Diagnostics) == 0 })

	// Pushed settings are taken as they are.
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, protocol.DidChangeConfigurationParams{
		Settings: map[string]any{"mcpLsp": map[string]any{"rules": map[string]any{"duplicate-key": "hint"}}},
	})
	c.waitDiagnostics(uri, "pushed settings", func(p publishParams) bool {
		return len(p.Diagnostics) == 2 && hasCode(p, "duplicate-key") && hasCode(p, "trailing-comma-in-strict-json")
	})
}

// TestToolsSettingRestrictsReaders: with only OpenCode selected, .mcp.json
// has no reader left, so JSONC in it is no longer an error.
func TestToolsSettingRestrictsReaders(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.settings = map[string]any{"tools": []string{"opencode"}}
	c.initialize(dir)
	c.waitConfigAsked()
	uri := c.open(filepath.Join(dir, ".mcp.json"), "{\"mcpServers\": {}, // c\n}")
	c.waitDiagnostics(uri, "no strict reader left", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })
}

// TestProjectConfigFile: .mcp-lsp.json in the project (or an ancestor) is
// read by the server as by the check CLI, and an open buffer of it counts.
func TestProjectConfigFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp-lsp.json"), []byte(`{"rules": {"comment-in-strict-json": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, "sub", ".mcp.json"), "{\"mcpServers\": {\"a\": {\"command\": \"x\"}} // c\n}")
	c.waitDiagnostics(uri, "comment rule off", func(p publishParams) bool { return versionIs(p, 1) && len(p.Diagnostics) == 0 })

	c.open(filepath.Join(dir, ".mcp-lsp.json"), `{"rules": {}}`)
	v := c.change(uri, nil, "{\"mcpServers\": {\"a\": {\"command\": \"x\"}} // c\n }")
	c.waitDiagnostics(uri, "rule back on", func(p publishParams) bool { return versionIs(p, v) && hasCode(p, "comment-in-strict-json") })
}

func (c *testClient) waitConfigAsked() {
	c.t.Helper()
	for {
		c.mu.Lock()
		n, changed := c.configAsk, c.changed
		c.mu.Unlock()
		if n > 0 {
			return
		}
		<-changed
	}
}

// waitConfigTaken waits until the server has taken the settings the
// client answered with. Asked is not enough: the answer is taken on the
// server's own time, and a request (a completion, say) sent meanwhile is
// answered with the settings from before. Diagnostics need no such wait:
// taken settings republish them.
func (c *testClient) waitConfigTaken() {
	c.t.Helper()
	c.waitConfigAsked()
	for deadline := time.Now().Add(lsptest.HangGuard); !strings.Contains(c.logBuf.String(), "mcpLsp settings taken"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.t.Fatal("the server never took the settings it asked for")
		}
	}
}

// TestCommandLookupSetting: the command-not-found check looks commands up
// on PATH (never runs them) when the commandLookup setting is on.
func TestCommandLookupSetting(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.settings = map[string]any{"commandLookup": true}
	c.initialize(dir)
	c.waitConfigAsked()
	uri := c.open(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"a": {"command": "go"}, "b": {"command": "mcp-lsp-no-such-command-xyz"}}}`)
	p := c.waitDiagnostics(uri, "b not found", func(p publishParams) bool { return hasCode(p, "command-not-found") })
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Character < 40 {
		t.Errorf("want exactly one command-not-found, on b: %+v", p.Diagnostics)
	}
}
