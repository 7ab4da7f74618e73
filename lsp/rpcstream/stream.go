// Package rpcstream is mcp-lsp's JSON-RPC 2.0 stream: the framing and
// message decoding under go.lsp.dev/jsonrpc2's Conn, which it replaces
// because the library's own stream (v0.10.0) fails the whole connection on
// any bad input: a body that is not JSON, a lower-case header, a batch, an
// id that does not fit in an int32. This one answers a bad message with
// the error the JSON-RPC specification asks for and keeps serving.
//
// What it guarantees:
//   - Header names are matched case-insensitively; unknown headers are
//     ignored; a header line longer than maxHeaderLine is discarded
//     without being buffered.
//   - A body is read as it arrives (never allocated from Content-Length up
//     front) and refused beyond MaxMessageBytes.
//   - A body that is not JSON gets -32700 (id null); a JSON value that is
//     not a request or a response gets -32600 (id null, or the request's
//     id when it has a valid one).
//   - Nesting deeper than MaxDepth is refused by a linear scan before any
//     decoder sees the message (go.lsp.dev's decoder is quadratic in
//     depth).
//   - Request ids are returned exactly as sent: every incoming call gets an
//     internal id the Conn can hold (jsonrpc2.ID is an int32 or a
//     non-empty string), the original bytes are restored on the reply, and
//     $/cancelRequest is translated to the internal id.
package rpcstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// Defaults of Options.
const (
	// DefaultMaxDepth is far above anything LSP sends (a few dozen levels)
	// and low enough that every decoder is fast on it.
	DefaultMaxDepth = 512
	// DefaultMaxMessageBytes bounds one message: above any config file
	// the server analyses (the file cap is 16 MiB), far below memory.
	DefaultMaxMessageBytes = 256 << 20
)

// maxHeaderLine bounds one header line; a longer one is skipped.
const maxHeaderLine = 4096

// methodCancelRequest is the LSP cancellation notification, whose id
// parameter refers to a request id and so is translated like one.
const methodCancelRequest = "$/cancelRequest"

// Options configure a Stream. The zero value uses the defaults.
type Options struct {
	// Logger receives one line per refused or dropped message (never its
	// content, which may hold secrets).
	Logger *slog.Logger
	// MaxDepth is the deepest nesting of arrays and objects accepted.
	MaxDepth int
	// MaxMessageBytes is the largest body accepted.
	MaxMessageBytes int64
	// OnRefused, when set, is told about every message refused without a
	// reply to the client (a notification too deep to decode, say), so
	// the server can tell the user.
	OnRefused func(method, reason string)
	// Predecode, when set, decodes the params of the named notifications
	// straight from the frame, once (see predecode.go): a didChange
	// carries the whole document, and decoding it a second time in the
	// handler doubled its cost. A predecoder must fail on params that
	// are not one valid JSON value (the stream validates only the rest
	// of the body); one that fails leaves the message to the ordinary
	// path. It must not keep params, nor any part of them, once it has
	// returned: the stream reads the next message into their memory.
	Predecode map[string]func(params []byte) (any, error)
	// InputWaiting, when set, says how many bytes have arrived on the
	// input that the stream has not read yet (FIONREAD on a pipe or a
	// socket), so that Settle also sees a message the read loop has not
	// started on. Nil: only what the stream has started reading counts.
	InputWaiting func() int
}

