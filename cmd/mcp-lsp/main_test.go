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
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/lsp/lsptest"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckTextOutputAndExitCodes(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".mcp.json":              "{\n  \"mcpServers\": {\"é\": {\"command\": \"x\"},}\n}\n",
		"opencode.jsonc":         "{ // fine in OpenCode\n \"mcp\": {},\n}\n",
		"node_modules/.mcp.json": "{", // never entered
		"package.json":           "{,}",
	})
	out, errOut, code := runCLI(t, "check", dir)
	if code != 1 {
		t.Errorf("exit code = %d, want 1 (an error was found); stderr: %s", code, errOut)
	}
	want := filepath.Join(dir, ".mcp.json") + ":2:40: error: trailing commas are not allowed in strict JSON; Claude Code, GitHub Copilot CLI and Kilo Code drop the whole file [trailing-comma-in-strict-json]\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}

	clean := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {"fs": {"command": "node"}}}`})
	if out, _, code := runCLI(t, "check", clean); code != 0 || out != "" {
		t.Errorf("clean tree: exit %d, output %q", code, out)
	}
}

func TestCheckJSONOutputHasLSPRange(t *testing.T) {
	dir := writeTree(t, map[string]string{".mcp.json": "{\"mcpServers\": {\"😀\": {}, /* c */}}"})
	out, _, code := runCLI(t, "check", "--format", "json", filepath.Join(dir, ".mcp.json"))
	if code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
	var results []checkResult
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	var comment *checkResult
	for i := range results {
		if results[i].Code == "comment-in-strict-json" {
			comment = &results[i]
		}
	}
	if comment == nil {
		t.Fatalf("no comment diagnostic in %s", out)
	}
	// Byte column 29 (😀 is 4 bytes), UTF-16 character 26 (😀 is 2 units).
	if comment.Line != 1 || comment.Column != 29 || comment.Range.Start.Character != 26 || comment.Range.End.Character != 33 {
		t.Errorf("positions: line %d col %d range %+v", comment.Line, comment.Column, comment.Range)
	}
}

func TestCheckUsageAndIOErrors(t *testing.T) {
	if _, errOut, code := runCLI(t, "check", "--format", "xml"); code != 2 || !strings.Contains(errOut, "unknown --format") {
		t.Errorf("bad format: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "check", filepath.Join(t.TempDir(), "missing")); code != 2 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing path: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "serve", "--bogus"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version"} {
		out, _, code := runCLI(t, arg)
		// A test binary has no module version or commit: "devel".
		if code != 0 || !strings.HasPrefix(out, "mcp-lsp devel (go1.") {
			t.Errorf("%s: %q exit %d", arg, out, code)
		}
	}
}

// TestCheckNoConfigFiles: a directory without any MCP configuration file
// is not an error (status 0, as Ruff and markdownlint-cli2 do), but check
// says so on stderr, in every format, and writes a valid empty report.
func TestCheckNoConfigFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"package.json": "{}", "node_modules/x/.mcp.json": "{"})
	for _, format := range []string{"text", "json", "sarif", "github"} {
		out, errOut, code := runCLI(t, "check", "--format", format, dir)
		if code != 0 || errOut != "mcp-lsp check: no MCP configuration files found in "+dir+"\n" {
			t.Errorf("%s: exit %d, stderr %q", format, code, errOut)
		}
		wantOut := map[string]string{"text": "", "github": "", "json": "[]\n"}
		if w, ok := wantOut[format]; ok && out != w {
			t.Errorf("%s: stdout %q, want %q", format, out, w)
		}
		if format == "sarif" && !strings.Contains(out, `"results": []`) {
			t.Errorf("sarif: no empty result list in\n%s", out)
		}
	}
	// A file that is not an MCP configuration file: the same.
	_, errOut, code := runCLI(t, "check", filepath.Join(dir, "package.json"))
	if code != 0 || !strings.Contains(errOut, "no MCP configuration files found") {
		t.Errorf("non-MCP file: exit %d, stderr %q", code, errOut)
	}
	// A directory with one is silent on stderr.
	clean := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {}}`})
	if _, errOut, code := runCLI(t, "check", clean); code != 0 || errOut != "" {
		t.Errorf("clean: exit %d, stderr %q", code, errOut)
	}
}

