package analysis_test

import (
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestNyzhiEntriesAreNotJudgedByOtherDialects: mcp-lsp has no schema for
// Nyzhi's TOML entries, so no server rule speaks for Nyzhi ("type" is not
// a Nyzhi field, and nothing says which values it takes).
func TestNyzhiEntriesAreNotJudgedByOtherDialects(t *testing.T) {
	src := []byte("[mcp.servers.fs]\ntype = \"local\"\ncommand = \"npx\"\n")
	kind, ok := registry.Default().Match("/p/.nyzhi/config.toml", registry.Env{})
	if !ok {
		t.Fatal("no kind for .nyzhi/config.toml")
	}
	for _, d := range rules.AnalyzeFile(rules.FileInput{Path: "/p/.nyzhi/config.toml", Content: src, Parsed: toml.Parse(src), Kind: kind}) {
		t.Errorf("unexpected %s: %s", d.Code, d.Message)
	}
}
