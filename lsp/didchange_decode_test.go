package lsp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
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
