package rules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Tests of the schema checks. They call checkSchema directly, not
// AnalyzeFile, so that a semantic rule reporting on the same span (which
// would rightly replace a generic finding) cannot change them; the
// interplay is tested on its own (TestSchema_GenericCodesYieldToSpecific).
// Names ending in _Verified<Tool><Version> pin a fact observed by running
// that release (shared/formats.md, "Verified by running the real tools").

// finding is a diagnostic as the tests compare it: the flagged text
// instead of offsets, so expectations read like the file.
type finding struct {
	At       string
	Severity Severity
	Code     string
	Message  string
}

func (f finding) String() string {
	return fmt.Sprintf("%s %s at %s: %s", f.Severity, f.Code, f.At, f.Message)
}

// schemaCheckFile runs checkSchema on src as the file kind kindID, for the
// given tools (all readers when none).
func schemaCheckFile(t *testing.T, kindID, src string, tools ...registry.ToolID) []Diagnostic {
	t.Helper()
	reg := registry.Default()
	k, ok := reg.Kind(kindID)
	if !ok {
		t.Fatalf("no file kind %q", kindID)
	}
	cfg := Config{Tools: tools}
	in := FileInput{Path: "/w/" + kindID, Content: []byte(src), Parsed: jsonc.Parse([]byte(src)), Registry: reg, Config: cfg}
	in.Kind = restrictReaders(k, &cfg)
	ds := checkSchema(in)
	SortDiagnostics(ds)
	checkInvariants(t, src, ds)
	return ds
}

// checkInvariants holds for every schema finding: a known code, a span of
// at least two bytes inside the file and never the whole of a longer
// file, JSON-encodable Data naming the tools.
func checkInvariants(t *testing.T, src string, ds []Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if _, ok := RuleByCode(d.Code); !ok || !slices.ContainsFunc(schemaRules, func(r Rule) bool { return r.Code == d.Code }) {
			t.Errorf("code %q is not a schema rule", d.Code)
		}
		if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Len() < 2 {
			t.Errorf("%s: bad span %v in a %d-byte file", d.Code, d.Span, len(src))
		}
		if d.Span.Len() == len(strings.TrimSpace(src)) && len(strings.TrimSpace(src)) > 2 {
			t.Errorf("%s: whole-file span", d.Code)
		}
		if _, err := json.Marshal(d.Data); err != nil {
			t.Errorf("%s: Data does not encode: %v", d.Code, err)
		}
		if tools, _ := d.Data["tools"].([]string); len(tools) == 0 {
			t.Errorf("%s: Data has no tools: %v", d.Code, d.Data)
		}
	}
}

func findings(src string, ds []Diagnostic) []finding {
	out := make([]finding, len(ds))
	for i, d := range ds {
		out[i] = finding{At: src[d.Span.Start:d.Span.End], Severity: d.Severity, Code: d.Code, Message: d.Message}
	}
	return out
}

func expect(t *testing.T, src string, ds []Diagnostic, want ...finding) {
	t.Helper()
	got := findings(src, ds)
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		var b strings.Builder
		for _, g := range got {
			fmt.Fprintf(&b, "\n\t%#v,", g)
		}
		t.Errorf("got %d findings, want %d:%s", len(got), len(want), b.String())
	}
}

// --- .mcp.json: Claude Code and Copilot CLI, reconciled ---

func TestSchema_TypeLocal_SkippedByClaudeOnly_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"mcpServers": {"fs": {"type": "local", "command": "npx"}}}`
	ds := schemaCheckFile(t, "mcp-json", src)
	expect(t, src, ds, finding{`"local"`, SeverityError, CodeUnknownServerType,
		`Claude Code skips server "fs": unknown type "local" (GitHub Copilot CLI accepts it; "stdio" works in both)`})
	want := map[string]any{"server": "fs", "tools": []string{"claude-code"}, "field": "type",
		"validValues": []string{"stdio", "sse", "http", "streamable-http"},
		// A guess from the spelling: not safe for fix-all.
		FixKey: Fix{Kind: FixReplaceValue, Key: "type", Value: "stdio"}}
	if !reflect.DeepEqual(ds[0].Data, want) {
		t.Errorf("Data = %#v\nwant %#v", ds[0].Data, want)
	}
}

func TestSchema_TypeCaseSensitive_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"mcpServers": {"gh": {"type": "HTTP", "url": "https://api.githubcopilot.com/mcp/"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"HTTP"`, SeverityError, CodeUnknownServerType,
		`Claude Code and GitHub Copilot CLI skip server "gh": unknown type "HTTP" ("http" works in both)`})
}

