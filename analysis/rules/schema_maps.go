package rules

import (
	"fmt"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"slices"
	"strconv"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// schemaRefusesWithoutMap lists the readers that refuse a file in which their
// server map is missing. Elsewhere a missing map just means no servers:
// ~/.claude.json often has only project servers, opencode.json and Claude
// Desktop's file hold other settings, and an empty file is fine.
//
// Claude Code and .mcp.json: "mcpServers: Invalid input: expected record,
// received undefined" (reported for newer versions, nashsu/llm_wiki#459;
// not verified, so the rule is a warning).
var schemaRefusesWithoutMap = []schemaKindReader{
	{"mcp-json", "claude-code"},
}

// schemaKindReader is a tool reading a file kind (registry.FileKind.ID).
type schemaKindReader struct {
	kind string
	tool registry.ToolID
}

// schemaMapKeys are the keys under which some tool keeps its servers: a file
// with one of them where another is expected was probably written for
// another tool.
var schemaMapKeys = []string{"mcpServers", "servers", "mcp", "context_servers", "mcp_servers"}

// missingMaps reports a missing server map to the readers that refuse a
// file without one. Not while the file has syntax errors: it is being
// typed, or every strict reader drops it anyway.
func (c *schemaCheck) missingMaps() []Diagnostic {
	if len(c.f.Errors) > 0 {
		return nil
	}
	var refusing []*registry.Reader
	for _, r := range c.mapless {
		if slices.Contains(schemaRefusesWithoutMap, schemaKindReader{c.in.Kind.ID, r.Tool}) {
			refusing = append(refusing, r)
		}
	}
	if len(refusing) == 0 {
		return nil
	}
	want := refusing[0].ServerMaps[0][0]
	root := c.f.Root
	msg := fmt.Sprintf("the file has no %q object, so it declares no servers; %s %s a %s without it (reported)",
		want, readerNames(c.in, refusing), plural(len(refusing), "refuses", "refuse"), c.in.Kind.Name)
	data := map[string]any{"tools": readerIDs(refusing)}
	var at span.Span
	switch i := slices.IndexFunc(root.Members(), func(m *jsonc.Member) bool { return slices.Contains(schemaMapKeys, m.Key.Str) }); {
	case i >= 0:
		k := root.Members()[i].Key
		at = k.Span
		msg += fmt.Sprintf("; rename %q to %q", k.Str, want)
		data["key"] = k.Str
		// Not safe: another reader of the file may read the old key.
		data[FixKey] = Fix{Kind: FixRenameKey, Key: k.Str, Value: want}
	case len(root.Members()) > 0:
		at = root.Members()[0].Key.Span
	default:
		at = root.Span // "{}": the empty object is the problem
	}
	return []Diagnostic{{Span: at, Severity: SeverityWarning, Code: CodeMissingServerMap, Message: msg, Data: data}}
}

// badMaps reports server maps that are not objects. Every tool parses the
// map as a record of servers, so the file is unusable to it; what that
// costs is the reader's reaction to a file it cannot read.
func (c *schemaCheck) badMaps() []Diagnostic {
	var ds []Diagnostic
	for _, b := range c.notObject {
		name := b.sm.Path[len(b.sm.Path)-1]
		at := verdict.Widen(b.sm.Node)
		if b.sm.Node.Kind == jsonc.Array && b.sm.Member != nil {
			at = b.sm.Member.Key.Span // an array of servers can fill the screen
		}
		ds = append(ds, Diagnostic{
			Span:     at,
			Severity: SeverityError,
			Code:     CodeServerMapNotObject,
			Message: fmt.Sprintf("%s must be an object mapping server names to their definitions, not %s; %s",
				strconv.Quote(name), verdict.DescribeKind(b.sm.Node.Kind), effectList(c.in, b.readers, "")),
			Data: map[string]any{"field": name, "tools": readerIDs(b.readers)},
		})
	}
	return ds
}