// TestCheckFailOn: --fail-on sets the least severe finding that makes the
// status 1; never keeps it 0; I/O errors stay 2.
func TestCheckFailOn(t *testing.T) {
	warnOnly := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {"a": {"type": "stdio", "command": "x"}, "a": {"type": "stdio", "command": "y"}}}`})
	hintOnly := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {}}`})
	errs := filepath.Join("..", "..", "testdata", "example")
	for _, c := range []struct {
		dir, failOn string
		want        int
	}{
		{warnOnly, "error", 0}, {warnOnly, "warning", 1}, {warnOnly, "never", 0},
		{hintOnly, "warning", 0},
		{errs, "error", 1}, {errs, "warning", 1}, {errs, "never", 0},
	} {
		out, errOut, code := runCLI(t, "check", "--fail-on", c.failOn, c.dir)
		if code != c.want {
			t.Errorf("--fail-on %s %s: exit %d, want %d\n%s%s", c.failOn, c.dir, code, c.want, out, errOut)
		}
	}
	if out, _, _ := runCLI(t, "check", warnOnly); !strings.Contains(out, "warning: ") {
		t.Errorf("fixture has no warning: %q", out)
	}
	if _, errOut, code := runCLI(t, "check", "--fail-on", "info", warnOnly); code != 2 || !strings.Contains(errOut, "unknown --fail-on") {
		t.Errorf("bad --fail-on: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "check", "--fail-on", "never", filepath.Join(warnOnly, "missing")); code != 2 {
		t.Errorf("missing path with --fail-on never: exit %d, want 2", code)
	}
}

func TestCheckExampleWorkspaceShowsFindings(t *testing.T) {
	out, _, code := runCLI(t, "check", filepath.Join("..", "..", "testdata", "example"))
	if code != 1 {
		t.Errorf("the bundled example should have errors; exit %d", code)
	}
	for _, want := range []string{"syntax-error", "type-not-accepted", "missing-type", "literal-secret", "duplicate-key", "foreign-interpolation", "undefined-input", "command-form", "merged-remote-keeps-command"} {
		if !strings.Contains(out, "["+want+"]") {
			t.Errorf("example output lacks %s:\n%s", want, out)
		}
	}
}

// TestBinaryOverStdio builds the real binary and speaks LSP to it over
// its stdin/stdout: initialize, open a broken file, receive diagnostics,
// shutdown, exit with status 0. Logs must go to stderr only.
func TestBinaryOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--stdio", "--log-level", "debug")
	stdin, _ := cmd.StdinPipe()
	stdoutPipe, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdoutPipe)

	send := func(msg map[string]any) {
		msg["jsonrpc"] = "2.0"
		b, _ := json.Marshal(msg)
		fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	recv := func() map[string]any {
		var n int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("read header: %v (stderr: %s)", err, stderr.String())
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("stdout carried something that is not JSON-RPC: %q", body)
		}
		return m
	}

	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}, "processId": nil}})
	if m := recv(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize reply: %v", m)
	}
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	dir := t.TempDir()
	uri := "file://" + filepath.ToSlash(filepath.Join(dir, ".mcp.json"))
	send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "json", "version": 3, "text": "{\"mcpServers\": {},}",
	}}})
	m := recv()
	if m["method"] != "textDocument/publishDiagnostics" {
		t.Fatalf("want diagnostics, got %v", m)
	}
	params := m["params"].(map[string]any)
	diags := params["diagnostics"].([]any)
	if params["version"] != float64(3) || len(diags) != 1 || diags[0].(map[string]any)["code"] != "trailing-comma-in-strict-json" {
		t.Errorf("diagnostics: %v", params)
	}
	send(map[string]any{"id": 2, "method": "shutdown", "params": nil})
	if m := recv(); m["id"] != float64(2) || m["error"] != nil {
		t.Errorf("shutdown reply: %v", m)
	}
	send(map[string]any{"method": "exit"})
	err := cmd.Wait()
	if err != nil {
		t.Errorf("exit after shutdown: %v (want status 0)", err)
	}
	if !strings.Contains(stderr.String(), "mcp-lsp starting") {
		t.Errorf("logs did not go to stderr: %q", stderr.String())
	}
}

