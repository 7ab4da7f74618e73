package effective

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// world is a fake file system: absolute path -> content.
type world map[string]string

func (w world) files(path string) *jsonc.File {
	content, ok := w[filepath.ToSlash(path)]
	if !ok {
		return nil
	}
	return jsonc.Parse([]byte(content))
}

var env = registry.Env{Home: "/home/u", GOOS: "linux"}

func compute(t *testing.T, tool registry.ToolID, w world, launch, gitRoot string) *Result {
	t.Helper()
	tl, ok := registry.Default().Tool(tool)
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	return Compute(Input{Tool: tl, Env: env, LaunchDir: launch, GitRoot: gitRoot, Files: w.files})
}

func server(t *testing.T, r *Result, name string) *Server {
	t.Helper()
	for _, s := range r.Servers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %q in %v", name, names(r))
	return nil
}

func names(r *Result) []string {
	var out []string
	for _, s := range r.Servers {
		out = append(out, s.Name)
	}
	return out
}

func winnerPath(s *Server) string {
	if s.Winner == nil {
		return "<none>"
	}
	return filepath.ToSlash(s.Winner.Source.Path)
}

func field(s *Server, key string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

func TestClaudeCode_LocalBeatsApprovedProjectBeatsUser_VerifiedClaudeCode2_1(t *testing.T) {
	w := world{
		"/home/u/.claude.json": `{"mcpServers": {"db": {"command": "user-db"}, "only-user": {"command": "u"}},
			"projects": {"/p": {"hasTrustDialogAccepted": true, "mcpServers": {"db": {"command": "local-db"}}}}}`,
		"/p/.mcp.json":             `{"mcpServers": {"db": {"command": "project-db"}, "gh": {"type": "http", "url": "https://x"}}}`,
		"/p/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
	}
	r := compute(t, "claude-code", w, "/p", "/p")
	db := server(t, r, "db")
	if got := winnerPath(db); got != "/home/u/.claude.json" || db.Winner.Source.Layer.ID != "local" {
		t.Errorf("db winner = %s (%s), want local scope", got, db.Winner.Source.Layer.ID)
	}
	if len(db.Definitions) != 3 {
		t.Errorf("db has %d definitions, want 3 (local, project, user)", len(db.Definitions))
	}
	if f, _ := field(db, "command"); r.FieldMember(f).Value.Str != "local-db" {
		t.Errorf("command = %q, want the local one whole (no field merge)", r.FieldMember(f).Value.Str)
	}
	if got := winnerPath(server(t, r, "gh")); got != "/p/.mcp.json" {
		t.Errorf("gh winner = %s", got)
	}
}

func TestClaudeCode_UnapprovedProjectServerLosesToUser_VerifiedClaudeCode2_1(t *testing.T) {
	w := world{
		"/home/u/.claude.json": `{"mcpServers": {"db": {"command": "user-db"}}}`,
		"/p/.mcp.json":         `{"mcpServers": {"db": {"command": "project-db"}, "new": {"command": "n"}}}`,
	}
	r := compute(t, "claude-code", w, "/p", "")
	db := server(t, r, "db")
	if db.Winner == nil || db.Winner.Source.Layer.ID != "user" {
		t.Fatalf("db winner = %s, want the user definition", winnerPath(db))
	}
	if g := db.Definitions[1].Gate; g.State != GatePendingApproval {
		t.Errorf("project definition gate = %+v, want pending approval", g)
	}
	newS := server(t, r, "new")
	if newS.Winner != nil || newS.Definitions[0].Gate.State != GatePendingApproval {
		t.Errorf("an unapproved project-only server must have no winner and a pending gate: %+v", newS.Definitions[0].Gate)
	}
}

func TestClaudeCode_ApprovalLists(t *testing.T) {
	w := world{
		"/p/.mcp.json":                   `{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}}}`,
		"/home/u/.claude.json":           `{"projects": {"/p": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["a", "c"]}}}`,
		"/p/.claude/settings.local.json": `{"disabledMcpjsonServers": ["c"]}`,
	}
	r := compute(t, "claude-code", w, "/p", "")
	if s := server(t, r, "a"); s.Winner == nil {
		t.Error("a is enabled in ~/.claude.json projects entry")
	}
	if s := server(t, r, "b"); s.Winner != nil || s.Definitions[0].Gate.State != GatePendingApproval {
		t.Error("b is not approved")
	}
	if s := server(t, r, "c"); s.Definitions[0].Gate.State != GateRejected {
		t.Errorf("c: a rejection wins over an approval, got %+v", s.Definitions[0].Gate)
	}
}

// TestClaudeCode_ProjectsKeyedByGitRoot_VerifiedClaudeCode2_1: launched in
// a subdirectory of a repository, Claude Code finds local-scope servers and
// approvals in ~/.claude.json under projects["<git root>"], not under the
// launch directory; .claude/settings*.json are read from the launch
// directory (issue 10 case 3).
func TestClaudeCode_ProjectsKeyedByGitRoot_VerifiedClaudeCode2_1(t *testing.T) {
	w := world{
		"/home/u/.claude.json": `{"projects": {
			"/repo": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["a"], "mcpServers": {"local-root": {"command": "r"}}},
			"/repo/sub": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["b"], "mcpServers": {"local-sub": {"command": "s"}}}}}`,
		"/repo/.mcp.json":                       `{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}}}`,
		"/repo/.claude/settings.json":           `{"enabledMcpjsonServers": ["c"]}`,
		"/repo/sub/.claude/settings.local.json": `{"disabledMcpjsonServers": ["a"]}`,
	}
	r := compute(t, "claude-code", w, "/repo/sub", "/repo")
	if got := strings.Join(names(r), ","); got != "a,b,c,local-root" {
		t.Errorf("servers = %s, want the git root's local servers only", got)
	}
	if g := server(t, r, "a").Definitions[0].Gate; g.State != GateRejected {
		t.Errorf("a: .claude/settings.local.json of the launch directory rejects it, got %+v", g)
	}
	if g := server(t, r, "b").Definitions[0].Gate; g.State != GatePendingApproval {
		t.Errorf("b is approved only under projects[\"/repo/sub\"], which Claude Code does not read: %+v", g)
	}
	if g := server(t, r, "c").Definitions[0].Gate; g.State != GatePendingApproval {
		t.Errorf("c is approved only in the git root's .claude/settings.json, not the launch directory's: %+v", g)
	}
	w["/repo/sub/.claude/settings.json"] = `{"enabledMcpjsonServers": ["c"]}`
	if s := server(t, compute(t, "claude-code", w, "/repo/sub", "/repo"), "c"); s.Winner == nil {
		t.Errorf("c approved in the launch directory's .claude/settings.json: %+v", s.Definitions[0].Gate)
	}
}

// TestClaudeCode_ApprovalCountsOnlyWhenTrusted_VerifiedClaudeCode2_1_328:
// 2.1.328 counts enableAllProjectMcpServers and enabledMcpjsonServers only
// once projects["<git root>"].hasTrustDialogAccepted is true in
// ~/.claude.json (issue 10 case 7); a rejection stands without trust.
func TestClaudeCode_ApprovalCountsOnlyWhenTrusted_VerifiedClaudeCode2_1_328(t *testing.T) {
	w := world{
		"/home/u/.claude.json":        `{"projects": {"/repo": {"enabledMcpjsonServers": ["a"]}}}`,
		"/repo/.mcp.json":             `{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}}}`,
		"/repo/.claude/settings.json": `{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["c"]}`,
	}
	r := compute(t, "claude-code", w, "/repo", "/repo")
	for _, name := range []string{"a", "b"} {
		g := server(t, r, name).Definitions[0].Gate
		if g.State != GatePendingApproval || !strings.Contains(g.Why, `projects["/repo"].hasTrustDialogAccepted`) {
			t.Errorf("%s without trust: %+v, want pending approval naming the trust key", name, g)
		}
	}
	if g := server(t, r, "c").Definitions[0].Gate; g.State != GateRejected {
		t.Errorf("c is rejected with or without trust: %+v", g)
	}
	w["/home/u/.claude.json"] = `{"projects": {"/repo": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["a"]}}}`
	r = compute(t, "claude-code", w, "/repo", "/repo")
	if server(t, r, "a").Winner == nil || server(t, r, "b").Winner == nil {
		t.Error("trusted: approved servers start")
	}
}

// TestClaudeCode_TrustFromLaunchDirUpToGitRoot_VerifiedClaudeCode2_1_328:
// the trust is found under projects["<dir>"] for the launch directory or
// any directory above it up to the git root; not above the git root, and
// outside a repository only for the launch directory (runs of
// `claude mcp list`, 2.1.328).
func TestClaudeCode_TrustFromLaunchDirUpToGitRoot_VerifiedClaudeCode2_1_328(t *testing.T) {
	trusted := func(dir string) string {
		return `{"projects": {"` + dir + `": {"hasTrustDialogAccepted": true}}}`
	}
	for _, c := range []struct {
		launch, gitRoot, trustedDir string
		starts                      bool
	}{
		{"/w/repo", "/w/repo", "/w/repo", true},
		{"/w/repo", "/w/repo", "/w", false}, // above the git root
		{"/w/repo/sub", "/w/repo", "/w/repo/sub", true},
		{"/w/repo/sub", "/w/repo", "/w/repo", true},
		{"/w/repo/sub/deeper", "/w/repo", "/w/repo/sub", true},
		{"/w/repo/sub", "", "/w/repo/sub", true},
		{"/w/repo/sub", "", "/w/repo", false}, // no repository: the launch directory only
	} {
		w := world{
			"/w/repo/.mcp.json":                       `{"mcpServers": {"api": {"command": "/bin/true"}}}`,
			c.launch + "/.claude/settings.local.json": `{"enableAllProjectMcpServers": true}`,
			"/home/u/.claude.json":                    trusted(c.trustedDir),
		}
		s := server(t, compute(t, "claude-code", w, c.launch, c.gitRoot), "api")
		if got := s.Winner != nil; got != c.starts {
			t.Errorf("launched in %s (git root %q), trusted %s: starts = %v, want %v (%+v)", c.launch, c.gitRoot, c.trustedDir, got, c.starts, s.Definitions[0].Gate)
		}
	}
}

func TestClaudeCode_WalksUpToRootCloserWins_VerifiedClaudeCode2_1(t *testing.T) {
	w := world{
		"/.mcp.json":                      `{"mcpServers": {"x": {"command": "root"}, "top": {"command": "t"}}}`,
		"/repo/.mcp.json":                 `{"mcpServers": {"x": {"command": "repo"}}}`,
		"/repo/sub/.mcp.json":             `{"mcpServers": {"x": {"command": "sub"}}}`,
		"/repo/sub/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
		"/home/u/.claude.json":            `{"projects": {"/repo": {"hasTrustDialogAccepted": true}}}`,
	}
	r := compute(t, "claude-code", w, "/repo/sub", "/repo")
	if got := winnerPath(server(t, r, "x")); got != "/repo/sub/.mcp.json" {
		t.Errorf("x winner = %s, want the closest file", got)
	}
	if got := winnerPath(server(t, r, "top")); got != "/.mcp.json" {
		t.Errorf("Claude Code reads .mcp.json up to /, past the git root: top winner = %s", got)
	}
}

func TestCopilotCLI_TrustGatesWorkspace_VerifiedCopilotCLI1_0(t *testing.T) {
	w := world{
		"/home/u/.copilot/mcp-config.json": `{"mcpServers": {"db": {"command": "user"}}}`,
		"/repo/.mcp.json":                  `{"mcpServers": {"db": {"command": "workspace"}}}`,
	}
	r := compute(t, "copilot-cli", w, "/repo", "/repo")
	db := server(t, r, "db")
	if db.Winner.Source.Layer.ID != "user" || db.Definitions[1].Gate.State != GateUntrusted {
		t.Errorf("untrusted folder: winner %s, workspace gate %+v", winnerPath(db), db.Definitions[1].Gate)
	}
	w["/home/u/.copilot/config.json"] = `{"trustedFolders": ["/repo"]}`
	r = compute(t, "copilot-cli", w, "/repo", "/repo")
	if got := winnerPath(server(t, r, "db")); got != "/repo/.mcp.json" {
		t.Errorf("trusted folder: winner = %s, want the workspace file", got)
	}
}

func TestCopilotCLI_WalksToGitRootAndGithubFallback_VerifiedCopilotCLI1_0(t *testing.T) {
	w := world{
		"/home/u/.copilot/config.json": `{"trustedFolders": ["/repo"]}`,
		"/.mcp.json":                   `{"mcpServers": {"outside": {"command": "o"}}}`,
		"/repo/.github/mcp.json":       `{"mcpServers": {"gh": {"command": "g"}}}`,
		"/repo/a/.mcp.json":            `{"mcpServers": {"x": {"command": "a"}}}`,
		"/repo/a/b/.mcp.json":          `{"mcpServers": {"x": {"command": "b"}}}`,
	}
	r := compute(t, "copilot-cli", w, "/repo/a/b", "/repo")
	if got := winnerPath(server(t, r, "x")); got != "/repo/a/b/.mcp.json" {
		t.Errorf("x winner = %s, want the closer file", got)
	}
	// The git root has no .mcp.json: Copilot CLI reads .github/mcp.json
	// too, below the walk's files (verified by TestOracle, gen/03).
	if got := strings.Join(names(r), ","); got != "gh,x" {
		t.Errorf("servers = %s: nothing above the git root, and .github/mcp.json while the git root has no .mcp.json", got)
	}
	// With one there, it is not read. The ignored file is a source the
	// tool drops, naming the git root's .mcp.json, so that check, hover
	// and effective can say why.
	w["/repo/.mcp.json"] = `{"mcpServers": {"root": {"command": "r"}}}`
	r = compute(t, "copilot-cli", w, "/repo/a/b", "/repo")
	if got := strings.Join(names(r), ","); got != "root,x" {
		t.Errorf("servers = %s, want no .github/mcp.json beside the git root's .mcp.json", got)
	}
	var gh *Source
	for _, src := range r.Sources {
		if filepath.ToSlash(src.Path) == "/repo/.github/mcp.json" {
			gh = src
		}
	}
	if gh == nil || filepath.ToSlash(gh.Preferred) != "/repo/.mcp.json" || !strings.Contains(gh.Dropped, "only when no .mcp.json exists") {
		t.Errorf(".github/mcp.json source = %+v, want dropped in favour of /repo/.mcp.json", gh)
	}
	if d := CrossFile([]*Result{r}, func(p string) string { return p })["/repo/.github/mcp.json"]; len(d) != 1 || d[0].Code != rules.CodeFallbackIgnored {
		t.Errorf("cross-file findings on .github/mcp.json = %+v, want one %s", d, rules.CodeFallbackIgnored)
	}
	delete(w, "/repo/.mcp.json")
	delete(w, "/repo/a/.mcp.json")
	delete(w, "/repo/a/b/.mcp.json")
	r = compute(t, "copilot-cli", w, "/repo/a/b", "/repo")
	if got := strings.Join(names(r), ","); got != "gh" {
		t.Errorf("servers = %s, want .github/mcp.json's when no .mcp.json exists", got)
	}
}

func TestOpenCode_DeepMerge_VerifiedOpenCode1_18(t *testing.T) {
	w := world{
		"/home/u/.config/opencode/opencode.json": `{"mcp": {"fs": {"type": "local", "command": ["npx", "fs"], "environment": {"A": "1"}}, "web": {"type": "local", "command": ["old"]}}}`,
		"/repo/opencode.json":                    `{"mcp": {"fs": {"enabled": true}, "web": {"type": "remote", "url": "https://x"}}}`,
		"/repo/sub/.opencode/opencode.jsonc":     `{"mcp": {"fs": {"enabled": false}}}`,
	}
	r := compute(t, "opencode", w, "/repo/sub", "/repo")
	fs := server(t, r, "fs")
	if fs.Enabled {
		t.Error(`a later {"enabled": false} turns fs off`)
	}
	cmd, ok := field(fs, "command")
	if !ok || filepath.ToSlash(cmd.From.Source.Path) != "/home/u/.config/opencode/opencode.json" {
		t.Errorf("command should come from the global file: %+v", cmd)
	}
	if en, _ := field(fs, "enabled"); en.From == nil || filepath.ToSlash(en.From.Source.Path) != "/repo/sub/.opencode/opencode.jsonc" {
		t.Errorf("enabled should come from the closest file")
	}
	web := server(t, r, "web")
	if _, ok := field(web, "command"); !ok {
		t.Error("a remote entry over a local one keeps the old command (deep merge)")
	}
	if typ, _ := field(web, "type"); r.FieldMember(typ).Value.Str != "remote" {
		t.Errorf("type = %q, want remote", r.FieldMember(typ).Value.Str)
	}
}

func TestVariables(t *testing.T) {
	w := world{"/p/.mcp.json": `{"mcpServers": {"gh": {"type": "http", "url": "https://x/${HOST:-h}", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}}}}`,
		"/p/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
		"/home/u/.claude.json":     `{"projects": {"/p": {"hasTrustDialogAccepted": true}}}`}
	r := compute(t, "claude-code", w, "/p", "")
	if got := strings.Join(server(t, r, "gh").Variables, ","); got != "GITHUB_TOKEN" {
		t.Errorf("variables = %q, want GITHUB_TOKEN (HOST has a default)", got)
	}
}

// TestInvalidEntries_SkippedOrRefused: an entry a tool cannot read is
// skipped by Claude Code (verified: "Skipped — invalid MCP server config")
// and its name falls to the next definition; OpenCode refuses the whole
// file and stops (verified: "Configuration is invalid at ...", exit 1).
func TestInvalidEntries_SkippedOrRefused_Verified(t *testing.T) {
	w := world{
		"/home/u/.claude.json":     `{"mcpServers": {"fs": {"command": "user-fs"}}, "projects": {"/p": {"hasTrustDialogAccepted": true}}}`,
		"/p/.mcp.json":             `{"mcpServers": {"fs": {"type": "local", "command": "npx"}, "ok": {"command": "x"}}}`,
		"/p/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
	}
	r := compute(t, "claude-code", w, "/p", "")
	fs := server(t, r, "fs")
	if winnerPath(fs) != "/home/u/.claude.json" {
		t.Errorf("fs winner = %s, want the user definition (the project one is skipped)", winnerPath(fs))
	}
	if g := fs.Definitions[1].Gate; g.State != GateInvalid || !strings.Contains(g.Why, "type") {
		t.Errorf("project fs gate = %+v", g)
	}
	if server(t, r, "ok").Winner == nil {
		t.Error("a valid entry next to an invalid one is still read")
	}

	w = world{
		"/home/u/.config/opencode/opencode.json": `{"mcp": {"db": {"type": "local", "command": ["psql"]}}}`,
		"/p/opencode.json":                       `{"mcp": {"db": {"type": "local", "command": "psql-project"}}}`,
	}
	r = compute(t, "opencode", w, "/p", "")
	if len(r.Sources) != 2 || !strings.Contains(r.Sources[0].Dropped, `server "db" is invalid`) {
		t.Fatalf("the project file should be refused: %+v", r.Sources[0])
	}
	// ...and the refusal stops OpenCode at start-up (verified with
	// 1.18.33 by lsp/oracle_test.go: "Configuration is invalid", exit 1):
	// the global file's db does not start either.
	db := server(t, r, "db")
	if db.Winner != nil || len(r.Refused) == 0 {
		t.Errorf("db should not start (OpenCode stops): winner %v, refused %v", db.Winner, r.Refused)
	}
	for _, d := range db.Definitions {
		if d.Gate.State != GateToolStopped {
			t.Errorf("%s: gate %+v, want tool-stopped", d.Source.Path, d.Gate)
		}
	}
}

// Kilo Code reads .kilocode/mcp.json, else the first of .cursor/mcp.json
// and .mcp.json that exists (Kilo-Org/kilocode McpHub.ts
// checkAlternativeMcpPaths, confirmed): a layer giving way to several.
func TestKiloCode_FallbackToCursorThenMcpJson_ConfirmedKiloCode(t *testing.T) {
	const kilo, cursor, dot = "/p/.kilocode/mcp.json", "/p/.cursor/mcp.json", "/p/.mcp.json"
	w := world{
		kilo:   `{"mcpServers": {"k": {"command": "k"}}}`,
		cursor: `{"mcpServers": {"c": {"command": "c"}}}`,
		dot:    `{"mcpServers": {"m": {"command": "m"}}}`,
	}
	ignoredFor := func(r *Result) map[string]string {
		out := map[string]string{}
		for _, src := range r.Sources {
			if src.Preferred != "" {
				out[filepath.ToSlash(src.Path)] = filepath.ToSlash(src.Preferred)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		remove  []string
		servers string
		ignored map[string]string // fallback file -> the file it gives way to
	}{
		{"all three", nil, "k", map[string]string{cursor: kilo, dot: kilo}},
		{"no .kilocode", []string{kilo}, "c", map[string]string{dot: cursor}},
		{"only .mcp.json", []string{kilo, cursor}, "m", map[string]string{}},
		{".kilocode and .mcp.json", []string{cursor}, "k", map[string]string{dot: kilo}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ww := world{}
			for p, c := range w {
				ww[p] = c
			}
			for _, p := range tc.remove {
				delete(ww, p)
			}
			r := compute(t, "kilo-code", ww, "/p", "/p")
			if got := strings.Join(names(r), ","); got != tc.servers {
				t.Errorf("servers = %s, want %s", got, tc.servers)
			}
			if got := ignoredFor(r); len(got) != len(tc.ignored) || !mapsEqual(got, tc.ignored) {
				t.Errorf("ignored = %v, want %v", got, tc.ignored)
			}
			cf := CrossFile([]*Result{r}, func(p string) string { return p })
			for p := range tc.ignored {
				if d := cf[p]; len(d) != 1 || d[0].Code != rules.CodeFallbackIgnored {
					t.Errorf("cross-file findings on %s = %+v, want one %s", p, d, rules.CodeFallbackIgnored)
				}
			}
		})
	}
	// Existing decides, not readable: a .cursor/mcp.json Kilo Code cannot
	// parse still keeps .mcp.json out, and no project server starts.
	r := compute(t, "kilo-code", world{cursor: `{"mcpServers": {`, dot: w[dot]}, "/p", "/p")
	if len(r.Servers) != 0 {
		t.Errorf("broken .cursor/mcp.json: servers = %v, want none", names(r))
	}
	if got := ignoredFor(r); got[dot] != cursor {
		t.Errorf("broken .cursor/mcp.json: ignored = %v, want .mcp.json giving way to it", got)
	}
	// Claude Code's "http" type fails Kilo Code's zod schema, over the
	// whole file: none of the fallback's servers start.
	r = compute(t, "kilo-code", world{dot: `{"mcpServers": {"ok": {"command": "x"}, "web": {"type": "http", "url": "https://e.example/mcp"}}}`}, "/p", "/p")
	if len(r.Servers) != 0 || len(r.Sources) != 1 || !strings.Contains(r.Sources[0].Dropped, `server "web" is invalid`) {
		t.Errorf("Claude-style entry: sources %+v, servers %v; want the file refused because of \"web\"", r.Sources, names(r))
	}
}

func mapsEqual(a, b map[string]string) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}
