package convert_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// parseAs parses a whole file of dialect d: TOML for Codex CLI, JSON(C)
// for the others.
func parseAs(d string, content []byte) *jsonc.File {
	if d == schemas.CodexCLI {
		return toml.Parse(content)
	}
	return jsonc.Parse(content)
}

// decodeAs parses a converted file of dialect d strictly (no syntax
// error, no comment) and returns it as the schema validator takes it.
func decodeAs(d string, content []byte) (any, error) {
	f := parseAs(d, content)
	if len(f.Errors) > 0 {
		return nil, fmt.Errorf("syntax: %s", f.Errors[0].Message)
	}
	if len(f.Comments) > 0 {
		return nil, fmt.Errorf("comments")
	}
	if f.Root == nil {
		return nil, fmt.Errorf("empty")
	}
	return nodeValue(f.Root), nil
}

// nodeValue is n as encoding/json decodes it with UseNumber.
func nodeValue(n *jsonc.Node) any {
	switch n.Kind {
	case jsonc.Object:
		out := map[string]any{}
		for _, m := range n.Members() {
			out[m.Key.Str] = nodeValue(m.Value)
		}
		return out
	case jsonc.Array:
		out := []any{}
		for _, e := range n.Elements() {
			out = append(out, nodeValue(e))
		}
		return out
	case jsonc.String:
		return n.Str
	case jsonc.Number:
		return json.Number(n.Str)
	case jsonc.True:
		return true
	case jsonc.False:
		return false
	}
	return nil
}

// fileExt is the extension of a converted file of dialect d.
func fileExt(d string) string {
	if d == schemas.CodexCLI {
		return ".toml"
	}
	return ".json"
}
