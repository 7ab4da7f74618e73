// Package lsp is mcp-lsp's language server: the only package that speaks
// LSP (and the only importer of go.lsp.dev). Handlers are thin: each one
// resolves the file in the current snapshot, calls a protocol-neutral
// feature in package analysis, and converts the result (convert.go). One
// file per feature.
package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
	"github.com/mcp-lsp/mcp-lsp/lsp/rpcstream"
)

// Options configure a Server. The zero value is usable: it reads the real
// disk, uses the default registry and discards logs.
type Options struct {
	// Logger receives the server's logs. Never stdout: that is the
	// protocol stream.
	Logger *slog.Logger
	// FS reads files on disk; tests inject a fake.
	FS cache.FileSystem
	// Registry says which files are MCP configs and who reads them.
	Registry *registry.Registry
	// Env locates the user-level files (home, XDG_CONFIG_HOME...).
	Env registry.Env
	// Version is reported in serverInfo.
	Version string
	// DiscoveryFS is the file system discovery walks, rooted at "/";
	// nil means the real one.
	DiscoveryFS fs.FS
	// NoCommandLookup turns the command-not-found check off by default
	// (settings can still turn it on); it depends on the machine's PATH.
	NoCommandLookup bool

	// LookupEnv looks environment variables up for inlay hints (set or
	// not; values are never shown); nil means the process environment.
	LookupEnv func(name string) (string, bool)

	// ClientTimeout bounds every wait for an answer from the client;
	// zero means DefaultClientTimeout.
	ClientTimeout time.Duration

	// InputWaiting, when set, says how many bytes of input have arrived
	// that the server has not read yet (see rpcstream.Options): with it,
	// diagnostics are not published for a version that an edit already
	// waiting in the pipe makes stale.
	InputWaiting func() int

	// testHook, when set, runs before every message is dispatched, inside
	// the recover middleware and before the lifecycle check: tests use it
	// to make a handler panic or block.
	testHook func(ctx context.Context, method string)
	// testDidChange, when set, is told for every didChange whether the
	// stream decoded its params (decodeDidChange) or the handler did.
	testDidChange func(predecoded bool)
	// testDidOpen, likewise for every didOpen.
	testDidOpen func(predecoded bool)
	// testSession, when set, is given the server's session when it starts.
	testSession func(*cache.Session)
}

type lifecycleState int

const (
	stateUninitialized lifecycleState = iota
	stateInitialized
	stateShutdown
)

// Server is one language server session on one connection.
type Server struct {
	unimplemented

	opts   Options
	logger *slog.Logger
	conn   jsonrpc2.Conn
	// stream is the connection's JSON-RPC stream (nil in tests that
	// build a Server without one): it hands over predecoded params.
	stream  *rpcstream.Stream
	session *cache.Session
	diags   *diagnoser
	mappers *mapperCache

	// settingsMu makes deciding to take settings and taking them one
	// step: a push handled between an answer's check and its storing
	// would otherwise be overwritten by the older answer.
	settingsMu sync.Mutex
	// settingsSeq numbers the client's settings in the order the server
	// saw them come into being: each didChangeConfiguration push, and each
	// workspace/configuration question when it is asked. settingsTaken is
	// the number of the settings in force: an answer whose question is
	// older than them (a push since, or a later question answered first)
	// is dropped. Both under settingsMu.
	settingsSeq, settingsTaken int

	mu        sync.Mutex
	lifecycle lifecycleState
	exited    chan struct{}
	exitOnce  sync.Once
	clientCap protocol.ClientCapabilities
	// clientName is clientInfo.name from initialize ("" when not sent).
	clientName string
	settings   analysis.Settings
	editor     editorSettings
	// settingsReceived: the client has answered with its settings once.
	settingsReceived bool
	// encoding is the position encoding negotiated at initialize.
	encoding Encoding
	// pullDiagnostics: the client pulls diagnostics (LSP 3.17), so the
	// server answers textDocument/diagnostic instead of publishing.
	pullDiagnostics bool
	folders         []cache.Folder
	rawCaps         rawClientCaps
	desynced        map[string]*desync // buffers the server lost track of (text_sync.go)

	// pendingWriters counts the notifications and state-changing calls
	// received but not yet handled (scheduleHandler): while one is
	// pending, what the diagnoser computes may already be stale.
	pendingWriters atomic.Int64
}

func (s *Server) state() lifecycleState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lifecycle
}

func (s *Server) setState(st lifecycleState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lifecycle = st
}