func TestSchema_WSSkippedByCopilotOnly_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"w": {"type": "ws", "url": "wss://example.com/ws"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"ws"`, SeverityError, CodeUnknownServerType,
		`GitHub Copilot CLI skips server "w": unknown type "ws" (Claude Code accepts it; types that work in both: "stdio", "sse", "http", "streamable-http")`})
}

func TestSchema_TypeNotAString(t *testing.T) {
	src := `{"mcpServers": {"x": {"type": 12, "command": "npx"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`12`, SeverityError, CodeUnknownServerType,
		`Claude Code and GitHub Copilot CLI skip server "x": "type" must be a string, not a number (types that work in both: "stdio", "sse", "http", "streamable-http")`})
}

func TestSchema_ArgsString_VerifiedClaudeCode2_1_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "args": "-y server"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"-y server"`, SeverityError, CodeInvalidFieldValue,
		`Claude Code and GitHub Copilot CLI skip server "fs": "args" must be an array of strings, not a string`})
}

func TestSchema_EmptyCommand_VerifiedClaudeCode2_1_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": ""}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`""`, SeverityError, CodeInvalidFieldValue,
		`Claude Code skips server "fs": "command" must not be empty (GitHub Copilot CLI accepts it)`})
}

// A one-byte value is flagged with its key: a one-character squiggle is
// too easy to miss.
func TestSchema_EnvNumber_VerifiedClaudeCode2_1_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"db": {"command": "psql", "env": {"PGPORT": 5, "PGPASSWORD": "hunter2"}}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"PGPORT": 5`, SeverityError, CodeInvalidFieldValue,
		`Claude Code and GitHub Copilot CLI skip server "db": "env.PGPORT" must be a string, not a number`})
}

func TestSchema_UnknownKeyEveryToolDrops_VerifiedClaudeCode2_1_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"gh": {"transport": "http", "url": "https://api.githubcopilot.com/mcp/"}}}`
	ds := schemaCheckFile(t, "mcp-json", src)
	expect(t, src, ds,
		finding{`"gh"`, SeverityError, CodeMissingField, `Claude Code skips server "gh": "command" is missing (GitHub Copilot CLI accepts it)`},
		finding{`"transport"`, SeverityWarning, CodeUnknownKey, `unknown key "transport" in server "gh": Claude Code and GitHub Copilot CLI ignore it; did you mean "type"?`},
		finding{`"url"`, SeverityInformation, CodeKeyIgnoredByTool, `Claude Code ignores "url" in server "gh", which it reads as a stdio server (GitHub Copilot CLI uses it)`},
	)
	wantData(t, ds[1], FixKey, Fix{Kind: FixRenameKey, Key: "transport", Value: "type"})
}

func TestSchema_KeyOneReaderUses_IsANote(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "tools": ["*"]}}}`
	ds := schemaCheckFile(t, "mcp-json", src)
	expect(t, src, ds, finding{`"tools"`, SeverityInformation, CodeKeyIgnoredByTool,
		`Claude Code ignores "tools" in server "fs" (GitHub Copilot CLI uses it)`})
	want := map[string]any{"server": "fs", "tools": []string{"claude-code"}, "usedBy": []string{"copilot-cli"}, "key": "tools", "field": "tools"}
	if !reflect.DeepEqual(ds[0].Data, want) {
		t.Errorf("Data = %#v\nwant %#v", ds[0].Data, want)
	}
}

