package convert

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// dialectInfo is what the converters need to know about one dialect.
// The interpolation fields repeat the registry's tools[].interpolation
// (TestInterpolationMatchesRegistry keeps them in step); they are written
// out here because the converters also need the semantics of each form,
// which the registry only describes in words.
type dialectInfo struct {
	id   Dialect
	tool string // the tool's name in loss reasons
	// mapKey is the top-level key of the server map in a whole file.
	mapKey string
	syntax syntax
	// fields are the entry keys whose strings the tool expands; "*" for
	// every string. Model fields are named as the model names them
	// ("command", "args", "env", "url", "headers", "cwd", "envFile",
	// "oauth").
	fields []string
	// transports the dialect can hold.
	transports []Transport
	// defaultTimeout is the tool's per-server timeout in ms when the entry
	// sets none; 0 when it has no per-server timeout or the default is
	// unknown (Claude Code's MCP_TIMEOUT is global).
	defaultTimeout int
	// unsetEmpty are the fields in which an unset ${VAR} becomes an empty
	// string, where elsewhere the tool keeps it as text (Gemini CLI: env
	// and headers; verified with 0.61.0).
	unsetEmpty []string
	// unsetLiteral: the tool's ${env:NAME} stays as written when the
	// variable is unset (Roo Code), where VS Code and Cursor give "".
	unsetLiteral bool
}

var dialects = map[Dialect]*dialectInfo{
	schemas.ClaudeCode: {
		id: schemas.ClaudeCode, tool: "Claude Code", mapKey: "mcpServers", syntax: dollarSyntax,
		fields:     []string{"command", "args", "env", "url", "headers"},
		transports: []Transport{Stdio, HTTP, SSE, WS},
	},
	schemas.ClaudeDesktop: {
		id: schemas.ClaudeDesktop, tool: "Claude Desktop", mapKey: "mcpServers", syntax: noSyntax,
		transports: []Transport{Stdio},
	},
	schemas.CopilotCLI: {
		id: schemas.CopilotCLI, tool: "Copilot CLI", mapKey: "mcpServers", syntax: dollarBare,
		fields:         []string{"env", "headers"},
		transports:     []Transport{Stdio, HTTP, SSE},
		defaultTimeout: 30000,
	},
	schemas.GeminiCLI: {
		id: schemas.GeminiCLI, tool: "Gemini CLI", mapKey: "mcpServers", syntax: dollarBare,
		fields:         []string{"*"},
		transports:     []Transport{Stdio, HTTP, SSE},
		defaultTimeout: 600000,
		unsetEmpty:     []string{"env", "headers"},
	},
	schemas.CodexCLI: {
		// No variable is expanded anywhere; environment values come in
		// by name only (see codex.go).
		// TimeoutMs is its tool_timeout_sec (startup_timeout_sec is kept
		// as a Codex setting: no other dialect has both).
		id: schemas.CodexCLI, tool: "Codex CLI", mapKey: "mcp_servers", syntax: noSyntax,
		transports:     []Transport{Stdio, HTTP},
		defaultTimeout: 60000,
	},
	schemas.OpenCode: {
		id: schemas.OpenCode, tool: "OpenCode", mapKey: "mcp", syntax: braceSyntax,
		fields:         []string{"*"},
		transports:     []Transport{Stdio, HTTP, SSE},
		defaultTimeout: 5000,
	},
	schemas.VSCode: {
		id: schemas.VSCode, tool: "VS Code", mapKey: "servers", syntax: vscodeSyntax,
		fields:     []string{"*"},
		transports: []Transport{Stdio, HTTP, SSE},
	},
	schemas.RooCode: {
		id: schemas.RooCode, tool: "Roo Code", mapKey: "mcpServers", syntax: rooSyntax,
		fields:         []string{"*"},
		transports:     []Transport{Stdio, HTTP, SSE},
		defaultTimeout: 60000,
		unsetLiteral:   true,
	},
	schemas.Kiro: {
		id: schemas.Kiro, tool: "Kiro", mapKey: "mcpServers", syntax: dollarSyntax,
		fields:     []string{"env", "headers"},
		transports: []Transport{Stdio, HTTP, SSE},
	},
	schemas.Windsurf: {
		id: schemas.Windsurf, tool: "Windsurf", mapKey: "mcpServers", syntax: envSyntax,
		fields:     []string{"command", "args", "env", "serverUrl", "url", "headers"},
		transports: []Transport{Stdio, HTTP, SSE},
	},
	schemas.Zed: {
		id: schemas.Zed, tool: "Zed", mapKey: "context_servers", syntax: noSyntax,
		transports:     []Transport{Stdio, HTTP},
		defaultTimeout: 60000,
	},
	schemas.Cursor: {
		id: schemas.Cursor, tool: "Cursor", mapKey: "mcpServers", syntax: cursorSyntax,
		// The registry lists command, args, env, url and headers. Guides
		// for Cursor's static OAuth client write auth.CLIENT_ID and
		// CLIENT_SECRET as "${env:NAME}" too (developer.mittwald.de
		// "Getting Started with Cursor"; the cursor schema's own
		// example), so auth counts as expanded: otherwise converting
		// such an entry would carry "${env:NAME}" over as literal text.
		// Reported, like all of Cursor; see registryExceptions in the
		// tests.
		fields:     []string{"command", "args", "env", "url", "headers", "oauth"},
		transports: []Transport{Stdio, HTTP, SSE},
	},
}

// Dialects returns the dialects the converters know, sorted.
func Dialects() []Dialect {
	out := make([]Dialect, 0, len(dialects))
	for d := range dialects {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// lookup returns the dialect's info or an error naming the known ones.
func lookup(d Dialect) (*dialectInfo, error) {
	if di, ok := dialects[d]; ok {
		return di, nil
	}
	return nil, fmt.Errorf("unknown dialect %q (known: %s)", d, strings.Join(Dialects(), ", "))
}

// info returns the dialect's info, or an empty one for an unknown or empty
// dialect (a server built by hand has no Origin).
func info(d Dialect) *dialectInfo {
	if di, ok := dialects[d]; ok {
		return di
	}
	return &dialectInfo{}
}

// expands reports whether the tool expands variables in field.
func (d *dialectInfo) expands(field string) bool {
	return slices.Contains(d.fields, "*") || slices.Contains(d.fields, field)
}

// readText reads a string of field: with the tool's syntax where it
// expands variables, as literal text elsewhere.
func (d *dialectInfo) readText(field, s string) Text {
	if !d.expands(field) {
		return Lit(s)
	}
	t := d.syntax.read(s)
	if d.unsetLiteral {
		for i := range t {
			if r := &t[i].Ref; r.Kind == EnvRef {
				r.HasDefault = false
			}
		}
	}
	if slices.Contains(d.unsetEmpty, field) {
		for i := range t {
			if r := &t[i].Ref; r.Kind == EnvRef && !r.HasDefault {
				r.HasDefault = true
			}
		}
	}
	return t
}

// holds reports whether the dialect can hold a server of transport t.
func (d *dialectInfo) holds(t Transport) bool { return slices.Contains(d.transports, t) }
