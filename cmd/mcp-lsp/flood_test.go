package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

// TestBinaryFloodPublishesOnlyTheLastVersion: a client that sends a burst
// of edits faster than they can be analysed (here 200 full texts of a
// 300-server file, written at once) gets the diagnostics of the burst's
// last version, and not those of the versions before it: each would cost
// the server an encoding and the client a decoding of some 400 findings,
// and the last edit's diagnostics would wait behind them (the 2,000-edit
// flood benchmark's last edit once waited 4.3 s). A few intermediate
// versions may still be published when the client pauses between writes,
// so the test allows some, far fewer than a server working through the
// queue publishes.
func TestBinaryFloodPublishesOnlyTheLastVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	root, home := filepath.Join(dir, "project"), filepath.Join(dir, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	text := benchgen.MCPJSON(300, true, true)
	path := filepath.Join(root, ".mcp.json")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*lsptest.HangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--stdio")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("server: %v; stderr:\n%s", err, stderr.String())
		}
	}()
	c := lsptest.NewClient(t, stdout, stdin)
	rootURI, uri := "file://"+filepath.ToSlash(root), "file://"+filepath.ToSlash(path)
	c.Request("1", "initialize", map[string]any{
		"processId":        nil,
		"capabilities":     map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}},
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "project"}},
	})
	c.Notify("initialized", map[string]any{})
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "json", "version": 1, "text": string(text),
	}})
	version := func(f lsptest.Frame) int32 {
		var p struct {
			URI     string `json:"uri"`
			Version *int32 `json:"version"`
		}
		if f.Method() != "textDocument/publishDiagnostics" || json.Unmarshal(f["params"], &p) != nil || p.URI != uri || p.Version == nil {
			return -1
		}
		return *p.Version
	}
	diagnostics := func(f lsptest.Frame) string {
		var p struct{ Diagnostics json.RawMessage }
		json.Unmarshal(f["params"], &p)
		return string(p.Diagnostics)
	}
	opened := diagnostics(c.Wait("diagnostics of the opened file", func(f lsptest.Frame) bool { return version(f) == 1 }))
	if !strings.Contains(opened, `"invalid-field-value"`) {
		t.Fatalf("the generated file's schema errors are not reported: %.300s", opened)
	}

	const n = 200
	var burst strings.Builder
	for i := range n {
		body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"text": editedText(text, i)}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&burst, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	mark := c.Mark()
	start := time.Now()
	c.SendRaw(burst.String())
	last := c.WaitFrom(mark, "diagnostics of the burst's last version", func(f lsptest.Frame) bool { return version(f) == n+1 })
	t.Logf("burst of %d edits (%d MB) sent and its last version's diagnostics received in %v", n, burst.Len()>>20, time.Since(start))
	// Every edit appends blanks: the findings stay those of the open.
	if got := diagnostics(last); got != opened {
		t.Errorf("the last version's diagnostics differ from the opened file's:\n got %.300s\nwant %.300s", got, opened)
	}

	// Whatever was still on its way after the last version is in by the
	// time the shutdown is answered: every message before it is handled.
	c.Request("2", "shutdown", nil)
	c.Notify("exit", nil)
	var intermediate []int32
	lastSeen := int32(-1)
	for _, f := range c.Frames()[mark:] {
		v := version(f)
		if v < 0 {
			continue
		}
		if v < n+1 {
			intermediate = append(intermediate, v)
		}
		if lastSeen == n+1 && v != n+1 {
			t.Errorf("version %d published after the last version %d", v, n+1)
		}
		lastSeen = v
	}
	t.Logf("intermediate versions published: %v", intermediate)
	if len(intermediate) > 3 {
		t.Errorf("%d of the burst's %d intermediate versions were published (%v): the server worked through the queue instead of jumping to the last version", len(intermediate), n-1, intermediate)
	}
}
