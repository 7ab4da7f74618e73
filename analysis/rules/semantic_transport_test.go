package rules

import "testing"

// Transport rules. Facts named "Verified…" were observed by running the
// tools (shared/formats.md, "Verified by running the real tools").

// Claude Code 2.1.328 says it in its own words: `Skipped — MCP server "api"
// has a "url" but no "type"; add "type": "http" (or "sse" / "ws")`.
func TestURLWithoutType_ClaudeSkips_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"mcpServers": {"api": {"url": "https://mcp.example.com/mcp"}}}`
	ds := semantics(t, ".mcp.json", src)
	d := wantOne(t, ds, CodeMissingType, spanOf(t, src, `"api"`, 0), SeverityError,
		`Claude Code skips server "api": it has a "url" but no "type" (GitHub Copilot CLI accepts it; add "type": "http")`)
	wantData(t, d, FixKey, Fix{Kind: FixAddMember, Key: "type", Value: "http", Safe: true})
	wantData(t, d, "tools", []string{"claude-code"})
	// Only the cause is reported, not its consequence (no command).
	wantNone(t, ds, CodeMissingCommand)
}

func TestURLWithoutType_SSEPathSuggestsSSE(t *testing.T) {
	ds := semantics(t, ".mcp.json", `{"mcpServers": {"api": {"url": "https://mcp.example.com/sse?x=1"}}}`)
	wantData(t, only(ds, CodeMissingType)[0], FixKey, Fix{Kind: FixAddMember, Key: "type", Value: "sse", Safe: true})
}

func TestURLWithoutType_CopilotAssumesHTTP_VerifiedCopilotCLI1_0(t *testing.T) {
	// .github/mcp.json is read by Copilot CLI alone, which takes a url-only
	// entry for http: nothing to report.
	ds := semantics(t, ".github/mcp.json", `{"mcpServers": {"api": {"url": "https://mcp.example.com/mcp"}}}`)
	if len(ds) > 0 {
		t.Errorf("want nothing, got\n%s", dump(ds))
	}
}

func TestURLWithoutType_TransportKeyNamedInFix(t *testing.T) {
	ds := semantics(t, ".mcp.json", `{"mcpServers": {"api": {"transport": "http", "url": "https://x.example.com/mcp"}}}`)
	d := only(ds, CodeMissingType)
	if len(d) != 1 || d[0].Message != `Claude Code skips server "api": it has a "url" but no "type" (GitHub Copilot CLI accepts it; rename "transport" to "type" (with the value "http"))` {
		t.Errorf("got\n%s", dump(ds))
	}
}

func TestMissingType_OpenCodeRequiresType_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"fs": {"command": ["npx", "-y", "@modelcontextprotocol/server-filesystem"]}, "api": {"url": "https://x.example.com/mcp"}, "off": {"enabled": false}}}`
	ds := semantics(t, "opencode.json", src)
	got := only(ds, CodeMissingType)
	if len(got) != 2 {
		t.Fatalf("want two missing-type, got\n%s", dump(ds))
	}
	if want := `OpenCode refuses the whole configuration because of server "fs": "type" is required ("local" or "remote"); add "type": "local"`; got[0].Message != want {
		t.Errorf("got  %s\nwant %s", got[0].Message, want)
	}
	wantData(t, got[1], FixKey, Fix{Kind: FixAddMember, Key: "type", Value: "remote", Safe: true})
	if got[0].Span != spanOf(t, src, `"fs"`, 0) {
		t.Errorf("span %v", got[0].Span)
	}
}

