package rules

import (
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestUnpinnedSpecs: which package specs fetch whatever release is newest.
func TestUnpinnedSpecs(t *testing.T) {
	for _, c := range []struct {
		spec   string
		python bool
		want   bool
	}{
		{"@modelcontextprotocol/server-filesystem", false, true},
		{"@modelcontextprotocol/server-filesystem@latest", false, true},
		{"@playwright/mcp@next", false, true},
		{"pkg@*", false, true},
		{"pkg", false, true},
		{"@modelcontextprotocol/server-filesystem@2025.8.21", false, false},
		{"pkg@1", false, false},
		{"pkg@^1.2", false, false},
		{"pkg@v2.0.0", false, false},
		{"pkg@${VERSION}", false, false},
		{"./local/server", false, false},
		{"/opt/server.tgz", false, false},
		{"user/repo", false, false},
		{"github:user/repo", false, false},
		{"git+https://example.com/x.git", false, false},
		{"@scope", false, false},
		{"mcp-server-fetch", true, true},
		{"mcp-server-fetch@latest", true, true},
		{"mcp-server-fetch==2025.4.7", true, false},
		{"mcp-server-fetch@2025.4.7", true, false},
		{"mcp-server-fetch>=1", true, false},
		{"git+https://github.com/x/y", true, false},
		{"./tools/server", true, false},
	} {
		if got := unpinned(c.spec, c.python); got != c.want {
			t.Errorf("unpinned(%q, python=%v) = %v, want %v", c.spec, c.python, got, c.want)
		}
	}
}

// TestRunnerOf: the package word of each runner's command line, with
// options that take values skipped.
func TestRunnerOf(t *testing.T) {
	for _, c := range []struct {
		entry  string
		runner string // "" for none
		pkgs   string
		wrap   bool
	}{
		{`{"command": "npx", "args": ["-y", "@a/b", "--root", "x"]}`, "npx", "@a/b", false},
		{`{"command": "npx", "args": ["--registry", "https://r", "pkg"]}`, "npx", "pkg", false},
		{`{"command": "npx", "args": ["-y", "-p", "a@1", "-p", "b", "cmd"]}`, "npx", "a@1 b", false},
		{`{"command": "npx", "args": ["-c", "echo hi"]}`, "npx", "", false},
		{`{"command": "C:\\nodejs\\npx.CMD", "args": ["pkg"]}`, "npx", "pkg", false},
		{`{"command": "cmd", "args": ["/c", "npx", "-y", "pkg"]}`, "npx", "pkg", true},
		{`{"command": ["npx", "-y", "pkg"]}`, "npx", "pkg", false},
		{`{"command": "pnpm", "args": ["dlx", "pkg"]}`, "pnpm dlx", "pkg", false},
		{`{"command": "pnpm", "args": ["install"]}`, "", "", false},
		{`{"command": "yarn", "args": ["dlx", "-p", "pkg", "bin"]}`, "yarn dlx", "pkg", false},
		{`{"command": "bunx", "args": ["pkg@latest"]}`, "bunx", "pkg@latest", false},
		{`{"command": "uvx", "args": ["--python", "3.12", "mcp-server-fetch"]}`, "uvx", "mcp-server-fetch", false},
		{`{"command": "uvx", "args": ["--from", "git+https://x/y", "tool"]}`, "uvx", "git+https://x/y", false},
		{`{"command": "pipx", "args": ["run", "pkg"]}`, "pipx run", "pkg", false},
		{`{"command": "node", "args": ["server.js"]}`, "", "", false},
		{`{"url": "https://example.com/mcp"}`, "", "", false},
	} {
		f := jsonc.Parse([]byte(c.entry))
		call, ok := runnerOf(f.Root)
		if ok != (c.runner != "") || ok && call.runner != c.runner {
			t.Errorf("%s: runner %q (%v), want %q", c.entry, call.runner, ok, c.runner)
			continue
		}
		var pkgs []string
		for _, p := range call.pkgs {
			pkgs = append(pkgs, p.Str)
		}
		if got := strings.Join(pkgs, " "); got != c.pkgs || call.wrapped != c.wrap {
			t.Errorf("%s: packages %q wrapped %v, want %q %v", c.entry, got, call.wrapped, c.pkgs, c.wrap)
		}
	}
}

// TestWindowsCmdWrapperScope: a project file is reported for teammates
// on Windows unless the project says it is not used there; a user file
// only when this machine runs Windows, and then its fix is safe. One
// cache serves every case: the memo of the project rules must tell the
// scopes and the Windows settings apart.
func TestWindowsCmdWrapperScope(t *testing.T) {
	cache := NewCache()
	reg := registry.Default()
	env := registry.Env{Home: "/home/u", GOOS: "linux"}
	project, _ := reg.Match("/p/.mcp.json", env)
	user, _ := reg.Match("/home/u/.claude.json", env)
	content := []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "pkg@1.0.0"]}}}`)
	find := func(kind *registry.FileKind, path string, cfg Config) []Diagnostic {
		var out []Diagnostic
		for _, d := range AnalyzeFile(FileInput{Path: path, Content: content, Kind: kind, Registry: reg, Config: cfg, Cache: cache}) {
			if d.Code == CodeWindowsCmdWrapper {
				out = append(out, d)
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		kind *registry.FileKind
		path string
		cfg  Config
		want int
		safe bool
	}{
		{"project", project, "/p/.mcp.json", Config{}, 1, false},
		{"project, not on Windows", project, "/p/.mcp.json", Config{NotOnWindows: true}, 0, false},
		{"user file on Linux", user, "/home/u/.claude.json", Config{}, 0, false},
		{"user file on Windows", user, "/home/u/.claude.json", Config{OnWindows: true}, 1, true},
		{"user file on Windows, said not used there", user, "/home/u/.claude.json", Config{OnWindows: true, NotOnWindows: true}, 0, false},
	} {
		ds := find(c.kind, c.path, c.cfg)
		if len(ds) != c.want {
			t.Errorf("%s: %d findings, want %d: %v", c.name, len(ds), c.want, ds)
			continue
		}
		if c.want > 0 {
			if f, _ := FixOf(ds[0].Data); f.Kind != FixWrapCommand || f.Value != "cmd /c" || f.Safe != c.safe {
				t.Errorf("%s: fix %+v, want wrap-command \"cmd /c\" safe=%v", c.name, f, c.safe)
			}
		}
	}
}
