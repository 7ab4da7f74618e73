package rpcstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// FuzzRead feeds arbitrary bytes to the reader: it must not panic, must
// end with io.EOF or io.ErrUnexpectedEOF once the input is consumed (never
// another error, which would close the connection), must consume input on
// every message, and must write only well-framed JSON-RPC replies. The
// message limit is small so an allocation beyond the input's size shows.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		frame(probe),
		"content-length: 2\r\n\r\n{}",
		"Content-Length: 1099511627776\r\n\r\n{}",
		"Content-Length: 17\r\n\r\n{this is not json",
		frame(`[]`) + frame(`null`),
		frame(`{"jsonrpc":"2.0","id":9007199254740992,"method":"m"}`),
		frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":""}}`),
		"Content-Type: x\r\n\r\n{}Content-Length: 2\r\n\r\n{}",
		frame(strings.Repeat("[", 600)),
		frame(`{"jsonrpc":"2.0","method":"m","params":{"t":"`+strings.Repeat("a", 300)+`"}}`) +
			frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"b"}}`) + frame(`{"jsonrpc":"2.0","method":"m","params":[1]}`),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := &pipe{in: strings.NewReader(string(data))}
		// Notifications of method m are predecoded, so their bodies are
		// read into again (Stream.spare): no message already handed out
		// may change.
		s := New(p, Options{MaxMessageBytes: 1 << 16, Predecode: map[string]func([]byte) (any, error){
			"m": func(params []byte) (any, error) {
				if !json.Valid(params) {
					return nil, errors.New("not JSON")
				}
				return string(params), nil
			},
		}})
		var err error
		var msgs []jsonrpc2.Message
		var params []string
		reads := 0
		for ; reads <= len(data); reads++ {
			var m jsonrpc2.Message
			if m, _, err = s.Read(context.Background()); err != nil {
				break
			}
			if m == nil {
				t.Fatal("nil message without an error")
			}
			msgs = append(msgs, m)
			params = append(params, string(messageParams(m)))
		}
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			t.Fatalf("after %d messages: error %v, want EOF", reads, err)
		}
		for i, m := range msgs {
			if got := string(messageParams(m)); got != params[i] {
				t.Fatalf("message %d's params changed after later reads: %q, was %q", i, got, params[i])
			}
		}
		outputFrames(t, p.out.Bytes())
	})
}

// FuzzBody frames an arbitrary body correctly, followed by a normal call:
// the body yields exactly one outcome (a message, a reply, or a logged
// drop) and the call after it is read with its id intact.
func FuzzBody(f *testing.F) {
	for _, seed := range []string{
		`{this is not json`, `[]`, `null`, `{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":2147483648,"method":"m"}`, `{"jsonrpc":"2.0","id":1.5,"method":"m"}`,
		`{"jsonrpc":"2.0","id":{},"method":"m"}`, `{"jsonrpc":"2.0","id":false,"method":"m"}`,
		`{"jsonrpc":"2.0","id":"","method":"m"}`, `{"jsonrpc":"2.0","id":3,"result":null}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}`,
		`{"id":"\u0069d","method":"m","\u0069d":1}`,
		`{"jsonrpc":"2.0","id":1,"id":"x","method":"m","params":{}}`,
		"{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":\"\xff\"}}",
		"{\"jsonrpc\":\"2.0\",\"id\": 5 ,\"method\":\"m\",\"params\":[\"\\\\\\\"\"]}",
		`{"jsonrpc":"2.0","method":"m","params":{}} trailing`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		input := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) + frame(probe)
		p := &pipe{in: strings.NewReader(input)}
		s := New(p, Options{})
		var msgs []jsonrpc2.Message
		for {
			m, _, err := s.Read(context.Background())
			if err != nil {
				if err != io.EOF {
					t.Fatalf("error %v", err)
				}
				break
			}
			msgs = append(msgs, m)
		}
		out := outputFrames(t, p.out.Bytes())
		if len(msgs) == 0 {
			t.Fatal("the probe after the body was lost")
		}
		last, ok := msgs[len(msgs)-1].(*jsonrpc2.Call)
		if !ok || last.Method() != "textDocument/hover" {
			t.Fatalf("last message is not the probe: %#v", msgs[len(msgs)-1])
		}
		if n := len(msgs) - 1 + len(out) + s.dropped; n != 1 {
			t.Fatalf("body gave %d outcomes (messages %d, replies %d, drops %d)", n, len(msgs)-1, len(out), s.dropped)
		}
		// Differential check against encoding/json on what must happen.
		if len(out) == 1 && !json.Valid(body) && !scan(body, DefaultMaxDepth).tooDeep {
			var e struct{ Code int64 }
			json.Unmarshal(out[0]["error"], &e)
			if e.Code != -32700 || string(out[0]["id"]) != "null" {
				t.Fatalf("invalid JSON answered %v, want -32700 with id null", out[0])
			}
		}
		if wellFormedRequest(body) && len(msgs) != 2 {
			t.Fatalf("a well-formed request was refused: replies %v, drops %d", out, s.dropped)
		}
		r, _ := jsonrpc2.NewResponse(last.ID(), nil, nil)
		p.out.Reset()
		s.Write(context.Background(), r)
		if reply := outputFrames(t, p.out.Bytes()); len(reply) != 1 || string(reply[0]["id"]) != "77" {
			t.Fatalf("probe reply: %v", reply)
		}
	})
}

// wellFormedRequest says, by encoding/json, whether body is a JSON-RPC
// request the stream must pass on: an object with "jsonrpc":"2.0", a
// non-empty string method, an absent, string or number id, object or
// array params, nesting within the limit. ($/cancelRequest is left out: a
// cancel for nothing in flight is dropped by design.)
func wellFormedRequest(body []byte) bool {
	if !json.Valid(body) || scan(body, DefaultMaxDepth).tooDeep {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || string(m["jsonrpc"]) != `"2.0"` {
		return false
	}
	var method string
	if json.Unmarshal(m["method"], &method) != nil || method == "" || method == methodCancelRequest {
		return false
	}
	if id, ok := m["id"]; ok {
		if k, _ := classifyID(bytes.TrimSpace(id)); k.kind != idValid {
			return false
		}
	}
	if p, ok := m["params"]; ok {
		if p = bytes.TrimSpace(p); len(p) == 0 || p[0] != '{' && p[0] != '[' {
			return false
		}
	}
	return true
}

// messageParams returns the params of a call or a notification, or nil.
func messageParams(m jsonrpc2.Message) json.RawMessage {
	switch m := m.(type) {
	case *jsonrpc2.Call:
		return m.Params()
	case *jsonrpc2.Notification:
		return m.Params()
	}
	return nil
}