func TestTypeLocal_ClaudeSkipsCopilotAccepts_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"mcpServers": {"fs": {"type": "local", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}`
	ds := semantics(t, ".mcp.json", src)
	d := wantOne(t, ds, CodeTypeNotAccepted, spanOf(t, src, `"local"`, 0), SeverityError,
		`Claude Code skips server "fs": unknown type "local" (GitHub Copilot CLI accepts it; "stdio" works in both)`)
	wantData(t, d, FixKey, Fix{Kind: FixReplaceValue, Key: "type", Value: "stdio", Safe: true})
	wantData(t, d, "tools", []string{"claude-code"})
}

func TestTypeUpperCase_BothSkip_VerifiedCaseSensitive(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "HTTP", "url": "https://x.example.com/mcp"}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeTypeNotAccepted, spanOf(t, src, `"HTTP"`, 0), SeverityError,
		`Claude Code and GitHub Copilot CLI skip server "api": unknown type "HTTP"; types are case-sensitive: "http" works in both`)
}

func TestTypeWS_CopilotSkipsClaudeAccepts_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"sock": {"type": "ws", "url": "wss://x.example.com/mcp"}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeTypeNotAccepted, spanOf(t, src, `"ws"`, 0), SeverityError,
		`GitHub Copilot CLI skips server "sock": unknown type "ws" (Claude Code accepts it; GitHub Copilot CLI knows "stdio", "local", "http", "streamable-http", "sse")`)
}

func TestTypeStdio_OpenCodeRefuses_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "stdio", "command": ["npx"]}}}`
	wantOne(t, semantics(t, "opencode.json", src), CodeTypeNotAccepted, spanOf(t, src, `"stdio"`, 0), SeverityError,
		`OpenCode refuses the whole configuration because of server "fs": unknown type "stdio"; use "local"`)
}

func TestTypeBeingTyped_NoVerdict(t *testing.T) {
	for _, src := range []string{
		"{\"mcpServers\": {\"fs\": {\"type\": }}}",
		"{\"mcpServers\": {\"fs\": {\"type\": \"st\n}}}",
	} {
		if ds := semantics(t, ".mcp.json", src); len(ds) > 0 {
			t.Errorf("%q: want nothing while the entry is typed, got\n%s", src, dump(ds))
		}
	}
}

func TestMissingCommand_AllReadersSkip(t *testing.T) {
	src := `{"mcpServers": {"fs": {"args": ["-y", "x"]}}}`
	d := wantOne(t, semantics(t, ".mcp.json", src), CodeMissingCommand, spanOf(t, src, `"fs"`, 0), SeverityError,
		`Claude Code and GitHub Copilot CLI skip server "fs": a local server needs "command", the program to start`)
	wantData(t, d, "field", "command")
}

func TestMissingCommand_OpenCodeRefuses(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "local"}}}`
	wantOne(t, semantics(t, "opencode.jsonc", src), CodeMissingCommand, spanOf(t, src, `"fs"`, 0), SeverityError,
		`OpenCode refuses the whole configuration because of server "fs": a local server needs "command", the program to start`)
}

func TestMissingURL_NamesForeignSpelling(t *testing.T) {
	src := `{"servers": {"api": {"type": "http", "serverUrl": "https://x.example.com/mcp"}}}`
	wantOne(t, semantics(t, ".vscode/mcp.json", src), CodeMissingURL, spanOf(t, src, `"api"`, 0), SeverityError,
		`VS Code may not load server "api": a remote server needs "url" ("serverUrl" is not read: the key is "url")`)
}

func TestEmptyCommand_ClaudeSkipsCopilotAccepts_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": ""}}}`
	d := wantOne(t, semantics(t, ".mcp.json", src), CodeEmptyCommand, spanOf(t, src, `""`, 0), SeverityError,
		`Claude Code skips server "fs": the command is empty ("Command cannot be empty") (GitHub Copilot CLI accepts the entry but cannot start it)`)
	// "tools" of an error names who does not load the entry, as in every
	// rule: the effective view starts it for Copilot CLI.
	wantData(t, d, "tools", []string{"claude-code"})
}

func TestEmptyCommandArray_OpenCodeAccepts_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "local", "command": []}}}`
	wantOne(t, semantics(t, "opencode.json", src), CodeEmptyCommand, spanOf(t, src, `[]`, 0), SeverityWarning,
		`server "fs" has an empty command: OpenCode accepts the entry but cannot start it`)
}

func TestEmptyCommand_CopilotOnly_Warning(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": ""}}}`
	wantOne(t, semantics(t, ".github/mcp.json", src), CodeEmptyCommand, spanOf(t, src, `""`, 0), SeverityWarning,
		`server "fs" has an empty command: GitHub Copilot CLI accepts the entry but cannot start it`)
}

