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

// TestExampleRoundTripsThroughReaders converts every server of the
// example workspace (testdata/example) to Roo Code, Zed, Kiro and
// Windsurf and back, as TestExampleRoundTripsThroughGemini does for
// Gemini CLI: each server comes back unchanged, or every field that
// changed is a loss the conversion reported, or the target refuses it
// with a reason (Zed connects to no SSE server).
func TestExampleRoundTripsThroughReaders(t *testing.T) {
	files := map[string][]string{
		".mcp.json":                  {schemas.ClaudeCode, schemas.CopilotCLI},
		".vscode/mcp.json":           {schemas.VSCode},
		"opencode.json":              {schemas.OpenCode},
		"opencode.jsonc":             {schemas.OpenCode},
		"services/api/opencode.json": {schemas.OpenCode},
	}
	mapKey := map[string]string{schemas.ClaudeCode: "mcpServers", schemas.CopilotCLI: "mcpServers", schemas.VSCode: "servers", schemas.OpenCode: "mcp"}
	for _, target := range []string{schemas.RooCode, schemas.Zed, schemas.Kiro, schemas.Windsurf} {
		servers, refused := 0, 0
		for rel, readers := range files {
			content, err := os.ReadFile(filepath.Join("..", "..", "testdata", "example", filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			f := jsonc.Parse(content)
			m := f.Root.Get(mapKey[readers[0]])
			if m == nil {
				t.Fatalf("%s: no %q", rel, mapKey[readers[0]])
			}
			for _, sm := range m.Value.Members() {
				var s0 *convert.Server
				var from string
				for _, d := range readers {
					if s, _, err := convert.FromEntry(d, sm.Key.Str, sm.Value); err == nil {
						s0, from = s, d
						break
					}
				}
				if s0 == nil {
					continue
				}
				servers++
				eT, toT, err := convert.ToEntry(target, s0)
				if err != nil {
					if holds(target, s0) {
						t.Errorf("%s %s: to %s: %v", rel, sm.Key.Str, target, err)
					}
					refused++
					continue
				}
				sT := reread(t, target, s0.Name, eT)
				eA, _, err := convert.ToEntry(from, sT)
				if err != nil {
					t.Errorf("%s %s: back from %s: %v", rel, sm.Key.Str, target, err)
					continue
				}
				s1 := reread(t, from, s0.Name, eA)
				reported := lossFields(toT)
				for _, field := range diffFields(s0.Normalized(), s1.Normalized()) {
					if !slices.Contains(reported, field) {
						t.Errorf("%s %s -> %s: %s changed without a reported loss\n%s\n%s", rel, sm.Key.Str, target, field, render(eT), render(eA))
					}
				}
			}
		}
		if servers < 5 || refused == servers {
			t.Errorf("%s: %d servers in the example, %d refused", target, servers, refused)
		}
	}
}