// With only Claude Code in the user's tools, nobody uses "tools".
func TestSchema_KeyOneReaderUses_OnlyClaudeConfigured(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "tools": ["*"]}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src, "claude-code"), finding{`"tools"`, SeverityWarning, CodeUnknownKey,
		`unknown key "tools" in server "fs": Claude Code ignores it`})
}

// enabled is not a Copilot CLI field: it is ignored (enablement is a CLI
// setting), and Claude Code does not know it either.
func TestSchema_EnabledIgnored_VerifiedCopilotCLI1_0(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "enabled": false}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"enabled"`, SeverityWarning, CodeUnknownKey,
		`unknown key "enabled" in server "fs": Claude Code and GitHub Copilot CLI ignore it`})
}

func TestSchema_KeyOfAnotherShape(t *testing.T) {
	src := `{"mcpServers": {"r": {"type": "http", "url": "https://x.example/mcp", "cwd": "/srv"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"cwd"`, SeverityWarning, CodeUnknownKey,
		`unknown key "cwd" in server "r": Claude Code and GitHub Copilot CLI ignore it (GitHub Copilot CLI reads it only in a local server)`})
}

// A reader that ignores a key does not "accept" its bad value.
func TestSchema_BadValueOfAKeyOneReaderIgnores(t *testing.T) {
	src := `{"mcpServers": {"c": {"command": "uvx", "tools": 5}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src),
		finding{`"tools"`, SeverityInformation, CodeKeyIgnoredByTool, `Claude Code ignores "tools" in server "c" (GitHub Copilot CLI uses it)`},
		finding{`"tools": 5`, SeverityError, CodeInvalidFieldValue, `GitHub Copilot CLI skips server "c": "tools" must be an array of strings, not a number`},
	)
}

// Claude Code 2.1.328 validates "timeout" (a positive integer, in ms) and
// skips the entry for 0, like Copilot CLI (verified).
func TestSchema_TimeoutValidated_VerifiedClaudeCode2_1_328(t *testing.T) {
	src := `{"mcpServers": {"c": {"command": "uvx", "timeout": 0}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src),
		finding{`"timeout": 0`, SeverityError, CodeInvalidFieldValue, `Claude Code and GitHub Copilot CLI skip server "c": "timeout" must be a positive integer`},
	)
}

func TestSchema_MissingFieldOnName(t *testing.T) {
	src := `{"mcpServers": {"events": {"type": "sse"}}}`
	ds := schemaCheckFile(t, "mcp-json", src)
	expect(t, src, ds, finding{`"events"`, SeverityError, CodeMissingField,
		`Claude Code and GitHub Copilot CLI skip server "events": "url" is missing`})
	if got := ds[0].Data["fields"]; !reflect.DeepEqual(got, []string{"url"}) {
		t.Errorf("fields = %v", got)
	}
}

func TestSchema_DependentRequired(t *testing.T) {
	src := `{"mcpServers": {"c": {"type": "http", "url": "https://x.example/mcp", "oauthScopes": ["repo"]}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src, "copilot-cli"), finding{`"c"`, SeverityError, CodeMissingField,
		`GitHub Copilot CLI skips server "c": "oauthClientId" is missing ("oauthScopes" needs it)`})
}

// A reader that ignores a whole object has no opinion about its insides.
func TestSchema_NestedObject(t *testing.T) {
	src := `{"mcpServers": {"o": {"type": "http", "url": "https://x.example/mcp", "oauth": {"callbackPort": 0, "clientID": "a"}}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src),
		finding{`"callbackPort": 0`, SeverityError, CodeInvalidFieldValue, `Claude Code skips server "o": "oauth.callbackPort" must be a positive integer; GitHub Copilot CLI skips server "o": "oauth.callbackPort" must be between 1 and 65535`},
		finding{`"clientID"`, SeverityWarning, CodeUnknownKey, `unknown key "clientID" in "oauth" of server "o": Claude Code and GitHub Copilot CLI ignore it; did you mean "clientId"?`},
	)
}

func TestSchema_EnumValue(t *testing.T) {
	src := `{"mcpServers": {"c": {"command": "npx", "deferTools": "sometimes"}}}`
	ds := schemaCheckFile(t, "mcp-json", src, "copilot-cli")
	expect(t, src, ds, finding{`"sometimes"`, SeverityError, CodeInvalidFieldValue,
		`GitHub Copilot CLI skips server "c": "deferTools" must be one of "auto", "never", not "sometimes"`})
	if got := ds[0].Data["validValues"]; !reflect.DeepEqual(got, []string{"auto", "never"}) {
		t.Errorf("validValues = %v", got)
	}
}

func TestSchema_ServerNotObject(t *testing.T) {
	src := `{"mcpServers": {"a": "npx server", "b": 1, "c": null}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src),
		finding{`"npx server"`, SeverityError, CodeServerNotObject, `Claude Code and GitHub Copilot CLI skip server "a": the definition must be an object, not a string`},
		finding{`"b": 1`, SeverityError, CodeServerNotObject, `Claude Code and GitHub Copilot CLI skip server "b": the definition must be an object, not a number`},
		finding{`null`, SeverityError, CodeServerNotObject, `Claude Code and GitHub Copilot CLI skip server "c": the definition must be an object, not null`},
	)
}

func TestSchema_ServerMapNotObject(t *testing.T) {
	src := `{"mcpServers": [{"command": "npx"}]}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"mcpServers"`, SeverityError, CodeServerMapNotObject,
		`"mcpServers" must be an object mapping server names to their definitions, not an array; Claude Code and GitHub Copilot CLI drop the whole file`})
	src = `{"mcp": "none"}`
	expect(t, src, schemaCheckFile(t, "opencode-project", src), finding{`"none"`, SeverityError, CodeServerMapNotObject,
		`"mcp" must be an object mapping server names to their definitions, not a string; OpenCode refuses the whole configuration`})
}

