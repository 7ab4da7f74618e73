package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

// The code lens and inlay hint contents are golden-tested in
// testdata/features (features_test.go); these tests cover the settings
// that turn them off, the refresh requests, the jump command and what is
// never linked or shown.

// rawWorkspace writes a project with a shadowed server and returns the
// workspace and the .mcp.json path.
func rawWorkspace(t *testing.T) (dir, home, mcp string) {
	t.Helper()
	dir = t.TempDir()
	home = filepath.Join(dir, "home")
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("home/.copilot/config.json", `{"trustedFolders": [`+mustJSON(t, dir)+`]}`)
	write("home/.copilot/mcp-config.json", `{"mcpServers": {"db": {"command": "db-mcp"}}}`)
	mcp = write(".mcp.json", "{\"mcpServers\": {\"db\": {\"command\": \"x\", \"env\": {\"T\": \"${LENS_TEST_TOKEN}\"}}}}")
	return dir, home, mcp
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func rawInitialize(t *testing.T, c *lsptest.Client, dir string, caps map[string]any) {
	t.Helper()
	r := c.Request("1", "initialize", map[string]any{
		"capabilities":     caps,
		"workspaceFolders": []any{map[string]any{"uri": pathToURI(dir), "name": "w"}},
	})
	if r["error"] != nil {
		t.Fatalf("initialize: %s", r["error"])
	}
	c.Notify("initialized", map[string]any{})
}

func lensTitles(t *testing.T, f lsptest.Frame) []string {
	t.Helper()
	var lenses []protocol.CodeLens
	if err := json.Unmarshal(f["result"], &lenses); err != nil {
		t.Fatalf("codeLens reply %s: %v", f["result"], err)
	}
	var out []string
	for _, l := range lenses {
		out = append(out, l.Command.Title)
	}
	return out
}

func TestCodeLensAndHintsSettingsTurnThemOff(t *testing.T) {
	dir, home, mcp := rawWorkspace(t)
	c, _ := startRaw(t, lsptest.Server{Home: home}, Options{LookupEnv: func(string) (string, bool) { return "", false }})
	rawInitialize(t, c, dir, map[string]any{"workspace": map[string]any{
		"configuration": true,
		"codeLens":      map[string]any{"refreshSupport": true},
		"inlayHint":     map[string]any{"refreshSupport": true},
	}})
	text, _ := os.ReadFile(mcp)
	uri := pathToURI(mcp)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(text)}})
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	hintParams := map[string]any{"textDocument": map[string]any{"uri": uri}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 9, "character": 0}}}

	// On by default.
	got := strings.Join(lensTitles(t, c.Request("2", "textDocument/codeLens", doc)), " | ")
	// VS Code reads the .mcp.json of the workspace folder too, and so
	// does Kilo Code without a .kilocode/mcp.json or .cursor/mcp.json.
	if want := "Claude Code: pending approval | GitHub Copilot CLI: starts | VS Code: starts | Kilo Code: starts"; got != want {
		t.Errorf("lenses %q, want %q", got, want)
	}
	if r := c.Request("3", "textDocument/inlayHint", hintParams); !strings.Contains(string(r["result"]), `"label":"unset"`) {
		t.Errorf("inlay hints %s, want an unset variable", r["result"])
	}

	// One setting each turns them off, and the client is asked to refresh.
	// The startup fetch of the settings first: a change racing its answer
	// is the startup-settings race, not what this test is about.
	c.Wait("the startup settings fetch", func(f lsptest.Frame) bool { return f.Method() == "workspace/configuration" })
	mark := c.Mark()
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"mcpLsp": map[string]any{"codeLens": false, "inlayHints": false}}})
	for _, m := range []string{"workspace/codeLens/refresh", "workspace/inlayHint/refresh"} {
		c.WaitFrom(mark, m, func(f lsptest.Frame) bool { return f.Method() == m })
	}
	if r := c.Request("4", "textDocument/codeLens", doc); string(r["result"]) != "[]" {
		t.Errorf("codeLens with mcpLsp.codeLens off: %s, want []", r["result"])
	}
	if r := c.Request("5", "textDocument/inlayHint", hintParams); string(r["result"]) != "[]" {
		t.Errorf("inlayHint with mcpLsp.inlayHints off: %s, want []", r["result"])
	}

	// And back on (the refresh requests are awaited: a request answered
	// after the test ended would write to a closed pipe).
	mark = c.Mark()
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"mcpLsp": map[string]any{}}})
	for _, m := range []string{"workspace/codeLens/refresh", "workspace/inlayHint/refresh"} {
		c.WaitFrom(mark, m, func(f lsptest.Frame) bool { return f.Method() == m })
	}
	if got := lensTitles(t, c.Request("6", "textDocument/codeLens", doc)); len(got) != 4 {
		t.Errorf("lenses after the setting is gone: %q, want 4", got)
	}
}

