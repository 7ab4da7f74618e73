package lsptest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Server is what a Starter needs to know to start a server for Hostile.
type Server struct {
	// Home is the user's home directory the server must use (empty, so
	// the machine's own ~/.claude.json plays no part).
	Home string
	// Silent lists the server->client methods the client never answers.
	Silent []string
}

// Starter starts a server with a short client timeout (well under a
// second) and returns a client connected to it.
type Starter func(t *testing.T, s Server) *Client

// The open document and where its server name is.
const (
	docText = `{"mcpServers": {"fs": {"command": "npx"}}}`
	nameCol = 17 // inside "fs"
)

// Hostile runs every hostile-client item of issue 11 that concerns the
// protocol against one server, in sequence, and after each one asserts the
// server still answers a hover correctly: bad frames and invalid messages
// (-32700 / -32600, id null), odd ids echoed exactly, a 100,000-deep
// settings notification, a client that never answers
// window/workDoneProgress/create, and incremental edits with invalid
// ranges.
func Hostile(t *testing.T, start Starter) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	doc := filepath.Join(proj, ".mcp.json")
	nested := filepath.Join(proj, "sub", ".mcp.json")
	for path, content := range map[string]string{doc: docText, nested: `{"mcpServers": {},}`, filepath.Join(home, ".keep"): ""} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, Server{Home: home, Silent: []string{"window/workDoneProgress/create"}})

	init := c.Request("1", "initialize", map[string]any{
		"processId": nil,
		"rootUri":   fileURI(proj),
		"capabilities": map[string]any{
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"configuration": true},
		},
	})
	if init["result"] == nil {
		t.Fatalf("initialize: %v", init)
	}
	c.Notify("initialized", map[string]any{})

	// A client that never answers window/workDoneProgress/create: the
	// server asked, and discovery went on regardless to publish the
	// diagnostics of a file nobody opened.
	c.Wait("diagnostics of the unopened sub/.mcp.json (discovery finished)", func(f Frame) bool {
		p := publication(f)
		return p != nil && p.URI == fileURI(nested) && len(p.Diagnostics) > 0
	})
	c.Wait("window/workDoneProgress/create", func(f Frame) bool { return f.Method() == "window/workDoneProgress/create" })
	if n := c.Asked("window/workDoneProgress/create"); n != 1 {
		t.Errorf("the server asked for a progress token %d times, want 1", n)
	}

	uri := fileURI(doc)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": docText}})
	ids := 100
	probe := func(after, wantCommand string) {
		t.Helper()
		ids++
		id := fmt.Sprint(ids)
		if got := hoverCommand(t, c.Request(id, "textDocument/hover", hoverParams(uri))); got != wantCommand {
			t.Fatalf("after %s: hover shows command %q, want %q", after, got, wantCommand)
		}
	}
	probe("open", "npx")

	for _, tc := range []struct {
		name, raw string
		code      int64
	}{
		{"a body that is not JSON", "Content-Length: 17\r\n\r\n{this is not json", -32700},
		{"a batch []", frame(`[]`), -32600},
		{"a body of null", frame(`null`), -32600},
		{"a response without an id", frame(`{"jsonrpc":"2.0","result":{}}`), -32600},
		{"an object id", frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":` + hoverJSON(uri) + `}`), -32600},
		{"a boolean id", frame(`{"jsonrpc":"2.0","id":true,"method":"textDocument/hover","params":` + hoverJSON(uri) + `}`), -32600},
	} {
		mark := c.Mark()
		c.SendRaw(tc.raw)
		c.WaitFrom(mark, tc.name+": error reply with id null", func(f Frame) bool {
			return isNullIDError(f) && ErrorCode(f) == tc.code
		})
		probe(tc.name, "npx")
	}

	// A lower-case header frames a normal request.
	body := `{"jsonrpc":"2.0","id":"lower","method":"textDocument/hover","params":` + hoverJSON(uri) + `}`
	c.SendRaw(fmt.Sprintf("content-length: %d\r\n\r\n%s", len(body), body))
	if got := hoverCommand(t, c.Reply(`"lower"`)); got != "npx" {
		t.Errorf("hover framed by a lower-case header: command %q", got)
	}

	// Ids the library could not hold come back byte for byte.
	for _, id := range []string{`2147483648`, `9007199254740992`, `1.5`, `""`, `-7`, `"2"`} {
		if got := hoverCommand(t, c.Request(id, "textDocument/hover", hoverParams(uri))); got != "npx" {
			t.Errorf("hover with id %s: command %q", id, got)
		}
	}

	// A settings change nested 100,000 deep is refused before decoding,
	// the user is told, and the connection does not freeze.
	deep := `{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"mcpLsp":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}`
	c.Send(deep)
	c.Wait("a warning about the refused settings change", func(f Frame) bool {
		return f.Method() == "window/showMessage" && strings.Contains(string(f["params"]), "workspace/didChangeConfiguration")
	})
	probe("a 100,000-deep didChangeConfiguration", "npx")

	// Incremental edits with ranges outside the text, as the
	// specification reads them.
	change := func(version int, rng any, text string) {
		c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": rng, "text": text}},
		})
	}
	// A character past the end of the line means the end of the line.
	change(2, rangeOf(0, 500, 0, 500), "\n")
	// A line past the end means the end of the document: "{}" lands on
	// the second line, where it is trailing content.
	change(3, rangeOf(9, 0, 9, 4), "{}")
	c.Wait("a diagnostic on line 2 for the trailing {} (version 3)", func(f Frame) bool {
		p := publication(f)
		return p != nil && p.URI == uri && p.Version == 3 && p.hasLine(1)
	})
	// Both rules at once delete it again: from the end of line 1 to the
	// end of the document.
	change(4, rangeOf(0, 500, 9, 0), "")
	change(5, rangeOf(0, 35, 0, 38), "uvx")
	probe("edits with ranges past the line and the document", "uvx")

	// An edit that cannot apply (end before start): the server says so
	// and falls back to the file on disk rather than drift.
	mark := c.Mark()
	change(6, rangeOf(0, 10, 0, 2), "x")
	c.WaitFrom(mark, "a warning about the lost buffer", func(f Frame) bool {
		return f.Method() == "window/showMessage" && strings.Contains(string(f["params"]), "lost track")
	})
	c.WaitFrom(mark, "diagnostics of the file on disk (no trailing {})", func(f Frame) bool {
		p := publication(f)
		return p != nil && p.URI == uri && !p.hasLine(1)
	})
	probe("an edit whose end is before its start", "npx")
	// Later incremental edits cannot apply either; a full text resyncs.
	change(7, rangeOf(0, 35, 0, 38), "zzz")
	probe("an edit to a lost buffer", "npx")
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 8},
		"contentChanges": []any{map[string]any{"text": strings.Replace(docText, "npx", "pnpm", 1)}},
	})
	probe("a full-text change", "pnpm")

	if r := c.Request("9", "shutdown", nil); r["error"] != nil {
		t.Errorf("shutdown: %v", r)
	}
	c.Notify("exit", nil)
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func isNullIDError(f Frame) bool {
	return f.Method() == "" && string(f["id"]) == "null" && f["error"] != nil
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func rangeOf(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}
}

