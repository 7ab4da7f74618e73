package effective

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The cases of issue 10 that the verdict decides, each checked in the
// effective view and against the diagnostics of the same files
// (agree). Facts: shared/formats.md, "Verified by running the real tools".

// definition returns the definition of name in the file at path.
func definition(t *testing.T, r *Result, name, path string) *Definition {
	t.Helper()
	for _, d := range server(t, r, name).Definitions {
		if filepath.ToSlash(d.Source.Path) == path {
			return d
		}
	}
	t.Fatalf("no definition of %q in %s", name, path)
	return nil
}

// starts reports whether the tool starts the server: a winner, enabled.
func starts(r *Result, name string) bool {
	for _, s := range r.Servers {
		if s.Name == name {
			return s.Winner != nil && s.Enabled
		}
	}
	return false
}

// agree checks that the effective view r never contradicts a diagnostic
// of the files in w: a server some error says the tool skips, refuses or
// may not load is not started from that file, and a definition the
// effective view skips as invalid has such an error.
func agree(t *testing.T, w world, r *Result) {
	t.Helper()
	reg := registry.Default()
	tool := string(r.Tool.ID)
	for path, content := range w {
		kind, ok := reg.Match(path, env)
		if !ok {
			continue
		}
		ds := rules.AnalyzeFile(rules.FileInput{Path: path, Content: []byte(content), Kind: kind})
		blamed := map[string]bool{} // servers an error says tool does not load
		for _, d := range ds {
			server, _ := d.Data["server"].(string)
			tools, _ := d.Data["tools"].([]string)
			if d.Severity == rules.SeverityError && server != "" && slices.Contains(tools, tool) {
				blamed[server] = true
			}
		}
		for _, s := range r.Servers {
			for _, def := range s.Definitions {
				if filepath.ToSlash(def.Source.Path) != path {
					continue
				}
				if blamed[s.Name] && def == s.Winner {
					t.Errorf("%s: an error says %s does not load %q, the effective view starts it", path, tool, s.Name)
				}
				if def.Gate.State == GateInvalid && !blamed[s.Name] {
					t.Errorf("%s: the effective view says %s skips %q (%s), no error says so", path, tool, s.Name, def.Gate.Why)
				}
			}
		}
	}
}

// Case 1: one invalid entry in ~/.claude.json skips that entry only, at
// user scope and at local scope (projects).
func TestIssue10_InvalidEntryInClaudeJSONSkipsOnlyThatEntry_VerifiedClaudeCode2_1_328(t *testing.T) {
	w := world{
		"/home/u/.claude.json": `{"mcpServers": {"bad": {"command": "x", "args": "x y"}, "good": {"command": "g"}},
			"projects": {"/p": {"mcpServers": {"bad-local": {"command": 1}, "good-local": {"command": "l"}}}}}`,
	}
	r := compute(t, "claude-code", w, "/p", "/p")
	for _, src := range r.Sources {
		if src.Dropped != "" {
			t.Fatalf("%s (%s) dropped: %s", src.Path, src.Layer.ID, src.Dropped)
		}
	}
	for _, name := range []string{"good", "good-local"} {
		if !starts(r, name) {
			t.Errorf("%q does not start", name)
		}
	}
	for _, name := range []string{"bad", "bad-local"} {
		if starts(r, name) {
			t.Errorf("%q starts", name)
		}
		if g := definition(t, r, name, "/home/u/.claude.json").Gate; g.State != GateInvalid {
			t.Errorf("%q gate = %+v, want invalid", name, g)
		}
	}
	if g := definition(t, r, "bad", "/home/u/.claude.json").Gate; !strings.Contains(g.Why, `"args" must be an array`) {
		t.Errorf("why = %q", g.Why)
	}
	agree(t, w, r)
}

// Case 2: keys a tool ignores or uses never make it skip the entry.
func TestIssue10_IgnoredKeysLoadTheEntry_Verified(t *testing.T) {
	w := world{
		"/p/.mcp.json":                 `{"mcpServers": {"s": {"command": "npx", "timeout": 30000, "enabled": false, "tools": ["*"], "cwd": "/tmp"}}}`,
		"/p/.claude/settings.json":     `{"enableAllProjectMcpServers": true}`,
		"/home/u/.claude.json":         `{"projects": {"/p": {"hasTrustDialogAccepted": true}}}`,
		"/home/u/.copilot/config.json": `{"trustedFolders": ["/p"]}`,
	}
	for _, tool := range []registry.ToolID{"claude-code", "copilot-cli"} {
		r := compute(t, tool, w, "/p", "/p")
		if !starts(r, "s") {
			t.Errorf("%s does not start s: %+v", tool, server(t, r, "s").Definitions[0].Gate)
		}
		agree(t, w, r)
	}
	// OpenCode strips "env" from a local entry and starts the server
	// without those variables; it refuses nothing.
	w = world{"/p/opencode.json": `{"mcp": {"db": {"type": "local", "command": ["psql"], "env": {"PGHOST": "h"}}}}`}
	r := compute(t, "opencode", w, "/p", "/p")
	if r.Sources[0].Dropped != "" || !starts(r, "db") {
		t.Fatalf("OpenCode must load db: %+v", r.Sources[0])
	}
	db := server(t, r, "db")
	if v := db.Winner.Verdict; v.Outcome != verdict.LoadsStrippingKeys {
		t.Errorf("outcome = %s, want %s", v.Outcome, verdict.LoadsStrippingKeys)
	}
	if _, ok := field(db, "env"); ok || !slices.Equal(db.Ignored, []string{"env"}) {
		t.Errorf("env must be dropped, not a field: ignored %v, fields %v", db.Ignored, db.Fields)
	}
	agree(t, w, r)
	ds := rules.AnalyzeFile(rules.FileInput{Path: "/p/opencode.json", Content: []byte(w["/p/opencode.json"]), Kind: kindOf(t, "/p/opencode.json")})
	for _, d := range ds {
		if strings.Contains(d.Message, "refuses") {
			t.Errorf("%s: %s", d.Code, d.Message)
		}
		if d.Code == rules.CodeForeignKey && (d.Severity != rules.SeverityWarning || !strings.Contains(d.Message, "starts without these variables") || d.Data[rules.FixKey] != rules.Fix{Kind: rules.FixRenameKey, Key: "env", Value: "environment", Safe: true}) {
			t.Errorf("env: %v %s %v", d.Severity, d.Message, d.Data)
		}
	}
}

