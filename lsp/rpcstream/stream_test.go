package rpcstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"go.lsp.dev/jsonrpc2"
)

// pipe is an in-memory connection: Read drains in, Write appends to out.
type pipe struct {
	in  io.Reader
	mu  sync.Mutex
	out bytes.Buffer
}

func (p *pipe) Read(b []byte) (int, error) { return p.in.Read(b) }
func (p *pipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}
func (p *pipe) Close() error { return nil }

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// readAll reads messages until the input ends and returns them with the
// frames the stream wrote meanwhile and the final error.
func readAll(t *testing.T, input string, opts Options) ([]jsonrpc2.Message, []map[string]json.RawMessage, *Stream, error) {
	t.Helper()
	p := &pipe{in: strings.NewReader(input)}
	s := New(p, opts)
	var msgs []jsonrpc2.Message
	var err error
	for range len(input) + 1 {
		var m jsonrpc2.Message
		if m, _, err = s.Read(context.Background()); err != nil {
			break
		}
		msgs = append(msgs, m)
	}
	return msgs, outputFrames(t, p.out.Bytes()), s, err
}

// outputFrames parses what the stream wrote, failing on anything that is
// not a well-framed JSON-RPC object.
func outputFrames(t testing.TB, out []byte) []map[string]json.RawMessage {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(out))
	var frames []map[string]json.RawMessage
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return frames
		}
		n, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length: ")
		length, aerr := strconv.Atoi(n)
		if err != nil || !ok || aerr != nil {
			t.Fatalf("bad header %q in output %q", line, out)
		}
		if blank, _ := r.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("no blank line after header in %q", out)
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("short body in %q", out)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
			t.Fatalf("output frame is not a JSON-RPC object: %q", body)
		}
		frames = append(frames, m)
	}
}

func errorCode(t *testing.T, m map[string]json.RawMessage) int64 {
	t.Helper()
	var e struct{ Code int64 }
	if err := json.Unmarshal(m["error"], &e); err != nil {
		t.Fatalf("not an error response: %v", m)
	}
	return e.Code
}

const probe = `{"jsonrpc":"2.0","id":77,"method":"textDocument/hover","params":{}}`

