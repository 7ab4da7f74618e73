package lsp

import (
	"context"
	"encoding/json"
	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// testClient is the editor side of an end-to-end test: a real JSON-RPC
// connection over a pipe to a server running lsp.Run, recording what the
// server publishes. Tests wait for what they expect with a predicate and
// a deadline; they never sleep.
type testClient struct {
	t      *testing.T
	conn   jsonrpc2.Conn
	exit   chan int
	logBuf *syncBuffer

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced on every notification
	published map[protocol.DocumentURI]publishParams
	history   []publishParams
	versions  map[protocol.DocumentURI]int32
	settings  any // answer to workspace/configuration (section mcpLsp); nil answers null
	configAsk int // how many times the server asked
}

// syncBuffer collects the server's logs so tests can assert on them.
type syncBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

// startServer runs a server on one end of a pipe and returns a client on
// the other. It does not initialize.
func startServer(t *testing.T, opts Options) *testClient {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	// Whether a command exists depends on the machine's PATH; tests that
	// want the check turn it on through settings.
	opts.NoCommandLookup = true
	logs := &syncBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	c := &testClient{
		t:         t,
		exit:      make(chan int, 1),
		logBuf:    logs,
		changed:   make(chan struct{}),
		published: map[protocol.DocumentURI]publishParams{},
		versions:  map[protocol.DocumentURI]int32{},
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.exit <- Run(ctx, serverSide, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		select {
		case <-c.exit:
		case <-time.After(lsptest.HangGuard):
			t.Error("server did not stop")
		}
	})
	return c
}

// handle serves what the server sends: diagnostics are recorded; requests
// (configuration, registration, progress) get an empty answer.
func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
		var p publishParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad publishDiagnostics: %v", err)
		}
		if strings.Contains(string(req.Params()), `"diagnostics":null`) {
			c.t.Errorf("diagnostics sent as null: %s", req.Params())
		}
		c.mu.Lock()
		c.published[p.URI] = p
		c.history = append(c.history, p)
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
	if req.Method() == protocol.MethodWorkspaceConfiguration {
		c.mu.Lock()
		c.configAsk++
		settings := c.settings
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
		_ = reply(ctx, []any{settings}, nil)
		return nil
	}
	// Never return the reply's error: jsonrpc2 v0.10.0 then fails the
	// connection, and a second failure of another error type (the read
	// error at teardown) panics in atomic.Value.Store.
	_ = reply(ctx, nil, nil)
	return nil
}

func (c *testClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), lsptest.HangGuard)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// initialize performs the initialize/initialized handshake.
func (c *testClient) initialize(root string) {
	c.t.Helper()
	var res protocol.InitializeResult
	params := protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{Configuration: true},
	}}
	if root != "" {
		params.WorkspaceFolders = []protocol.WorkspaceFolder{{URI: string(pathToURI(root)), Name: "root"}}
	}
	if err := c.call(protocol.MethodInitialize, params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
}

func (c *testClient) open(path, text string) protocol.DocumentURI {
	c.t.Helper()
	uri := pathToURI(path)
	c.mu.Lock()
	c.versions[uri] = 1
	c.mu.Unlock()
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "json", Version: 1, Text: text,
	}})
	return uri
}

// change sends one incremental edit replacing rng with text and returns the
// new version.
func (c *testClient) change(uri protocol.DocumentURI, rng *protocol.Range, text string) int32 {
	c.t.Helper()
	c.mu.Lock()
	c.versions[uri]++
	v := c.versions[uri]
	c.mu.Unlock()
	change := map[string]any{"text": text}
	if rng != nil {
		change["range"] = rng
	}
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": v},
		"contentChanges": []any{change},
	})
	return v
}

// waitDiagnostics waits until the latest publication for uri satisfies
// pred, and returns it.
func (c *testClient) waitDiagnostics(uri protocol.DocumentURI, what string, pred func(publishParams) bool) publishParams {
	c.t.Helper()
	deadline := time.After(lsptest.HangGuard)
	for {
		c.mu.Lock()
		p, ok := c.published[uri]
		changed := c.changed
		c.mu.Unlock()
		if ok && pred(p) {
			return p
		}
		select {
		case <-changed:
		case <-deadline:
			c.t.Fatalf("timed out waiting for diagnostics on %s: %s; last: %+v", uri, what, p)
		}
	}
}

// shutdownAndExit performs a clean stop and returns the exit code.
func (c *testClient) shutdownAndExit() int {
	c.t.Helper()
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notify(protocol.MethodExit, nil)
	return c.waitExit()
}

func (c *testClient) waitExit() int {
	c.t.Helper()
	select {
	case code := <-c.exit:
		c.exit <- code // keep it for Cleanup
		return code
	case <-time.After(lsptest.HangGuard):
		c.t.Fatal("server did not exit")
		return -1
	}
}

var _ io.Writer = (*syncBuffer)(nil)
