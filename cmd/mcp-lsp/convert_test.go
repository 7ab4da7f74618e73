package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const convertSource = `{
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.example.com/mcp",
      "headers": {"Authorization": "Bearer ghp_SECRETVALUE123"},
      "oauth": {"clientId": "abc", "authServerMetadataUrl": "https://auth.example.com/meta"}
    },
    "fs": {"command": "npx", "args": ["-y", "server-fs", "${HOME}"], "env": {"KEY": "sk-SECRET-${KEY:-fallbacksecret}"}}
  }
}
`

func TestConvertPrintsFileAndLosses(t *testing.T) {
	dir := writeTree(t, map[string]string{".mcp.json": convertSource})
	out, errOut, code := runCLI(t, "convert", "--to", "opencode", filepath.Join(dir, ".mcp.json"))
	if code != 0 {
		t.Fatalf("exit %d, want 0 (losses do not fail the command); stderr:\n%s", code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if v["$schema"] != "https://opencode.ai/config.json" || v["mcp"] == nil {
		t.Errorf("not an OpenCode file:\n%s", out)
	}
	for _, want := range []string{
		"drops: github: oauth.authServerMetadataUrl (OpenCode has no OAuth authServerMetadataUrl setting)\n",
		"changes: fs: env.KEY (OpenCode has no default values: ${KEY:-…} loses its default)\n",
		"changes: fs: args[2] (OpenCode turns an unset HOME into an empty string)\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, secret := range []string{"SECRETVALUE", "fallbacksecret", "sk-SECRET"} {
		if strings.Contains(errOut, secret) {
			t.Errorf("stderr shows a secret (%s):\n%s", secret, errOut)
		}
	}
}

func TestConvertDetectsDialectFromName(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"opencode.jsonc":   "{ // JSONC\n \"mcp\": {\"x\": {\"type\": \"local\", \"command\": [\"run\", \"{env:A}\"]},},\n}\n",
		"unknown.json":     `{"mcpServers": {}}`,
		".vscode/mcp.json": `{"servers": {"v": {"type": "stdio", "command": "node"}}, "inputs": []}`,
	})
	out, errOut, code := runCLI(t, "convert", filepath.Join(dir, "opencode.jsonc"), "--to", "claude-code")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, `"${A:-}"`) || !strings.Contains(out, `"mcpServers"`) {
		t.Errorf("OpenCode's {env:A} should become ${A:-} in Claude Code:\n%s", out)
	}
	if errOut != "drops: comments (comments are not carried over)\n" {
		t.Errorf("stderr:\n%s", errOut)
	}

	if _, errOut, code := runCLI(t, "convert", "--to", "cursor", filepath.Join(dir, ".vscode", "mcp.json")); code != 0 {
		t.Errorf(".vscode/mcp.json: exit %d; stderr:\n%s", code, errOut)
	}

	_, errOut, code = runCLI(t, "convert", "--to", "opencode", filepath.Join(dir, "unknown.json"))
	if code != 2 || !strings.Contains(errOut, "--from") {
		t.Errorf("unknown file name: exit %d, stderr %q; want 2 and a hint about --from", code, errOut)
	}
	out, _, code = runCLI(t, "convert", "--from", "cursor", "--to", "vscode", filepath.Join(dir, "unknown.json"))
	if code != 0 || !strings.Contains(out, `"servers": {}`) {
		t.Errorf("--from: exit %d\n%s", code, out)
	}
}