// Stream implements jsonrpc2.Stream over a byte stream with LSP's
// Content-Length framing. Read is called by one goroutine (the Conn's
// read loop); Write may be called concurrently with Read.
type Stream struct {
	rwc  io.ReadWriteCloser
	in   *bufio.Reader
	opts Options

	writeMu sync.Mutex
	// chunks is where WriteNotificationFunc's params are gathered before
	// they are written, under writeMu; made on its first use.
	chunks *bufio.Writer
	sent   countingWriter

	idMu     sync.Mutex
	seq      int32
	original map[jsonrpc2.ID]incoming // internal id -> request as received
	byKey    map[string]jsonrpc2.ID   // canonical original id -> internal id

	// counters for tests: messages refused with a reply, and dropped
	// without one.
	replied, dropped int

	predecoded predecodedTable

	// spare is the body of the last predecoded message, which nothing
	// refers to once its params are decoded: readFrame reads the next
	// body into it when it fits, so a full-text edit of a large file
	// does not allocate (and clear) a new buffer the size of the file on
	// every keystroke. Read's goroutine only.
	spare []byte

	// receiving is set from the moment a message's first header line
	// has arrived (or bytes of it are buffered) until the read loop comes
	// back for the next message, that is until the Conn has handed the
	// message to its handler; handed is closed and replaced each time the
	// read loop comes back. See Settle.
	receiving atomic.Bool
	handedMu  sync.Mutex
	handed    chan struct{}
}

// incoming is a call in flight: its original id bytes and their key.
type incoming struct {
	raw []byte
	key string
}

var _ jsonrpc2.Stream = (*Stream)(nil)

// New returns a Stream over rwc.
func New(rwc io.ReadWriteCloser, opts Options) *Stream {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return &Stream{
		rwc:      rwc,
		in:       bufio.NewReaderSize(rwc, maxHeaderLine),
		opts:     opts,
		original: map[jsonrpc2.ID]incoming{},
		byKey:    map[string]jsonrpc2.ID{},
		handed:   make(chan struct{}),
	}
}

