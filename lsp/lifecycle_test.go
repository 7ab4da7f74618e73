package lsp

import (
	"context"
	"errors"
	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func wireCode(t *testing.T, err error) jsonrpc2.Code {
	t.Helper()
	var werr *jsonrpc2.Error
	if !errors.As(err, &werr) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return werr.Code
}

func TestRequestBeforeInitializeIsServerNotInitialized(t *testing.T) {
	c := startServer(t, Options{})
	err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{}, nil)
	if got := wireCode(t, err); got != jsonrpc2.ServerNotInitialized {
		t.Errorf("code = %d, want %d (ServerNotInitialized)", got, jsonrpc2.ServerNotInitialized)
	}
	// A notification before initialize is dropped, and the server still
	// initializes normally afterwards.
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{})
	c.initialize("")
}

func TestUnknownMethodIsMethodNotFound(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	for _, method := range []string{"mcp/unknownThing", "$/unknownRequest", protocol.MethodTextDocumentFoldingRange} {
		err := c.call(method, map[string]any{}, nil)
		if got := wireCode(t, err); got != jsonrpc2.MethodNotFound {
			t.Errorf("%s: code = %d, want MethodNotFound", method, got)
		}
	}
	// Unknown $/ notifications are ignored, and the server keeps serving.
	c.notify("$/someClientThing", map[string]any{})
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestShutdownThenExitExitsZero(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	if code := c.shutdownAndExit(); code != 0 {
		t.Errorf("exit code = %d, want 0", code)
	}
}

func TestExitWithoutShutdownExitsOne(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	c.notify(protocol.MethodExit, nil)
	if code := c.waitExit(); code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
}

func TestClosedStreamEndsServer(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	c.conn.Close()
	if code := c.waitExit(); code != 1 {
		t.Errorf("exit code = %d, want 1 (no shutdown before the stream closed)", code)
	}
}

func TestRequestAfterShutdownIsInvalidRequest(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{}, nil)
	if got := wireCode(t, err); got != jsonrpc2.InvalidRequest {
		t.Errorf("code = %d, want InvalidRequest", got)
	}
}

func TestPanicInHandlerIsRecoveredAndLoggedWithoutDocumentText(t *testing.T) {
	const secret = "sk-live-DO-NOT-LOG-0123456789"
	opts := Options{testHook: func(_ context.Context, method string) {
		if method == protocol.MethodTextDocumentHover {
			panic("boom")
		}
	}}
	c := startServer(t, opts)
	c.initialize("")
	c.open("/p/.mcp.json", `{"mcpServers": {"x": {"command": "run", "env": {"TOKEN": "`+secret+`"}}}}`)
	err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathToURI("/p/.mcp.json")},
	}}, nil)
	if got := wireCode(t, err); got != jsonrpc2.InternalError {
		t.Errorf("code = %d, want InternalError", got)
	}
	// The server is still serving.
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatalf("after a panic: %v", err)
	}
	logs := c.logBuf.String()
	if !strings.Contains(logs, "panic in handler") || !strings.Contains(logs, "boom") {
		t.Errorf("panic not logged:\n%s", logs)
	}
	if strings.Contains(logs, secret) {
		t.Errorf("log contains document text")
	}
}

func TestCancelRequestWithNumericID(t *testing.T) {
	started := make(chan struct{})
	opts := Options{testHook: func(ctx context.Context, method string) {
		if method == "test/block" {
			close(started)
			select {
			case <-ctx.Done():
			case <-time.After(lsptest.HangGuard):
			}
		}
	}}
	c := startServer(t, opts)
	c.initialize("") // call #1
	errc := make(chan error, 1)
	go func() { errc <- c.call("test/block", map[string]any{}, nil) }() // call #2
	<-started
	// Sent by hand with a JSON number, as VS Code does.
	c.notify(protocol.MethodCancelRequest, map[string]any{"id": 2})
	select {
	case err := <-errc:
		if got := wireCode(t, err); got != protocol.CodeRequestCancelled {
			t.Errorf("code = %d, want RequestCancelled (%d)", got, protocol.CodeRequestCancelled)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("request was not cancelled")
	}
}

func TestNonFileURIsAreIgnored(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize("")
	for _, uri := range []protocol.DocumentURI{"untitled:Untitled-1", "vscode-notebook-cell:/x#y", "file:", "%%%"} {
		c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri, LanguageID: "json", Version: 1, Text: `{"mcpServers": `,
		}})
		c.change(uri, nil, `{`)
		c.notify(protocol.MethodTextDocumentDidClose, protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	}
	if code := c.shutdownAndExit(); code != 0 {
		t.Errorf("exit code = %d", code)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.history) != 0 {
		t.Errorf("diagnostics published for non-file URIs: %+v", c.history)
	}
}

// TestRequestBeforeShutdownIsAnswered: a request the client sent before
// shutdown is answered, even when the shutdown is handled while the
// request still waits to run. VS Code sends code action requests up to
// the moment it restarts the server and shows "Request
// textDocument/codeAction failed." for each one refused (the real VS Code
// test's settings step failed so).
func TestRequestBeforeShutdownIsAnswered(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var first sync.Once
	hook := func(_ context.Context, method string) {
		if method == protocol.MethodTextDocumentHover {
			first.Do(func() {
				close(entered)
				<-release
			})
		}
	}
	c, _ := startRaw(t, lsptest.Server{Home: t.TempDir()}, Options{testHook: hook})
	c.Request("1", "initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.Notify("initialized", map[string]any{})
	uri := string(pathToURI(filepath.Join(t.TempDir(), ".mcp.json")))
	c.Send(`{"jsonrpc":"2.0","id":"before","method":"textDocument/hover","params":{"textDocument":{"uri":"` + uri + `"},"position":{"line":0,"character":0}}}`)
	<-entered
	if r := c.Request(`"down"`, "shutdown", nil); r["error"] != nil {
		t.Fatalf("shutdown: %s", r["error"])
	}
	close(release)
	if r := c.Reply(`"before"`); r["error"] != nil {
		t.Errorf("a request sent before shutdown was refused: %s", r["error"])
	}
	if r := c.Request(`"after"`, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 0}}); lsptest.ErrorCode(r) != int64(jsonrpc2.InvalidRequest) {
		t.Errorf("a request sent after shutdown: %s, want InvalidRequest", r)
	}
}
