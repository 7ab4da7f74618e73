package rpcstream

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// predecodedKey marks the params of a notification whose real params were
// decoded by the stream (Options.Predecode): the Conn carries
// {"mcp-lsp/predecoded":N} and the handler takes the value with
// Stream.Predecoded. jsonrpc2.Notification cannot carry a decoded value,
// and building one from the raw params would parse them again.
const predecodedKey = `{"mcp-lsp/predecoded":`

type predecodedTable struct {
	mu     sync.Mutex
	seq    int64
	values map[int64]any
	// decoded counts the notifications decoded here (tests).
	decoded int
}

// predecode decodes a notification's params with the predecoder for its
// method, if any, and returns the notification the Conn carries; nil
// leaves the message to the ordinary path (no predecoder, no params, a
// predecoder error, or a body that is not JSON outside the params).
func (s *Stream) predecode(body []byte, top scanned, method string, params []byte) jsonrpc2.Message {
	decode := s.opts.Predecode[method]
	if decode == nil || params == nil {
		return nil
	}
	// The rest of the body must be JSON too: validate it with the params
	// replaced by null, which costs the envelope's size only.
	start := top.memberStart("params")
	rest := make([]byte, 0, len(body)-len(params)+4)
	rest = append(append(append(rest, body[:start]...), "null"...), body[start+len(params):]...)
	if !json.Valid(rest) {
		return nil
	}
	v, err := decode(params)
	if err != nil {
		return nil
	}
	t := &s.predecoded
	t.mu.Lock()
	t.seq++
	n := t.seq
	if t.values == nil {
		t.values = map[int64]any{}
	}
	// No bound here: a value waits for its handler exactly as the raw
	// params would in the Conn's queue (a burst of edits queues many),
	// and a server that drops a notification unhandled must take its
	// value too (the lsp package's lifecycle middleware does).
	t.values[n] = v
	t.decoded++
	t.mu.Unlock()
	msg, err := jsonrpc2.NewNotification(method, json.RawMessage(predecodedKey+strconv.FormatInt(n, 10)+"}"))
	if err != nil {
		return nil
	}
	return msg
}

// Predecoded returns (once) the value the stream decoded for a
// notification whose params the Conn delivered, or false when params are
// ordinary params.
func (s *Stream) Predecoded(params json.RawMessage) (any, bool) {
	rest, ok := bytes.CutPrefix(params, []byte(predecodedKey))
	if !ok {
		return nil, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSuffix(rest, []byte("}"))), 10, 64)
	if err != nil {
		return nil, false
	}
	t := &s.predecoded
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.values[n]
	delete(t.values, n)
	return v, ok
}

// PredecodedCount is the number of notifications whose params the stream
// decoded (tests assert the fast path is taken).
func (s *Stream) PredecodedCount() int {
	t := &s.predecoded
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.decoded
}
