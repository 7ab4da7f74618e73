package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Tool-name budget. A tool names each MCP tool for the model by a pattern
// (registry tools[].toolNames: Claude Code "mcp__{server}__{tool}",
// Copilot CLI "{server}-{tool}"), and the model APIs cap a tool's name at
// 64 characters (Anthropic's "tools.N.custom.name: String should have at
// most 64 characters", Bedrock's "Member must have length less than or
// equal to 64", OpenAI's function names). A long server name leaves the
// server's tools little room: a tool whose full name is too long fails
// the whole request, in a way that names neither the server nor the tool.

const (
	// modelToolNameLimit is the model APIs' limit on a tool name.
	modelToolNameLimit = 64
	// minToolNameBudget is the room a server name should leave for its
	// tools' own names: MCP servers' tool names run past 20 characters
	// (e.g. "browser_take_screenshot", "get_pull_request_comments").
	minToolNameBudget = 32
)

// ToolNameRoom is how tool t names server's tools and the room that
// leaves: the name's prefix ("mcp__db__"), the limit on a whole tool name
// (the model APIs' 64 characters, or the tool's own limit if lower) and
// the characters left for the tool's own name (negative: none). ok is
// false when the tool's naming scheme is unknown. The rule, hover and the
// inlay hints all count with it.
func ToolNameRoom(t *registry.Tool, server string) (prefix string, limit, left int, ok bool) {
	if t == nil || t.ToolNames == nil || !strings.Contains(t.ToolNames.Pattern, "{tool}") {
		return "", 0, 0, false
	}
	limit = modelToolNameLimit
	if n := t.ToolNames.MaxLength; n > 0 && n < limit {
		limit = n
	}
	named := strings.Replace(t.ToolNames.Pattern, "{server}", server, 1)
	prefix, suffix, _ := strings.Cut(named, "{tool}")
	return prefix, limit, limit - utf8.RuneCountInString(prefix+suffix), true
}

// toolNameBudget reports a server whose name leaves fewer than
// minToolNameBudget characters for tool names in a tool that reads the
// file, naming the budget per tool.
func toolNameBudget(in FileInput, m *jsonc.Member) []Diagnostic {
	name := m.Key.Str
	var parts []string
	var tools []string
	least := modelToolNameLimit
	seen := map[registry.ToolID]bool{}
	for i := range in.Kind.Readers {
		id := in.Kind.Readers[i].Tool
		t, _ := in.Registry.Tool(id)
		prefix, _, budget, ok := ToolNameRoom(t, name)
		if seen[id] || !ok {
			continue
		}
		seen[id] = true
		if budget >= minToolNameBudget {
			continue
		}
		least = min(least, budget)
		tools = append(tools, string(id))
		parts = append(parts, fmt.Sprintf("%s names them %q (%s)", t.Name, prefix+"<tool>", budgetWords(budget)))
	}
	if len(parts) == 0 {
		return nil
	}
	return []Diagnostic{{
		Span: m.Key.Span, Severity: SeverityWarning, Code: CodeToolNameBudget,
		Message: fmt.Sprintf("server name %q leaves little room for its tools' names: model APIs allow %d characters for a tool name, and %s; a tool with a longer name fails every request with an API error; shorten the name by at least %s",
			name, modelToolNameLimit, JoinAnd(parts), plural(minToolNameBudget-least, "1 character", fmt.Sprintf("%d characters", minToolNameBudget-least))),
		Data: map[string]any{"server": name, "tools": tools, "budget": max(least, 0)},
	}}
}

func budgetWords(n int) string {
	switch {
	case n <= 0:
		return "no character left for the tool"
	case n == 1:
		return "1 character left for the tool"
	}
	return fmt.Sprintf("%d left for the tool", n)
}
