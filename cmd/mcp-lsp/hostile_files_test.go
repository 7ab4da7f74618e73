//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileTree is a workspace whose configuration names files that must
// never be read: devices, the standard input, a FIFO, a settings file
// linking to /dev/zero. The FIFO is released when the test ends.
func hostileTree(t *testing.T) string {
	t.Helper()
	dir := writeTree(t, map[string]string{
		"opencode.json": `{"mcp": {"s": {"type": "local", "command": ["node", "{file:/dev/zero}", "{file:/dev/stdin}", "{file:/proc/self/fd/0}", "{file:./missing}"]}}}`,
	})
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ".mcp-lsp.json")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, ".mcp.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if w, err := os.OpenFile(fifo, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	return dir
}

// TestBinaryHostileFiles drives the built binary: the server over its
// stdin/stdout with the hostile workspace as its folder (discovery finds
// and diagnoses opencode.json without it being opened), and check on the
// same tree with a standard input that never ends. Either would block or
// exhaust memory if it read one of those files; each run has a deadline.
func TestBinaryHostileFiles(t *testing.T) {
	bin := buildBinary(t)
	dir := hostileTree(t)

	t.Run("server", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "--stdio")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		send := func(msg map[string]any) {
			msg["jsonrpc"] = "2.0"
			b, _ := json.Marshal(msg)
			fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(b), b)
		}
		// recv returns the next message; the process's deadline ends a wait
		// that would otherwise never end.
		recv := func() map[string]any {
			n := 0
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("no message: %v (stderr: %s)", err, stderr.String())
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(strings.ToLower(line), "content-length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("not JSON: %q", body)
			}
			if m["method"] != nil && m["id"] != nil { // a request: answer it
				send(map[string]any{"id": m["id"], "result": nil})
			}
			return m
		}
		uri := "file://" + filepath.ToSlash(dir)
		send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
			"processId": nil, "capabilities": map[string]any{},
			"workspaceFolders": []any{map[string]any{"uri": uri, "name": "w"}},
		}})
		send(map[string]any{"method": "initialized", "params": map[string]any{}})
		want := uri + "/opencode.json"
		for {
			m := recv()
			if m["method"] != "textDocument/publishDiagnostics" {
				continue
			}
			params := m["params"].(map[string]any)
			if params["uri"] != want {
				continue
			}
			var missing []string
			for _, d := range params["diagnostics"].([]any) {
				if d := d.(map[string]any); d["code"] == "missing-file-reference" {
					missing = append(missing, d["message"].(string))
				}
			}
			if len(missing) != 1 || !strings.Contains(missing[0], "missing") {
				t.Errorf("missing-file-reference: %q, want only ./missing", missing)
			}
			break
		}
		send(map[string]any{"id": 2, "method": "shutdown"})
		for m := recv(); m["id"] != float64(2); m = recv() {
		}
		send(map[string]any{"method": "exit"})
		if err := cmd.Wait(); err != nil {
			t.Errorf("exit: %v (stderr: %s)", err, stderr.String())
		}
	})

	t.Run("check", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "check", dir)
		stdin, _ := cmd.StdinPipe() // open, never written, never closed: reading it blocks
		defer stdin.Close()
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("check did not finish: %s", stderr.String())
		}
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		}
		// 2: the FIFO could not be read, which is reported, not skipped.
		if code != 2 || !strings.Contains(stderr.String(), ".mcp.json: not a regular file (a FIFO)") ||
			!strings.Contains(stderr.String(), ".mcp-lsp.json is not read: not a regular file") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
		}
		if out := stdout.String(); strings.Count(out, "[missing-file-reference]") != 1 || !strings.Contains(out, "./missing") {
			t.Errorf("output:\n%s", out)
		}
	})
}