// Case 4: an entry invalid for Claude Code in an unapproved .mcp.json is
// skipped, never pending approval.
func TestIssue10_InvalidEntryIsNeverPendingApproval_VerifiedClaudeCode2_1_328(t *testing.T) {
	w := world{"/p/.mcp.json": `{"mcpServers": {"remote": {"url": "https://x.example/mcp"}, "ok": {"command": "x"}}}`}
	r := compute(t, "claude-code", w, "/p", "/p")
	if g := definition(t, r, "remote", "/p/.mcp.json").Gate; g.State != GateInvalid {
		t.Errorf("remote gate = %+v, want invalid", g)
	}
	if g := definition(t, r, "ok", "/p/.mcp.json").Gate; g.State != GatePendingApproval {
		t.Errorf("ok gate = %+v, want pending approval", g)
	}
	agree(t, w, r)
}

// Case 5: Claude Code skips a server named "workspace".
func TestIssue10_ReservedNameSkipped_VerifiedClaudeCode2_1_328(t *testing.T) {
	w := world{
		"/p/.mcp.json":             `{"mcpServers": {"workspace": {"command": "x"}}}`,
		"/p/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
	}
	r := compute(t, "claude-code", w, "/p", "/p")
	if starts(r, "workspace") {
		t.Error("workspace starts")
	}
	if g := definition(t, r, "workspace", "/p/.mcp.json").Gate; g.State != GateInvalid || !strings.Contains(g.Why, "reserved") {
		t.Errorf("gate = %+v", g)
	}
	agree(t, w, r)
}

// Case 6: Copilot CLI skips an entry with ${VAR} in the URL's port and
// accepts one in the host.
func TestIssue10_VariableInURLPortSkippedByCopilot_VerifiedCopilotCLI1_0_102(t *testing.T) {
	w := world{
		"/p/.mcp.json":                 `{"mcpServers": {"port": {"type": "http", "url": "http://localhost:${PORT}/mcp"}, "host": {"type": "http", "url": "https://${HOST}/mcp"}}}`,
		"/home/u/.copilot/config.json": `{"trustedFolders": ["/p"]}`,
	}
	r := compute(t, "copilot-cli", w, "/p", "/p")
	if starts(r, "port") {
		t.Error("port starts")
	}
	if g := definition(t, r, "port", "/p/.mcp.json").Gate; g.State != GateInvalid || !strings.Contains(g.Why, "Invalid url") {
		t.Errorf("gate = %+v", g)
	}
	if !starts(r, "host") {
		t.Error("host does not start")
	}
	agree(t, w, r)
	// Claude Code expands first: both start once approved.
	w["/p/.claude/settings.json"] = `{"enableAllProjectMcpServers": true}`
	w["/home/u/.claude.json"] = `{"projects": {"/p": {"hasTrustDialogAccepted": true}}}`
	r = compute(t, "claude-code", w, "/p", "/p")
	if !starts(r, "port") || !starts(r, "host") {
		t.Errorf("Claude Code: port %v, host %v", starts(r, "port"), starts(r, "host"))
	}
	agree(t, w, r)
}

// The verdicts come from the cache the caller passes: the second
// computation judges nothing again.
func TestVerdictsAreCachedInTheCallersCache(t *testing.T) {
	w := world{"/home/u/.claude.json": `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y", "args": "z"}}}`}
	tl, _ := registry.Default().Tool("claude-code")
	c := verdict.NewCache()
	in := Input{Tool: tl, Env: env, LaunchDir: "/p", GitRoot: "/p", Files: w.files, Verdicts: c}
	first := Compute(in)
	if c.Len() != 2 {
		t.Fatalf("%d verdicts cached, want 2", c.Len())
	}
	second := Compute(in)
	if server(t, first, "b").Definitions[0].Verdict != server(t, second, "b").Definitions[0].Verdict {
		t.Error("the second computation judged b again")
	}
}

func kindOf(t *testing.T, path string) *registry.FileKind {
	t.Helper()
	k, ok := registry.Default().Match(path, env)
	if !ok {
		t.Fatalf("no kind for %s", path)
	}
	return k
}
