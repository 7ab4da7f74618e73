package rules

import "testing"

func TestReservedNameWorkspace_ClaudeSkips_ConfirmedClaudeDocs(t *testing.T) {
	src := `{"mcpServers": {"workspace": {"command": "npx"}}}`
	d := wantOne(t, semantics(t, ".mcp.json", src), CodeReservedServerName, spanOf(t, src, `"workspace"`, 0), SeverityError,
		`Claude Code skips server "workspace": the name is reserved (GitHub Copilot CLI accepts it; rename it)`)
	wantData(t, d, "tools", []string{"claude-code"})
	// Copilot CLI alone: nothing.
	wantNone(t, semantics(t, ".github/mcp.json", src), CodeReservedServerName)
	// Restricted to Copilot CLI by the user's settings: nothing either.
	wantNone(t, semantics(t, ".mcp.json", src, withTools("copilot-cli")), CodeReservedServerName)
}

func TestForbiddenNameCharacters_CopilotRejects_ConfirmedCopilotDocs(t *testing.T) {
	src := `{"mcpServers": {"a}b\tc": {"command": "npx"}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeInvalidServerName, spanOf(t, src, `"a}b\tc"`, 0), SeverityError,
		`GitHub Copilot CLI skips server "a}b\tc": the name contains "}", "\t" (Claude Code accepts it; rename it)`)
}

func TestUnicodeNames_Accepted(t *testing.T) {
	src := `{"mcpServers": {"café-日本-😀": {"command": "npx"}}}`
	if ds := semantics(t, ".mcp.json", src); len(ds) > 0 {
		t.Errorf("got\n%s", dump(ds))
	}
}