// --- the server map itself ---

func TestSchema_MissingServerMap_ClaudeCodeMcpJSON_Reported(t *testing.T) {
	src := `{}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`{}`, SeverityWarning, CodeMissingServerMap,
		`the file has no "mcpServers" object, so it declares no servers; Claude Code refuses a project .mcp.json without it (reported)`})
	src = "{\n  \"servers\": {\"fs\": {\"command\": \"npx\"}}\n}"
	ds := schemaCheckFile(t, "mcp-json", src)
	expect(t, src, ds, finding{`"servers"`, SeverityWarning, CodeMissingServerMap,
		`the file has no "mcpServers" object, so it declares no servers; Claude Code refuses a project .mcp.json without it (reported); rename "servers" to "mcpServers"`})
	wantData(t, ds[0], FixKey, Fix{Kind: FixRenameKey, Key: "servers", Value: "mcpServers"})
	src = `{"version": 1}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"version"`, SeverityWarning, CodeMissingServerMap,
		`the file has no "mcpServers" object, so it declares no servers; Claude Code refuses a project .mcp.json without it (reported)`})
}

// Where a missing map only means "no servers", nothing is said; nor while
// the file has syntax errors (it is being typed).
func TestSchema_MissingServerMap_OnlyWhereRefused(t *testing.T) {
	for kind, src := range map[string]string{
		"opencode-project":  `{"theme": "tokyonight"}`,
		"claude-user-state": `{"numStartups": 3, "projects": {"/home/dev/app": {"allowedTools": []}}}`,
		"claude-desktop":    `{"preferences": {"quickEntry": true}}`,
		"vscode-workspace":  `{"inputs": []}`,
		"github-mcp-json":   `{}`,
	} {
		if ds := schemaCheckFile(t, kind, src); len(ds) > 0 {
			t.Errorf("%s: %v", kind, findings(src, ds))
		}
	}
	if ds := schemaCheckFile(t, "mcp-json", `{"x": 1,`); len(ds) > 0 {
		t.Errorf("half-typed file: %v", ds)
	}
	if ds := schemaCheckFile(t, "mcp-json", `[]`); len(ds) > 0 {
		t.Errorf("non-object file: %v", ds)
	}
}

// --- other files and dialects ---

func TestSchema_OpenCode_VerifiedOpenCode1_18(t *testing.T) {
	src := `{
  "theme": "tokyonight", "keybinds": {"leader": "ctrl+x"},
  "mcp": {
    "a": {"type": "stdio", "command": ["npx"]},
    "b": {"command": "npx", "env": {"TOKEN": "{env:TOKEN}"}},
    "c": {"type": "remote", "url": "https://x.example/mcp", "oauth": true, "timeout": 0},
    "d": {"type": "local", "command": []},
    "e": {"enabled": false}
  }
}`
	expect(t, src, schemaCheckFile(t, "opencode-project", src),
		finding{`"stdio"`, SeverityError, CodeUnknownServerType, `OpenCode refuses the whole configuration because of server "a": unknown type "stdio" (use "local"; valid: "local", "remote")`},
		finding{`"b"`, SeverityError, CodeMissingField, `OpenCode refuses the whole configuration because of server "b": "type" is missing (use "local")`},
		finding{`"npx"`, SeverityError, CodeInvalidFieldValue, `OpenCode refuses the whole configuration because of server "b": "command" must be an array of strings, not a string`},
		finding{`"env"`, SeverityWarning, CodeUnknownKey, `unknown key "env" in server "b": OpenCode ignores it; did you mean "environment"?`},
		finding{`true`, SeverityError, CodeInvalidFieldValue, `OpenCode refuses the whole configuration because of server "c": "oauth" must be false`},
		finding{`"timeout": 0`, SeverityError, CodeInvalidFieldValue, `OpenCode refuses the whole configuration because of server "c": "timeout" must be a positive integer`},
	)
}

func TestSchema_OpenCodeEmptyEntry(t *testing.T) {
	src := `{"mcp": {"x": {}}}`
	expect(t, src, schemaCheckFile(t, "opencode-project", src), finding{`"x"`, SeverityError, CodeMissingField,
		`OpenCode refuses the whole configuration because of server "x": "enabled" is missing (an entry without "type", "command" or "url" can only turn a server from another config file on or off)`})
}

func TestSchema_ClaudeDesktop(t *testing.T) {
	src := `{"mcpServers": {"remote": {"type": "http", "url": "https://x.example/mcp"}, "fs": {"command": "npx", "cwd": "/"}}, "preferences": {"menuBarEnabled": false}}`
	expect(t, src, schemaCheckFile(t, "claude-desktop", src),
		finding{`"http"`, SeverityError, CodeUnknownServerType, `Claude Desktop may not load server "remote": unknown type "http" (valid: "stdio")`},
		finding{`"cwd"`, SeverityWarning, CodeUnknownKey, `unknown key "cwd" in server "fs": Claude Desktop ignores it`},
	)
}

func TestSchema_ClaudeJSON_OnlyServersChecked_VerifiedClaudeCode2_1(t *testing.T) {
	src := `{"numStartups": 3, "theme": "dark", "mcpServers": {"u": {"command": "uvx"}},
  "projects": {"/home/dev/app": {"allowedTools": [], "history": [{"display": "x"}],
    "mcpServers": {"l": {"type": "local", "command": "npx"}}}}}`
	expect(t, src, schemaCheckFile(t, "claude-user-state", src), finding{`"local"`, SeverityError, CodeUnknownServerType,
		`Claude Code skips server "l": unknown type "local" (use "stdio"; valid: "stdio", "sse", "http", "streamable-http", "ws")`})
}

func TestSchema_VSCodeInputsAndServers(t *testing.T) {
	src := `{
  "inputs": [
    {"type": "promptString", "id": "token", "password": true},
    {"type": "pickString", "id": "env", "description": "Environment", "options": ["dev", {"label": "Prod"}]}
  ],
  "servers": {"s": {"type": "streamable-http", "url": "https://x.example/mcp"}}
}`
	expect(t, src, schemaCheckFile(t, "vscode-workspace", src),
		finding{`"token"`, SeverityError, CodeMissingField, `VS Code may not load input "token": "description" is missing`},
		finding{`{"label": "Prod"}`, SeverityError, CodeMissingField, `VS Code may not load input "env": "options[1].value" is missing`},
		finding{`"streamable-http"`, SeverityError, CodeUnknownServerType, `VS Code may not load server "s": unknown type "streamable-http" (use "http"; valid: "stdio", "http", "sse")`},
	)
	src = `{"inputs": ["token"]}`
	expect(t, src, schemaCheckFile(t, "vscode-workspace", src), finding{`"token"`, SeverityError, CodeInvalidFieldValue,
		`"inputs[0]" must be an object, not a string; VS Code may not read it`})
	src = `{"inputs": {"id": "x"}}`
	expect(t, src, schemaCheckFile(t, "vscode-workspace", src), finding{`{"id": "x"}`, SeverityError, CodeInvalidFieldValue,
		`"inputs" must be an array of input definitions, not an object; VS Code may not read it`})
}

// --- robustness ---

// An entry holding a syntax error is not validated (the syntax error
// explains it; strict readers drop the file anyway); its neighbours are.
func TestSchema_EntryWithSyntaxErrorSkipped(t *testing.T) {
	src := `{"mcpServers": {"a": {"type": }, "b": {"type": "local", "command": "x"}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src, "claude-code"), finding{`"local"`, SeverityError, CodeUnknownServerType,
		`Claude Code skips server "b": unknown type "local" (use "stdio"; valid: "stdio", "sse", "http", "streamable-http", "ws")`})
}

// Only the last of duplicate names is read by the tools, so only it is
// checked (the earlier ones are flagged as duplicates by the syntax checks).
func TestSchema_DuplicateNames_LastChecked(t *testing.T) {
	src := `{"mcpServers": {"a": {"type": "local", "command": "x"}, "a": {"command": 1}}}`
	expect(t, src, schemaCheckFile(t, "mcp-json", src, "claude-code"), finding{`"command": 1`, SeverityError, CodeInvalidFieldValue,
		`Claude Code skips server "a": "command" must be a string, not a number`})
}

// Identical entry text at different offsets (a memo hit) is reported at
// each entry's own place.
func TestSchema_MemoRebasesSpans(t *testing.T) {
	src := `{"mcpServers": {"a": {"command": "x", "args": "y"}, "bb": {"command": "x", "args": "y"}}}`
	for range 2 {
		ds := schemaCheckFile(t, "mcp-json", src, "claude-code")
		if len(ds) != 2 || ds[0].Span == ds[1].Span {
			t.Fatalf("got %v", ds)
		}
		for _, d := range ds {
			if got := src[d.Span.Start:d.Span.End]; got != `"y"` {
				t.Errorf("flagged %q, want \"y\"", got)
			}
		}
	}
}

func TestSchema_CRLFAndUnicodeNames(t *testing.T) {
	src := "{\r\n  \"mcpServers\": {\r\n    \"café-日本-😀\": {\r\n      \"type\": \"sse\"\r\n    }\r\n  }\r\n}\r\n"
	expect(t, src, schemaCheckFile(t, "mcp-json", src), finding{`"café-日本-😀"`, SeverityError, CodeMissingField,
		`Claude Code and GitHub Copilot CLI skip server "café-日本-😀": "url" is missing`})
}

// No value of env, environment or headers reaches a message or Data, even
// when the entry has errors right next to it.
func TestSchema_NoSecretsInMessagesOrData(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	for kind, src := range map[string]string{
		"mcp-json":         `{"mcpServers": {"a": {"command": 1, "env": {"K": "` + secret + `", "N": 2}, "headers": {"Authorization": "` + secret + `"}, "x": "` + secret + `"}}}`,
		"opencode-project": `{"mcp": {"a": {"type": "remote", "url": "u", "headers": {"H": "` + secret + `", "N": 1}, "oauth": {"clientSecret": "` + secret + `", "scope": 1}}}}`,
		"vscode-workspace": `{"servers": {"a": {"url": "ftp://x", "headers": {"H": "` + secret + `", "N": 1}}}}`,
	} {
		ds := schemaCheckFile(t, kind, src)
		if len(ds) == 0 {
			t.Fatalf("%s: no findings", kind)
		}
		for _, d := range ds {
			data, _ := json.Marshal(d.Data)
			if strings.Contains(d.Message, secret) || strings.Contains(string(data), secret) {
				t.Errorf("%s: secret in %s: %s %s", kind, d.Code, d.Message, data)
			}
		}
	}
}

// The validator's error order is random; the findings are not.
func TestSchema_Deterministic(t *testing.T) {
	src := `{"mcpServers": {"a": {"command": "x", "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "env": {"A": 1, "B": 2, "C": 3}}}}`
	first := findings(src, schemaCheckFile(t, "mcp-json", src))
	for range 20 {
		if got := findings(src, schemaCheckFile(t, "mcp-json", src)); !reflect.DeepEqual(got, first) {
			t.Fatalf("order changed:\n%v\n%v", got, first)
		}
	}
	if len(first) != 8 {
		t.Errorf("want 5 unknown keys and 3 env values, got %v", first)
	}
}

// A specific (semantic) finding on the same span replaces the generic one;
// the structural codes stay.
func TestSchema_GenericCodesYieldToSpecific(t *testing.T) {
	for _, c := range []string{CodeUnknownServerType, CodeInvalidFieldValue, CodeMissingField, CodeUnknownKey, CodeKeyIgnoredByTool, CodeMissingServerMap} {
		if !genericCodes[c] {
			t.Errorf("%s is not generic", c)
		}
	}
	for _, c := range []string{CodeServerNotObject, CodeServerMapNotObject} {
		if genericCodes[c] {
			t.Errorf("%s is generic", c)
		}
	}
	src := `{"mcpServers": {"gh": {"transport": "http", "url": "https://x"}}}`
	ds := schemaCheckFile(t, "mcp-json", src)
	key := ds[slices.IndexFunc(ds, func(d Diagnostic) bool { return d.Code == CodeUnknownKey })].Span
	ds = append(ds, Diagnostic{Span: key, Severity: SeverityError, Code: "specific-rule", Message: "use type"})
	ds = dropGenericDuplicates(ds)
	if slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Code == CodeUnknownKey }) {
		t.Error("the generic unknown-key finding survived a specific one on its span")
	}
}