func hoverParams(uri string) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": nameCol}}
}

func hoverJSON(uri string) string {
	b, _ := json.Marshal(hoverParams(uri))
	return string(b)
}

// hoverCommand returns the command a hover reply shows ("command: `x`").
func hoverCommand(t *testing.T, f Frame) string {
	t.Helper()
	var r struct {
		Contents struct{ Value string }
	}
	if f["error"] != nil || json.Unmarshal(f["result"], &r) != nil {
		t.Fatalf("hover failed: %v", f)
	}
	_, rest, ok := strings.Cut(r.Contents.Value, "command: `")
	if !ok {
		t.Fatalf("hover shows no command: %q", r.Contents.Value)
	}
	cmd, _, _ := strings.Cut(rest, "`")
	return cmd
}

type published struct {
	URI         string `json:"uri"`
	Version     int    `json:"version"`
	Diagnostics []struct {
		Range struct {
			Start struct{ Line int }
		}
	}
}

func (p *published) hasLine(line int) bool {
	for _, d := range p.Diagnostics {
		if d.Range.Start.Line == line {
			return true
		}
	}
	return false
}

func publication(f Frame) *published {
	if f.Method() != "textDocument/publishDiagnostics" {
		return nil
	}
	var p published
	if json.Unmarshal(f["params"], &p) != nil {
		return nil
	}
	return &p
}