// buildBinary builds the real mcp-lsp into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcp-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// TestHostileClientOverStdio: the hostile-client suite (lsp/lsptest)
// against the built binary on its stdin/stdout, default settings but a
// short --client-timeout; the process must then exit 0.
func TestHostileClientOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	lsptest.Hostile(t, func(t *testing.T, s lsptest.Server) *lsptest.Client {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, bin, "--log-level", "debug", "--client-timeout", "300ms")
		cmd.Env = append(os.Environ(), "HOME="+s.Home, "XDG_CONFIG_HOME=", "COPILOT_HOME=", "OPENCODE_CONFIG=")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			defer cancel()
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("server exit: %v (want status 0 after shutdown and exit)\nstderr:\n%s", err, stderr.String())
			}
		})
		return lsptest.NewClient(t, stdout, stdin, s.Silent...)
	})
}

func TestEffectiveCommand(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	dir := writeTree(t, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".mcp.json":             `{"mcpServers": {"db": {"command": "psql-mcp", "env": {"TOKEN": "` + secret + `"}}, "gh": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ` + secret + `"}}}}`,
		".claude/settings.json": `{"enabledMcpjsonServers": ["db"]}`,
		"opencode.jsonc":        "{ // ok\n \"mcp\": {\"db\": {\"type\": \"local\", \"command\": [\"psql-mcp\"]}}}",
	})
	// Claude Code 2.1.328 counts approval only in a trusted workspace.
	mustWriteFile(t, filepath.Join(dir, "nohome", ".claude.json"), `{"projects": {"`+filepath.ToSlash(dir)+`": {"hasTrustDialogAccepted": true}}}`)
	t.Setenv("HOME", filepath.Join(dir, "nohome"))
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("OPENCODE_CONFIG", "")
	out, errOut, code := runCLI(t, "effective", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Claude Code (modelled on 2.1.328), launched in " + dir,
		"  db  stdio  psql-mcp",
		"      .mcp.json:1 (project scope, used)",
		"  gh  http  https://api.example.com/mcp  [not started: not approved",
		"GitHub Copilot CLI",
		"[not started: folder not trusted",
		"OpenCode",
		"      opencode.jsonc:2 (project config, used)",
		"env: TOKEN=••••••",
		"headers: Authorization=••••••",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	jsonOut, _, code := runCLI(t, "effective", "--format", "json", "--tool", "claude-code", dir)
	var tools []struct {
		Tool    string
		Servers []struct {
			Name    string
			Started bool
			Source  struct {
				Path string
				Line int
			}
			Env map[string]string
		}
	}
	if err := json.Unmarshal([]byte(jsonOut), &tools); err != nil || code != 0 || len(tools) != 1 {
		t.Fatalf("json: %v (exit %d)\n%s", err, code, jsonOut)
	}
	if s := tools[0].Servers[0]; s.Name != "db" || !s.Started || s.Source.Line != 1 || s.Env["TOKEN"] != "••••••" {
		t.Errorf("db: %+v", s)
	}
	if strings.Contains(out+jsonOut, secret) {
		t.Errorf("a secret value was printed")
	}
	if _, _, code := runCLI(t, "effective", "--tool", "nope", dir); code != 2 {
		t.Errorf("unknown tool: exit %d, want 2", code)
	}
}

func mustWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
