package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mcp-lsp/mcp-lsp/lsp/rpcstream"
)

// TestDiagnosticCacheEncodesAsAfresh: through a sequence of publications
// of one file (findings moved, added, removed, changed, their Data
// replaced by an equal or a different map), the cache's JSON is byte for
// byte what encoding the list afresh gives, and an edit that only moves
// the findings, or gives them equal Data, encodes none of them again.
func TestDiagnosticCacheEncodesAsAfresh(t *testing.T) {
	diag := func(i int, line uint32) protocol.Diagnostic {
		code := []string{"unpinned-package", "windows-cmd-wrapper", "invalid-field-value"}[i%3]
		d := protocol.Diagnostic{
			Range:           protocol.Range{Start: protocol.Position{Line: line, Character: 4}, End: protocol.Position{Line: line, Character: 19}},
			Severity:        protocol.DiagnosticSeverity(1 + i%4),
			Code:            code,
			CodeDescription: &protocol.CodeDescription{Href: uri.URI(ruleDocURL(code))},
			Source:          "mcp-lsp",
			Message:         fmt.Sprintf("server \"s-%d\": <npx> & café", i),
		}
		if i%2 == 0 {
			d.Data = map[string]any{"server": fmt.Sprintf("s-%d", i), "tools": []string{"claude-code"}}
		}
		if i%5 == 0 {
			d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
			d.RelatedInformation = []protocol.DiagnosticRelatedInformation{{Location: protocol.Location{URI: "file:///w/.mcp.json", Range: d.Range}, Message: "there"}}
		}
		return d
	}
	var ds []protocol.Diagnostic
	for i := range 40 {
		ds = append(ds, diag(i, uint32(10*i)))
	}
	moved := func(ds []protocol.Diagnostic, by uint32) []protocol.Diagnostic {
		out := slices.Clone(ds)
		for i := range out {
			out[i].Range.Start.Line += by
			out[i].Range.End.Line += by
		}
		return out
	}
	steps := []struct {
		name    string
		ds      []protocol.Diagnostic
		encoded int // encoded afresh, against the step before; -1: not checked
	}{
		{"first", ds, 40},
		{"same again", ds, 0},
		{"all moved", moved(ds, 3), 0},
		{"one added in the middle", slices.Insert(moved(ds, 3), 20, diag(99, 205)), 1},
		{"one removed", slices.Delete(moved(ds, 3), 5, 6), 0},
		{"a message changed", func() []protocol.Diagnostic {
			out := moved(ds, 3)
			out[7].Message += "!"
			return out
		}(), 2}, // and the one removed before
		{"Data replaced by an equal map", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			out[0].Data = map[string]any{"server": "s-0", "tools": []string{"claude-code"}}
			return out
		}(), 1}, // the message changed before
		{"Data replaced by another map", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			out[2].Data = map[string]any{"server": "other"}
			return out
		}(), 1},
		{"related moved", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			out[5].RelatedInformation = []protocol.DiagnosticRelatedInformation{{Location: protocol.Location{URI: "file:///w/.mcp.json"}, Message: "there"}}
			return out
		}(), 2}, // and the one with another map before
		{"back", ds, 1}, // the one whose related place moved
		{"ten added before", append(slices.Collect(func(yield func(protocol.Diagnostic) bool) {
			for i := range 10 {
				if !yield(diag(100+i, uint32(i))) {
					return
				}
			}
		}), moved(ds, 10)...), 10},
		{"reversed", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			slices.Reverse(out)
			return out
		}(), findWindow}, // the misses before it indexes them by message
		{"a message changed in place", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			out[30].Message += "?"
			return out
		}(), 1 + findWindow}, // and the misses before it indexes the reversed ones
		{"in place again", func() []protocol.Diagnostic {
			out := slices.Clone(ds)
			out[30].Message += "?"
			return out
		}(), 0},
		{"duplicates", []protocol.Diagnostic{ds[1], ds[1], ds[3], ds[1]}, 2},
		{"duplicates again", []protocol.Diagnostic{ds[1], ds[3], ds[1], ds[1]}, 0},
		{"none", []protocol.Diagnostic{}, 0},
	}
	var c framer
	for i, st := range steps {
		params := publishParams{URI: "file:///w/a%20b/<x>.mcp.json", Diagnostics: st.ds}
		if i%3 != 0 {
			v := int32(i)
			params.Version = &v
		}
		want := appendPublishParams(nil, params)
		wantArray := want[bytes.Index(want, []byte(`"diagnostics":`))+len(`"diagnostics":`) : len(want)-1]
		frame, gotParams, got := c.frame(t, publication{uri: params.URI, version: params.Version, diags: st.ds})
		body, err := rpcstreamNotification(protocol.MethodTextDocumentPublishDiagnostics, want)
		if err != nil {
			t.Fatal(err)
		}
		if wantFrame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body); !bytes.Equal(frame, wantFrame) {
			t.Errorf("%s: the cache's frame differs from a fresh encoding:\n got %s\nwant %s", st.name, frame, wantFrame)
		}
		if !bytes.Equal(gotParams, want) {
			t.Errorf("%s: the frame's params are\n%s\nwant\n%s", st.name, gotParams, want)
		}
		if !bytes.Equal(got, wantArray) {
			t.Errorf("%s: the cache's JSON differs from a fresh encoding:\n got %s\nwant %s", st.name, got, wantArray)
		}
		if n := c.encoded; st.encoded >= 0 && n != st.encoded {
			t.Errorf("%s: %d diagnostics encoded afresh, want %d", st.name, n, st.encoded)
		}
	}
	// Typing in a value changes one message: the others are found in
	// step, without an index of every message.
	c.frame(t, publication{uri: "file:///a", diags: ds})
	typed := slices.Clone(ds)
	typed[20].Message += "x"
	c.frame(t, publication{uri: "file:///a", diags: typed})
	if c.encoded != 1 || c.byMessage != nil {
		t.Errorf("one message changed: %d encoded afresh, index built: %v", c.encoded, c.byMessage != nil)
	}
}

