package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// TestVSCodeSchemaCheck pins what the port of VS Code's validator reports
// for its MCP schema: where each problem is (the JSON path of its node,
// "key:" for a rejected key, "missing:" for a required property missing
// on an object), including which alternative of a server's oneOf VS Code
// reports on.
func TestVSCodeSchemaCheck(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"valid stdio", `{"servers": {"a": {"command": "x", "args": ["-y"], "env": {"N": 1, "Z": null}}}}`, nil},
		{"valid remote", `{"servers": {"a": {"type": "http", "url": "https://x.example/mcp", "headers": {"A": "b"}}}}`, nil},
		{"wrong type picks stdio", `{"servers": {"a": {"command": 1}}}`, []string{"/servers/a/command"}},
		// The schema leaves env untyped: a string passes.
		{"env string accepted", `{"servers": {"a": {"command": "x", "env": "A=1"}}}`, nil},
		{"type picks remote", `{"servers": {"a": {"type": "http", "command": "x"}}}`, []string{"key:/servers/a/command", "missing:/servers/a"}},
		{"tie keeps stdio", `{"servers": {"a": {"url": "https://x.example", "cwd": "/"}}}`, []string{"key:/servers/a/url"}},
		{"unix socket url", `{"servers": {"a": {"type": "sse", "url": "unix:///tmp/s.sock"}}}`, []string{"/servers/a/url"}},
		{"unknown type", `{"servers": {"a": {"type": "websocket", "url": "wss://x.example"}}}`, []string{"/servers/a/type", "/servers/a/url"}},
		{"not an object", `{"servers": {"a": "npx"}}`, []string{"/servers/a"}},
		{"header value", `{"servers": {"a": {"url": "https://x.example", "headers": {"A": 1}}}}`, []string{"/servers/a/headers/A"}},
		{"top-level key", `{"mcpServers": {}, "servers": {}}`, []string{"key:/mcpServers"}},
		{"input missing description", `{"inputs": [{"type": "promptString", "id": "tok"}]}`, []string{"missing:/inputs/0"}},
		{"oauth empty", `{"servers": {"a": {"url": "https://x.example", "oauth": {}}}}`, []string{"/servers/a/oauth"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := jsonc.Parse([]byte(tc.doc))
			var got []string
			for _, p := range checkVSCodeSchema(f).problems {
				where := "/" + strings.Join(p.node.Path(), "/")
				switch p.at {
				case vsOnKey:
					where = "key:" + where
				case vsOnMissing:
					where = "missing:" + where
				}
				got = append(got, where)
			}
			slices.Sort(got)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("problems at %v, want %v", got, tc.want)
			}
		})
	}
}

// TestVSCodeCompletions: the labels VS Code's own completion offers in a
// server: the keys of the shape it matches best that it does not have
// yet, and the values of "type".
func TestVSCodeCompletions(t *testing.T) {
	for _, tc := range []struct {
		name, doc   string // | marks the cursor
		has, hasNot []string
	}{
		{"stdio keys", `{"servers": {"a": {"command": "x", |}}}`, []string{"args", "env", "envFile", "cwd", "type", `"stdio"`}, []string{"command", "url", "sandbox", "version"}},
		{"remote keys", `{"servers": {"a": {"url": "https://x.example", |}}}`, []string{"headers", "oauth", "type", `"http"`, `"sse"`}, []string{"url", "args"}},
		{"type being typed", `{"servers": {"a": {"type": "|"}}}`, []string{`"stdio"`, `"http"`, `"sse"`}, nil},
		{"outside servers", `{|}`, []string{"servers", "inputs", "sandbox"}, []string{"mcpServers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			offset := strings.IndexByte(tc.doc, '|')
			doc := strings.Replace(tc.doc, "|", "", 1)
			got := vscodeCompletions(jsonc.Parse([]byte(doc)), offset)
			for _, l := range tc.has {
				if !got[l] {
					t.Errorf("VS Code offers %s here; got %v", l, got)
				}
			}
			for _, l := range tc.hasNot {
				if got[l] {
					t.Errorf("VS Code does not offer %s here; got %v", l, got)
				}
			}
		})
	}
}
