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
)

// The connection is wired by hand instead of with protocol.NewServer,
// whose fixed handler chain ignores numeric cancel IDs (VS Code sends
// numbers) and lets a panic in any handler kill the process. Our chain,
// outermost first:
//
//	cancel     runs on the read loop: $/cancelRequest with any ID type
//	async      one goroutine per message, in arrival order
//	recover    a panic becomes an InternalError reply; serving goes on
//	lifecycle  -32002 before initialize, shutdown/exit state machine
//	extra      methods go.lsp.dev/protocol cannot decode faithfully
//	protocol   protocol.ServerHandler dispatching to *Server
//
// The chain never returns an error to the connection's read loop (async
// swallows them): jsonrpc2 v0.10.0 closes the stream on such an error, and
// a second failure with another error type panics in atomic.Value.Store.

// cancelHandler tracks in-flight calls by ID and cancels their context on
// $/cancelRequest. jsonrpc2.ID's own decoder handles numbers and strings,
// unlike protocol.CancelHandler, which only matches int32 after a float64
// decode and so never cancels anything a real client sends.
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

// asyncHandler runs each message in its own goroutine but in arrival
// order: a message starts when the previous one has replied (or, for a
// notification, returned). Edits therefore apply in order, and the read
// loop is never blocked, so $/cancelRequest is seen while a request runs.
func asyncHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	prev := make(chan struct{})
	close(prev)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		wait, done := prev, make(chan struct{})
		prev = done
		var once sync.Once
		release := func() { once.Do(func() { close(done) }) }
		inner := reply
		reply = func(ctx context.Context, result any, err error) error {
			release()
			return inner(ctx, result, err)
		}
		go func() {
			defer release()
			<-wait
			_ = next(ctx, reply, req)
		}()
		return nil
	}
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
func (s *Server) lifecycleHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
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
		switch s.state() {
		case stateUninitialized:
			if !isCall {
				return reply(ctx, nil, nil)
			}
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized"))
		case stateShutdown:
			if !isCall {
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