// framer frames publications through a diagnosticCache as the worker
// does, and checks the hashes prepare returns.
type framer struct {
	diagnosticCache
	last []byte // the last array framed
	sum  uint64 // its hash
}

// frame prepares p and writes its notification through a stream
// (rpcstream.WriteNotificationFunc), and returns the frame written, its
// params, and its diagnostics' JSON array; it checks that the hash
// prepare returns is the last frame's when the array is, and only then.
func (f *framer) frame(t testing.TB, p publication) (frame, params, array []byte) {
	t.Helper()
	c := &f.diagnosticCache
	sum := c.prepare(p)
	var out bufferStream
	n, err := rpcstream.New(&out, rpcstream.Options{}).WriteNotificationFunc(context.Background(), protocol.MethodTextDocumentPublishDiagnostics, c.size, c.writeParams)
	if err != nil || n != int64(out.Len()) {
		t.Fatalf("WriteNotificationFunc: %d bytes, %v; %d written", n, err, out.Len())
	}
	frame = out.Bytes()
	at := bytes.Index(frame, []byte(`"params":`)) + len(`"params":`)
	params = frame[at : len(frame)-1]
	at = bytes.Index(params, []byte(`"diagnostics":`)) + len(`"diagnostics":`)
	array = params[at : len(params)-1]
	if f.last != nil && bytes.Equal(array, f.last) != (sum == f.sum) {
		t.Errorf("hash %x after %x, for the array\n%s\nafter\n%s", sum, f.sum, array, f.last)
	}
	f.last, f.sum = array, sum
	return frame, params, array
}

// bufferStream is a stream's other end that keeps what is written to it
// and reads nothing.
type bufferStream struct{ bytes.Buffer }

func (*bufferStream) Read([]byte) (int, error) { return 0, io.EOF }
func (*bufferStream) Close() error             { return nil }

// rpcstreamNotification is the body go.lsp.dev/jsonrpc2 writes for a
// notification of method with params.
func rpcstreamNotification(method string, params []byte) ([]byte, error) {
	n, err := jsonrpc2.NewNotification(method, json.RawMessage(params))
	if err != nil {
		return nil, err
	}
	return json.Marshal(n)
}

// TestRangeSize: the size announced for a range's JSON is the size
// appendRange writes, for numbers of every length.
func TestRangeSize(t *testing.T) {
	for _, n := range []uint32{0, 1, 9, 10, 99, 100, 12345, 999999999, 1000000000, 4294967295} {
		for _, r := range []protocol.Range{
			{Start: protocol.Position{Line: n, Character: 0}, End: protocol.Position{Line: n, Character: n}},
			{Start: protocol.Position{Line: 3, Character: n}, End: protocol.Position{Line: n / 7, Character: 11}},
		} {
			if got, want := rangeSize(r), len(appendRange(nil, r)); got != want {
				t.Errorf("rangeSize(%v) = %d, appendRange writes %d bytes", r, got, want)
			}
		}
	}
}

// TestDiagnosticCacheBeyondItsHeads: findings of more distinct heads
// (severity, code, code description, source) than a cache keeps are
// encoded byte for byte as afresh, in a first publication and when moved.
func TestDiagnosticCacheBeyondItsHeads(t *testing.T) {
	var ds []protocol.Diagnostic
	for i := range maxHeads + 100 {
		code := fmt.Sprintf("rule-%d", i)
		ds = append(ds, protocol.Diagnostic{
			Range:           protocol.Range{Start: protocol.Position{Line: uint32(i)}, End: protocol.Position{Line: uint32(i), Character: 3}},
			Severity:        protocol.DiagnosticSeverity(1 + i%4),
			Code:            code,
			CodeDescription: &protocol.CodeDescription{Href: uri.URI(ruleDocURL(code))},
			Source:          "mcp-lsp",
			Message:         fmt.Sprintf("finding %d", i),
		})
	}
	var c framer
	for step := range 2 {
		if step == 1 {
			ds = slices.Clone(ds)
			for i := range ds {
				ds[i].Range.Start.Line += 2
				ds[i].Range.End.Line += 2
			}
		}
		want := appendPublishParams(nil, publishParams{URI: "file:///a", Diagnostics: ds})
		if _, params, _ := c.frame(t, publication{uri: "file:///a", diags: ds}); !bytes.Equal(params, want) {
			t.Errorf("step %d: params differ from a fresh encoding:\n got %.300s\nwant %.300s", step, params, want)
		}
	}
	if len(c.heads) != maxHeads {
		t.Errorf("%d heads kept, want %d", len(c.heads), maxHeads)
	}
}
