// Package lsptest drives an mcp-lsp server the way a careless or hostile
// client would: raw bytes in, frames out, nothing validated on the way.
// The same suite (Hostile) runs over an in-process pipe (package lsp) and
// over the built binary's stdin/stdout (cmd/mcp-lsp), so what the tests
// prove holds for what users run.
package lsptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// HangGuard is how long a test waits for the server before it calls the
// server hung. It guards against hangs, it is not a speed target (those live
// in the benchmarks): under -race on a 2-core CI machine a 16 MB buffer or a
// 5 MB file takes seconds to travel and be analysed, so the guard is generous.
const HangGuard = 60 * time.Second

// Frame is one message the server sent, by member.
type Frame map[string]json.RawMessage

// Method returns the frame's method, or "" for a response.
func (f Frame) Method() string {
	var m string
	_ = json.Unmarshal(f["method"], &m)
	return m
}

// Client is the editor side. It answers the server's requests with null
// except the methods it was told to leave unanswered, and records every
// frame the server sends. Like an editor, it answers workspace/configuration
// with the settings it last pushed in workspace/didChangeConfiguration (its
// mcpLsp section), [null] before any push.
type Client struct {
	t      testing.TB
	silent map[string]bool

	writeMu sync.Mutex
	w       io.Writer

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every frame
	frames  []Frame
	asked   map[string]int
	readErr error
	// settings is the mcpLsp section of the last settings pushed (null
	// before any).
	settings json.RawMessage
}

// NewClient reads the server's output from r and writes to w. Requests
// for the silent methods are recorded and never answered.
func NewClient(t testing.TB, r io.Reader, w io.Writer, silent ...string) *Client {
	c := &Client{t: t, w: w, silent: map[string]bool{}, changed: make(chan struct{}), asked: map[string]int{}, settings: json.RawMessage("null")}
	for _, m := range silent {
		c.silent[m] = true
	}
	go c.readLoop(bufio.NewReader(r))
	return c
}

func (c *Client) readLoop(r *bufio.Reader) {
	for {
		f, err := readFrame(r)
		c.mu.Lock()
		if err != nil {
			c.readErr = err
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			return
		}
		method := f.Method()
		_, isCall := f["id"]
		if method != "" && isCall {
			c.asked[method]++
		}
		c.frames = append(c.frames, f)
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
		if method != "" && isCall && !c.silent[method] {
			result := "null"
			if method == "workspace/configuration" {
				c.mu.Lock()
				result = "[" + string(c.settings) + "]"
				c.mu.Unlock()
			}
			// An answer that cannot be written is no failure of its own:
			// the server may ask (a refresh) just as the test ends and
			// closes the pipe, and t.Fatalf belongs to the test's
			// goroutine. A server that went away while the test still
			// talks to it fails the test's own next call.
			_ = c.write(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, f["id"], result)))
		}
	}
}

// readFrame reads one Content-Length frame; the server must send exactly
// "Content-Length: N" and a JSON-RPC 2.0 object.
func readFrame(r *bufio.Reader) (Frame, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			if n, err = strconv.Atoi(v); err != nil {
				return nil, fmt.Errorf("bad header %q", line)
			}
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("frame without Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var f Frame
	if err := json.Unmarshal(body, &f); err != nil || string(f["jsonrpc"]) != `"2.0"` {
		return nil, fmt.Errorf("server sent something that is not JSON-RPC 2.0: %q", body)
	}
	return f, nil
}

// SendRaw writes s as is.
func (c *Client) SendRaw(s string) {
	c.t.Helper()
	if err := c.write(s); err != nil {
		c.t.Fatalf("write to server: %v", err)
	}
}

func (c *Client) write(s string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := io.WriteString(c.w, s)
	return err
}

// Send frames body with a Content-Length header.
func (c *Client) Send(body string) {
	c.t.Helper()
	c.SendRaw(frame(body))
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.t.Helper()
	if method == "workspace/didChangeConfiguration" {
		var pushed struct {
			Settings struct {
				MCPLsp json.RawMessage `json:"mcpLsp"`
			} `json:"settings"`
		}
		if err := json.Unmarshal([]byte(marshal(c.t, params)), &pushed); err == nil && pushed.Settings.MCPLsp != nil {
			c.mu.Lock()
			c.settings = pushed.Settings.MCPLsp
			c.mu.Unlock()
		}
	}
	c.Send(marshal(c.t, map[string]any{"jsonrpc": "2.0", "method": method, "params": params}))
}

// Request sends a call with id (raw JSON) and waits for its reply.
func (c *Client) Request(id, method string, params any) Frame {
	c.t.Helper()
	body := marshal(c.t, map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	c.Send(body)
	return c.Reply(id)
}

// Reply waits for the response whose id is exactly the bytes id.
func (c *Client) Reply(id string) Frame {
	c.t.Helper()
	return c.Wait("reply with id "+id, func(f Frame) bool { return f.Method() == "" && string(f["id"]) == id })
}

// Wait returns the latest frame satisfying pred, waiting for one up to
// ten seconds.
func (c *Client) Wait(what string, pred func(Frame) bool) Frame {
	c.t.Helper()
	return c.WaitFrom(0, what, pred)
}

// Mark returns the number of frames received so far, for WaitFrom.
func (c *Client) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.frames)
}

// WaitFrom is Wait among the frames received after mark.
func (c *Client) WaitFrom(mark int, what string, pred func(Frame) bool) Frame {
	c.t.Helper()
	deadline := time.After(HangGuard)
	for {
		c.mu.Lock()
		frames, changed, err := c.frames, c.changed, c.readErr
		c.mu.Unlock()
		for i := len(frames) - 1; i >= mark; i-- {
			if pred(frames[i]) {
				return frames[i]
			}
		}
		if err != nil {
			c.t.Fatalf("waiting for %s: the server's output ended: %v", what, err)
		}
		select {
		case <-changed:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// Frames returns every frame received so far, in order.
func (c *Client) Frames() []Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Frame(nil), c.frames...)
}

// Asked says how many requests for method the server sent.
func (c *Client) Asked(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.asked[method]
}

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ErrorCode returns the code of an error response, or 0.
func ErrorCode(f Frame) int64 {
	var e struct{ Code int64 }
	if json.Unmarshal(f["error"], &e) != nil {
		return 0
	}
	return e.Code
}
