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

// A JSON file no tool reads whose {{...}} are not a sync template's (an
// i18n file: no server map) gets no publication.
func TestTemplateDiagnosticsOnlyInTemplates(t *testing.T) {
	c, ed, dir := actionProject(t, "full", map[string]string{
		"locales/fr.json": `{"items": "{{count}} éléments"}`,
		"ext/mcp.json":    `{"mcpServers": {"x": {"command": "{{nope}}"}}}`,
	})
	other := ed.open(filepath.Join(dir, "locales", "fr.json"))
	tmpl := ed.open(filepath.Join(dir, "ext", "mcp.json"))
	c.waitDiagnostics(tmpl, "the template's error", func(p publishParams) bool { return len(p.Diagnostics) == 1 })
	// A sentinel opened last, after both in path order: once its
	// diagnostics arrive, a publication of the i18n file would have too.
	sentinel := ed.open(filepath.Join(dir, "zz", ".mcp.json"), "{")
	c.waitDiagnostics(sentinel, "sentinel", func(p publishParams) bool { return len(p.Diagnostics) > 0 })
	c.mu.Lock()
	p, ok := c.published[other]
	c.mu.Unlock()
	if ok {
		t.Errorf("the i18n file got a publication: %+v", p)
	}
}