// TestHostileMessagesAreAnsweredAndReadingGoesOn: each bad message gets
// the error the JSON-RPC specification asks for, and the call after it is
// read normally.
func TestHostileMessagesAreAnsweredAndReadingGoesOn(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		code        int64  // 0: no reply expected
		id          string // raw id of the reply
	}{
		{"not JSON", frame(`{this is not json`), -32700, "null"},
		{"empty body", "Content-Length: 0\r\n\r\n", -32700, "null"},
		{"batch", frame(`[]`), -32600, "null"},
		{"non-empty batch", frame(`[{"jsonrpc":"2.0","id":1,"method":"x"}]`), -32600, "null"},
		{"null", frame(`null`), -32600, "null"},
		{"number", frame(`42`), -32600, "null"},
		{"response without id", frame(`{"jsonrpc":"2.0","result":{}}`), -32600, "null"},
		{"object id", frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":{}}`), -32600, "null"},
		{"boolean id", frame(`{"jsonrpc":"2.0","id":true,"method":"textDocument/hover","params":{}}`), -32600, "null"},
		{"null id", frame(`{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}`), -32600, "null"},
		{"method not a string", frame(`{"jsonrpc":"2.0","id":5,"method":7}`), -32600, "5"},
		{"wrong version", frame(`{"jsonrpc":"1.0","id":"v","method":"x"}`), -32600, `"v"`},
		{"missing Content-Length", "Content-Type: x\r\n\r\n", -32700, "null"},
		{"bad Content-Length", "Content-Length: -3\r\n\r\n", -32700, "null"},
		{"long header line", strings.Repeat("X", 10000) + "\r\n\r\n", -32700, "null"},
		{"too deep call", frame(`{"jsonrpc":"2.0","id":"deep","method":"x","params":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), -32600, `"deep"`},
		{"too deep notification", frame(`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`), 0, ""},
		{"error response with null id", frame(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`), 0, ""},
		{"response to an id never sent", frame(`{"jsonrpc":"2.0","id":"zz","result":null}`), 0, ""},
		{"cancel of nothing", frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}`), 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, out, s, err := readAll(t, tc.input+frame(probe), Options{})
			if err != io.EOF {
				t.Errorf("final error %v, want io.EOF", err)
			}
			if len(msgs) != 1 {
				t.Fatalf("got %d messages, want only the probe: %v", len(msgs), msgs)
			}
			if c, ok := msgs[0].(*jsonrpc2.Call); !ok || c.Method() != "textDocument/hover" {
				t.Errorf("probe read as %#v", msgs[0])
			}
			if tc.code == 0 {
				if len(out) != 0 || s.dropped != 1 {
					t.Errorf("want no reply and one drop; replies %v, dropped %d", out, s.dropped)
				}
				return
			}
			if len(out) != 1 {
				t.Fatalf("want one reply, got %v", out)
			}
			if got := errorCode(t, out[0]); got != tc.code || string(out[0]["id"]) != tc.id {
				t.Errorf("reply code %d id %s, want %d id %s", got, out[0]["id"], tc.code, tc.id)
			}
		})
	}
}

// TestIDsComeBackAsSent: every valid id is echoed byte for byte, and a
// cancel naming it reaches the call it names.
func TestIDsComeBackAsSent(t *testing.T) {
	ids := []string{`""`, `"abc"`, `"\u0041"`, `0`, `-1`, `2147483647`, `2147483648`, `9007199254740992`, `1.5`, `1e3`, `-0`, `123456789012345678901234567890`}
	var input strings.Builder
	for _, id := range ids {
		input.WriteString(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"m","params":{}}`))
		input.WriteString(frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`))
	}
	p := &pipe{in: strings.NewReader(input.String())}
	s := New(p, Options{})
	for _, id := range ids {
		m, _, err := s.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		call := m.(*jsonrpc2.Call)
		m, _, err = s.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var cancel struct{ ID jsonrpc2.ID }
		if err := json.Unmarshal(m.(*jsonrpc2.Notification).Params(), &cancel); err != nil || cancel.ID != call.ID() {
			t.Errorf("id %s: cancel names %v, call is %v (%v)", id, cancel.ID, call.ID(), err)
		}
		resp, _ := jsonrpc2.NewResponse(call.ID(), "ok", nil)
		if _, err := s.Write(context.Background(), resp); err != nil {
			t.Fatal(err)
		}
	}
	out := outputFrames(t, p.out.Bytes())
	if len(out) != len(ids) {
		t.Fatalf("%d replies for %d calls", len(out), len(ids))
	}
	for i, id := range ids {
		if string(out[i]["id"]) != id || string(out[i]["result"]) != `"ok"` {
			t.Errorf("reply %d: id %s result %s, want id %s", i, out[i]["id"], out[i]["result"], id)
		}
	}
}

// TestSameIDTwiceInFlight: two calls with the same id each get their own
// reply with that id.
func TestSameIDTwiceInFlight(t *testing.T) {
	call := frame(`{"jsonrpc":"2.0","id":"x","method":"m"}`)
	p := &pipe{in: strings.NewReader(call + call)}
	s := New(p, Options{})
	a, _, _ := s.Read(context.Background())
	b, _, _ := s.Read(context.Background())
	if a.(*jsonrpc2.Call).ID() == b.(*jsonrpc2.Call).ID() {
		t.Fatal("two calls in flight share an internal id")
	}
	for _, m := range []jsonrpc2.Message{b, a} {
		r, _ := jsonrpc2.NewResponse(m.(*jsonrpc2.Call).ID(), nil, errors.New("boom"))
		s.Write(context.Background(), r)
	}
	out := outputFrames(t, p.out.Bytes())
	if len(out) != 2 || string(out[0]["id"]) != `"x"` || string(out[1]["id"]) != `"x"` || errorCode(t, out[0]) != int64(jsonrpc2.InternalError) {
		t.Errorf("replies: %v", out)
	}
}

// TestHeadersAreCaseInsensitive: any case of Content-Length, extra
// headers, and a header glued after a body that could not be framed.
func TestHeadersAreCaseInsensitive(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	input := fmt.Sprintf("content-length: %d\r\n\r\n%s", len(body), body) +
		fmt.Sprintf("CONTENT-LENGTH:%d\r\ncontent-type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", len(body), body) +
		"Content-Type: x\r\n\r\n" + body + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	msgs, out, _, err := readAll(t, input, Options{})
	if err != io.EOF || len(msgs) != 3 {
		t.Errorf("got %d messages (%v), want 3", len(msgs), err)
	}
	if len(out) != 1 || errorCode(t, out[0]) != -32700 {
		t.Errorf("the header block without a length should get one -32700: %v", out)
	}
}

// TestResponsesReachTheirCalls: the client's answers to the server's own
// calls come through with the numeric id the Conn sent.
func TestResponsesReachTheirCalls(t *testing.T) {
	input := frame(`{"jsonrpc":"2.0","id":3,"result":{"a":1}}`) + frame(`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}`)
	msgs, out, _, _ := readAll(t, input, Options{})
	if len(out) != 0 || len(msgs) != 2 {
		t.Fatalf("messages %v, replies %v", msgs, out)
	}
	r0, r1 := msgs[0].(*jsonrpc2.Response), msgs[1].(*jsonrpc2.Response)
	if r0.ID() != jsonrpc2.NewNumberID(3) || string(r0.Result()) != `{"a":1}` || r0.Err() != nil {
		t.Errorf("result response: %v %s %v", r0.ID(), r0.Result(), r0.Err())
	}
	var je *jsonrpc2.Error
	if r1.ID() != jsonrpc2.NewNumberID(4) || !errors.As(r1.Err(), &je) || je.Code != jsonrpc2.MethodNotFound {
		t.Errorf("error response: %v %v", r1.ID(), r1.Err())
	}
}

// TestOversizedLengthAllocatesNothingUpFront: a Content-Length of a
// terabyte followed by a few bytes costs a few bytes; a length over the
// limit is skipped and the next message is read.
func TestOversizedLengthAllocatesNothingUpFront(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, err := readAll(t, "Content-Length: 1099511627776\r\n\r\n{}", Options{})
	runtime.ReadMemStats(&after)
	if err != io.ErrUnexpectedEOF {
		t.Errorf("error %v, want io.ErrUnexpectedEOF", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("allocated %d bytes for a 2-byte body", grew)
	}

	msgs, out, _, _ := readAll(t, frame(strings.Repeat(" ", 2000))+frame(probe), Options{MaxMessageBytes: 1000})
	if len(msgs) != 1 || len(out) != 1 || errorCode(t, out[0]) != -32700 {
		t.Errorf("over the limit: messages %v, replies %v", msgs, out)
	}
}

// TestRefusedNotificationIsReported: the server hears about a
// notification it will never see, so it can tell the user.
func TestRefusedNotificationIsReported(t *testing.T) {
	var got []string
	deep := frame(`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`)
	readAll(t, deep, Options{OnRefused: func(method, reason string) { got = append(got, method+": "+reason) }})
	if len(got) != 1 || !strings.HasPrefix(got[0], "workspace/didChangeConfiguration: message nested deeper than 512") {
		t.Errorf("OnRefused calls: %q", got)
	}
}

// TestPredecodedValuesWaitForTheirHandler: the stream decodes a
// notification's params once (Options.Predecode) and keeps the value until
// the handler takes it, however many messages were read meanwhile (a burst
// of edits queues many).
func TestPredecodedValuesWaitForTheirHandler(t *testing.T) {
	var in strings.Builder
	const n = 100
	for i := range n {
		in.WriteString(frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":"m","params":{"i":%d}}`, i)))
	}
	in.WriteString(frame(`{"jsonrpc":"2.0","method":"m","params":{"i":1} x}`))
	s := New(&pipe{in: strings.NewReader(in.String())}, Options{Predecode: map[string]func([]byte) (any, error){
		"m": func(p []byte) (any, error) {
			if !json.Valid(p) {
				return nil, errors.New("not JSON")
			}
			return string(p), nil
		},
	}})
	var params []json.RawMessage
	for range n {
		msg, _, err := s.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		params = append(params, msg.(*jsonrpc2.Notification).Params())
	}
	for i, p := range params {
		v, ok := s.Predecoded(p)
		if want := fmt.Sprintf(`{"i":%d}`, i); !ok || v != want {
			t.Errorf("message %d: predecoded %v, %v; want %s", i, v, ok, want)
		}
		if _, again := s.Predecoded(p); again {
			t.Errorf("message %d: value handed out twice", i)
		}
	}
	// A body that is not JSON outside its params is not predecoded: the
	// ordinary path refuses it (-32700) and the stream goes on to EOF.
	if _, _, err := s.Read(context.Background()); err != io.EOF {
		t.Errorf("after the malformed body: %v, want EOF", err)
	}
	if got := s.PredecodedCount(); got != n {
		t.Errorf("%d messages predecoded, want %d", got, n)
	}
}

