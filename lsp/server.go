// Package lsp is mcp-lsp's language server: the only package that speaks
// LSP (and the only importer of go.lsp.dev). Handlers are thin: each one
// resolves the file in the current snapshot, calls a protocol-neutral
// feature in package analysis, and converts the result (convert.go). One
// file per feature.
package lsp

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
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

	// testHook, when set, runs before every message is dispatched, inside
	// the recover middleware: tests use it to make a handler panic or block.
	testHook func(ctx context.Context, method string)
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

	opts    Options
	logger  *slog.Logger
	conn    jsonrpc2.Conn
	session *cache.Session
	diags   *diagnoser

	mu        sync.Mutex
	lifecycle lifecycleState
	exited    chan struct{}
	exitOnce  sync.Once
	clientCap protocol.ClientCapabilities
	settings  analysis.Settings
	folders   []cache.Folder
	rawCaps   rawClientCaps
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
	s := newServer(opts)
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.diags = newDiagnoser(s)
	go s.diags.run(ctx)

	handler := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	handler = s.extraHandler(handler)
	handler = s.lifecycleHandler(handler)
	handler = recoverHandler(s.logger)(handler)
	handler = asyncHandler(handler)
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
	return &Server{
		opts:    opts,
		logger:  opts.Logger,
		session: cache.NewSession(opts.FS),
		exited:  make(chan struct{}),
	}
}

// notify sends a notification to the client, logging (not returning) a
// failure: a client that went away is not the handler's problem.
func (s *Server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(context.WithoutCancel(ctx), method, params); err != nil {
		s.logger.Debug("notify failed", "method", method, "error", err)
	}
}
