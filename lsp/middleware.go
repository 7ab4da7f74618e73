package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// The connection is wired by hand instead of with protocol.NewServer,
// whose fixed handler chain ignores numeric cancel IDs (VS Code sends
// numbers) and lets a panic in any handler kill the process. Our chain,
// outermost first:
//
//	cancel     runs on the read loop: $/cancelRequest with any ID type
//	schedule   one goroutine per message; edits in order, requests concurrent
//	recover    a panic becomes an InternalError reply; serving goes on
//	lifecycle  -32002 before initialize, shutdown/exit state machine
//	extra      methods go.lsp.dev/protocol cannot decode faithfully
//	protocol   protocol.ServerHandler dispatching to *Server
//
// The chain never returns an error to the connection's read loop (schedule
// swallows them): jsonrpc2 v0.10.0 closes the stream on such an error, and
// a second failure with another error type panics in atomic.Value.Store.
// Under the Conn, package rpcstream frames and validates the messages.

// cancelHandler tracks in-flight calls by ID and cancels their context on
// $/cancelRequest, whose id rpcstream has already translated to the
// call's internal one (whatever string or number the client used). Unlike
// protocol.CancelHandler, which only matches int32 after a float64 decode
// and so never cancels anything a real client sends.
func cancelHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	var mu sync.Mutex
	inflight := map[jsonrpc2.ID]context.CancelFunc{}
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodCancelRequest {
			var params struct {
				ID jsonrpc2.ID `json:"id"`
			}
			if err := json.Unmarshal(req.Params(), &params); err == nil {
				mu.Lock()
				cancel := inflight[params.ID]
				mu.Unlock()
				if cancel != nil {
					cancel()
				}
			}
			return nil // a notification: nothing to reply
		}
		call, ok := req.(*jsonrpc2.Call)
		if !ok {
			return next(ctx, reply, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		inflight[call.ID()] = cancel
		mu.Unlock()
		inner := reply
		reply = func(rctx context.Context, result any, err error) error {
			mu.Lock()
			delete(inflight, call.ID())
			mu.Unlock()
			cancelled := ctx.Err() != nil
			cancel()
			if cancelled && err == nil {
				result, err = nil, protocol.ErrRequestCancelled
			}
			// Replies go out even after cancellation: the context passed
			// to the write must not be the cancelled one.
			return inner(context.WithoutCancel(rctx), result, err)
		}
		return next(ctx, reply, req)
	}
}

// scheduleHandler starts each message in its own goroutine, in arrival
// order, holding a message back only as long as its meaning requires:
//
//   - A notification (didOpen, didChange, didChangeConfiguration...) and
//     the calls that change the session's state (initialize, shutdown)
//     are writers: a writer waits until every earlier writer has finished
//     and every earlier reader has taken its view of the state.
//   - Every other call is a reader: it waits only for the earlier writers,
//     pins the snapshot and settings it will answer from (see view), and
//     runs concurrently with everything after it.
//
// Writers received and not yet handled are counted (pendingWriters): the
// diagnoser neither starts nor publishes while one is pending, so a burst
// of edits is analysed once, at its last version.
//
// So edits apply in order, each request answers on the state its position
// in the stream gives it, and a slow request holds up neither the edits
// nor the requests behind it. The read loop never blocks, so
// $/cancelRequest is seen at once, and a call cancelled while it waits for
// its turn is answered RequestCancelled without running.
func (s *Server) scheduleHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	writerDone := make(chan struct{}) // closed when the last writer finished
	close(writerDone)
	var unpinned []chan struct{} // readers since that writer not yet pinned
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		_, isCall := req.(*jsonrpc2.Call)
		if isCall && !orderedCalls[req.Method()] {
			wait, pinned := writerDone, make(chan struct{})
			unpinned = append(unpinned, pinned)
			go func() {
				<-wait
				if ctx.Err() != nil {
					close(pinned)
					_ = reply(ctx, nil, protocol.ErrRequestCancelled)
					return
				}
				ctx = s.pin(ctx)
				close(pinned)
				_ = next(ctx, reply, req)
			}()
			return nil
		}
		s.pendingWriters.Add(1)
		wait, readers, done := writerDone, unpinned, make(chan struct{})
		writerDone, unpinned = done, nil
		var once sync.Once
		release := func() { once.Do(func() { close(done) }) }
		inner := reply
		reply = func(ctx context.Context, result any, err error) error {
			release()
			return inner(ctx, result, err)
		}
		go func() {
			defer s.writerDone()
			defer release()
			<-wait
			for _, r := range readers {
				<-r
			}
			_ = next(ctx, reply, req)
		}()
		return nil
	}
}

