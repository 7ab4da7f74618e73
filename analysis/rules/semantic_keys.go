package rules

import (
	"fmt"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Keys spelled as in another tool's format. A JSON Schema can say "unknown
// key"; only knowledge of the other formats can say "OpenCode calls this
// environment" (anomalyco/opencode#36434, sveltejs/cli#768) or
// "transport is not read, the key is type" (pixellab-code/pixellab-mcp#5).

// semForeignKey is a key some tools know and others spell differently.
type semForeignKey struct {
	replacement string   // the key the other tools use
	knownBy     []string // dialects that read the key
	consequence string   // what ignoring it costs, for the message
	fix         string
}

var semAllButOpenCode = []string{schemas.ClaudeCode, schemas.ClaudeDesktop, schemas.CodexCLI, schemas.CopilotCLI, schemas.Cursor, schemas.GeminiCLI, schemas.VSCode,
	schemas.RooCode, schemas.Zed, schemas.Kiro, schemas.Windsurf}

var semForeignKeys = map[string]semForeignKey{
	"env":         {"environment", semAllButOpenCode, "the server starts without these variables", `rename it to "environment"`},
	"environment": {"env", []string{schemas.OpenCode}, "the server starts without these variables", `rename it to "env"`},
	"args":        {"command", semAllButOpenCode, "the program starts without these arguments", `put the arguments into the "command" array, after the program`},
	// VS Code's remote server type has a "transport" field
	// (microsoft/vscode mcpPlatformTypes.ts); no other tool reads it.
	"transport": {"type", []string{schemas.VSCode}, `the transport comes from "type"`, `rename it to "type"`},
	"serverUrl": {"url", []string{schemas.Windsurf}, `the endpoint comes from "url"`, `rename it to "url"`},  // Windsurf's spelling
	"httpUrl":   {"url", []string{schemas.GeminiCLI}, `the endpoint comes from "url"`, `rename it to "url"`}, // Gemini CLI's spelling
}

// semForeignKeyOrder fixes the order in which keys are checked.
var semForeignKeyOrder = []string{"env", "environment", "args", "transport", "serverUrl", "httpUrl"}

// foreignKeys reports each foreign key of an entry once, on the key, saying
// what each reader does with a key it does not know (the registry's
// unknownKey effect): every verified tool drops it and loads the entry
// (OpenCode's schema strips it: an "env" there starts the server without
// those variables, verified with OpenCode 1.18.33).
func (c *semantic) foreignKeys(e *semEntry) {
	var vs semVerdicts // one list for every key: what is kept of it is copied
	for _, key := range semForeignKeyOrder {
		m := e.s.Field(key)
		if m == nil {
			continue
		}
		fk := semForeignKeys[key]
		if vs == nil {
			vs = make(semVerdicts, 0, len(e.readers))
		}
		vs = vs[:0]
		for i, r := range e.readers {
			if e.views[i] == "" || semTransportOf(e.views[i]) == semOverride {
				continue // skipped whole, or OpenCode's {"enabled": ...} (schema rules)
			}
			if fk.replacement != "" && !slices.Contains(fk.knownBy, string(r.Dialect)) && verdict.Modelled(r.Dialect) &&
				!slices.Contains(verdict.ServerKeys(string(r.Dialect)), fk.replacement) {
				// The reader has no such key either (Codex CLI has no
				// "type"): to it this is a plain unknown key.
				continue
			}
			o := outAccepted
			if !slices.Contains(fk.knownBy, string(r.Dialect)) {
				o = semOnUnknownKey(r)
			}
			vs = append(vs, semVerdict{r, o})
		}
		sev, ok := vs.severity()
		if !ok {
			continue
		}
		reason := fk.consequence
		if vs.any(outRefused) {
			reason = fmt.Sprintf("%q is not one of its keys", key)
		}
		c.add(Diagnostic{
			Span:     m.Key.Span,
			Severity: sev,
			Code:     CodeForeignKey,
			Message:  semMessage(c.blame(e.s.Name, vs, semQuote(key)), reason, c.acceptors(vs), fk.fix),
			Data:     semData(e.s.Name, vs.readers(outIgnored, outRefused), "field", key, FixKey, foreignKeyFix(key, fk.replacement)),
		})
	}
}

// foreignKeyFix renames a key to the one the readers take, which keeps its
// value: safe. OpenCode has no "args": they go into the "command" array.
func foreignKeyFix(key, replacement string) any {
	switch {
	case replacement == "":
		return nil
	case key == "args" && replacement == "command":
		return Fix{Kind: FixReshapeCommand, Key: "command", Value: "array", Safe: true}
	}
	return Fix{Kind: FixRenameKey, Key: key, Value: replacement, Safe: true}
}
