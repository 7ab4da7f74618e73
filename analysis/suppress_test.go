package analysis

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestIgnoreSettings: entries are read with their place in the project
// file and their path resolved against its directory; malformed entries
// are reported one by one; the editor's settings cannot ignore.
func TestIgnoreSettings(t *testing.T) {
	src := `{"ignore": [
  {"path": ".mcp.json", "server": "x", "code": "literal-secret"},
  {"path": "a/../sub/.mcp.json", "code": "unknown-key", "reason": "r"},
  {"code": "unknown-key"},
  {"path": ".mcp.json", "code": 3},
  {"path": ".mcp.json", "code": "x", "colour": "blue"},
  "nope"
]}`
	s, problems := ParseSettings([]byte(src))
	want := []string{
		`ignore[2]: needs "path" and "code"`,
		`ignore[3]: "code" must be a string`,
		`ignore[4]: unknown key "colour" (path, server, code, reason)`,
		`ignore[5]: must be an object`,
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%q\nwant\n%q", problems, want)
	}
	s.Source = filepath.FromSlash("/proj/.mcp-lsp.json")
	cfg, p := s.Apply(rules.Config{}, registry.Default())
	if len(p) != 0 || len(cfg.Ignores) != 2 {
		t.Fatalf("Apply: %v, %+v", p, cfg.Ignores)
	}
	if got := cfg.Ignores[1].Path; got != filepath.FromSlash("/proj/sub/.mcp.json") {
		t.Errorf("path %q", got)
	}
	if sp := cfg.Ignores[0].Span; !strings.HasPrefix(src[sp.Start:sp.End], `{"path": ".mcp.json", "server": "x"`) {
		t.Errorf("span of entry 0: %q", src[sp.Start:sp.End])
	}
	editor, _ := SettingsFromValue(map[string]any{"ignore": []any{map[string]any{"path": ".mcp.json", "code": "x"}}}, nil)
	if _, p := editor.Apply(rules.Config{}, registry.Default()); len(p) != 1 || !strings.Contains(p[0], "project file") {
		t.Errorf("editor ignore: %v", p)
	}
}