// writerDone records that a writer has been handled; the last one of a
// burst lets the diagnoser publish again (diagnoser.resume).
func (s *Server) writerDone() {
	if s.pendingWriters.Add(-1) == 0 && s.diags != nil {
		s.diags.resume()
	}
}

// orderedCalls are the calls that change the server's state, scheduled
// as writers.
var orderedCalls = map[string]bool{
	protocol.MethodInitialize: true,
	protocol.MethodShutdown:   true,
}

// pinnedView is the state a reader answers from.
type pinnedView struct {
	snap *cache.Snapshot
	opts cache.DiagnoseOptions
	// state is the lifecycle state at the reader's place in the stream:
	// a request the client sent before shutdown is answered, even when
	// the shutdown (a writer, which waits only for earlier readers to
	// pin) is handled before the request runs. VS Code sends code action
	// requests up to the moment it restarts the server, and shows "Request
	// textDocument/codeAction failed." for every one refused.
	state lifecycleState
}

type pinnedViewKey struct{}

// pin records in ctx the snapshot and settings current when a reader's
// turn came.
func (s *Server) pin(ctx context.Context) context.Context {
	return context.WithValue(ctx, pinnedViewKey{}, &pinnedView{s.session.Snapshot(), s.diagnoseOptions(), s.state()})
}

// stateAt returns the lifecycle state a request is judged in: the one
// pinned by the scheduler when its turn came, or the current one.
func (s *Server) stateAt(ctx context.Context) lifecycleState {
	if v, ok := ctx.Value(pinnedViewKey{}).(*pinnedView); ok {
		return v.state
	}
	return s.state()
}

// view returns the snapshot and settings a request answers from: those
// pinned by the scheduler when it started, or the current ones.
func (s *Server) view(ctx context.Context) (*cache.Snapshot, cache.DiagnoseOptions) {
	if v, ok := ctx.Value(pinnedViewKey{}).(*pinnedView); ok {
		return v.snap, v.opts
	}
	return s.session.Snapshot(), s.diagnoseOptions()
}

// recoverHandler turns a panic into an InternalError reply (if the request
// was not answered yet) and a log line with the method and stack, never
// the parameters: they carry whole documents, which may hold secrets.
func recoverHandler(logger *slog.Logger) func(jsonrpc2.Handler) jsonrpc2.Handler {
	return func(next jsonrpc2.Handler) jsonrpc2.Handler {
		return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
			var mu sync.Mutex
			replied := false
			guarded := func(ctx context.Context, result any, rerr error) error {
				mu.Lock()
				if replied {
					mu.Unlock()
					return nil
				}
				replied = true
				mu.Unlock()
				return reply(ctx, result, rerr)
			}
			start := time.Now()
			defer func() {
				if r := recover(); r != nil {
					logger.Error("panic in handler", "method", req.Method(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
					err = guarded(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
				}
				logger.Debug("handled", "method", req.Method(), "duration", time.Since(start))
			}()
			return next(ctx, guarded, req)
		}
	}
}

// lifecycleHandler enforces the LSP lifecycle: before initialize only
// initialize and exit are served (requests get ServerNotInitialized,
// notifications are dropped); after shutdown only exit is.
// discardPredecoded releases what the stream decoded for a notification
// the server drops without handling, which would otherwise stay in the
// stream's table for the session.
func (s *Server) discardPredecoded(req jsonrpc2.Request) {
	if s.stream != nil {
		s.stream.Predecoded(req.Params())
	}
}

func (s *Server) lifecycleHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if s.opts.testHook != nil {
			s.opts.testHook(ctx, req.Method())
		}
		_, isCall := req.(*jsonrpc2.Call)
		method := req.Method()
		switch method {
		case protocol.MethodExit:
			s.exit()
			return reply(ctx, nil, nil)
		case protocol.MethodShutdown:
			// Handled here rather than by protocol.ServerHandler, which
			// rejects the `"params": null` some clients send.
			if s.state() == stateUninitialized {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized"))
			}
			s.shutdown()
			return reply(ctx, nil, nil)
		case protocol.MethodInitialize:
			if s.state() != stateUninitialized {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice"))
			}
			return next(ctx, reply, req)
		}
		switch s.stateAt(ctx) {
		case stateUninitialized:
			if !isCall {
				s.discardPredecoded(req)
				return reply(ctx, nil, nil)
			}
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized"))
		case stateShutdown:
			if !isCall {
				s.discardPredecoded(req)
				return reply(ctx, nil, nil)
			}
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down"))
		}
		if !isCall && strings.HasPrefix(method, "$/") && !s.knownNotification(method) {
			// The specification lets servers ignore unknown $/ notifications.
			return reply(ctx, nil, nil)
		}
		return next(ctx, reply, req)
	}
}

func (s *Server) knownNotification(method string) bool {
	return method == protocol.MethodSetTrace || method == protocol.MethodLogTrace
}
