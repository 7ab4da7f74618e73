package rules

import (
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

func TestClaudeDirMCPJSON_NotRead_ConfirmedClaudeIssues(t *testing.T) {
	for path, label := range map[string]string{
		".claude/.mcp.json":   ".claude/.mcp.json",
		".claude/mcp.json":    ".claude/mcp.json",
		"~/.claude/mcp.json":  ".claude/mcp.json",
		"~/.claude/.mcp.json": ".claude/.mcp.json",
	} {
		src := `{"mcpServers": {"fs": {"command": "npx"}}}`
		d := wantOne(t, semantics(t, path, src), CodeFileNotRead, spanOf(t, src, `"mcpServers"`, 0), SeverityWarning,
			"Claude Code does not read "+label+`, so the servers in it are not loaded; for Claude Code, use .mcp.json at the project root, or ~/.claude.json (claude mcp add --scope user)`)
		wantData(t, d, "tools", []string{"claude-code"})
	}
}

func TestClaudeJSONOutsideHome_NotRead(t *testing.T) {
	wantOne(t, semantics(t, ".claude.json", `{}`), CodeFileNotRead, span.New(0, 1), SeverityWarning,
		`Claude Code does not read .claude.json, so the servers in it are not loaded; for Claude Code, use .mcp.json at the project root, or claude mcp add --scope local`)
	wantNone(t, semantics(t, "~/.claude.json", `{}`), CodeFileNotRead)
}

func TestProjectCopilotConfig_OnlyWithFlag_ConfirmedCopilotIssue3642(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx"}}}`
	wantOne(t, semantics(t, ".copilot/mcp-config.json", src), CodeFileNotReadBy, spanOf(t, src, `"mcpServers"`, 0), SeverityInformation,
		`GitHub Copilot CLI does not load .copilot/mcp-config.json by itself, only when it is named on the command line (copilot --additional-mcp-config @.copilot/mcp-config.json); for GitHub Copilot CLI, use .mcp.json or .github/mcp.json`)
	wantNone(t, semantics(t, "~/.copilot/mcp-config.json", src), CodeFileNotReadBy)
}

func TestVSCodeFile_CopilotNote_OnlyInCopilotFormat(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx"}}}`
	ds := semantics(t, ".vscode/mcp.json", src)
	wantOne(t, ds, CodeFileNotReadBy, spanOf(t, src, `"mcpServers"`, 0), SeverityInformation,
		`GitHub Copilot CLI does not read .vscode/mcp.json (VS Code reads it); for GitHub Copilot CLI, use .mcp.json (same servers under mcpServers)`)
	// VS Code's own format: VS Code's file, no note.
	wantNone(t, semantics(t, ".vscode/mcp.json", `{"servers": {"fs": {"command": "npx"}}}`), CodeFileNotReadBy)
	// Not when the user does not run Copilot CLI.
	wantNone(t, semantics(t, ".vscode/mcp.json", src, withTools("vscode")), CodeFileNotReadBy)
}

func TestMCPServersInClaudeSettings_Ignored_ConfirmedClaudeIssue24477(t *testing.T) {
	src := `{"permissions": {}, "mcpServers": {"fs": {"command": "npx"}}, "enableAllProjectMcpServers": true}`
	wantOne(t, semantics(t, ".claude/settings.json", src), CodeServersInSettings, spanOf(t, src, `"mcpServers"`, 0), SeverityWarning,
		`Claude Code ignores "mcpServers" in settings.json: it reads no MCP servers from this file; use .mcp.json at the project root`)
	wantOne(t, semantics(t, "~/.claude/settings.json", src), CodeServersInSettings, spanOf(t, src, `"mcpServers"`, 0), SeverityWarning,
		`Claude Code ignores "mcpServers" in settings.json: it reads no MCP servers from this file; use claude mcp add --scope user (writes ~/.claude.json)`)
	if ds := semantics(t, ".claude/settings.local.json", `{"enabledMcpjsonServers": ["fs"]}`); len(ds) > 0 {
		t.Errorf("got\n%s", dump(ds))
	}
}

func TestWrongServerMapKey(t *testing.T) {
	cases := []struct {
		path, src, at string
		sev           Severity
		msg           string
	}{
		{".mcp.json", `{"servers": {"fs": {"command": "npx"}}}`, `"servers"`, SeverityError,
			`Claude Code and GitHub Copilot CLI read servers from "mcpServers", not "servers" (VS Code's key), so they load none of these servers; rename it to "mcpServers"`},
		{".mcp.json", `{"mcpServers": {}, "mcp": {"fs": {"type": "local", "command": ["npx"]}}}`, `"mcp"`, SeverityWarning,
			`Claude Code and GitHub Copilot CLI ignore "mcp" (OpenCode's key): the servers in it are not loaded; move them into "mcpServers"`},
		{"opencode.json", `{"mcpServers": {"fs": {"command": "npx"}}}`, `"mcpServers"`, SeverityError,
			`OpenCode reads servers from "mcp", not "mcpServers" (the key of Claude Code, GitHub Copilot CLI, VS Code, Kilo Code, Gemini CLI, Qwen Code, Cursor, Claude Desktop, Roo Code, Kiro and Windsurf), so it loads none of these servers; rename it to "mcp"`},
		{"opencode.json", `{"mcp": {}, "servers": {}}`, `"servers"`, SeverityError,
			`OpenCode refuses the whole configuration: "servers" is not one of its keys (VS Code's key); move the servers into "mcp"`},
		{".vscode/mcp.json", `{"mcpServers": {"fs": {"command": "npx"}}}`, `"mcpServers"`, SeverityHint,
			`VS Code reads "mcpServers" only for compatibility with other tools (deprecated); use "servers"`},
	}
	for _, tc := range cases {
		d := wantOne(t, semantics(t, tc.path, tc.src), CodeWrongServerMapKey, spanOf(t, tc.src, tc.at, 0), tc.sev, tc.msg)
		wantData(t, d, "field", tc.at[1:len(tc.at)-1])
	}
	// ~/.claude.json holds many other keys; none of them is a server map.
	wantNone(t, semantics(t, "~/.claude.json", `{"mcpServers": {}, "projects": {}}`), CodeWrongServerMapKey)
}

func TestEmptyServerMap(t *testing.T) {
	src := `{"mcpServers": {}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeEmptyServerMap, spanOf(t, src, `"mcpServers"`, 0), SeverityHint,
		`"mcpServers" is empty: Claude Code and GitHub Copilot CLI load no servers from this file`)
	for path, src := range map[string]string{
		"opencode.json":              `{"mcp": {}}`,                                            // OpenCode's general settings file
		"claude_desktop_config.json": `{"mcpServers": {}}`,                                     // written so by the app
		"~/.claude.json":             `{"mcpServers": {}, "projects": {}}`,                     // Claude Code's state file
		".github/mcp.json":           "\ufeff{\"mcpServers\": {}}",                             // dropped for its BOM anyway
		".vscode/mcp.json":           `{"servers": {"a": {"command": "x"}}, "mcpServers": {}}`, // servers elsewhere
	} {
		if ds := only(semantics(t, path, src), CodeEmptyServerMap); len(ds) > 0 {
			t.Errorf("%s: got\n%s", path, dump(ds))
		}
	}
}
