package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

type wireReport struct {
	Kind     string `json:"kind"`
	ResultID string `json:"resultId"`
	Items    []struct {
		Code  string `json:"code"`
		Range struct {
			Start struct{ Line, Character int }
		} `json:"range"`
	} `json:"items"`
	URI     string          `json:"uri"`
	Version json.RawMessage `json:"version"`
}

func (r wireReport) codes() string {
	var codes []string
	for _, it := range r.Items {
		codes = append(codes, fmt.Sprintf("%s@%d:%d", it.Code, it.Range.Start.Line, it.Range.Start.Character))
	}
	return strings.Join(codes, ",")
}

// A client that pulls diagnostics gets none pushed; workspace/diagnostic
// reports every file the tools read here, user-level ones included, and
// the look-alike files no tool reads; result ids make repeated pulls
// "unchanged"; a change on disk to a file the client has not opened makes
// the server ask for a refresh.
func TestPullDiagnostics(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ws := filepath.Join(dir, "ws")
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	server := `{"mcpServers": {"café": {"command": "npx"}}}`
	write(filepath.Join(ws, ".mcp.json"), "{\r\n  \"mcpServers\": {\"ünï\": {\"type\": \"local\", \"command\": \"x\"}}\r\n}\r\n")
	write(filepath.Join(ws, ".claude", ".mcp.json"), server)                             // look-alike: read by no tool
	write(filepath.Join(ws, ".copilot", "mcp-config.json"), server)                      // look-alike in a project
	write(filepath.Join(home, ".claude", "mcp.json"), server)                            // look-alike in the home directory
	write(filepath.Join(home, ".claude.json"), `{"mcpServers": {"x": {"type": "sse"}}}`) // user-level, broken

	c, _ := startRaw(t, lsptest.Server{Home: home}, Options{})
	r := c.Request("1", "initialize", map[string]any{
		"capabilities": map[string]any{
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}},
			"workspace":    map[string]any{"configuration": true, "diagnostics": map[string]any{"refreshSupport": true}},
		},
		"workspaceFolders": []any{map[string]any{"uri": pathToURI(ws), "name": "ws"}},
	})
	var init struct {
		Capabilities struct {
			DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(r["result"], &init); err != nil || init.Capabilities.DiagnosticProvider == nil || !init.Capabilities.DiagnosticProvider.WorkspaceDiagnostics {
		t.Fatalf("no diagnosticProvider with workspace diagnostics: %s", r["result"])
	}
	c.Notify("initialized", map[string]any{})

	rel := func(uri string) string {
		p, _ := uriToPath(protocol.DocumentURI(uri))
		if r, err := filepath.Rel(dir, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	id := 10
	pull := func(previous map[string]string) map[string]wireReport {
		t.Helper()
		id++
		var prev []any
		for uri, v := range previous {
			prev = append(prev, map[string]any{"uri": uri, "value": v})
		}
		f := c.Request(fmt.Sprint(id), "workspace/diagnostic", map[string]any{"previousResultIds": prev})
		var res struct{ Items []wireReport }
		if err := json.Unmarshal(f["result"], &res); err != nil {
			t.Fatalf("workspace/diagnostic: %s %s", f["result"], f["error"])
		}
		out := map[string]wireReport{}
		for _, it := range res.Items {
			if string(it.Version) == "" {
				t.Errorf("%s: a workspace report without version", it.URI)
			}
			out[rel(it.URI)] = it
		}
		return out
	}
	want := map[string]string{
		"ws/.mcp.json":                "type-not-accepted@1:33",
		"ws/.claude/.mcp.json":        "file-not-read@0:1",
		"ws/.copilot/mcp-config.json": "file-not-read-by@0:1",
		"home/.claude/mcp.json":       "file-not-read@0:1",
		"home/.claude.json":           "missing-url@0:16",
	}
	// Discovery runs in the background after initialized: poll until it
	// has found every file (bounded by the hang guard).
	var first map[string]wireReport
	for deadline := time.Now().Add(lsptest.HangGuard); ; {
		first = pull(nil)
		if len(first) >= len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace report %v, want %v", first, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for p, codes := range want {
		if got := first[p]; got.Kind != "full" || got.codes() != codes {
			t.Errorf("%s: %s %q, want full %q", p, got.Kind, got.codes(), codes)
		}
	}

	// Pulling again with the result ids: nothing changed.
	previous := map[string]string{}
	for _, rep := range first {
		previous[rep.URI] = rep.ResultID
	}
	for p, rep := range pull(previous) {
		if rep.Kind != "unchanged" || rep.ResultID != first[p].ResultID {
			t.Errorf("%s: second pull %s %s, want unchanged %s", p, rep.Kind, rep.ResultID, first[p].ResultID)
		}
	}

	// The open document: full, then unchanged, then full after an edit.
	mcp := filepath.Join(ws, ".mcp.json")
	text, _ := os.ReadFile(mcp)
	uri := pathToURI(mcp)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(text)}})
	doc := func(previous string) wireReport {
		id++
		f := c.Request(fmt.Sprint(id), "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": previous})
		var rep wireReport
		if err := json.Unmarshal(f["result"], &rep); err != nil {
			t.Fatalf("textDocument/diagnostic: %s %s", f["result"], f["error"])
		}
		return rep
	}
	full := doc("")
	if full.Kind != "full" || full.codes() != first["ws/.mcp.json"].codes() || full.ResultID != first["ws/.mcp.json"].ResultID {
		t.Errorf("document report %+v, want the workspace report's", full)
	}
	if rep := doc(full.ResultID); rep.Kind != "unchanged" || len(rep.Items) != 0 {
		t.Errorf("same result id: %+v, want unchanged", rep)
	}
	c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "{\"mcpServers\": {\"ünï\": {\"command\": \"x\"}}}"}},
	})
	if rep := doc(full.ResultID); rep.Kind != "full" || len(rep.Items) != 0 || rep.ResultID == full.ResultID {
		t.Errorf("after the fix: %+v, want a full empty report with a new id", rep)
	}

	// A file the client has not opened changes on disk: refresh.
	mark := c.Mark()
	write(filepath.Join(home, ".claude.json"), `{"mcpServers": {"x": {"type": "sse", "url": "https://x.example/sse"}}}`)
	c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(filepath.Join(home, ".claude.json")), "type": 2}}})
	c.WaitFrom(mark, "workspace/diagnostic/refresh", func(f lsptest.Frame) bool { return f.Method() == "workspace/diagnostic/refresh" })
	after := pull(previous)
	if rep := after["home/.claude.json"]; rep.Kind != "full" || strings.Contains(rep.codes(), "missing-url") {
		t.Errorf("~/.claude.json after the fix on disk: %s %q", rep.Kind, rep.codes())
	}

	// A file that is deleted gets an empty report, so its problems go.
	lookalike := filepath.Join(ws, ".claude", ".mcp.json")
	if err := os.Remove(lookalike); err != nil {
		t.Fatal(err)
	}
	c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(lookalike), "type": 3}}})
	for deadline := time.Now().Add(lsptest.HangGuard); ; {
		rep, ok := pull(previous)["ws/.claude/.mcp.json"]
		if ok && rep.Kind == "full" && len(rep.Items) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deleted file: %+v, want an empty full report", rep)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Nothing was ever pushed.
	if slices.ContainsFunc(c.Frames(), func(f lsptest.Frame) bool { return f.Method() == "textDocument/publishDiagnostics" }) {
		t.Error("diagnostics were pushed to a client that pulls them")
	}
}

