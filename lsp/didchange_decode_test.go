package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// TestDecodeDidChangeAgreesWithEncodingJSON: the fast decoder gives what
// encoding/json gives, or hands the params to it (errSlowPath), never
// something else.
func TestDecodeDidChangeAgreesWithEncodingJSON(t *testing.T) {
	long := strings.Repeat(`{"mcpServers": {"é": {"command": "npx\\tx", "args": ["😀"]}}}`+"\r\n", 200)
	cases := map[string]struct {
		text string
		fast bool
	}{
		"short":        {`{"a": 1}`, true},
		"long":         {long, true},
		"long escapes": {long + "\"\\/\b\f\t\u2028 \U0001F600", true},
		"long NUL":     {long + "\x00", false},
		"long control": {long + "\x01", true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			params := map[string]any{
				"textDocument": map[string]any{"uri": "file:///p/.mcp.json", "version": 7},
				"contentChanges": []any{
					map[string]any{"text": c.text},
					map[string]any{"range": map[string]any{"start": map[string]any{"line": 1, "character": 2}, "end": map[string]any{"line": 3, "character": 4}}, "text": c.text},
				},
			}
			raw, err := json.Marshal(params)
			if err != nil {
				t.Fatal(err)
			}
			var want didChangeParams
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			got, err := decodeDidChange(raw)
			if !c.fast {
				if err != errSlowPath {
					t.Fatalf("decodeDidChange = %v, want errSlowPath", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeDidChange: %v", err)
			}
			// The stream reads the next message into the params' memory
			// (rpcstream.Options.Predecode): the value keeps none of it.
			for i := range raw {
				raw[i] = '#'
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("decodeDidChange differs from encoding/json")
			}
		})
	}
	// Raw forms json.Marshal never writes: a surrogate pair, a lone
	// surrogate (encoding/json substitutes U+FFFD: the slow path), invalid
	// UTF-8, a raw control character.
	pad := strings.Repeat("x", bigString)
	for _, c := range []struct {
		body string
		fast bool
	}{
		{`\ud83d\ude00` + pad, true},
		{`\ud83d` + pad, false},
		{"\xff" + pad, false},
		{"\x01" + pad, false},
		{`\q` + pad, false},
	} {
		raw := []byte(`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"` + c.body + `"}]}`)
		got, err := decodeDidChange(raw)
		if (err == nil) != c.fast {
			t.Errorf("%.12q: fast path %v, want %v", c.body, err == nil, c.fast)
			continue
		}
		if err == nil {
			var want didChangeParams
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("%.12q: differs from encoding/json", c.body)
			}
		}
	}
}

// TestDecodeDidChangeRefusesWhatIsNotJSON: the stream validates only the
// envelope, so the decoder must refuse malformed params itself.
func TestDecodeDidChangeRefusesWhatIsNotJSON(t *testing.T) {
	pad := strings.Repeat("x", bigString)
	for _, raw := range []string{
		`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"` + pad + `"}]} x`,
		`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"` + pad + `"} {}]}`,
		`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"` + pad,
		`{"textDocument":{"uri":"file:///a" "version":1},"contentChanges":[]}`,
	} {
		if _, err := decodeDidChange([]byte(raw)); err == nil {
			t.Errorf("decoded %.40q...", raw)
		}
	}
}

