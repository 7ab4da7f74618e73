package rules

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from the rule list")

// TestRulesDoc keeps docs/rules.md in step with Rules: the table there is
// generated from the list (go test ./analysis/rules -run TestRulesDoc -update).
func TestRulesDoc(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Code] {
			t.Errorf("rule code %q listed twice", r.Code)
		}
		seen[r.Code] = true
		for _, k := range RuleFixes[r.Code] {
			if !slices.ContainsFunc(FixKinds, func(d FixKindDoc) bool { return d.Kind == k }) {
				t.Errorf("rule %q: fix kind %q is not documented in FixKinds", r.Code, k)
			}
		}
		if r.Summary == "" || r.Severity < SeverityError || r.Severity > SeverityHint {
			t.Errorf("rule %q: needs a summary and a default severity", r.Code)
		}
	}
	path := filepath.Join("..", "..", "docs", "rules.md")
	want := renderRulesDoc()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/rules.md is out of date: run go test ./analysis/rules -run TestRulesDoc -update")
	}
}

func renderRulesDoc() []byte {
	var b strings.Builder
	b.WriteString(`# mcp-lsp rules

Every diagnostic carries one of these codes (the editor links it here).
Codes are stable. Change a rule's severity, or turn it off, per code: in the
editor setting ` + "`mcpLsp.rules`" + ` or in the project file ` + "`.mcp-lsp.json`" + `
(` + "`{\"rules\": {\"duplicate-key\": \"off\"}}`" + `).

Default severities follow one principle: **error** when at least one tool that
reads the file drops the whole file or skips the entry; **warning** when every
reader accepts it but something is silently ignored or almost certainly not
meant; **info** and **hint** for notes.

## One verdict per server entry

What a tool does with a server entry is decided once, in ` + "`analysis/verdict`" + `,
for each (entry, reader): the schema branch the reader takes (stdio, remote...),
the outcome — **loads** (Gemini CLI also loads an invalid entry as written,
after a warning: such findings are warnings for it), **loads with keys
ignored** (Claude Code, Copilot CLI, Gemini CLI) or **stripped** (OpenCode),
**skips the entry**, **refuses the whole file** (OpenCode; Gemini CLI for
` + "`args`" + ` as a string, which crashes it), or **may not load** where the tool's
behaviour is not known — with
its reasons (stable codes, byte spans) and the program it would start. The
schema and semantic rules, the effective view (` + "`mcp-lsp effective`" + `), hover
and the code actions (built on those diagnostics) all read that verdict, so
they cannot disagree. What each
tool does with an invalid entry, an unknown key, a duplicate name and a key
it does not know at the top of the file is data
in ` + "`discovery/registry/registry.json`" + ` (` + "`effects`" + ` of each reader, with its
confidence and source): ` + "`duplicate-key`" + ` on a repeated server name says what
each reader does (the JSON readers keep the last: a warning; a reader that
refuses the file makes it an error naming the tool; Codex CLI's TOML parser
already stops at a key defined twice, a ` + "`syntax-error`" + `). Verdicts are cached by
content (registry, reader, entry bytes) in the language server's session.

Each rule below is one value in ` + "`analysis/rules`" + ` (code, default severity,
summary and the check that reports it), listed in ` + "`Rules`" + `; ` + "`AnalyzeFile`" + ` runs
the checks in that order. Rules that one pass finds together share a check
(the schema rules: one validation of each entry per reader).

A file a tool cannot parse has its own effect (` + "`syntaxError`" + ` of each reader):
it **drops the file**, **refuses the whole configuration**, or **stops the
tool** — Claude Code 2.1.328 exits at start-up when ` + "`~/.claude.json`" + ` has a
comment ("configuration file … is corrupted"), so ` + "`mcp-lsp effective`" + ` shows
every Claude Code server not started (` + "`tool-stopped`" + `), ` + "`.mcp.json`" + ` ones
included.

## Tools modelled

VS Code 1.139 is a third reader of .mcp.json, verified in its own code
(code-server 4.139.1's workbench.js): only the file directly in a
workspace folder (for mcp-lsp check, a directory it is given; registry
at: "workspace-folder", decided in registry.MatchIn alone), JSON with
comments and trailing commas, mcpServers, type stdio, http,
streamable-http or sse (an entry of another type is left out alone;
args, env or headers of the wrong type are dropped and the entry
loads), no variable expanded (${env:X}, ${input:x} and ${X} reach the
server as written: foreign-interpolation), no inputs or sandbox
(setting-ignored-here: "'inputs' is not supported in .mcp.json. Use
.vscode/mcp.json."). A server named in both .vscode/mcp.json and
.mcp.json is taken from .vscode/mcp.json; VS Code disables the other
(chat.mcp.collisionBehavior "disable", the default): shadowed-server,
and mcp-lsp effective --tool vscode shows both.

Claude Code 2.1.328, GitHub Copilot CLI 1.0.102, OpenCode 1.18.33 and Gemini
CLI 0.61.0 are modelled from runs of the real tools (files, layers, gates,
strictness, interpolation); VS Code, Cursor, Claude Desktop, Atomic TUI,
Nyzhi, Roo Code, Kilo Code, Zed, Kiro and Windsurf from their documentation and code
(Kiro's and Windsurf's strictness is not documented: their findings say
"may"). Roo Code validates
a whole file (` + "`.roo/mcp.json`" + `, the global ` + "`mcp_settings.json`" + `) with one zod
schema: one invalid entry and none of the file's servers start (a ` + "`url`" + `
without ` + "`type`" + ` is skipped alone); unknown keys are stripped. Kilo Code, its
fork, reads ` + "`.kilocode/mcp.json`" + ` and its own global ` + "`mcp_settings.json`" + ` with the
same code (Kilo-Org/kilocode McpHub.ts), so the same dialect. When the
workspace folder has no ` + "`.kilocode/mcp.json`" + `, Kilo Code reads the first of
its ` + "`.cursor/mcp.json`" + ` and ` + "`.mcp.json`" + ` that exists instead (existing decides,
not readable: a broken ` + "`.cursor/mcp.json`" + ` keeps ` + "`.mcp.json`" + ` out), with the
same whole-file validation: a ` + "`.mcp.json`" + ` in Claude Code's format with
` + "`" + `"type": "http"` + "`" + ` starts nothing for Kilo Code (` + "`type-not-accepted`" + ` says so;
` + "`" + `"streamable-http"` + "`" + ` works in every reader), and a ` + "`${VAR}`" + ` there is not
expanded by it. A fallback file a tool ignores because the file it stands in
for exists gets ` + "`fallback-file-ignored`" + `. Zed reads
` + "`context_servers`" + ` from its settings files: an entry that fits none of its
shapes (` + "`command`" + ` without ` + "`args`" + `, a header that is not a string) makes Zed
reject the whole settings file, while an invalid ` + "`env`" + ` or ` + "`timeout`" + ` is only
dropped. Gemini CLI reads
` + "`~/.gemini/settings.json`" + `, the launch directory's ` + "`.gemini/settings.json`" + `
(no walk-up) and the system files; in a folder its ` + "`trustedFolders.json`" + ` does
not trust, no server starts, and its ` + "`mcp.allowed`" + `/` + "`mcp.excluded`" + ` lists and
` + "`mcp-server-enablement.json`" + ` block or disable servers: ` + "`mcp-lsp effective --tool gemini-cli`" + `
shows each state. Qwen Code (0.15.10), a fork of Gemini CLI, reads the same
` + "`mcpServers`" + ` entries from ` + "`~/.qwen/settings.json`" + ` (` + "`$QWEN_HOME`" + `), the launch
directory's ` + "`.qwen/settings.json`" + ` and ` + "`/etc/qwen-code/settings.json`" + `; a file
with a syntax error or a trailing comma is renamed to
` + "`settings.json.corrupted.<ms>`" + ` and its servers are lost (exit 0), and folder
trust is off unless ` + "`security.folderTrust.enabled`" + ` is true: ` + "`mcp-lsp effective --tool qwen-code`" + `.

Codex CLI (0.169.0, ` + "`config.toml`" + `) refuses its whole configuration for any
TOML or type error, a missing or doubled transport, a field of the other
transport or ` + "`bearer_token`" + `: every such finding says "Codex CLI refuses the
whole configuration", and ` + "`mcp-lsp effective`" + ` starts none of its servers
(` + "`refused`" + `). Codex merges its layers field by field before it validates, so a
project entry may name only the fields it changes; the merged server is
judged by the same verdict (` + "`merged-server-invalid`" + `). It expands no variable:
` + "`${VAR}`" + ` gets a ` + "`foreign-interpolation`" + ` warning that names ` + "`env_vars`" + `,
` + "`bearer_token_env_var`" + ` or ` + "`env_http_headers`" + `.

## Rules

This file is generated from the rule list in ` + "`analysis/rules/`" + `
(` + "`go test ./analysis/rules -run TestRulesDoc -update`" + `).

| code | default | what it reports | quick fix |
|---|---|---|---|
`)
	for _, r := range Rules {
		var kinds []string
		for _, k := range RuleFixes[r.Code] {
			kinds = append(kinds, "[`"+string(k)+"`](#fix-"+string(k)+")")
		}
		fmt.Fprintf(&b, "| <a id=\"%s\"></a>`%s` | %s | %s | %s |\n", r.Code, r.Code, r.Severity, strings.ReplaceAll(r.Summary, "|", "\\|"), strings.Join(kinds, ", "))
	}
	b.WriteString(`
## Silencing one finding

In a file that may hold comments (JSONC: ` + "`opencode.jsonc`" + `, ` + "`.vscode/mcp.json`" + `,
Claude Code's settings; TOML with ` + "`#`" + `), a comment on a line of its own

` + "```jsonc" + `
// mcp-lsp-ignore literal-secret a revoked test key
"headers": {"X-Api-Key": "sk-..."}
` + "```" + `

silences the findings of that code starting on the next line (the next line
that is not itself such a comment, so several stack; ` + "`/* ... */`" + ` works
too; a directive after other text on a line is not one). The reason is free
text.

In a strict-JSON file (` + "`.mcp.json`" + `, Claude Desktop's config...) a comment is
itself an error for the tools that read it, and an ignore comment there
silences nothing. List the finding in the project file ` + "`.mcp-lsp.json`" + `
instead:

` + "```json" + `
{"ignore": [{"path": ".mcp.json", "server": "x", "code": "literal-secret", "reason": "test fixture"}]}
` + "```" + `

` + "`path`" + ` is relative to ` + "`.mcp-lsp.json`" + `; ` + "`server`" + ` is optional (without it, every
finding of the code in the file); the entry applies to the findings about
that server entry. An ignore that silences nothing, or names no rule, is
reported as ` + "[`unused-ignore`](#unused-ignore)" + ` (a hint; the comment's quick fix
removes it), so stale ones surface. Ignores apply in the editor and in
` + "`mcp-lsp check`" + ` alike, to every finding of the file, cross-file ones included
(an ignore of a cross-file rule is not reported unused when ` + "`check`" + ` is
given single files, which it checks without their workspace).

## Quick fixes

A finding that comes with a quick fix carries it under ` + "`fix`" + ` (in
` + "`rules.Diagnostic.Data`" + `), in one vocabulary for every rule. The editor is
not sent it: published diagnostics carry no ` + "`data`" + `, and a code action
request finds the finding again by the code and range the editor echoes,
so a diagnostic left from an older version of the file gets no fix.

| field | meaning |
|---|---|
| ` + "`kind`" + ` | the kind of edit, below |
| ` + "`key`" + ` | the key the edit concerns, as the file spells it (for ` + "`add-member`" + `, the key it adds) |
| ` + "`value`" + ` | the new text: a key, a value, a reference, a prefix |
| ` + "`variable`" + ` | the name a reference spells, or the environment variable that is to hold a secret |
| ` + "`safe`" + ` | whether "fix all" (` + "`source.fixAll`" + `) applies it without the user looking: the rule says so only when the result is certain and nothing the file says is lost (a rename, a re-spelling, a reshaped command, an added key); a guess, a removal or moving a secret out of the file is never safe |

Before editing, the fix checks that the file still reads as the diagnostic
says at its range; otherwise it offers nothing. ` + "`fix`" + ` never holds a secret.

| kind | edit |
|---|---|
`)
	for _, k := range FixKinds {
		fmt.Fprintf(&b, "| <a id=\"fix-%s\"></a>`%s` | %s |\n", k.Kind, k.Kind, strings.ReplaceAll(k.Summary, "|", "\\|"))
	}
	return []byte(b.String())
}

// TestRuleFixesAreRules: every code offering a fix is a rule.
func TestRuleFixesAreRules(t *testing.T) {
	for code := range RuleFixes {
		if _, ok := RuleByCode(code); !ok {
			t.Errorf("RuleFixes lists %q, which is not a rule", code)
		}
	}
}
