package rules

import "testing"

func TestCommandNotFound_PathAndWorkspace(t *testing.T) {
	res := fakeResolver{programs: map[string]bool{"npx": true, "/work/proj|./bin/server": true}}
	src := `{"mcpServers": {
  "ok": {"command": "npx"},
  "local": {"command": "./bin/server"},
  "missing": {"command": "uvx", "args": ["mcp-server-time"]},
  "rel": {"command": "./bin/missing"},
  "abs": {"command": "/opt/mcp/server"},
  "var": {"command": "${HOME}/bin/server"},
  "remote": {"type": "http", "url": "https://x.example.com/mcp"}}}`
	ds := only(semantics(t, ".mcp.json", src, withResolver(res)), CodeCommandNotFound)
	if len(ds) != 3 {
		t.Fatalf("want 3, got\n%s", dump(ds))
	}
	want := []struct{ at, msg string }{
		{`"uvx"`, `Claude Code and GitHub Copilot CLI cannot start server "missing": "uvx" is not on PATH (as mcp-lsp sees it)`},
		{`"./bin/missing"`, `Claude Code and GitHub Copilot CLI cannot start server "rel": "./bin/missing" does not exist in the workspace`},
		{`"/opt/mcp/server"`, `Claude Code and GitHub Copilot CLI cannot start server "abs": "/opt/mcp/server" does not exist`},
	}
	for i, w := range want {
		if ds[i].Span != spanOf(t, src, w.at, 0) || ds[i].Message != w.msg || ds[i].Severity != SeverityWarning {
			t.Errorf("got %v %s, want %s", ds[i].Span, ds[i].Message, w.msg)
		}
	}
	wantData(t, ds[0], "command", "uvx")
}

func TestCommandNotFound_WorkspaceIsTheProjectRoot(t *testing.T) {
	res := fakeResolver{programs: map[string]bool{"/work/proj|./bin/server": true}}
	for _, path := range []string{".vscode/mcp.json", ".opencode/opencode.json"} {
		src := `{"servers": {"a": {"command": "./bin/server"}}, "mcp": {"a": {"type": "local", "command": ["./bin/server"]}}}`
		wantNone(t, semantics(t, path, src, withResolver(res)), CodeCommandNotFound)
	}
}

func TestCommandNotFound_OpenCodeFirstElement(t *testing.T) {
	src := `{"mcp": {"a": {"type": "local", "command": ["bunx", "x"]}}}`
	wantOne(t, semantics(t, "opencode.json", src, withResolver(fakeResolver{})), CodeCommandNotFound, spanOf(t, src, `"bunx"`, 0), SeverityWarning,
		`OpenCode cannot start server "a": "bunx" is not on PATH (as mcp-lsp sees it)`)
}

func TestCommandNotFound_OffWithoutResolver(t *testing.T) {
	wantNone(t, semantics(t, ".mcp.json", `{"mcpServers": {"a": {"command": "nope"}}}`), CodeCommandNotFound)
}

func TestCommandNotFound_UnknownStartDirectory(t *testing.T) {
	// A user-level file's servers start wherever the tool is launched, and
	// "cwd" moves a project server: a relative command cannot be judged.
	res := fakeResolver{}
	wantNone(t, semantics(t, "~/.claude.json", `{"mcpServers": {"a": {"command": "./server"}}}`, withResolver(res)), CodeCommandNotFound)
	wantNone(t, semantics(t, ".github/mcp.json", `{"mcpServers": {"a": {"command": "./server", "cwd": "tools"}}}`, withResolver(res)), CodeCommandNotFound)
}
