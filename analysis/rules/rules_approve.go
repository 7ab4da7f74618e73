package rules

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Approve-everything settings committed to the project. A tool asks
// before it runs an MCP tool, and Claude Code before it starts a project
// server; these settings answer yes in advance, for every tool (and every
// server) there is or will be. In a user's own settings that is their
// call. In a file committed to the project it is made for everyone who
// clones it, including for a tool or a server a later commit adds: a
// warning. Listing the tools (or servers) by name keeps the convenience.

// approveKeys are the per-server keys that approve tools without asking,
// with the value that approves all of them: Cline, Roo Code and Kiro's
// "autoApprove" / "alwaysAllow" lists with "*", Gemini CLI's (and Qwen Code's) "trust".
var approveKeys = []string{"autoApprove", "alwaysAllow", "trust"}

// approveEverything reports a server entry of a project file that
// approves every one of its tools.
func approveEverything(in FileInput, server string, entry *jsonc.Node) []Diagnostic {
	var ds []Diagnostic
	for _, key := range approveKeys {
		m := entry.Get(key)
		if m == nil || m.Value == nil {
			continue
		}
		if key == "trust" && !readBy(in, "gemini-cli") && !readBy(in, "qwen-code") {
			continue // a key of Gemini CLI's and its fork Qwen Code's only
		}
		var what string
		switch v := m.Value; {
		case key == "trust" && v.Kind == jsonc.True:
			what = `"trust": true runs every tool of server %q without asking for confirmation`
		case key != "trust" && v.Kind == jsonc.True:
			what = fmt.Sprintf("%q: true approves every tool of server %%q", key)
		case key != "trust" && v.Kind == jsonc.Array && slices.ContainsFunc(v.Elements(), func(e *jsonc.Node) bool { return e.Kind == jsonc.String && e.Str == "*" }):
			what = fmt.Sprintf(`%q with "*" approves every tool of server %%q`, key)
		default:
			continue
		}
		ds = append(ds, Diagnostic{
			Span: m.Key.Span, Severity: SeverityWarning, Code: CodeApproveEverything,
			Message: fmt.Sprintf(what, server) + ", for everyone who clones the project, tools a new version of the server adds included; list the tools to approve by name, or keep this in your own user settings",
			Data:    map[string]any{"server": server, "key": key, FixKey: Fix{Kind: FixRemoveMember, Key: key}},
		})
	}
	return ds
}

// approveAllProjectServers reports Claude Code's enableAllProjectMcpServers
// in the project's committed .claude/settings.json (settings.local.json is
// the user's own, and not committed).
func approveAllProjectServers(in FileInput) []Diagnostic {
	if in.Kind.ID != "claude-settings-project" || filepath.Base(in.Path) != "settings.json" || in.Parsed.Root == nil || in.Parsed.Root.Kind != jsonc.Object {
		return nil
	}
	m := in.Parsed.Root.Get("enableAllProjectMcpServers")
	if m == nil || m.Value == nil || m.Value.Kind != jsonc.True {
		return nil
	}
	return []Diagnostic{{
		Span: m.Key.Span, Severity: SeverityWarning, Code: CodeApproveEverything,
		Message: `"enableAllProjectMcpServers": true in the project's .claude/settings.json makes Claude Code start every server of .mcp.json without asking, for everyone who clones the project, servers a later commit adds included; list the servers in "enabledMcpjsonServers", or move this to .claude/settings.local.json`,
		Data:    map[string]any{"key": "enableAllProjectMcpServers", FixKey: Fix{Kind: FixRemoveMember, Key: "enableAllProjectMcpServers"}},
	}}
}

// readBy reports whether tool reads the file.
func readBy(in FileInput, tool registry.ToolID) bool {
	return slices.ContainsFunc(in.Kind.Readers, func(r registry.Reader) bool { return r.Tool == tool })
}
