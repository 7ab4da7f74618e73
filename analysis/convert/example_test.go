package convert_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// TestExampleRoundTrips converts every server of the example workspace
// (testdata/example) to Gemini CLI's and Codex CLI's dialects and back:
// each comes back unchanged, or every field that changed is a loss the
// conversion reported. The example is full of mistakes on purpose: a
// server none of its file's readers can read (Claude Code's "type":
// "local") is read as the other reader's, and a file that does not parse
// (.github/mcp.json) has nothing to convert. A server the target cannot
// hold at all (SSE into Codex CLI) must be refused with an error that
// says so.
func TestExampleRoundTrips(t *testing.T) {
	for _, target := range []string{schemas.GeminiCLI, schemas.CodexCLI} {
		t.Run(target, func(t *testing.T) { exampleRoundTrip(t, target) })
	}
}

func exampleRoundTrip(t *testing.T, target string) {
	files := map[string][]string{
		".mcp.json":                  {schemas.ClaudeCode, schemas.CopilotCLI},
		".github/mcp.json":           {schemas.CopilotCLI},
		".vscode/mcp.json":           {schemas.VSCode},
		"opencode.json":              {schemas.OpenCode},
		"opencode.jsonc":             {schemas.OpenCode},
		"services/api/opencode.json": {schemas.OpenCode},
	}
	mapKey := map[string]string{schemas.ClaudeCode: "mcpServers", schemas.CopilotCLI: "mcpServers", schemas.VSCode: "servers", schemas.OpenCode: "mcp"}
	servers, refused := 0, 0
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
		for _, sm := range m.Value.Members() {
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
			eG, toTarget, err := convert.ToEntry(target, s0)
			if err != nil && !holds(target, s0) {
				if !strings.Contains(err.Error(), "cannot connect to") {
					t.Errorf("%s %s: to %s: refused with %q, which does not say why", rel, sm.Key.Str, target, err)
				}
				refused++
				continue
			}
			if err != nil {
				t.Errorf("%s %s: to %s: %v", rel, sm.Key.Str, target, err)
				continue
			}
			sG := reread(t, target, s0.Name, eG)
			eA, _, err := convert.ToEntry(from, sG)
			if err != nil {
				t.Errorf("%s %s: back from %s: %v", rel, sm.Key.Str, target, err)
				continue
			}
			s1 := reread(t, from, s0.Name, eA)
			reported := lossFields(toTarget)
			for _, field := range diffFields(s0.Normalized(), s1.Normalized()) {
				if !slices.Contains(reported, field) {
					t.Errorf("%s %s: %s changed without a reported loss\n%s\n%s", rel, sm.Key.Str, field, render(eG), render(eA))
				}
			}
			t.Logf("%s %s -> %s: %v", rel, sm.Key.Str, target, toTarget)
		}
	}
	if servers-refused < 5 {
		t.Fatalf("only %d servers of the example converted (%d refused)", servers-refused, refused)
	}
}
