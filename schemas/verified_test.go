package schemas

import "testing"

// The tests in this file pin one fact each about how a tool reads its file.
// A name ending in _Verified<Tool><Version> means the fact was observed by
// running that release offline (formats.md, "Verified by running the real
// tools": Claude Code 2.1.197, Copilot CLI 1.0.102, OpenCode 1.18.33); when a
// newer release behaves differently, rerun shared/tools/oracle-run.sh and
// change the schema and the test together. Other names say where the fact
// comes from in their doc comment.

// --- Claude Code ---

func TestClaudeCode_TypeLocalRejected_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/local-type.json")
}

func TestClaudeCode_TypeCaseSensitive_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/type-uppercase.json")
}

// Claude Code's /doctor flags an explicit "stdio" (anthropics/claude-code
// #40481), but the loader accepts it: do not copy the false positive.
func TestClaudeCode_TypeStdioAccepted_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "good/project-stdio.json")
}

func TestClaudeCode_StreamableHTTPAlias_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "good/remote.json")
}

func TestClaudeCode_WSAccepted_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "good/ws.json")
}

func TestClaudeCode_URLWithoutTypeRejected_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/url-without-type.json")
}

func TestClaudeCode_EmptyCommandRejected_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/empty-command.json")
}

func TestClaudeCode_ArgsStringRejected_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/args-string.json")
}

func TestClaudeCode_EnvNumberRejected_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/env-number.json")
}

// Claude Code drops unknown keys silently; the schema still flags them
// (additionalProperties false) and the analysis layer picks the severity.
func TestClaudeCode_UnknownKeyFlaggedThoughDropped_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/unknown-key.json")
}

// Reported, not verified: nashsu/llm_wiki#459 quotes newer Claude Code
// rejecting a .mcp.json without mcpServers.
func TestClaudeCode_MissingMcpServersRejected_Reported(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/missing-mcpservers.json")
}

// ~/.claude.json holds many settings besides servers; none may be flagged.
func TestClaudeCode_ClaudeJSONOtherKeysNotFlagged(t *testing.T) {
	checkFile(t, ClaudeCode, "good/claude-json.json")
	validateFile(t, ClaudeCode, "claudeJsonFile", "good/claude-json.json")
}

func TestClaudeCode_ClaudeJSONProjectServersChecked_VerifiedClaudeCode2_1(t *testing.T) {
	checkFile(t, ClaudeCode, "bad/claude-json-project-local-type.json")
}

// A ~/.claude.json with only local-scope servers has no top-level
// mcpServers: valid against claudeJsonFile, which the analysis layer uses
// for that file, but not against the root, which describes .mcp.json.
func TestClaudeCode_ClaudeJSONWithoutUserServers(t *testing.T) {
	inst := decode(t, `{"numStartups": 3, "projects": {"/home/dev/app": {"allowedTools": [],
		"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}}}`)
	file, err := Branch(ClaudeCode, "claudeJsonFile")
	if err != nil {
		t.Fatal(err)
	}
	if err := file.Validate(inst); err != nil {
		t.Errorf("claudeJsonFile rejected a ~/.claude.json without user servers:\n%s", describe(leaves(err)))
	}
	root, _ := Compiled(ClaudeCode)
	if root.Validate(inst) == nil {
		t.Error("the root (.mcp.json) schema accepted a file without mcpServers")
	}
}

// --- Copilot CLI ---

// The reference calls tools required; Copilot CLI 1.0 defaults it to ["*"].
func TestCopilotCLI_ToolsOptional_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "good/no-tools.json")
}

func TestCopilotCLI_EmptyCommandAccepted_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "good/empty-command.json")
}

// Without type, an entry with only url is an http server, not a local one.
func TestCopilotCLI_URLOnlyIsHTTP_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "good/url-only.json")
	remote, err := Branch(CopilotCLI, "remoteServer")
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Validate(decode(t, `{"url": "https://learn.microsoft.com/api/mcp"}`)); err != nil {
		t.Errorf("remoteServer rejected a url-only entry:\n%s", describe(leaves(err)))
	}
}

