package convert_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// TestExampleRoundTripsThroughGemini converts every server of the example
// workspace (testdata/example) to Gemini CLI's dialect and back: each
// comes back unchanged, or every field that changed is a loss the
// conversion to Gemini CLI reported. The example is full of mistakes on
// purpose: a server none of its file's readers can read (Claude Code's
// "type": "local") is read as the other reader's, and a file that does
// not parse (.github/mcp.json) has nothing to convert.
func TestExampleRoundTripsThroughGemini(t *testing.T) {
	files := map[string][]string{
		".mcp.json":                  {schemas.ClaudeCode, schemas.CopilotCLI},
		".github/mcp.json":           {schemas.CopilotCLI},
		".vscode/mcp.json":           {schemas.VSCode},
		"opencode.json":              {schemas.OpenCode},
		"opencode.jsonc":             {schemas.OpenCode},
		"services/api/opencode.json": {schemas.OpenCode},
	}
	mapKey := map[string]string{schemas.ClaudeCode: "mcpServers", schemas.CopilotCLI: "mcpServers", schemas.VSCode: "servers", schemas.OpenCode: "mcp"}
	servers := 0
	for rel, readers := range files {
		content, err := os.ReadFile(filepath.Join("..", "..", "testdata", "example", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		f := jsonc.Parse(content)
		if len(f.Errors) > 0 {
			t.Logf("%s: does not parse, nothing to convert", rel)
			continue
		}
		m := f.Root.Get(mapKey[readers[0]])
		if m == nil {
			t.Fatalf("%s: no %q", rel, mapKey[readers[0]])
		}
		for _, sm := range m.Value.Members {
			var s0 *convert.Server
			var from string
			for _, d := range readers {
				if s, _, err := convert.FromEntry(d, sm.Key.Str, sm.Value); err == nil {
					s0, from = s, d
					break
				} else {
					t.Logf("%s %s as %s: %v", rel, sm.Key.Str, d, err)
				}
			}
			if s0 == nil {
				continue
			}
			servers++
			eG, toGemini, err := convert.ToEntry(schemas.GeminiCLI, s0)
			if err != nil {
				t.Errorf("%s %s: to Gemini CLI: %v", rel, sm.Key.Str, err)
				continue
			}
			sG := reread(t, schemas.GeminiCLI, s0.Name, eG)
			eA, _, err := convert.ToEntry(from, sG)
			if err != nil {
				t.Errorf("%s %s: back from Gemini CLI: %v", rel, sm.Key.Str, err)
				continue
			}
			s1 := reread(t, from, s0.Name, eA)
			reported := lossFields(toGemini)
			for _, field := range diffFields(s0.Normalized(), s1.Normalized()) {
				if !slices.Contains(reported, field) {
					t.Errorf("%s %s: %s changed without a reported loss\n%s\n%s", rel, sm.Key.Str, field, render(eG), render(eA))
				}
			}
			t.Logf("%s %s -> gemini-cli: %v", rel, sm.Key.Str, toGemini)
		}
	}
	if servers < 5 {
		t.Fatalf("only %d servers in the example", servers)
	}
}
