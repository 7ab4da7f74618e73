package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestReplaysForEachVersion drives serve as a client does: the answer to
// initialize, then for an open and for changes, small and large, one
// publication of the recorded diagnostics for the version each carries.
// The large change's text holds `"version": 99` and `"uri"`, escaped as
// in any JSON string: the search must not take them for members.
func TestReplaysForEachVersion(t *testing.T) {
	diags := `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"m"}]`
	big := strings.Repeat(`{"uri": "file:///elsewhere", "version": 99}`+"\n", 2000) // > 64 KB
	var in bytes.Buffer
	frame := func(msg map[string]any) {
		body, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&in, "content-length: %d\r\n\r\n%s", len(body), body)
	}
	doc := func(v int) map[string]any { return map[string]any{"uri": "file:///w/.mcp.json", "version": v} }
	frame(map[string]any{"jsonrpc": "2.0", "id": "init-1", "method": "initialize", "params": map[string]any{}})
	frame(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	frame(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///w/.mcp.json", "version": 1, "languageId": "json", "text": big}}})
	frame(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
		"textDocument": doc(2), "contentChanges": []any{map[string]any{"text": big + " "}}}})
	frame(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
		"textDocument": doc(3), "contentChanges": []any{map[string]any{"text": "{}"}}}})
	frame(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "shutdown"})
	frame(map[string]any{"jsonrpc": "2.0", "method": "exit"})

	var out bytes.Buffer
	if err := serve(&in, &out, []byte(diags)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(&out)
	var got []string
	for {
		body, err := readFrame(r)
		if err != nil {
			break
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Params struct {
				URI         string          `json:"uri"`
				Version     int             `json:"version"`
				Diagnostics json.RawMessage `json:"diagnostics"`
			} `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("reply is not JSON: %v\n%s", err, body)
		}
		if m.Method != "" {
			if string(m.Params.Diagnostics) != diags {
				t.Errorf("version %d: diagnostics %s, want the recorded ones", m.Params.Version, m.Params.Diagnostics)
			}
			got = append(got, fmt.Sprintf("%s %s v%d", m.Method, m.Params.URI, m.Params.Version))
		} else {
			got = append(got, fmt.Sprintf("answer %s %s", m.ID, m.Result))
		}
	}
	want := []string{
		`answer "init-1" {"capabilities":{"textDocumentSync":1}}`,
		"textDocument/publishDiagnostics file:///w/.mcp.json v1",
		"textDocument/publishDiagnostics file:///w/.mcp.json v2",
		"textDocument/publishDiagnostics file:///w/.mcp.json v3",
		"answer 7 null",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
