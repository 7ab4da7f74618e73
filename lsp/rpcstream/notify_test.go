package rpcstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// TestWriteNotificationFrames: WriteNotification frames each
// notification with its exact length, reusing its buffer from a larger
// one to a smaller one and back, and spells its method as json.Marshal
// does (a method name that needs escapes too).
func TestWriteNotificationFrames(t *testing.T) {
	p := &pipe{in: strings.NewReader("")}
	s := New(p, Options{})
	var want []byte
	for i, params := range []string{strings.Repeat(`"x"`, 1000), `{}`, ``, `[1,2]`, strings.Repeat(" ", 70000) + "1", `1`} {
		method := []string{"a/b", "textDocument/publishDiagnostics", "$/x<y>&\"\\é\u2028\x01"}[i%3]
		if _, err := s.WriteNotification(context.Background(), method, []byte(params)); err != nil {
			t.Fatal(err)
		}
		body, err := encodeNotification(method, json.RawMessage(params))
		if err != nil {
			t.Fatal(err)
		}
		want = fmt.Appendf(want, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if got := p.out.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("frames:\n got %.200q\nwant %.200q", got, want)
	}
}