// A client that pulls holds what it pulled until it is asked to pull
// again. When the settings change an open file's diagnostics without an
// edit, the server must ask. The case that matters most is VS Code
// restarting the server: its first pull can be answered before the answer
// to workspace/configuration arrives, with the default settings, and the
// user's settings must then still win.
func TestPullRefreshAfterSettings(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	mcp := filepath.Join(dir, ".mcp.json")
	text := "{\r\n  \"mcpServers\": {\"gïthub\": {\"type\": \"http\", \"url\": \"https://api.example.com/mcp\",\r\n    \"headers\": {\"Authorization\": \"Bearer ghp_0123456789abcdefghijABCDEFGHIJ012345\"}}}\r\n}\r\n"
	if err := os.WriteFile(mcp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The test answers workspace/configuration itself, late: the server
	// must wait for it far longer than the default test timeout.
	c, _ := startRaw(t, lsptest.Server{Home: home, Silent: []string{"workspace/configuration"}}, Options{ClientTimeout: lsptest.HangGuard})
	rawInitialize(t, c, dir, map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace":    map[string]any{"configuration": true, "diagnostics": map[string]any{"refreshSupport": true}},
	})
	uri := pathToURI(mcp)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": text}})
	id := 10
	pull := func() wireReport {
		t.Helper()
		id++
		f := c.Request(fmt.Sprint(id), "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}})
		var rep wireReport
		if err := json.Unmarshal(f["result"], &rep); err != nil {
			t.Fatalf("textDocument/diagnostic: %s %s", f["result"], f["error"])
		}
		return rep
	}
	const secret = "literal-secret@2:33"
	if got := pull().codes(); !strings.Contains(got, secret) {
		t.Fatalf("first pull, default settings: %q, want %s", got, secret)
	}

	// The user's settings arrive after that first pull.
	asked := c.Wait("workspace/configuration", func(f lsptest.Frame) bool { return f.Method() == "workspace/configuration" })
	mark := c.Mark()
	c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":[{"rules":{"literal-secret":"off"}}]}`, asked["id"]))
	c.WaitFrom(mark, "workspace/diagnostic/refresh", func(f lsptest.Frame) bool { return f.Method() == "workspace/diagnostic/refresh" })
	if got := pull().codes(); strings.Contains(got, "literal-secret") {
		t.Errorf("pull after the settings turned literal-secret off: %q", got)
	}

	// A pushed change at the same version: asked again.
	mark = c.Mark()
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"mcpLsp": map[string]any{}}})
	c.WaitFrom(mark, "workspace/diagnostic/refresh", func(f lsptest.Frame) bool { return f.Method() == "workspace/diagnostic/refresh" })
	if got := pull().codes(); !strings.Contains(got, secret) {
		t.Errorf("pull after the setting was removed: %q, want %s", got, secret)
	}
}
