package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
	"github.com/mcp-lsp/mcp-lsp/lsp/rpcstream"
)

// startRaw runs a server over a pipe and returns a raw client on it.
func startRaw(t *testing.T, s lsptest.Server, opts Options) (*lsptest.Client, *syncBuffer) {
	serverSide, clientSide := net.Pipe()
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.Env = registry.Env{Home: s.Home, GOOS: "linux"}
	if opts.ClientTimeout == 0 {
		opts.ClientTimeout = 300 * time.Millisecond
	}
	opts.NoCommandLookup = true
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- Run(ctx, serverSide, opts) }()
	t.Cleanup(func() {
		cancel()
		clientSide.Close()
		select {
		case <-exit:
		case <-time.After(lsptest.HangGuard):
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
	case <-time.After(lsptest.HangGuard):
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

// TestCancelWhileQueued: a request waiting behind an edit that is still
// being applied, cancelled meanwhile, is answered RequestCancelled without
// running once its turn comes.
func TestCancelWhileQueued(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	var hovers atomic.Int32
	hook := func(ctx context.Context, method string) {
		switch method {
		case protocol.MethodTextDocumentDidSave:
			entered <- struct{}{}
			<-release
		case protocol.MethodTextDocumentHover:
			hovers.Add(1)
		}
	}
	c, _ := startRaw(t, lsptest.Server{Home: t.TempDir()}, Options{testHook: hook})
	c.Request("1", "initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	uri := string(pathToURI(filepath.Join(t.TempDir(), ".mcp.json")))
	c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	<-entered
	c.Send(`{"jsonrpc":"2.0","id":"q","method":"textDocument/hover","params":{"textDocument":{"uri":"` + uri + `"},"position":{"line":0,"character":0}}}`)
	c.Notify("$/cancelRequest", map[string]any{"id": "q"})
	// The cancel is handled on the read loop; a request behind it proves
	// the loop got past it before the edit is released.
	c.Send(`{"jsonrpc":"2.0","id":"after","method":"shutdown"}`)
	close(release)
	if r := c.Reply(`"q"`); lsptest.ErrorCode(r) != int64(protocol.CodeRequestCancelled) {
		t.Errorf("queued and cancelled request: %v", r)
	}
	c.Reply(`"after"`)
	if n := hovers.Load(); n != 0 {
		t.Errorf("the cancelled hover ran %d times", n)
	}
}

// TestDidChangeRangesOutsideTheText applies edits the way the
// specification reads ranges outside the text, on CRLF and non-ASCII
// content, and checks the buffer byte for byte.
func TestDidChangeRangesOutsideTheText(t *testing.T) {
	const text = "{\r\n  \"é😀\": 1\r\n}"
	for _, tc := range []struct {
		name     string
		rng      protocol.Range
		insert   string
		want     string
		lostSync bool
	}{
		{"character past the line end", rangeAt(1, 999, 1, 999), "X", "{\r\n  \"é😀\": 1X\r\n}", false},
		{"line past the end", rangeAt(7, 0, 8, 5), "Y", text + "Y", false},
		{"from inside to past the end", rangeAt(0, 1, 5, 0), "", "{", false},
		{"start past the line end, end past the document", rangeAt(1, 50, 9, 9), "}", "{\r\n  \"é😀\": 1}", false},
		{"end before start", rangeAt(1, 5, 1, 2), "Z", "", true},
		{"end line before start line", rangeAt(2, 0, 0, 0), "Z", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := serverWithBuffer(t, text)
			err := s.didChange(&didChangeParams{
				TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: pathToURI(path)}, Version: 2},
				ContentChanges: []struct {
					Range *protocol.Range `json:"range,omitempty"`
					Text  string          `json:"text"`
				}{{Range: &tc.rng, Text: tc.insert}},
			})
			if err != nil {
				t.Fatal(err)
			}
			o, open := s.session.Snapshot().Overlay(path)
			if tc.lostSync {
				// Dropped back to the disk (which has no such file here),
				// never applied somewhere else.
				if open || s.desyncedAt(path) == nil {
					t.Errorf("an edit that cannot apply left the buffer open (%v) or not marked lost", open)
				}
				return
			}
			if !open || string(o.Content) != tc.want || o.Version != 2 {
				t.Errorf("buffer %q (version %d), want %q", o.Content, o.Version, tc.want)
			}
		})
	}
}

func rangeAt(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// serverWithBuffer returns a server (not serving; its client end is
// drained) with text open at version 1.
func serverWithBuffer(t *testing.T, text string) (*Server, string) {
	s := newServer(Options{})
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	go io.Copy(io.Discard, b)
	s.conn = jsonrpc2.NewConn(rpcstream.New(a, rpcstream.Options{}))
	s.diags = newDiagnoser(s)
	path := filepath.Join(t.TempDir(), ".mcp.json")
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{Path: path, URI: string(pathToURI(path)), Version: 1, Content: []byte(text)}}}, nil)
	return s, path
}

