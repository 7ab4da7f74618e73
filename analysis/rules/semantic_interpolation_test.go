package rules

import (
	"strings"
	"testing"
)

// The scanner's own tests (syntaxes, nesting, escapes, spans) are in
// package interp; these check the rules built on it.

func TestDollarVarInOpenCode_StaysLiteral_VerifiedOpenCode1_18(t *testing.T) {
	src := `{"mcp": {"gh": {"type": "remote", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}}}}`
	d := wantOne(t, semantics(t, "opencode.json", src), CodeForeignInterpolation, spanOf(t, src, "${GITHUB_TOKEN}", 0), SeverityWarning,
		`OpenCode does not expand ${GITHUB_TOKEN}: it stays literal text (that is the syntax of Claude Code, GitHub Copilot CLI, Gemini CLI, Qwen Code and Kiro; write {env:GITHUB_TOKEN})`)
	wantData(t, d, FixKey, Fix{Kind: FixReplaceReference, Value: "{env:GITHUB_TOKEN}", Variable: "GITHUB_TOKEN", Safe: true})
	wantData(t, d, "variable", "GITHUB_TOKEN")
}

func TestOpenCodeSyntaxInMCPJSON_BothKeepItLiteral(t *testing.T) {
	src := `{"mcpServers": {"gh": {"command": "x", "env": {"GITHUB_TOKEN": "{env:GITHUB_TOKEN}"}}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeForeignInterpolation, spanOf(t, src, "{env:GITHUB_TOKEN}", 0), SeverityWarning,
		`Claude Code and GitHub Copilot CLI do not expand {env:GITHUB_TOKEN}: it stays literal text (that is the syntax of OpenCode; write ${GITHUB_TOKEN}, which both expand)`)
}

func TestBareDollarVar_CopilotExpandsClaudeDoesNot(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "x", "env": {"DATA": "$HOME/data"}}}}`
	wantOne(t, semantics(t, ".mcp.json", src), CodeForeignInterpolation, spanOf(t, src, "$HOME", 0), SeverityWarning,
		`Claude Code does not expand $HOME: it stays literal text (GitHub Copilot CLI expands it; write ${HOME}, which both expand)`)
}

func TestBareDollarVar_IgnoredInArgsAndShellScripts(t *testing.T) {
	src := `{"mcpServers": {"a": {"command": "x", "args": ["$HOME/x"]}, "b": {"command": "sh", "args": ["-c", "exec server --root ${HOME}"]}}}`
	wantNone(t, semantics(t, ".mcp.json", src), CodeForeignInterpolation)
}

func TestBareDollarBraceVarInVSCode_NotResolved(t *testing.T) {
	// microsoft/vscode PR #303156: VS Code resolves ${env:VAR}, not ${VAR}.
	src := "{\"servers\": {\"api\": {\"type\": \"http\", \"url\": \"https://x.example.com\", \"headers\": {\"X-Key\": \"\\u0024{API_KEY}\"}}}}"
	wantOne(t, semantics(t, ".vscode/mcp.json", src), CodeForeignInterpolation, spanOf(t, src, `\u0024{API_KEY}`, 0), SeverityWarning,
		`VS Code does not expand ${API_KEY}: it stays literal text (that is the syntax of Claude Code, GitHub Copilot CLI, Gemini CLI, Qwen Code and Kiro; write ${env:API_KEY})`)
}

