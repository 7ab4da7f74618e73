package convert

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// OpenCodeSchemaURL is the $schema OpenCode writes into its config files
// (it adds it itself to a file without one, rewriting the file), so a
// converted file starts with it.
const OpenCodeSchemaURL = "https://opencode.ai/config.json"

// ConvertFile converts a whole configuration file of dialect from (JSON or
// JSONC; comments, trailing commas and a byte order mark are accepted
// whatever the source tool allows, since converting is a way out of such
// a file) into a complete file of dialect to:
//
//	claude-code, claude-desktop, copilot-cli, cursor: {"mcpServers": {...}}
//	opencode: {"$schema": "https://opencode.ai/config.json", "mcp": {...}}
//	vscode:   {"servers": {...}, "inputs": [...]}
//
// Servers keep their source order; each entry is written by [ToEntry].
// The output is indented with two spaces, uses the source's line endings
// (CRLF when the source's first line break is CRLF) and ends with a line
// break. It validates against the target's schema.
//
// Only the server map is converted: other top-level keys (OpenCode's
// model or theme, Claude Desktop's preferences, ~/.claude.json's
// projects) and comments are reported as losses, as are keys each tool
// ignores, duplicate names (the last definition is the one tools read and
// the one converted) and OpenCode {"enabled": ...} overrides into other
// dialects. VS Code inputs are copied when both sides are VS Code; into
// another dialect every ${input:...} is reported where it is used.
//
// The error is non-nil, and out nil, when the file has syntax errors, is
// not an object, or holds a server the target cannot hold or the source
// tool would reject; it names the server and the field, never a value.
func ConvertFile(from, to Dialect, content []byte) (out []byte, losses []Loss, err error) {
	src, err := lookup(from)
	if err != nil {
		return nil, nil, err
	}
	dst, err := lookup(to)
	if err != nil {
		return nil, nil, err
	}
	var f *jsonc.File
	if isCodex(from) {
		f = toml.Parse(content)
	} else {
		f = jsonc.Parse(content)
	}
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		return nil, nil, fmt.Errorf("line %d: %s (fix the syntax first; mcp-lsp check lists every error)", lineOf(content, e.Span.Start), e.Message)
	}
	if f.Root == nil || f.Root.Kind != jsonc.Object {
		if f.Root == nil && isCodex(from) {
			f.Root = &jsonc.Node{Kind: jsonc.Object} // an empty TOML file is an empty table
		} else {
			return nil, nil, errors.New("the file is not a JSON object")
		}
	}
	if len(f.Comments) > 0 || isCodex(from) && tomlHasComments(content) {
		losses = append(losses, Loss{Field: "comments", Kind: Dropped, Reason: "comments are not carried over"})
	}

	mapKey := src.mapKey
	if src.id == schemas.VSCode && f.Root.Get("servers") == nil && f.Root.Get("mcpServers") != nil {
		mapKey = "mcpServers" // VS Code's deprecated spelling, read when servers is absent
	}
	var inputs any = []any{}
	for _, m := range f.Root.Members() {
		if m.Key == nil || f.Root.Get(m.Key.Str) != m {
			continue
		}
		switch k := m.Key.Str; {
		case k == mapKey, k == "$schema":
		case k == "inputs" && src.id == schemas.VSCode:
			if dst.id == schemas.VSCode {
				if inputs, err = decode(m.Value); err != nil {
					return nil, nil, fmt.Errorf("inputs: %w", err)
				}
			}
		default:
			losses = append(losses, Loss{Field: k, Kind: Dropped, Reason: "not a server map; only the servers are converted"})
		}
	}

	servers := Object{}
	if mm := f.Root.Get(mapKey); mm != nil {
		if mm.Value.Kind != jsonc.Object {
			return nil, nil, fmt.Errorf("%s must be an object of servers", mapKey)
		}
		seen := map[string]bool{}
		for _, m := range mm.Value.Members() {
			if m.Key == nil {
				continue
			}
			name := m.Key.Str
			if mm.Value.Get(name) != m {
				if !seen[name] {
					seen[name] = true
					losses = append(losses, Loss{Server: name, Kind: Dropped, Reason: "defined more than once; only the last definition is converted, as " + src.tool + " reads only that one"})
				}
				continue
			}
			s, ls, err := FromEntry(from, name, m.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("server %s: %w", displayName(name), err)
			}
			losses = append(losses, ls...)
			e, ls, err := ToEntry(to, s)
			if errors.Is(err, ErrEnabledOnly) {
				losses = append(losses, Loss{Server: name, Kind: Dropped, Reason: err.Error()})
				continue
			}
			if err != nil {
				return nil, nil, fmt.Errorf("server %s: %w", displayName(name), err)
			}
			losses = append(losses, ls...)
			servers = append(servers, Member{name, e})
		}
	}

	var root Object
	switch dst.id {
	case schemas.OpenCode:
		root = Object{{"$schema", OpenCodeSchemaURL}, {"mcp", servers}}
	case schemas.VSCode:
		root = Object{{"servers", servers}, {"inputs", inputs}}
	default:
		root = Object{{dst.mapKey, servers}}
	}
	if err := validateFile(dst.id, root); err != nil {
		return nil, nil, err
	}
	nl := newline(content)
	if isCodex(dst.id) {
		return RenderCodexFile(servers, nl), losses, nil
	}
	out = append(RenderEntry(root, "  ", nl), nl...)
	return out, losses, nil
}

// validateFile is ConvertFile's last guard, like validateEntry.
func validateFile(dialect Dialect, root Object) error {
	sch, err := schemas.Compiled(dialect)
	if err != nil {
		return err
	}
	if err := sch.Validate(Plain(root)); err != nil {
		return fmt.Errorf("the converted file does not fit %s: %s", info(dialect).tool, describeInvalid(err))
	}
	return nil
}

// newline returns the line ending of content's first line break, "\n" when
// it has none.
func newline(content []byte) string {
	if i := bytes.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// lineOf returns the 1-based line of byte offset off.
func lineOf(content []byte, off int) int {
	off = min(max(off, 0), len(content))
	return bytes.Count(content[:off], []byte("\n")) + 1
}