// TestDidChangeDecodedOnceByTheStream: over a pipe, a didChange's params
// are decoded by the stream from the frame, not again by the handler, and
// the edit applies.
func TestDidChangeDecodedOnceByTheStream(t *testing.T) {
	var mu sync.Mutex
	var fast, slow int
	c := startServer(t, Options{testDidChange: func(predecoded bool) {
		mu.Lock()
		defer mu.Unlock()
		if predecoded {
			fast++
		} else {
			slow++
		}
	}})
	dir := t.TempDir()
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {}}`)
	big := `{"mcpServers": {"a": {"command": 1}}}` + strings.Repeat(" ", bigString)
	v := c.change(uri, nil, big)
	p := c.waitDiagnostics(uri, "the edit analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == v })
	if len(p.Diagnostics) == 0 {
		t.Errorf("the edited text (a schema error) was not analysed: %+v", p)
	}
	mu.Lock()
	defer mu.Unlock()
	if fast != 1 || slow != 0 {
		t.Errorf("didChange decoded by the stream %d times, by the handler %d times; want 1, 0", fast, slow)
	}
}

// BenchmarkDecodeDidChange decodes the params of a full-text didChange of
// a pretty-printed 1,000-server file (about 300 KB once JSON-escaped: a
// line break and a pair of quotes every few dozen bytes), the message the
// server gets on every keystroke with full sync.
func BenchmarkDecodeDidChange(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("{\n  \"mcpServers\": {\n")
	for i := range 1000 {
		fmt.Fprintf(&doc, "    \"server-%05d\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"@example/server-%d\"\n      ],\n      \"env\": {\n        \"NODE_ENV\": \"production\"\n      }\n    },\n", i, i)
	}
	doc.WriteString("  }\n}\n")
	raw, err := json.Marshal(map[string]any{
		"textDocument":   map[string]any{"uri": "file:///p/.mcp.json", "version": 2},
		"contentChanges": []any{map[string]any{"text": doc.String()}},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeDidChange(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	// As the server decodes a keystroke's full text: from the previous
	// one's (textReuse), here a character typed in the middle of the
	// text, in turn one of two.
	mid := bytes.Index(raw, []byte("server-00500"))
	two := [2][]byte{raw, append(append(slices.Clone(raw[:mid]), 'x'), raw[mid:]...)}
	b.Run("reusing", func(b *testing.B) {
		var reuse textReuse
		for i := 0; b.Loop(); i++ {
			if _, err := reuse.decodeDidChange(two[i%2]); err != nil {
				b.Fatal(err)
			}
		}
		if reuse.reused < b.N-1 {
			b.Fatalf("%d of %d decoded from the previous text", reuse.reused, b.N)
		}
	})
}

// FuzzDecodeDidChange: whatever the params, the fast decoder gives what
// encoding/json gives, or hands them to it (errSlowPath); never another
// value, never a value for params encoding/json refuses. The text is
// padded past bigString so that the fast unquote runs on it.
func FuzzDecodeDidChange(f *testing.F) {
	f.Add(`{"a": "b\n"}`, false)
	f.Add(`\ud83d\ude00 \u00e9 \"x\" \\ \/ \b\f\n\r\t`, true)
	f.Add("é😀\x00\x01\xff", false)
	f.Add(`\ud83d \udc00 \u0000 \q`, true)
	f.Fuzz(func(t *testing.T, text string, raw bool) {
		pad := strings.Repeat("x", bigString)
		var params []byte
		if raw { // text is spliced into the JSON as it is
			params = []byte(`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"` + text + pad + `"},{"text":"` + pad + text + `"}]}`)
		} else {
			var err error
			params, err = json.Marshal(map[string]any{
				"textDocument":   map[string]any{"uri": "file:///a", "version": 1},
				"contentChanges": []any{map[string]any{"text": text + pad}, map[string]any{"text": text}},
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := decodeDidChange(params)
		var want didChangeParams
		wantErr := json.Unmarshal(params, &want)
		switch {
		case err == errSlowPath:
		case err != nil:
			t.Fatalf("decodeDidChange: %v", err)
		case wantErr != nil:
			t.Fatalf("decoded params encoding/json refuses (%v)", wantErr)
		case !reflect.DeepEqual(got, &want):
			t.Fatalf("decodeDidChange differs from encoding/json:\n%+v\n%+v", got, &want)
		}
		// Decoded from a previous text (textReuse) that shares its start
		// and end with this one, the same value or the same refusal.
		var reuse textReuse
		prev := bytes.Replace(params, []byte(pad), []byte(pad[:len(pad)/2]+`\n\"x\"`+pad[len(pad)/2:]), 1)
		if _, err := reuse.decodeDidChange(prev); err != nil && !bytes.Equal(prev, params) {
			return
		}
		again, err2 := reuse.decodeDidChange(params)
		if (err2 == nil) != (err == nil) || err == nil && !reflect.DeepEqual(again, got) {
			t.Fatalf("from the previous text: %v, %v; want %v, %v", again, err2, got, err)
		}
	})
}

// TestUnquoteAtEveryAlignment: unquote decodes as encoding/json does (or
// refuses) whatever mix of plain bytes and escapes falls in its
// eight-byte words.
func TestUnquoteAtEveryAlignment(t *testing.T) {
	pieces := []string{"a", "bcdefgh", "é", "😀", `\n`, `\"`, `\\`, `\/`, `\u00e9`, `\ud83d\ude00`}
	bad := []string{`\ud83d`, `\u0000`, "\x01", "\xff", `\x`} // the slow path's
	r := rand.New(rand.NewPCG(3, 4))
	fast := 0
	for range 20000 {
		var b strings.Builder
		// Up to 60 pieces, and up to 100 bytes of the params after the
		// closing quote: escapes and characters fall across words
		// anywhere.
		for range r.IntN(60) {
			if r.IntN(200) == 0 {
				b.WriteString(bad[r.IntN(len(bad))])
			} else {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		body := b.String()
		raw := []byte(`"` + body + `"`)
		var want string
		wantErr := json.Unmarshal(raw, &want)
		raw = append(raw, strings.Repeat(" ", r.IntN(100))...)
		got, end, err := unquote(raw, 1)
		switch {
		case err != nil:
			if err != errSlowPath {
				t.Fatalf("unquote(%q): %v", body, err)
			}
		case wantErr != nil:
			t.Fatalf("unquote(%q) = %q, encoding/json refuses it: %v", body, got, wantErr)
		case got != want || end != len(body)+1:
			t.Fatalf("unquote(%q) = %q, %d; want %q, %d", body, got, end, want, len(body)+1)
		default:
			fast++
		}
	}
	if fast < 10000 {
		t.Errorf("only %d of 20000 strings decoded: the test no longer exercises the fast path", fast)
	}
}

// TestDecodeDidOpenAgreesWithEncodingJSON: the fast didOpen decoder gives
// what encoding/json gives (non-ASCII, CRLF, escapes, a one-line file
// past bigString), or hands the params on (errSlowPath); never something
// else.
func TestDecodeDidOpenAgreesWithEncodingJSON(t *testing.T) {
	long := strings.Repeat(`{"mcpServers": {"é": {"command": "npx\\tx", "args": ["😀"]}}}`+"\r\n", 200)
	for name, c := range map[string]struct {
		text, languageID string
		fast             bool
	}{
		"short":         {`{"a": 1}`, "json", true},
		"long":          {long, "jsonc", true},
		"long escapes":  {long + "\"\\/\b\f\t\u2028 \U0001F600", "json", true},
		"long NUL":      {long + "\x00", "json", false},
		"long language": {long, strings.Repeat("j", bigString), false},
		"empty":         {"", "json", true},
	} {
		t.Run(name, func(t *testing.T) {
			raw, err := json.Marshal(map[string]any{"textDocument": map[string]any{
				"uri": "file:///p/.mcp.json", "languageId": c.languageID, "version": 7, "text": c.text}})
			if err != nil {
				t.Fatal(err)
			}
			var want protocol.DidOpenTextDocumentParams
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			got, err := decodeDidOpen(raw)
			if !c.fast {
				if err != errSlowPath {
					t.Fatalf("decodeDidOpen = %v, want errSlowPath", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeDidOpen: %v", err)
			}
			for i := range raw { // as decodeDidChange's (the stream reuses them)
				raw[i] = '#'
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("decodeDidOpen differs from encoding/json")
			}
		})
	}
	pad := strings.Repeat("x", bigString)
	for _, raw := range []string{
		`{"textDocument":{"uri":"file:///a","version":1,"text":"` + pad + `"}} x`,
		`{"textDocument":{"uri":"file:///a","version":1,"text":"` + pad,
		`{"textDocument":{"uri":"file:///a" "version":1,"text":"` + pad + `"}}`,
		`{"textDocument":{"uri":"` + pad + `","version":1,"text":""}}`,
	} {
		if _, err := decodeDidOpen([]byte(raw)); err == nil {
			t.Errorf("decoded %.40q...", raw)
		}
	}
}

// TestDidOpenDecodedOnceByTheStream: over a pipe, a large didOpen (a
// minified one-line file) is decoded by the stream from the frame, not
// again by the protocol's decoder, and the file's findings arrive; a
// small one still opens.
func TestDidOpenDecodedOnceByTheStream(t *testing.T) {
	var mu sync.Mutex
	var fast, slow int
	c := startServer(t, Options{testDidOpen: func(predecoded bool) {
		mu.Lock()
		defer mu.Unlock()
		if predecoded {
			fast++
		} else {
			slow++
		}
	}})
	dir := t.TempDir()
	c.initialize(dir)
	big := `{"mcpServers": {"é": {"command": 1}` + strings.Repeat(`, "s": {"command": "npx"}`, bigString/20) + `}}`
	uri := c.open(filepath.Join(dir, ".mcp.json"), big)
	p := c.waitDiagnostics(uri, "the opened file analysed", func(p publishParams) bool { return p.Version != nil })
	if len(p.Diagnostics) == 0 {
		t.Errorf("the opened text (a schema error) was not analysed: %+v", p)
	}
	small := c.open(filepath.Join(dir, "b", ".mcp.json"), `{"mcpServers": {"a": {"command": 1}}}`)
	if p := c.waitDiagnostics(small, "the small file analysed", func(p publishParams) bool { return p.Version != nil }); len(p.Diagnostics) == 0 {
		t.Errorf("the small file (a schema error) was not analysed: %+v", p)
	}
	mu.Lock()
	defer mu.Unlock()
	if fast != 2 || slow != 0 {
		t.Errorf("didOpen decoded by the stream %d times, by the protocol %d times; want 2, 0", fast, slow)
	}
}

// BenchmarkDecodeDidOpen decodes the params of the didOpen of a minified
// one-line 20,000-server file (about 2.6 MB escaped): "fast" as the
// stream does now (decodeDidOpen), "protocol" as go.lsp.dev/protocol's
// dispatch did (segmentio's decoder; the stream and jsonrpc2 scanned the
// frame twice more before it).
func BenchmarkDecodeDidOpen(b *testing.B) {
	var doc strings.Builder
	doc.WriteString(`{"mcpServers":{`)
	for i := range 20000 {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `"server-%05d":{"type":"stdio","command":"npx","args":["-y","@example/server-%d"],"env":{"NODE_ENV":"production"}}`, i, i)
	}
	doc.WriteString(`}}`)
	raw, err := json.Marshal(map[string]any{"textDocument": map[string]any{
		"uri": "file:///p/.mcp.json", "languageId": "json", "version": 1, "text": doc.String()}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := decodeDidOpen(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protocol", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var p protocol.DidOpenTextDocumentParams
			if err := segjson.Unmarshal(raw, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