func TestCodeLensJumpsToTheWinningDefinition(t *testing.T) {
	dir, home, _ := rawWorkspace(t)
	c, _ := startRaw(t, lsptest.Server{Home: home}, Options{})
	rawInitialize(t, c, dir, map[string]any{"workspace": map[string]any{"configuration": true}})
	user := filepath.Join(home, ".copilot", "mcp-config.json")
	text, _ := os.ReadFile(user)
	uri := pathToURI(user)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(text)}})
	r := c.Request("2", "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var lenses []protocol.CodeLens
	if err := json.Unmarshal(r["result"], &lenses); err != nil {
		t.Fatal(err)
	}
	var jump *protocol.Command
	for _, l := range lenses {
		if strings.HasPrefix(l.Command.Title, "GitHub Copilot CLI: shadowed by .mcp.json") {
			jump = l.Command
		}
	}
	if jump == nil || jump.Command != openDefinitionCommand {
		t.Fatalf("no jump lens for the shadowed definition: %s", r["result"])
	}
	// The server asks the client to show the winner: nothing runs.
	mark := c.Mark()
	reply := c.Request("3", "workspace/executeCommand", map[string]any{"command": jump.Command, "arguments": jump.Arguments})
	if reply["error"] != nil {
		t.Fatalf("executeCommand: %s", reply["error"])
	}
	show := c.WaitFrom(mark, "window/showDocument", func(f lsptest.Frame) bool { return f.Method() == "window/showDocument" })
	var p struct {
		URI       protocol.DocumentURI `json:"uri"`
		Selection protocol.Range       `json:"selection"`
	}
	if err := json.Unmarshal(show["params"], &p); err != nil {
		t.Fatal(err)
	}
	if p.URI != pathToURI(filepath.Join(dir, ".mcp.json")) || p.Selection.Start != (protocol.Position{Line: 0, Character: 16}) {
		t.Errorf("showDocument %s, want .mcp.json at 0:16", show["params"])
	}
	if r := c.Request("4", "workspace/executeCommand", map[string]any{"command": "rm -rf", "arguments": []any{}}); lsptest.ErrorCode(r) == 0 {
		t.Errorf("an unknown command was accepted: %s", r["result"])
	}
}

// The answer to the startup workspace/configuration can be written before
// a settings push and still be taken after it (it is handled off the
// connection's handler sequence): the push must win.
func TestSettingsPushWinsOverAnOlderAnswer(t *testing.T) {
	dir, home, mcp := rawWorkspace(t)
	c, logs := startRaw(t, lsptest.Server{Home: home, Silent: []string{"workspace/configuration"}}, Options{ClientTimeout: lsptest.HangGuard})
	rawInitialize(t, c, dir, map[string]any{"workspace": map[string]any{
		"configuration": true,
		"codeLens":      map[string]any{"refreshSupport": true},
	}})
	asked := c.Wait("workspace/configuration", func(f lsptest.Frame) bool { return f.Method() == "workspace/configuration" })
	text, _ := os.ReadFile(mcp)
	uri := pathToURI(mcp)
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(text)}})
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}

	mark := c.Mark()
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"mcpLsp": map[string]any{"codeLens": false}}})
	// A request is answered only once the notifications before it were
	// handled: the push is in force. (A refresh request would prove
	// nothing: the workspace discovery may end now and ask for one of its
	// own; the answer sent then could be taken before the push, and the
	// push would win without anything dropped.)
	if r := c.Request("3", "textDocument/codeLens", doc); string(r["result"]) != "[]" {
		t.Fatalf("codeLens after the push: %s, want [] (codeLens pushed off)", r["result"])
	}
	c.WaitFrom(mark, "workspace/codeLens/refresh", func(f lsptest.Frame) bool { return f.Method() == "workspace/codeLens/refresh" })

	// The startup question's answer, the defaults, arrives last. Taken,
	// it would turn code lenses back on; dropped, it is logged.
	c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":[null]}`, asked["id"]))
	for deadline := time.Now().Add(lsptest.HangGuard); !strings.Contains(logs.String(), "dropping a workspace/configuration answer"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the older answer was neither taken nor dropped")
		}
	}
	if r := c.Request("2", "textDocument/codeLens", doc); string(r["result"]) != "[]" {
		t.Errorf("codeLens after the older answer: %s, want [] (codeLens pushed off)", r["result"])
	}
}
