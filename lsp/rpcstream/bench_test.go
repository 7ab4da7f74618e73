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

// BenchmarkReadDidChangePredecoded is BenchmarkReadDidChange as the
// server reads it: the params go to a predecoder (here one that keeps
// them as they are), so what is timed is the framing, the scan and the
// envelope check the stream does around the predecoder.
func BenchmarkReadDidChangePredecoded(b *testing.B) {
	msg := didChangeFrame()
	opts := Options{Predecode: map[string]func([]byte) (any, error){
		"textDocument/didChange": func(params []byte) (any, error) { return params, nil },
	}}
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		s := New(&pipe{in: strings.NewReader(msg)}, opts)
		if _, _, err := s.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
		if s.PredecodedCount() != 1 {
			b.Fatal("not predecoded")
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
