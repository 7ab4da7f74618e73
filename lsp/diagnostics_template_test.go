package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// TestTemplateVariableDiagnostics: a {{...}} of a sync template that
// `mcp-lsp sync` would refuse is an error in the editor, over its exact
// bytes (UTF-16 columns after non-ASCII, CRLF lines), with sync's words;
// the variables sync resolves (root, the .venv Python, a recorded --var)
// are not.
func TestTemplateVariableDiagnostics(t *testing.T) {
	text := "{\r\n  \"mcpServers\": {\r\n    \"café-☕\": {\"command\": \"{{runtime.python}}\",\r\n      \"args\": [\"--name\", \"日本語 {{nope}}\", \"{{root}}\", \"{{region}}\"]}\r\n  }\r\n}\r\n"
	c, ed, dir := actionProject(t, "full", map[string]string{
		"ext/mcp.json":         text,
		"ext/.venv/bin/python": "",
		".mcp-lsp/sync.json":   `{"version": 1, "entries": [], "vars": {"ext/mcp.json": {"region": "eu"}}}`,
	})
	uri := ed.open(filepath.Join(dir, "ext", "mcp.json"))
	p := c.waitDiagnostics(uri, "the template's error", func(p publishParams) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) != 1 {
		t.Fatalf("want one error, got %+v", p.Diagnostics)
	}
	d := p.Diagnostics[0]
	if want := markerRange(t, text, "|{{nope}}|"); d.Range != want {
		t.Errorf("range %+v, want %+v", d.Range, want)
	}
	if d.Severity != 1 || d.Code != rules.CodeTemplateVariable || !strings.Contains(d.Message, "{{nope}}: unknown variable") || !strings.Contains(d.Message, "--var NAME=VALUE") {
		t.Errorf("diagnostic: %+v", d)
	}
}