func TestCommandString_OpenCodeRefuses_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"fs": {"type": "local", "command": "/bin/true"}}}`
	d := wantOne(t, semantics(t, "opencode.json", src), CodeCommandForm, spanOf(t, src, `"/bin/true"`, 0), SeverityError,
		`OpenCode refuses the whole configuration because of server "fs": "command" must be one array holding the program and its arguments ("Expected array"); write ["/bin/true"]`)
	wantData(t, d, "expected", "array")
}

func TestCommandArray_ClaudeAndCopilotSkip(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": ["npx", "-y", "x"]}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeCommandForm, spanOf(t, src, `["npx", "-y", "x"]`, 0), SeverityError,
		`Claude Code and GitHub Copilot CLI skip server "fs": "command" must be a string, the program alone ("command: expected string"); put the first element in "command" and the rest in "args"`)
}

func TestClaudeShapedEntryInOpenCode_EveryProblemReported(t *testing.T) {
	// sveltejs/cli#768, anomalyco/opencode#41229: a Claude-style entry
	// pasted into opencode.json. OpenCode refuses it for each of these.
	src := `{"mcp": {"svelte": {"type": "stdio", "command": "npx", "args": ["-y", "@sveltejs/mcp"], "env": {"A": "1"}}}}`
	ds := semantics(t, "opencode.json", src)
	for _, code := range []string{CodeTypeNotAccepted, CodeCommandForm, CodeForeignKey} {
		if len(only(ds, code)) == 0 {
			t.Errorf("want %s, got\n%s", code, dump(ds))
		}
	}
	if n := len(only(ds, CodeForeignKey)); n != 2 {
		t.Errorf("want foreign-key on args and env, got %d", n)
	}
}

func TestInvalidURL_PortVariable_CopilotSkips_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "http", "url": "http://localhost:${PORT}/mcp"}}}`
	d := wantOne(t, semantics(t, ".mcp.json", src), CodeInvalidURL, spanOf(t, src, `"http://localhost:${PORT}/mcp"`, 0), SeverityError,
		`GitHub Copilot CLI skips server "api": the url is not a valid URL as written ("url: Invalid url"): it is checked before ${PORT} is expanded (Claude Code accepts it)`)
	wantData(t, d, "tools", []string{"copilot-cli"})
}

func TestInvalidURL_NotAURL_CopilotSkipsClaudeAccepts_Verified(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "http", "url": "not a url"}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeInvalidURL, spanOf(t, src, `"not a url"`, 0), SeverityError,
		`GitHub Copilot CLI skips server "api": the url is not a valid URL as written ("url: Invalid url") (Claude Code accepts it)`)
}

func TestInvalidURL_ClaudeExpandsFirst_VerifiedClaudeCode2_1(t *testing.T) {
	// ~/.claude.json is Claude Code's alone; it expands ${PORT} before
	// using the url, and accepts any string.
	src := `{"mcpServers": {"api": {"type": "http", "url": "http://localhost:${PORT}/mcp"}}}`
	wantNone(t, semantics(t, "~/.claude.json", src), CodeInvalidURL)
}