func TestCopilotCLI_TypeLocalAndStdioAccepted_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "good/user-config.json")
	checkFile(t, CopilotCLI, "good/claude-style.json")
}

func TestCopilotCLI_WSRejected_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/ws-type.json")
}

func TestCopilotCLI_TypeCaseSensitive_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/type-uppercase.json")
}

func TestCopilotCLI_ArgsStringRejected_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/args-string.json")
}

func TestCopilotCLI_EnvNumberRejected_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/env-number.json")
}

// enabled in the file is ignored by Copilot CLI 1.0 (enablement is a CLI
// setting), so a user who writes "enabled": false must be told.
func TestCopilotCLI_EnabledKeyFlagged_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/enabled-key.json")
}

// --- OpenCode ---

func TestOpenCode_CommandStringRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/command-string.json")
}

func TestOpenCode_EmptyCommandAccepted_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "good/empty-command.json")
}

func TestOpenCode_OAuthTrueRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/oauth-true.json")
}

func TestOpenCode_OAuthFalseAccepted_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "good/remote.json")
}

func TestOpenCode_TimeoutZeroRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/timeout-zero.json")
}

func TestOpenCode_TimeoutNonIntegerRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/timeout-fraction.json")
}

func TestOpenCode_CallbackPortOutOfRangeRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/callback-port-range.json")
}

func TestOpenCode_TypeMissingRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/type-missing.json")
}

func TestOpenCode_TypeStdioRejected_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/type-stdio.json")
}

// OpenCode does not check the url's syntax (any string is accepted).
func TestOpenCode_URLNotChecked_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "good/url-any-string.json")
}

// OpenCode 1.18 strips env silently (its published schema says
// additionalProperties false), so the variables never reach the server.
func TestOpenCode_EnvInsteadOfEnvironmentFlagged_VerifiedOpenCode1_18(t *testing.T) {
	checkFile(t, OpenCode, "bad/env-not-environment.json")
}

// Only mcp is checked: model, theme, agent, tools... must not be flagged.
func TestOpenCode_OtherSettingsNotFlagged(t *testing.T) {
	checkFile(t, OpenCode, "good/local.json")
}

// {"enabled": false} overrides a server from another file (configs are
// deep-merged field by field; OpenCode's schema has this union member).
func TestOpenCode_EnabledOverrideAccepted(t *testing.T) {
	checkFile(t, OpenCode, "good/enabled-override.json")
}

// --- VS Code (from VS Code's own mcp.json schema and types) ---

func TestVSCode_InputWithoutDescriptionRejected(t *testing.T) {
	checkFile(t, VSCode, "bad/input-no-description.json")
}

func TestVSCode_MCPServersDeprecatedButAccepted(t *testing.T) {
	checkFile(t, VSCode, "good/legacy-mcpservers.json")
	root, err := Compiled(VSCode)
	if err != nil {
		t.Fatal(err)
	}
	if !root.Properties["mcpServers"].Deprecated {
		t.Error("mcpServers is not marked deprecated")
	}
}

// type may be left out: url selects the remote shape, command stdio.
func TestVSCode_TypeInferred(t *testing.T) {
	checkFile(t, VSCode, "good/remote.json")
	checkFile(t, VSCode, "good/stdio-inputs.json")
}

// --- Claude Desktop ---

// The file also holds the app's own settings (preferences, ...).
func TestClaudeDesktop_OtherTopLevelKeysNotFlagged(t *testing.T) {
	checkFile(t, ClaudeDesktop, "good/preferences.json")
}

// Copilot CLI reads Claude Code's oauth object and checks its callbackPort
// (seen by TestOracle in lsp/oracle_test.go on agreement scenario
// claude-entry-fields-2-1-328); other oauth keys are ignored.
func TestCopilotCLI_OAuthCallbackPortChecked_VerifiedCopilotCLI1_0(t *testing.T) {
	checkFile(t, CopilotCLI, "bad/oauth-callback-port-zero.json")
	checkFile(t, CopilotCLI, "good/oauth-object.json")
}
