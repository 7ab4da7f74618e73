package rules

import "testing"

// Issue 10, case 2: OpenCode strips the unknown key and starts the server
// without those variables; it refuses nothing.
func TestEnvInOpenCode_StrippedNotRefused_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "local", "command": ["npx"], "env": {"A": "1"}}}}`
	d := wantOne(t, semantics(t, "opencode.json", src), CodeForeignKey, spanOf(t, src, `"env"`, 0), SeverityWarning,
		`OpenCode ignores "env": the server starts without these variables; rename it to "environment"`)
	wantData(t, d, FixKey, Fix{Kind: FixRenameKey, Key: "env", Value: "environment", Safe: true})
	wantData(t, d, "field", "env")
}

func TestArgsInOpenCode_Stripped(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "local", "command": ["npx"], "args": ["-y", "x"]}}}`
	wantOne(t, semantics(t, "opencode.json", src), CodeForeignKey, spanOf(t, src, `"args"`, 0), SeverityWarning,
		`OpenCode ignores "args": the program starts without these arguments; put the arguments into the "command" array, after the program`)
}

func TestEnvironmentInMCPJSON_IgnoredByBoth_VerifiedUnknownKeysDropped(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "environment": {"A": "1"}}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeForeignKey, spanOf(t, src, `"environment"`, 0), SeverityWarning,
		`Claude Code and GitHub Copilot CLI ignore "environment": the server starts without these variables; rename it to "env"`)
}

func TestTransportKey_VSCodeKnowsIt(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "http", "transport": "http", "url": "https://x.example.com/mcp"}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeForeignKey, spanOf(t, src, `"transport"`, 0), SeverityWarning,
		`Claude Code and GitHub Copilot CLI ignore "transport": the transport comes from "type"; rename it to "type"`)
	src = `{"servers": {"api": {"type": "http", "transport": "sse", "url": "https://x.example.com/mcp"}}}`
	wantNone(t, semantics(t, ".vscode/mcp.json", src), CodeForeignKey)
}

func TestServerURLKey_Windsurf(t *testing.T) {
	src := `{"mcpServers": {"api": {"serverUrl": "https://x.example.com/mcp"}}}`
	ds := semantics(t, ".cursor/mcp.json", src)
	wantOne(t, ds, CodeForeignKey, spanOf(t, src, `"serverUrl"`, 0), SeverityWarning,
		`Cursor ignores "serverUrl": the endpoint comes from "url"; rename it to "url"`)
}

func TestForeignKey_NotOnOpenCodeOverride(t *testing.T) {
	// {"enabled": false} overrides a server of a lower layer; other keys
	// there are the schema rules' business.
	wantNone(t, semantics(t, "opencode.json", `{"mcp": {"x": {"enabled": false}}}`), CodeForeignKey)
}