func TestConvertWriteRefusesToOverwrite(t *testing.T) {
	dir := writeTree(t, map[string]string{".mcp.json": convertSource, "opencode.json": "{}\n"})
	src := filepath.Join(dir, ".mcp.json")
	dst := filepath.Join(dir, "opencode.json")

	out, errOut, code := runCLI(t, "convert", "--to", "opencode", "--write", dst, src)
	if code != 2 || !strings.Contains(errOut, "--force") || out != "" {
		t.Errorf("existing target: exit %d, stdout %q, stderr %q; want 2 and a hint about --force", code, out, errOut)
	}
	if b, _ := os.ReadFile(dst); string(b) != "{}\n" {
		t.Errorf("the existing file was changed: %q", b)
	}

	out, errOut, code = runCLI(t, "convert", "--to", "opencode", "--write", dst, "--force", src)
	if code != 0 || out != "" {
		t.Fatalf("--force: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	b, _ := os.ReadFile(dst)
	if !strings.HasPrefix(string(b), "{\n  \"$schema\": \"https://opencode.ai/config.json\",") {
		t.Errorf("written file:\n%s", b)
	}
	if !strings.Contains(errOut, "drops: github: oauth.authServerMetadataUrl") {
		t.Errorf("losses must be reported with --write too:\n%s", errOut)
	}

	// A new file, in a directory that does not exist yet.
	nested := filepath.Join(dir, ".vscode", "mcp.json")
	if _, errOut, code := runCLI(t, "convert", "--to", "vscode", "--write", nested, src); code != 0 {
		t.Fatalf("new file: exit %d; %s", code, errOut)
	}
	if b, err := os.ReadFile(nested); err != nil || !strings.Contains(string(b), `"inputs": []`) {
		t.Errorf("new file: %v\n%s", err, b)
	}
}

func TestConvertExitCodes(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".mcp.json":        convertSource,
		"clean/.mcp.json":  `{"mcpServers": {"t": {"command": "uvx", "args": ["mcp-server-time"]}}}`,
		"bad/.mcp.json":    `{"mcpServers": {"t": {"command": "uvx", "args": "secret-token-as-args"}}}`,
		"broken/.mcp.json": `{"mcpServers": {`,
	})
	src := filepath.Join(dir, ".mcp.json")
	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"losses are fine", []string{"--to", "opencode", src}, 0, ""},
		{"--strict fails on losses", []string{"--strict", "--to", "opencode", src}, 1, "drops:"},
		{"--strict without losses", []string{"--strict", "--to", "opencode", filepath.Join(dir, "clean", ".mcp.json")}, 0, ""},
		{"remote into Claude Desktop", []string{"--to", "claude-desktop", src}, 2, `server github: Claude Desktop takes only local (stdio) servers`},
		{"invalid source entry", []string{"--to", "opencode", filepath.Join(dir, "bad", ".mcp.json")}, 2, "server t: not a valid Claude Code server: args: expected array"},
		{"syntax error", []string{"--to", "opencode", filepath.Join(dir, "broken", ".mcp.json")}, 2, "line 1:"},
		{"missing file", []string{"--to", "opencode", filepath.Join(dir, "nope.json")}, 2, "nope.json"},
		{"no --to", []string{src}, 2, "--to is required"},
		{"unknown --to", []string{"--to", "nosuch-dialect", src}, 2, `unknown dialect "nosuch-dialect"`},
		{"unknown --from", []string{"--from", "x", "--to", "vscode", src}, 2, `unknown dialect "x"`},
		{"two files", []string{"--to", "vscode", src, src}, 2, "exactly one FILE"},
		{"--force alone", []string{"--force", "--to", "vscode", src}, 2, "--force only applies to --write"},
		{"bad flag", []string{"--bogus", "--to", "vscode", src}, 2, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"convert"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errOut)
			}
			if !strings.Contains(errOut, c.err) {
				t.Errorf("stderr lacks %q:\n%s", c.err, errOut)
			}
			if code == 2 && out != "" {
				t.Errorf("nothing may be printed on failure, got:\n%s", out)
			}
			if strings.Contains(errOut, "secret-token") || strings.Contains(errOut, "SECRETVALUE") {
				t.Errorf("stderr shows a secret:\n%s", errOut)
			}
		})
	}
}

func TestConvertInHelp(t *testing.T) {
	out, _, _ := runCLI(t, "help")
	if !strings.Contains(out, "mcp-lsp convert --to DIALECT") {
		t.Errorf("help does not mention convert:\n%s", out)
	}
}

// TestConvertToAndFromCodex converts a Claude Code file into a Codex CLI
// config.toml and that file back, through the built binary: the
// environment references move to the fields Codex takes a variable name
// in (never a literal ${TOKEN} in a header), the Codex file is recognised
// by its path, and the servers come back.
func TestConvertToAndFromCodex(t *testing.T) {
	dir := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {
  "api": {"type": "http", "url": "https://api.example.com/mcp",
    "headers": {"Authorization": "Bearer ${API_TOKEN}", "X-Key": "${X_KEY}", "X-Mixed": "id=${ID}"}},
  "fs": {"command": "npx", "args": ["-y", "server-fs"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "ro"}}
}}`})
	toml := filepath.Join(dir, ".codex", "config.toml")
	_, errOut, code := runCLI(t, "convert", filepath.Join(dir, ".mcp.json"), "--to", "codex-cli", "--write", toml)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	got, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[mcp_servers.api]\n", `bearer_token_env_var = "API_TOKEN"`, "[mcp_servers.api.env_http_headers]\nX-Key = \"X_KEY\"\n",
		"[mcp_servers.fs]\n", `env_vars = ["GITHUB_TOKEN"]`, "[mcp_servers.fs.env]\nMODE = \"ro\"\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the Codex file lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "${") {
		t.Errorf("a reference was written as literal text:\n%s", got)
	}
	if want := "drops: api: headers.X-Mixed (Codex CLI expands no variables"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}

	out, errOut, code := runCLI(t, "convert", toml, "--to", "claude-code")
	if code != 0 {
		t.Fatalf("back: exit %d; stderr:\n%s", code, errOut)
	}
	var v struct {
		MCPServers map[string]struct {
			URL     string
			Headers map[string]string
			Env     map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if h := v.MCPServers["api"].Headers; h["Authorization"] != "Bearer ${API_TOKEN:-}" || h["X-Key"] != "${X_KEY:-}" {
		t.Errorf("headers back from Codex: %v", h)
	}
	if e := v.MCPServers["fs"].Env; e["GITHUB_TOKEN"] != "${GITHUB_TOKEN:-}" || e["MODE"] != "ro" {
		t.Errorf("env back from Codex: %v", e)
	}
}
