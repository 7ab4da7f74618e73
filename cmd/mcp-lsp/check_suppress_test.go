package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckHonoursIgnores: an error silenced by an ignore comment (JSONC)
// or by an entry of .mcp-lsp.json (strict JSON) no longer fails check;
// a stale entry is reported as a hint, and one naming a file that does
// not exist on stderr.
func TestCheckHonoursIgnores(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".mcp-lsp.json": `{"ignore": [
			{"path": ".mcp.json", "server": "fs", "code": "type-not-accepted", "reason": "we run a patched Claude Code"},
			{"path": ".mcp.json", "code": "unknown-key"},
			{"path": "gone/.mcp.json", "code": "unknown-key"}
		]}`,
		".mcp.json":      `{"mcpServers": {"fs": {"type": "local", "command": "npx"}}}`,
		"opencode.jsonc": "{\n  \"mcp\": {\n    // mcp-lsp-ignore missing-command being written\n    \"fs\": {\"type\": \"local\"}\n  }\n}\n",
	})
	setHome(t, filepath.Join(dir, "home"))
	out, errOut, code := runCLI(t, "check", dir)
	if code != 0 {
		t.Errorf("exit %d, want 0 (the errors are ignored); output:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "type-not-accepted") || strings.Contains(out, "missing-command") {
		t.Errorf("an ignored finding was reported:\n%s", out)
	}
	if !strings.Contains(out, ".mcp.json:1:1: hint: .mcp-lsp.json ignores unknown-key in this file, but there is no such finding; remove the entry [unused-ignore]") {
		t.Errorf("the stale entry is not reported:\n%s", out)
	}
	if !strings.Contains(errOut, "ignore: gone/.mcp.json does not exist") && !strings.Contains(errOut, "gone/.mcp.json does not exist") {
		t.Errorf("stderr does not name the missing file: %q", errOut)
	}
	// The same files without the ignores fail, with both errors.
	bare := writeTree(t, map[string]string{
		".mcp.json":      `{"mcpServers": {"fs": {"type": "local", "command": "npx"}}}`,
		"opencode.jsonc": "{\n  \"mcp\": {\n    \"fs\": {\"type\": \"local\"}\n  }\n}\n",
	})
	out, _, code = runCLI(t, "check", bare)
	if code != 1 || !strings.Contains(out, "[type-not-accepted]") || !strings.Contains(out, "[missing-command]") {
		t.Errorf("without ignores: exit %d, output:\n%s", code, out)
	}
}