// TestInvalidURL_OtherToolsReference_CursorKeepsIt: Cursor expands only
// ${env:NAME}, ${userHome} and ${workspaceFolder}, so "${PORT}" stays in
// its url and the url is no URL. Only a reference the reader itself
// expands makes the url depend on the environment. Found by
// FuzzConvertServer: the Copilot CLI file converted from such a Cursor
// entry was flagged, its source was not.
func TestInvalidURL_OtherToolsReference_CursorKeepsIt(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "http", "url": "http://localhost:${PORT}/mcp"}}}`
	wantOne(t, semantics(t, ".cursor/mcp.json", src), CodeInvalidURL, spanOf(t, src, `"http://localhost:${PORT}/mcp"`, 0), SeverityWarning,
		`the url of server "api" is not an http(s) URL: Cursor accepts it but cannot connect`)
	src = `{"mcpServers": {"api": {"type": "http", "url": "http://localhost:${env:PORT}/mcp"}}}`
	wantNone(t, semantics(t, ".cursor/mcp.json", src), CodeInvalidURL)
}

func TestInvalidURL_NoScheme_OpenCodeAcceptsButCannotConnect_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"api": {"type": "remote", "url": "localhost:3000/mcp"}}}`
	d := wantOne(t, semantics(t, "opencode.json", src), CodeInvalidURL, spanOf(t, src, `"localhost:3000/mcp"`, 0), SeverityWarning,
		`the url of server "api" is not an http(s) URL: OpenCode accepts it but cannot connect (add "https://" or "http://")`)
	wantData(t, d, FixKey, Fix{Kind: FixPrefixValue, Key: "url", Value: "https://"})
}

func TestInvalidURL_VSCodeSocketAndPipe_NoDiagnostic(t *testing.T) {
	src := `{"servers": {"a": {"type": "http", "url": "unix:///tmp/mcp.sock#/mcp"}, "b": {"type": "http", "url": "pipe:///mcp"}}}`
	wantNone(t, semantics(t, ".vscode/mcp.json", src), CodeInvalidURL)
}

func TestInvalidURL_SecretInQueryNotPrinted(t *testing.T) {
	src := `{"mcpServers": {"api": {"type": "http", "url": "not a url?key=hunter2hunter2"}}}`
	for _, d := range semantics(t, ".mcp.json", src) {
		if containsSecret(d, "hunter2hunter2") {
			t.Errorf("the url leaked into %s", d.Code)
		}
	}
}

// TestAcceptedEverywhere_NoDiagnostics: servers each reader accepts as
// meant get nothing, in every dialect.
func TestAcceptedEverywhere_NoDiagnostics(t *testing.T) {
	cases := map[string]string{
		".mcp.json": `{"mcpServers": {
			"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/src"], "env": {"DEBUG": "1"}},
			"typed": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]},
			"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}},
			"events": {"type": "sse", "url": "https://mcp.example.com/sse", "headers": {"X-Api-Key": "${API_KEY:-}"}}}}`,
		".github/mcp.json": `{"mcpServers": {"api": {"url": "https://x.example.com/mcp", "headers": {"Authorization": "Bearer $TOKEN"}}, "fs": {"type": "local", "command": "npx", "tools": ["*"]}}}`,
		"opencode.jsonc": `{
			// OpenCode's own shapes
			"mcp": {
				"fs": {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem"], "environment": {"TOKEN": "{env:TOKEN}"}},
				"ctx": {"type": "remote", "url": "https://mcp.context7.com/mcp", "headers": {"CONTEXT7_API_KEY": "{env:CONTEXT7_API_KEY}"}, "oauth": false},
				"jira": {"enabled": false},
			},
		}`,
		".vscode/mcp.json": `{"inputs": [{"type": "promptString", "id": "token", "description": "Token", "password": true}],
			"servers": {"gh": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${input:token}"}},
				"mem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"HOME_DIR": "${userHome}", "X": "${env:X}"}, "cwd": "${workspaceFolder}"}}}`,
		".cursor/mcp.json":           `{"mcpServers": {"api": {"url": "https://x.example.com/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}}}`,
		"claude_desktop_config.json": `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "x"]}}, "preferences": {}}`,
		"~/.claude.json":             `{"numStartups": 3, "mcpServers": {}, "projects": {"/work/proj": {"mcpServers": {"db": {"type": "stdio", "command": "psql"}}}}}`,
	}
	for path, src := range cases {
		ds := semantics(t, path, src, withResolver(fakeResolver{programs: map[string]bool{"npx": true, "uvx": true, "psql": true}}))
		if len(ds) > 0 {
			t.Errorf("%s: want nothing, got\n%s", path, dump(ds))
		}
	}
}
