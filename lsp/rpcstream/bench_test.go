package rpcstream

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// BenchmarkReadDidChange reads a full-text didChange of a 1,000-server
// file (150 KB once JSON-escaped), the message the
// server gets on every keystroke with full sync.
func BenchmarkReadDidChange(b *testing.B) {
	msg := didChangeFrame()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		s := New(&pipe{in: strings.NewReader(msg)}, Options{})
		if _, _, err := s.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

func didChangeFrame() string {
	var doc strings.Builder
	doc.WriteString("{\n  \"mcpServers\": {\n")
	for i := range 1000 {
		fmt.Fprintf(&doc, "    \"server-%d\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@scope/server-%d\"],\n      \"env\": {\"TOKEN\": \"${TOKEN}\"}\n    },\n", i, i)
	}
	doc.WriteString("  }\n}\n")
	params, _ := json.Marshal(map[string]any{
		"textDocument":   map[string]any{"uri": "file:///p/.mcp.json", "version": 2},
		"contentChanges": []any{map[string]any{"text": doc.String()}},
	})
	return frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + string(params) + `}`)
}

func BenchmarkLibraryReadDidChange(b *testing.B) {
	msg := didChangeFrame()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		s := jsonrpc2.NewStream(&pipe{in: strings.NewReader(msg)})
		if _, _, err := s.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
