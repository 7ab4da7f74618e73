package rpcstream

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestNotificationBytesAsTheLibraryWrites: Write frames a notification
// around its already encoded params; the bytes are those json.Marshal of
// the library's message gave (HTML characters, U+2028, non-ASCII and
// escapes included), so no client sees a difference.
func TestNotificationBytesAsTheLibraryWrites(t *testing.T) {
	for _, params := range []any{
		nil,
		map[string]any{},
		map[string]any{"uri": "file:///a/b.json", "diagnostics": []any{map[string]any{"message": `a <b> & "c" \ café ` + "\u2028\u2029\t\x01", "range": []int{1, 2}}}},
		[]any{1.5, true, nil, "x"},
		"text",
	} {
		n, err := jsonrpc2.NewNotification("textDocument/publishDiagnostics", params)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeNotification(n.Method(), n.Params())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("params %v:\n got %s\nwant %s", params, got, want)
		}
	}
}

// TestNotificationFrames: a notification whose params are written as
// they are produced (WriteNotificationFunc) is framed with its exact
// length, through one chunk buffer reused from a larger frame to a
// smaller one and back, and spells its method as json.Marshal does (a
// method name that needs escapes too); params of another size than
// announced are an error.
func TestNotificationFrames(t *testing.T) {
	p := &pipe{in: strings.NewReader("")}
	s := New(p, Options{})
	var want []byte
	for i, params := range []string{strings.Repeat(`"x"`, 1000), `{}`, `null`, `[1,2]`, strings.Repeat(" ", 3*inlinePart) + "1", `1`} {
		method := []string{"a/b", "textDocument/publishDiagnostics", "$/x<y>&\"\\é\u2028\x01"}[i%3]
		n, err := s.WriteNotificationFunc(context.Background(), method, len(params), func(w *bufio.Writer) error {
			// In pieces, as a publication is written.
			for rest := params; rest != ""; rest = rest[min(len(rest), 1000):] {
				w.WriteString(rest[:min(len(rest), 1000)])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		body, err := encodeNotification(method, json.RawMessage(params))
		if err != nil {
			t.Fatal(err)
		}
		frame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body)
		if n != int64(len(frame)) {
			t.Errorf("%d bytes written, want %d", n, len(frame))
		}
		want = append(want, frame...)
	}
	if got := p.out.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("frames:\n got %.200q\nwant %.200q", got, want)
	}
	for _, wrote := range []string{"12", "1234"} {
		if _, err := s.WriteNotificationFunc(context.Background(), "a/b", 3, func(w *bufio.Writer) error {
			_, err := w.WriteString(wrote)
			return err
		}); err == nil {
			t.Errorf("params %q announced as 3 bytes: no error", wrote)
		}
	}
}

// recordingPipe remembers every slice written to it, to tell a part
// written as it is from a copy.
type recordingPipe struct {
	pipe
	writes [][]byte
}

func (p *recordingPipe) Write(b []byte) (int, error) {
	p.writes = append(p.writes, b)
	return p.pipe.Write(b)
}

// TestResultsAreFramedAsEncoded: a response is framed byte for byte as
// JSON-RPC spells it (no result is null), whatever the size of its result; a large
// result is written as the library encoded it, not copied into a frame
// (the code lenses of a 1,000-server file are 800 KB, and were copied
// three times), and a small response goes out in one write.
func TestResultsAreFramedAsEncoded(t *testing.T) {
	big := `"` + strings.Repeat("x", 3*inlinePart) + `"`
	for _, result := range []string{``, `null`, `1`, `[{"a":"b"}]`, `"` + strings.Repeat("y", inlinePart-200) + `"`, `"` + strings.Repeat("z", inlinePart) + `"`, big} {
		p := &recordingPipe{pipe: pipe{in: strings.NewReader("")}}
		s := New(p, Options{})
		var raw json.RawMessage
		if result != "" {
			raw = json.RawMessage(result)
		}
		// NewResponse encodes its result as the library's Reply does: a
		// RawMessage stays as it is.
		resp, err := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(7), raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.Write(context.Background(), resp)
		if err != nil {
			t.Fatal(err)
		}
		body := `{"jsonrpc":"2.0","id":7,"result":` + cmp.Or(result, "null") + `}`
		want := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
		if got := p.out.String(); got != want {
			t.Errorf("result of %d bytes:\n got %.120q\nwant %.120q", len(result), got, want)
		}
		if n != int64(len(want)) {
			t.Errorf("result of %d bytes: Write says %d bytes, the frame has %d", len(result), n, len(want))
		}
		switch {
		case len(want) <= inlinePart && len(p.writes) != 1:
			t.Errorf("a response of %d bytes took %d writes", len(want), len(p.writes))
		case len(result) > inlinePart && !slices.ContainsFunc(p.writes, func(w []byte) bool {
			return len(w) == len(resp.Result()) && &w[0] == &resp.Result()[0]
		}):
			t.Errorf("a result of %d bytes was copied before it was written", len(result))
		}
	}
}