func (s *Server) shutdown() { s.setState(stateShutdown) }

// exit ends the session: the connection is closed here and not in
// shutdown, because shutdown's reply is written after its handler returns.
func (s *Server) exit() {
	s.exitOnce.Do(func() {
		close(s.exited)
		s.conn.Close()
	})
}

// Run serves LSP over rwc until the client sends exit or closes the stream,
// and returns the process exit code the specification asks for: 0 when
// shutdown came before exit, 1 otherwise (exit without shutdown, or the
// stream simply closed).
func Run(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	// The schemas compile while the client is still busy with
	// initialize: the first analysis would otherwise pay for them.
	go verdict.Prepare()
	s := newServer(opts)
	s.stream = rpcstream.New(rwc, rpcstream.Options{
		Logger:       s.logger,
		OnRefused:    s.refused,
		InputWaiting: opts.InputWaiting,
		Predecode: map[string]func([]byte) (any, error){
			protocol.MethodTextDocumentDidChange: new(textReuse).decodeDidChange,
			protocol.MethodTextDocumentDidOpen:   decodeDidOpen,
		},
	})
	s.conn = jsonrpc2.NewConn(s.stream)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.diags = newDiagnoser(s)
	go s.diags.run(ctx)

	handler := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	handler = s.extraHandler(handler)
	handler = s.lifecycleHandler(handler)
	handler = recoverHandler(s.logger)(handler)
	handler = s.scheduleHandler(handler)
	handler = cancelHandler(handler)
	s.conn.Go(ctx, handler)

	select {
	case <-s.conn.Done():
	case <-s.exited:
		// The reader may be blocked on a stdin that Close cannot
		// interrupt (a blocking file descriptor); the process is about
		// to exit anyway, so do not wait for it for long.
		select {
		case <-s.conn.Done():
		case <-time.After(time.Second):
		}
	case <-ctx.Done():
		s.conn.Close()
		<-s.conn.Done()
	}
	if s.state() == stateShutdown {
		return 0
	}
	return 1
}

func newServer(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Registry == nil {
		opts.Registry = registry.Default()
	}
	if opts.FS == nil {
		opts.FS = cache.OSFileSystem{}
	}
	s := &Server{
		opts:    opts,
		logger:  opts.Logger,
		session: cache.NewSession(opts.FS, opts.Registry),
		mappers: newMapperCache(),
		exited:  make(chan struct{}),
		editor:  defaultEditorSettings,
	}
	if opts.testSession != nil {
		opts.testSession(s.session)
	}
	return s
}

// DefaultClientTimeout is how long the server waits for the client to
// answer one of its requests before going on without the answer.
const DefaultClientTimeout = 10 * time.Second

// callClient sends a request to the client and waits for the answer, but
// never longer than the client timeout, and never for a cancelled
// handler: a client that does not answer (some never answer
// window/workDoneProgress/create) must not stop the server's work. Every
// caller has a fallback for the error.
func (s *Server) callClient(ctx context.Context, method string, params, result any) error {
	timeout := s.opts.ClientTimeout
	if timeout <= 0 {
		timeout = DefaultClientTimeout
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}

// notify sends a notification to the client, logging (not returning) a
// failure: a client that went away is not the handler's problem.
func (s *Server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(context.WithoutCancel(ctx), method, params); err != nil {
		s.logger.Debug("notify failed", "method", method, "error", err)
	}
}

// publish sends the publishDiagnostics notification enc prepared,
// written from its parts as it goes (rpcstream.WriteNotificationFunc).
func (s *Server) publish(ctx context.Context, enc *diagnosticCache) {
	if s.stream == nil {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		enc.writeParams(w)
		w.Flush()
		s.notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, json.RawMessage(b.Bytes()))
		return
	}
	if _, err := s.stream.WriteNotificationFunc(context.WithoutCancel(ctx), protocol.MethodTextDocumentPublishDiagnostics, enc.size, enc.writeParams); err != nil {
		s.logger.Debug("notify failed", "method", protocol.MethodTextDocumentPublishDiagnostics, "error", err)
	}
}

// refused tells the user about a notification the stream could not
// accept (a settings change nested too deep to decode, say): it had no
// reply to carry the error, and silently ignoring it would leave the user
// wondering why the change had no effect.
func (s *Server) refused(method, reason string) {
	s.notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{
		Type:    protocol.MessageTypeWarning,
		Message: fmt.Sprintf("mcp-lsp ignored %s: %s", method, reason),
	})
}