// A server that every reader accepts as meant gets nothing.
func TestSchema_ValidFilesAreQuiet(t *testing.T) {
	for kind, src := range map[string]string{
		"mcp-json": `{"mcpServers": {
			"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": {"A": "b"}},
			"st": {"type": "stdio", "command": "uvx"},
			"gh": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${T}"}},
			"sh": {"type": "streamable-http", "url": "https://x.example/mcp"},
			"ev": {"type": "sse", "url": "https://x.example/sse"}}}`,
		"opencode-project": `{"$schema": "https://opencode.ai/config.json", "mcp": {
			"fs": {"type": "local", "command": ["npx", "-y", "x"], "environment": {"A": "{env:A}"}, "enabled": true, "timeout": 5000},
			"r": {"type": "remote", "url": "https://x.example/mcp", "oauth": false, "headers": {"H": "v"}},
			"off": {"enabled": false}}}`,
		"copilot-user-config": `{"mcpServers": {"t": {"type": "local", "command": "uvx", "args": ["mcp-server-time"], "tools": ["*"], "timeout": 60000},
			"u": {"url": "https://learn.microsoft.com/api/mcp"}}}`,
		"vscode-workspace": `{"inputs": [{"type": "promptString", "id": "k", "description": "Key", "password": true}],
			"servers": {"m": {"command": "npx", "args": ["-y", "x"], "env": {"N": 1, "O": null}}, "h": {"url": "${input:k}"}}}`,
		"cursor-project": `{"mcpServers": {"a": {"command": "npx", "envFile": ".env"}, "b": {"url": "https://x.example/mcp", "auth": {"CLIENT_ID": "id"}}}}`,
		"claude-desktop": `{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}, "preferences": {}}`,
	} {
		if ds := schemaCheckFile(t, kind, src); len(ds) > 0 {
			t.Errorf("%s: %v", kind, findings(src, ds))
		}
	}
}