// TestDiscoveryProgress: a client that answers window/workDoneProgress/create
// gets a begin and then an end report on the token it accepted.
func TestDiscoveryProgress(t *testing.T) {
	dir := t.TempDir()
	c, _ := startRaw(t, lsptest.Server{Home: t.TempDir()}, Options{})
	c.Request("1", "initialize", map[string]any{"processId": nil, "rootUri": string(pathToURI(dir)), "capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}}})
	c.Notify("initialized", map[string]any{})
	create := c.Wait("window/workDoneProgress/create", func(f lsptest.Frame) bool { return f.Method() == "window/workDoneProgress/create" })
	var token struct{ Token string }
	if err := json.Unmarshal(create["params"], &token); err != nil || token.Token == "" {
		t.Fatalf("create: %s", create["params"])
	}
	progress := func(f lsptest.Frame) (kind string) {
		var p struct {
			Token string
			Value struct{ Kind string }
		}
		if f.Method() != "$/progress" || json.Unmarshal(f["params"], &p) != nil || p.Token != token.Token {
			return ""
		}
		return p.Value.Kind
	}
	c.Wait("the end report", func(f lsptest.Frame) bool { return progress(f) == "end" })
	var kinds []string
	for _, f := range c.Frames() {
		if k := progress(f); k != "" {
			kinds = append(kinds, k)
		}
	}
	if !slices.Equal(kinds, []string{"begin", "end"}) {
		t.Errorf("progress reports: %v, want begin then end", kinds)
	}
}

// TestClientThatNeverAnswers: a request to a client that never answers
// returns after the client timeout, and fetching the settings from such a
// client gives up and keeps the defaults.
func TestClientThatNeverAnswers(t *testing.T) {
	s, _ := serverWithBuffer(t, "{}")
	s.opts.ClientTimeout = 100 * time.Millisecond
	s.clientCap.Workspace = &protocol.WorkspaceClientCapabilities{Configuration: true}
	s.conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	done := make(chan error, 1)
	go func() {
		done <- s.callClient(context.Background(), "window/workDoneProgress/create", map[string]any{"token": "t"}, nil)
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("callClient: %v, want the deadline", err)
		}
	case <-time.After(lsptest.HangGuard):
		t.Fatal("callClient waited for a client that never answers")
	}
	before := s.diagnoseOptions().Settings
	fetched := make(chan struct{})
	go func() { s.fetchConfiguration(context.Background()); close(fetched) }()
	select {
	case <-fetched:
	case <-time.After(lsptest.HangGuard):
		t.Fatal("fetchConfiguration waited for a client that never answers")
	}
	if after := s.diagnoseOptions().Settings; !reflect.DeepEqual(before, after) {
		t.Errorf("settings changed without an answer: %+v -> %+v", before, after)
	}
}