// Settle waits, at most timeout, until every message whose bytes have
// arrived so far has been handed to the Conn's handler, and reports
// whether that happened. The server's diagnostics use it to tell whether
// a newer edit is on its way before publishing a result that the edit
// would make stale: a flood of edits must not be answered version by
// version.
func (s *Stream) Settle(ctx context.Context, timeout time.Duration) bool {
	var deadline <-chan time.Time
	for {
		s.handedMu.Lock()
		handed := s.handed
		s.handedMu.Unlock()
		if !s.receiving.Load() && (s.opts.InputWaiting == nil || s.opts.InputWaiting() <= 0) {
			return true
		}
		if deadline == nil {
			t := time.NewTimer(timeout)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-handed:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// comeBack records that the read loop is back for the next message: the
// previous one has been handed over. Bytes of the next one may already
// be buffered.
func (s *Stream) comeBack() {
	s.receiving.Store(s.in.Buffered() > 0)
	s.handedMu.Lock()
	close(s.handed)
	s.handed = make(chan struct{})
	s.handedMu.Unlock()
}

// Close closes the underlying stream.
func (s *Stream) Close() error { return s.rwc.Close() }

// Read returns the next message. Bad frames and invalid messages are
// answered (or logged) here and skipped; the only errors returned are
// those of the underlying stream (io.EOF when it closes between messages).
func (s *Stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	s.comeBack()
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.readFrame()
		var fe *frameError
		if errors.As(err, &fe) {
			s.refuse(nil, jsonrpc2.ParseError, fe.msg)
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		if msg := s.decode(body); msg != nil {
			return msg, int64(len(body)), nil
		}
	}
}

// frameError is a framing problem after which reading can go on.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// readFrame reads one header block and its body.
func (s *Stream) readFrame() ([]byte, error) {
	length := int64(-1)
	var problem string
	started := false
	for {
		line, tooLong, err := s.readLine()
		if err != nil {
			if started && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if tooLong {
			started = true
			s.receiving.Store(true)
			problem = "header line too long"
			continue
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if !started {
				continue // stray line breaks between messages
			}
			break
		}
		started = true
		s.receiving.Store(true)
		// After a body that could not be framed, the next header may
		// follow that body on the same line: resynchronise on it.
		if i := indexFold(line, "content-length"); i > 0 {
			line = line[i:]
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			problem = "header line without a colon"
			continue
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type and unknown headers
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 0 {
			problem = fmt.Sprintf("invalid Content-Length %q", truncate(strings.TrimSpace(value), 40))
			length = -1
			continue
		}
		length, problem = n, ""
	}
	if length < 0 {
		if problem == "" {
			problem = "missing Content-Length header"
		}
		return nil, &frameError{problem}
	}
	if length > s.opts.MaxMessageBytes {
		if _, err := io.CopyN(io.Discard, s.in, length); err != nil {
			return nil, unexpected(err)
		}
		return nil, &frameError{fmt.Sprintf("message of %d bytes exceeds the limit of %d", length, s.opts.MaxMessageBytes)}
	}
	// The buffer grows as bytes arrive, doubling from at most eagerBody
	// bytes: a Content-Length that lies costs little until the bytes are
	// really sent, and a full-text edit of a large file is read in one
	// piece, without the copies of a buffer grown from a small one.
	if length <= int64(cap(s.spare)) {
		body := s.spare[:length]
		s.spare = nil
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, unexpected(err)
		}
		return body, nil
	}
	body := make([]byte, min(length, eagerBody))
	for got := 0; ; {
		if _, err := io.ReadFull(s.in, body[got:]); err != nil {
			return nil, unexpected(err)
		}
		got = len(body)
		if int64(got) == length {
			return body, nil
		}
		body = append(body, make([]byte, min(length-int64(got), int64(got)))...)
	}
}

// eagerBody is the most readFrame allocates for a body before its bytes
// arrive, and the largest spare body kept (see Stream.spare): the
// buffer of a larger file's edits is not worth holding between them.
const eagerBody = 1 << 20

// keepSpare keeps body, which nothing refers to any more, for the next
// frame (see Stream.spare).
func (s *Stream) keepSpare(body []byte) {
	if cap(body) <= eagerBody && cap(body) > cap(s.spare) {
		s.spare = body
	}
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readLine reads one line, or skips it (tooLong) when it does not fit in
// the buffer, without ever holding more than maxHeaderLine bytes.
func (s *Stream) readLine() (line string, tooLong bool, err error) {
	b, err := s.in.ReadSlice('\n')
	if err == nil {
		return string(b), false, nil
	}
	if err != bufio.ErrBufferFull {
		if err == io.EOF && len(b) > 0 {
			return "", false, io.ErrUnexpectedEOF
		}
		return "", false, err
	}
	for err == bufio.ErrBufferFull {
		_, err = s.in.ReadSlice('\n')
	}
	if err != nil {
		return "", false, unexpected(err)
	}
	return "", true, nil
}

// outcome is what becomes of a body that yields no message.
type outcome struct {
	code   jsonrpc2.Code // reply with this error; 0: drop without a reply
	id     []byte        // the reply's id; nil means null
	method string        // of a dropped notification
	reason string
	quiet  bool // a routine drop, logged at debug level
}

// decode turns a body into a message, or answers or logs it and returns
// nil.
func (s *Stream) decode(body []byte) jsonrpc2.Message {
	top := scan(body, s.opts.MaxDepth)
	msg, out := s.classify(body, top)
	if msg != nil {
		return msg
	}
	// Whatever else is wrong with it, a body that is not JSON at all is a
	// parse error. (Not checked past the depth limit: that is the point
	// of the limit.)
	if !top.tooDeep && out.code != jsonrpc2.ParseError && !segjson.Valid(body) {
		out = outcome{code: jsonrpc2.ParseError, reason: "body is not valid JSON"}
	}
	if out.code != 0 {
		s.refuse(out.id, out.code, out.reason)
	} else {
		s.drop(out)
	}
	return nil
}

// classify decodes a body the scan has described. The common case costs
// the scan and one decoder pass: the body goes to jsonrpc2.DecodeMessage
// as it is, or with the id replaced by its internal one.
func (s *Stream) classify(body []byte, top scanned) (jsonrpc2.Message, outcome) {
	if top.tooDeep {
		id, _ := classifyID(top.member("id"))
		method := top.member("method")
		reason := fmt.Sprintf("message nested deeper than %d levels", s.opts.MaxDepth)
		if method != nil && id.kind == idValid {
			return nil, outcome{code: jsonrpc2.InvalidRequest, id: id.raw, reason: reason}
		}
		return nil, outcome{method: methodName(method), reason: reason}
	}
	if !top.object {
		what := "not a JSON object"
		if top.first == '[' {
			what = "batches are not supported"
		}
		return nil, outcome{code: jsonrpc2.InvalidRequest, reason: "invalid request: " + what}
	}
	if top.trailing {
		return nil, outcome{code: jsonrpc2.ParseError, reason: "data after the JSON object"}
	}
	id, idErr := classifyID(top.member("id"))
	if v := top.member("jsonrpc"); v != nil && string(v) != `"2.0"` {
		return nil, outcome{code: jsonrpc2.InvalidRequest, id: validOrNull(id), reason: `invalid request: "jsonrpc" must be "2.0"`}
	}
	methodRaw := top.member("method")
	if methodRaw == nil {
		return s.classifyResponse(body, id, idErr)
	}
	var method string
	if json.Unmarshal(methodRaw, &method) != nil || method == "" {
		return nil, outcome{code: jsonrpc2.InvalidRequest, id: validOrNull(id), reason: `invalid request: "method" must be a non-empty string`}
	}
	params := top.member("params")
	switch id.kind {
	case idAbsent:
		if method == methodCancelRequest {
			translated, out := s.translateCancel(params)
			if translated == nil {
				return nil, out
			}
			params = translated
		}
		if msg := s.predecode(body, top, method, params); msg != nil {
			s.keepSpare(body)
			return msg, outcome{}
		}
		if params == nil || method == methodCancelRequest {
			msg, err := jsonrpc2.NewNotification(method, rawOrNull(params))
			if err != nil {
				return nil, outcome{method: method, reason: "undecodable params"}
			}
			return msg, outcome{}
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if _, ok := msg.(*jsonrpc2.Notification); err != nil || !ok {
			return nil, outcome{method: method, reason: fmt.Sprintf("undecodable notification: %v", err)}
		}
		return msg, outcome{}
	case idValid:
		internal := s.enter(id)
		var msg jsonrpc2.Message
		var err error
		if params == nil {
			msg, err = jsonrpc2.NewCall(internal, method, rawOrNull(nil))
		} else {
			msg, err = jsonrpc2.DecodeMessage(withID(body, top.memberStart("id"), len(id.raw), internal))
		}
		if _, ok := msg.(*jsonrpc2.Call); err != nil || !ok {
			s.leave(internal)
			return nil, outcome{code: jsonrpc2.InvalidRequest, id: id.raw, reason: fmt.Sprintf("invalid request: %v", err)}
		}
		return msg, outcome{}
	default:
		return nil, outcome{code: jsonrpc2.InvalidRequest, reason: "invalid request: " + idErr}
	}
}

// withID returns body with the n bytes at start (the id) replaced by id.
func withID(body []byte, start, n int, id jsonrpc2.ID) []byte {
	enc, _ := json.Marshal(&id)
	out := make([]byte, 0, len(body)+len(enc))
	out = append(out, body[:start]...)
	out = append(out, enc...)
	return append(out, body[start+n:]...)
}

// classifyResponse handles a message without a method: the client's
// answer to one of the server's calls.
func (s *Stream) classifyResponse(body []byte, id requestID, idErr string) (jsonrpc2.Message, outcome) {
	switch id.kind {
	case idAbsent:
		return nil, outcome{code: jsonrpc2.InvalidRequest, reason: `invalid request: no "method" and no "id"`}
	case idNull:
		// The client could not read something the server sent; there is
		// nothing to answer it with.
		return nil, outcome{reason: "error response with a null id from the client"}
	case idInvalid:
		return nil, outcome{code: jsonrpc2.InvalidRequest, reason: "invalid response: " + idErr}
	}
	// The server's own calls have int32 ids; anything else answers
	// nothing we sent.
	if _, err := strconv.ParseInt(string(id.raw), 10, 32); err != nil {
		return nil, outcome{reason: "response to an id the server never sent"}
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if _, ok := msg.(*jsonrpc2.Response); err != nil || !ok {
		return nil, outcome{code: jsonrpc2.InvalidRequest, reason: fmt.Sprintf("invalid response: %v", err)}
	}
	return msg, outcome{}
}

// translateCancel rewrites $/cancelRequest's id to the internal id of the
// call it names; a cancel for a call no longer in flight is dropped.
func (s *Stream) translateCancel(params []byte) ([]byte, outcome) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil, outcome{method: methodCancelRequest, reason: "malformed params"}
	}
	id, _ := classifyID(p.ID)
	if id.kind != idValid {
		return nil, outcome{method: methodCancelRequest, reason: "invalid id"}
	}
	s.idMu.Lock()
	internal, ok := s.byKey[id.key]
	s.idMu.Unlock()
	if !ok {
		// Answered already, or never sent: nothing to cancel.
		return nil, outcome{method: methodCancelRequest, reason: "no such request in flight", quiet: true}
	}
	out, err := json.Marshal(map[string]any{"id": &internal})
	if err != nil {
		return nil, outcome{method: methodCancelRequest, reason: err.Error()}
	}
	return out, outcome{}
}

// enter gives an incoming call its internal id.
func (s *Stream) enter(id requestID) jsonrpc2.ID {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	for {
		s.seq++
		if s.seq <= 0 {
			s.seq = 1
		}
		internal := jsonrpc2.NewNumberID(s.seq)
		if _, taken := s.original[internal]; !taken {
			s.original[internal] = incoming{raw: id.raw, key: id.key}
			s.byKey[id.key] = internal
			return internal
		}
	}
}

// leave forgets an incoming call and returns its original id bytes.
func (s *Stream) leave(internal jsonrpc2.ID) ([]byte, bool) {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	in, ok := s.original[internal]
	if !ok {
		return nil, false
	}
	delete(s.original, internal)
	if s.byKey[in.key] == internal {
		delete(s.byKey, in.key)
	}
	return in.raw, true
}

// refuse answers a message the server will not handle with a JSON-RPC
// error; id nil means null.
func (s *Stream) refuse(id []byte, code jsonrpc2.Code, msg string) {
	s.replied++
	s.opts.Logger.Warn("refused a message", "code", int64(code), "reason", msg)
	if id == nil {
		id = []byte("null")
	}
	data, err := encodeError(id, jsonrpc2.NewError(code, msg))
	if err != nil {
		return
	}
	if _, err := s.writeParts(data); err != nil {
		s.opts.Logger.Debug("writing an error reply failed", "error", err)
	}
}

// drop logs a message that gets no reply, and reports a refused
// notification to OnRefused.
func (s *Stream) drop(out outcome) {
	s.dropped++
	if out.quiet {
		s.opts.Logger.Debug("dropped a message", "method", out.method, "reason", out.reason)
		return
	}
	s.opts.Logger.Warn("dropped a message", "method", out.method, "reason", out.reason)
	if s.opts.OnRefused != nil && out.method != "" && out.method != methodCancelRequest {
		s.opts.OnRefused(out.method, out.reason)
	}
}

// Write sends a message. A response carries the id its call came with.
func (s *Stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var data []byte
	var err error
	if r, ok := msg.(*jsonrpc2.Response); ok {
		id, ok := s.leave(r.ID())
		if !ok {
			rid := r.ID()
			id, err = json.Marshal(&rid)
			if err != nil {
				return 0, err
			}
		}
		if r.Err() == nil {
			// A result is framed as the library encoded it, not
			// copied: the code lenses of a 1,000-server file are
			// 800 KB, and building the message in a growing buffer,
			// then the frame, made three more copies of them.
			result := r.Result()
			if len(result) == 0 {
				result = json.RawMessage("null")
			}
			return s.writeParts(responseStart, id, responseResult, result, messageEnd)
		}
		data, err = encodeError(id, r.Err())
	} else if n, ok := msg.(*jsonrpc2.Notification); ok {
		data, err = encodeNotification(n.Method(), n.Params())
	} else {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeParts(data)
}

// WriteNotificationFunc sends a notification of method whose params,
// one JSON value of exactly size bytes, params writes to w as it goes:
// a large notification is written in chunks as it is produced, never
// held whole in memory. A publication of a 1,000-server file's
// diagnostics is 738 KB: built in place, it kept two buffers that size
// (the frame before, whose parts the next reuses, and the next),
// 1.5 MB of every edit's live heap and so 3 MB of the collector's goal.
// Params of another size than announced are an error, and the stream
// is then out of step with its reader.
func (s *Stream) WriteNotificationFunc(ctx context.Context, method string, size int, params func(w *bufio.Writer) error) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var head [96]byte
	h := appendMethod(append(head[:0], notificationStart...), method)
	h = append(h, notificationParams...)
	body := len(h) + size + 1
	var header [48]byte
	hd := appendHeader(header[:0], body)

	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.sent = countingWriter{w: s.rwc}
	if s.chunks == nil {
		s.chunks = bufio.NewWriterSize(&s.sent, inlinePart)
	} else {
		s.chunks.Reset(&s.sent)
	}
	w := s.chunks
	w.Write(hd)
	w.Write(h)
	err := params(w)
	w.WriteByte('}')
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	s.chunks.Reset(nil)
	n := s.sent.n
	if err == nil && n != int64(len(hd)+body) {
		err = fmt.Errorf("notification %s: params of %d bytes, not %d", method, n-int64(len(hd)+body-size), size)
	}
	if err != nil {
		return n, fmt.Errorf("write to stream: %w", err)
	}
	return n, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// write writes a frame; the caller holds writeMu.
func (s *Stream) write(frame []byte) (int64, error) {
	n, err := s.rwc.Write(frame)
	if err != nil {
		return int64(n), fmt.Errorf("write to stream: %w", err)
	}
	return int64(n), nil
}

// writeParts frames the message made of parts, one after the other. A
// small message is built in one buffer and written at once; a large
// one's large parts are written as they are, after the header and the
// small parts before them, so that a large result is never copied.
func (s *Stream) writeParts(parts ...[]byte) (int64, error) {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	header := appendHeader(make([]byte, 0, 32), size)
	if size <= inlinePart {
		frame := append(make([]byte, 0, len(header)+size), header...)
		for _, p := range parts {
			frame = append(frame, p...)
		}
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
		return s.write(frame)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var written int64
	b := header
	for _, p := range parts {
		if len(p) <= inlinePart {
			b = append(b, p...)
			continue
		}
		for _, w := range [2][]byte{b, p} {
			n, err := s.write(w)
			written += n
			if err != nil {
				return written, err
			}
		}
		b = b[:0]
	}
	if len(b) == 0 {
		return written, nil
	}
	n, err := s.write(b)
	return written + n, err
}

// inlinePart is the largest part of a message writeParts copies rather
// than writes on its own, and the largest message it builds in one
// buffer.
const inlinePart = 64 << 10

// The parts of a response around its id and result.
var (
	responseStart  = []byte(`{"jsonrpc":"2.0","id":`)
	responseResult = []byte(`,"result":`)
	messageEnd     = []byte(`}`)
)

// encodeNotification writes a notification around its params, which
// jsonrpc2.NewNotification has already encoded. json.Marshal of the
// message would encode them twice more (the library's MarshalJSON copies
// them into its own wire struct, then encoding/json checks and compacts
// the whole output): for the diagnostics of a 1,000-server file, a
// quarter of the server's CPU per edit.
func encodeNotification(method string, params json.RawMessage) ([]byte, error) {
	return appendNotification(nil, method, params)
}

// appendNotification appends the JSON of a notification of method with
// params already encoded.
func appendNotification(b []byte, method string, params json.RawMessage) ([]byte, error) {
	m, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	if len(params) == 0 {
		params = json.RawMessage("null")
	}
	b = slices.Grow(b, len(notificationStart)+len(m)+len(notificationParams)+len(params)+1)
	b = append(b, notificationStart...)
	b = append(b, m...)
	b = append(b, notificationParams...)
	b = append(b, params...)
	return append(b, '}'), nil
}

const (
	notificationStart  = `{"jsonrpc":"2.0","method":`
	notificationParams = `,"params":`
)

// appendMethod appends method as a JSON string, as json.Marshal spells
// it: an LSP method name needs no escape, and is written as it is.
func appendMethod(b []byte, method string) []byte {
	for i := range len(method) {
		if c := method[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			m, err := json.Marshal(method)
			if err != nil { // a string always marshals
				panic(err)
			}
			return append(b, m...)
		}
	}
	b = append(b, '"')
	b = append(b, method...)
	return append(b, '"')
}

// wireError is a JSON-RPC error object.
type wireError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// encodeError builds an error response with id as given. An error that
// wraps a JSON-RPC error keeps its code and the full message; any other
// error is an InternalError. (A result is framed from its parts, see
// Write.)
func encodeError(id []byte, rerr error) ([]byte, error) {
	we := wireError{Code: int64(jsonrpc2.InternalError), Message: rerr.Error()}
	var je *jsonrpc2.Error
	if errors.As(rerr, &je) {
		we.Code = int64(je.Code)
		if je.Data != nil {
			we.Data = json.RawMessage(*je.Data)
		}
	}
	e, err := json.Marshal(we)
	if err != nil {
		return nil, err
	}
	b := append(append([]byte(nil), responseStart...), id...)
	b = append(append(b, `,"error":`...), e...)
	return append(b, messageEnd...), nil
}

// appendHeader appends the header of a frame whose body is n bytes.
func appendHeader(b []byte, n int) []byte {
	b = strconv.AppendInt(append(b, "Content-Length: "...), int64(n), 10)
	return append(b, "\r\n\r\n"...)
}

// idKind classifies a request id.
type idKind int

const (
	idAbsent idKind = iota
	idNull
	idValid
	idInvalid
)

// requestID is an id as received: its bytes and a key under which equal
// ids (the same string however escaped) meet.
type requestID struct {
	kind idKind
	raw  []byte
	key  string
}

// classifyID says whether raw (nil when the member is absent) is a valid
// JSON-RPC id: a string or a number.
func classifyID(raw []byte) (requestID, string) {
	switch {
	case raw == nil:
		return requestID{kind: idAbsent}, ""
	case len(raw) == 0:
		return requestID{kind: idInvalid}, "the id is empty"
	case string(raw) == "null":
		return requestID{kind: idNull}, "the id is null"
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return requestID{kind: idInvalid}, "the id is not valid JSON"
		}
		return requestID{kind: idValid, raw: bytes.Clone(raw), key: "s" + s}, ""
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return requestID{kind: idInvalid}, "the id is not valid JSON"
		}
		return requestID{kind: idValid, raw: bytes.Clone(raw), key: "n" + string(raw)}, ""
	}
	return requestID{kind: idInvalid}, "the id must be a string or a number"
}

func validOrNull(id requestID) []byte {
	if id.kind == idValid {
		return id.raw
	}
	return nil
}

// rawOrNull keeps params and results as the raw bytes received.
func rawOrNull(raw []byte) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(raw)
}

func methodName(raw []byte) string {
	var m string
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return m
}

// indexFold is strings.Index, ignoring ASCII case.
func indexFold(s, substr string) int {
	n := len(substr)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], substr) {
			return i
		}
	}
	return -1
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