// TestPredecodedBodiesAreReused: once a notification's params are
// predecoded, nothing refers to its body, and the next message is read
// into that memory when it fits (a full-text edit of a large file does not
// allocate a new buffer per keystroke); each value stays as decoded, and
// the memory of a message that is not predecoded is never read into again.
func TestPredecodedBodiesAreReused(t *testing.T) {
	var in strings.Builder
	var want []string
	for i, n := range []int{5000, 4000, 4000, 9000, 100} {
		text := strings.Repeat(string(rune('a'+i)), n)
		want = append(want, `{"t":"`+text+`"}`)
		in.WriteString(frame(`{"jsonrpc":"2.0","method":"m","params":` + want[i] + `}`))
	}
	in.WriteString(frame(`{"jsonrpc":"2.0","id":1,"method":"other","params":{"t":"` + strings.Repeat("z", 3000) + `"}}`))
	s := New(&pipe{in: strings.NewReader(in.String())}, Options{Predecode: map[string]func([]byte) (any, error){
		"m": func(p []byte) (any, error) { return string(p), nil },
	}})
	var params []json.RawMessage
	var spares []*byte
	for range want {
		msg, _, err := s.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		params = append(params, msg.(*jsonrpc2.Notification).Params())
		spares = append(spares, unsafe.SliceData(s.spare))
	}
	// The second and third bodies fit in the first's memory; the fourth
	// does not and brings its own, which the fifth reuses.
	if spares[0] == nil || spares[1] != spares[0] || spares[2] != spares[0] || spares[3] == spares[0] || spares[4] != spares[3] {
		t.Errorf("spare bodies %p, want the first three and the last two the same", spares)
	}
	call, _, err := s.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := call.(*jsonrpc2.Call).Params(); !bytes.Contains(got, []byte(strings.Repeat("z", 3000))) {
		t.Errorf("call params %.40q..., want the z's", got)
	}
	// The call was read into the spare, which is its own now: its params
	// refer to it.
	if s.spare != nil {
		t.Errorf("the stream kept a spare body after a call used it")
	}
	for i, p := range params {
		if v, ok := s.Predecoded(p); !ok || v != want[i] {
			t.Errorf("message %d: predecoded %.20q..., %v; want %.20q...", i, v, ok, want[i])
		}
	}
}
