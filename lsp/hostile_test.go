package lsp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

// startRaw runs a server over a pipe and returns a raw client on it.
func startRaw(t *testing.T, s lsptest.Server, opts Options) (*lsptest.Client, *syncBuffer) {
	serverSide, clientSide := net.Pipe()
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.Env = registry.Env{Home: s.Home, GOOS: "linux"}
	opts.ClientTimeout = 300 * time.Millisecond
	opts.NoCommandLookup = true
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- Run(ctx, serverSide, opts) }()
	t.Cleanup(func() {
		cancel()
		clientSide.Close()
		select {
		case <-exit:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	return lsptest.NewClient(t, clientSide, clientSide, s.Silent...), logs
}

// TestHostileClientOverPipe: the hostile-client suite against a server in
// this process.
func TestHostileClientOverPipe(t *testing.T) {
	lsptest.Hostile(t, func(t *testing.T, s lsptest.Server) *lsptest.Client {
		c, _ := startRaw(t, s, Options{})
		return c
	})
}

// TestSlowRequestHoldsUpNothing: while a request is stuck, later edits and
// requests are served, and $/cancelRequest with an id the library could
// not hold (2^53+1) cancels exactly that request.
func TestSlowRequestHoldsUpNothing(t *testing.T) {
	entered := make(chan struct{}, 1)
	hook := func(ctx context.Context, method string) {
		if method == protocol.MethodTextDocumentDocumentSymbol {
			entered <- struct{}{}
			<-ctx.Done()
		}
	}
	c, _ := startRaw(t, lsptest.Server{Home: t.TempDir()}, Options{testHook: hook})
	c.Request("1", "initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.Notify("initialized", map[string]any{})
	path := filepath.Join(t.TempDir(), ".mcp.json")
	uri := string(pathToURI(path))
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": `{"mcpServers": {"fs": {"command": "npx"}}}`}})

	const slowID = `9007199254740993`
	c.Send(`{"jsonrpc":"2.0","id":` + slowID + `,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"` + uri + `"}}}`)
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow request never started")
	}
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": `{"mcpServers": {"fs": {"command": "uvx"}}}`}},
	})
	r := c.Request(`"h"`, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 17}})
	if !strings.Contains(string(r["result"]), "command: `uvx`") {
		t.Errorf("hover behind a stuck request: %s", r)
	}
	c.Notify("$/cancelRequest", map[string]any{"id": json.RawMessage(slowID)})
	if r := c.Reply(slowID); lsptest.ErrorCode(r) != int64(protocol.CodeRequestCancelled) {
		t.Errorf("cancelled request's reply: %v", r)
	}
}