func TestVSCodeVariableInClaudeFile(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "x", "args": ["${workspaceFolder}/src", "${userHome}"]}}}`
	ds := only(semantics(t, ".mcp.json", src), CodeForeignInterpolation)
	if len(ds) != 2 {
		t.Fatalf("got\n%s", dump(ds))
	}
	if want := `Claude Code does not expand ${workspaceFolder}: it stays literal text (that is the syntax of VS Code, Cursor, Roo Code and Kilo Code)`; ds[0].Message != want {
		t.Errorf("got  %s\nwant %s", ds[0].Message, want)
	}
	// Copilot CLI expands nothing in args: only Claude Code is concerned.
	wantData(t, ds[1], "tools", []string{"claude-code"})
	// The fix names the variable as the reference spells it.
	wantData(t, ds[1], FixKey, Fix{Kind: FixReplaceReference, Value: "${HOME}", Variable: "userHome", Safe: true})
}

// TestCursorDocumentedForms: Cursor's variables come from its docs
// (confirmed), so a ${VAR} it keeps as text is said without "may".
func TestCursorDocumentedForms(t *testing.T) {
	src := `{"mcpServers": {"api": {"url": "https://x.example.com", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`
	ds := only(semantics(t, ".cursor/mcp.json", src), CodeForeignInterpolation)
	if len(ds) != 1 || ds[0].Message != `Cursor does not expand ${TOKEN}: it stays literal text (that is the syntax of Claude Code, GitHub Copilot CLI, Gemini CLI, Qwen Code and Kiro; write ${env:TOKEN})` {
		t.Errorf("got\n%s", dump(ds))
	}
}

// TestCursorPredefinedVariables: Cursor expands the predefined variables
// its docs list (${workspaceFolderBasename}, ${pathSeparator}, ${/}), and
// no other of VS Code's (${file}), as the converters read them too.
func TestCursorPredefinedVariables(t *testing.T) {
	src := `{"mcpServers": {"s": {"command": "x", "args": ["${workspaceFolderBasename}${/}a", "${pathSeparator}", "${userHome}", "${file}"]}}}`
	ds := only(semantics(t, ".cursor/mcp.json", src), CodeForeignInterpolation)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "Cursor does not expand ${file}") {
		t.Errorf("want one finding, about ${file}; got\n%s", dump(ds))
	}
}

func TestDefaultValueNeverShown(t *testing.T) {
	src := `{"mcp": {"x": {"type": "local", "command": ["x"], "environment": {"A": "${A:-some default}"}}}}`
	d := only(semantics(t, "opencode.json", src), CodeForeignInterpolation)
	if len(d) != 1 || d[0].Message != `OpenCode does not expand ${A:-…}: it stays literal text (that is the syntax of Claude Code, GitHub Copilot CLI, Gemini CLI, Qwen Code and Kiro; write {env:A})` {
		t.Errorf("got\n%s", dump(d))
	}
}

func TestUndefinedInput_VSCodeCannotStart(t *testing.T) {
	src := `{"inputs": [{"type": "promptString", "id": "token", "description": "t"}, {"type": "promptString", "id": "gh-token", "description": "t"}], "servers": {"gh": {"type": "http", "url": "https://x.example.com", "headers": {"A": "${input:token}", "B": "${input:tokn}"}}}}`
	d := wantOne(t, semantics(t, ".vscode/mcp.json", src), CodeUndefinedInput, spanOf(t, src, "${input:tokn}", 0), SeverityError,
		`VS Code cannot start server "gh": ${input:tokn} is not declared in "inputs"; add an input with "id": "tokn"`)
	wantData(t, d, "variable", "tokn")

	src = strings.Replace(src, "${input:tokn}", "${input:GH_TOKEN}", 1)
	d = wantOne(t, semantics(t, ".vscode/mcp.json", src), CodeUndefinedInput, spanOf(t, src, "${input:GH_TOKEN}", 0), SeverityError,
		`VS Code cannot start server "gh": ${input:GH_TOKEN} is not declared in "inputs"; did you mean ${input:gh-token}?`)
	wantData(t, d, FixKey, Fix{Kind: FixReplaceReference, Value: "${input:gh-token}", Variable: "GH_TOKEN"})
}

func TestUndefinedInput_NoInputsAtAll(t *testing.T) {
	src := `{"servers": {"gh": {"command": "x", "env": {"T": "${input:token}"}}}}`
	if len(only(semantics(t, ".vscode/mcp.json", src), CodeUndefinedInput)) != 1 {
		t.Error("want undefined-input")
	}
}

func TestInputInClaudeFile_Foreign(t *testing.T) {
	src := `{"mcpServers": {"gh": {"command": "x", "env": {"T": "${input:token}"}}}}`
	ds := semantics(t, ".mcp.json", src)
	wantNone(t, ds, CodeUndefinedInput)
	wantOne(t, ds, CodeForeignInterpolation, spanOf(t, src, "${input:token}", 0), SeverityWarning,
		`Claude Code and GitHub Copilot CLI do not expand ${input:token}: it stays literal text (that is the syntax of VS Code)`)
}

func TestMissingFileReference_OpenCodeRefusesWholeConfig(t *testing.T) {
	src := `{
  // {file:} works in any string, not only in servers
  "provider": {"x": {"options": {"apiKey": "{file:./keys/provider.txt}"}}},
  "mcp": {"gh": {"type": "remote", "url": "https://x.example.com", "headers": {"Authorization": "Bearer {file:~/.secrets/gh}"}}}
}`
	res := fakeResolver{files: map[string]bool{"/work/proj/keys/provider.txt": true}}
	ds := semantics(t, "opencode.jsonc", src, withResolver(res))
	d := wantOne(t, ds, CodeMissingFileReference, spanOf(t, src, "{file:~/.secrets/gh}", 0), SeverityError,
		`OpenCode refuses the whole configuration: {file:~/.secrets/gh} names a file that does not exist ("bad file reference")`)
	wantData(t, d, "path", "~/.secrets/gh")

	// Without a resolver the rule is off.
	wantNone(t, semantics(t, "opencode.jsonc", src), CodeMissingFileReference)
	// Relative paths resolve against the file's directory.
	ds = semantics(t, "sub/opencode.json", `{"mcp": {}, "x": "{file:../keys/provider.txt}"}`, withResolver(res))
	wantNone(t, ds, CodeMissingFileReference)
}

func TestVSCodeEnvSyntaxInOpenCode_LeavesDollar(t *testing.T) {
	src := `{"mcp": {"x": {"type": "local", "command": ["x"], "environment": {"K": "${env:API_KEY}"}}}}`
	wantOne(t, semantics(t, "opencode.json", src), CodeForeignInterpolation, spanOf(t, src, "${env:API_KEY}", 0), SeverityWarning,
		`OpenCode does not expand ${env:API_KEY}: only its {env:API_KEY} part is replaced, which leaves a stray "$" (that is the syntax of VS Code, Cursor, Roo Code, Kilo Code and Windsurf; write {env:API_KEY})`)
}

// TestNestedDefault_ReadAsTheToolsDo: "${A:-${B}}" is A with the default
// "${B" and a literal "}" (Claude Code's /\$\{([^}]+)\}/): one reference,
// whose span ends at the first "}", and no reference to B.
func TestNestedDefault_ReadAsTheToolsDo(t *testing.T) {
	src := `{"mcp": {"x": {"type": "local", "command": ["x"], "environment": {"K": "é ${A:-${B}}"}}}}`
	d := wantOne(t, semantics(t, "opencode.json", src), CodeForeignInterpolation, spanOf(t, src, "${A:-${B}", 0), SeverityWarning,
		`OpenCode does not expand ${A:-…}: it stays literal text (that is the syntax of Claude Code, GitHub Copilot CLI, Gemini CLI, Qwen Code and Kiro; write {env:A})`)
	wantData(t, d, "variable", "A")
	// The default would be lost: not safe.
	wantData(t, d, FixKey, Fix{Kind: FixReplaceReference, Value: "{env:A}", Variable: "A"})
	wantNone(t, semantics(t, ".mcp.json", `{"mcpServers": {"x": {"command": "x", "env": {"K": "${A:-${B}}"}}}}`), CodeForeignInterpolation)
}
