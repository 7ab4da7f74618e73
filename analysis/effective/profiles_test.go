package effective

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The profiles of Atomic TUI (flora131/atomic src/utils/mcp-config.ts,
// spec #164: user files then project files, the last definition of a
// name wins, JSONC everywhere, enabled: false filtered) and Nyzhi
// (nyzhi-com/code: global config.toml < project .nyzhi/config.toml <
// project .mcp.json). The Atomic facts are "reported" (another revision
// of its loader differs), so these tests pin the choice.

// tomlWorld is a world whose .toml files are parsed as TOML, as the
// language server's snapshot does.
type tomlWorld map[string]string

func (w tomlWorld) files(path string) *jsonc.File {
	content, ok := w[filepath.ToSlash(path)]
	if !ok {
		return nil
	}
	if strings.HasSuffix(path, ".toml") {
		return toml.Parse([]byte(content))
	}
	return jsonc.Parse([]byte(content))
}

func computeIn(t *testing.T, tool registry.ToolID, w tomlWorld, e registry.Env, launch, gitRoot string) *Result {
	t.Helper()
	tl, ok := registry.Default().Tool(tool)
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	return Compute(Input{Tool: tl, Env: e, LaunchDir: launch, GitRoot: gitRoot, Files: w.files})
}

// definedIn lists the files of a server's definitions, winner first.
func definedIn(s *Server) []string {
	var out []string
	for _, d := range s.Definitions {
		out = append(out, filepath.ToSlash(d.Source.Path))
	}
	return out
}

func source(t *testing.T, r *Result, path string) *Source {
	t.Helper()
	for _, s := range r.Sources {
		if filepath.ToSlash(s.Path) == path {
			return s
		}
	}
	t.Fatalf("%s is not a source of %s", path, r.Tool.ID)
	return nil
}

func TestAtomic_UserThenProjectLastWins_ReportedAtomicSpec(t *testing.T) {
	w := tomlWorld{
		"/home/u/.claude/.mcp.json":              `{"mcpServers": {"a": {"command": "user-claude"}, "u": {"command": "only-user"}}}`,
		"/home/u/.copilot/mcp-config.json":       `{"mcpServers": {"a": {"command": "user-copilot"}, "b": {"command": "user-copilot"}}}`,
		"/home/u/.github/mcp-config.json":        `{"mcpServers": {"b": {"command": "user-github"}}}`,
		"/p/.mcp.json":                           `{"mcpServers": {"a": {"command": "project-mcp"}, "c": {"command": "project-mcp"}}}`,
		"/p/.copilot/mcp-config.json":            `{"mcpServers": {"c": {"command": "project-copilot"}}}`,
		"/p/.github/mcp-config.json":             `{"mcpServers": {"c": {"command": "project-github"}}}`,
		"/p/opencode.json":                       `{"mcp": {"a": {"type": "local", "command": ["project-opencode"]}}}`,
		"/p/opencode.jsonc":                      `{"mcp": {"d": {"type": "local", "command": ["jsonc"]}}}`,
		"/p/.opencode/opencode.json":             `{"mcp": {"d": {"type": "remote", "url": "https://last"}}}`,
		"/p/.opencode/opencode.jsonc":            `{"mcp": {"d": {"type": "remote", "url": "https://not-read"}}}`,
		"/.mcp.json":                             `{"mcpServers": {"above": {"command": "not read: no walk up"}}}`,
		"/home/u/.config/opencode/opencode.json": `{"mcp": {"global": {"type": "local", "command": ["not read"]}}}`,
	}
	r := computeIn(t, "atomic", w, env, "/p", "/p")
	for name, want := range map[string][]string{
		"a": {"/p/opencode.json", "/p/.mcp.json", "/home/u/.copilot/mcp-config.json", "/home/u/.claude/.mcp.json"},
		"b": {"/home/u/.github/mcp-config.json", "/home/u/.copilot/mcp-config.json"},
		"c": {"/p/.github/mcp-config.json", "/p/.copilot/mcp-config.json", "/p/.mcp.json"},
		"d": {"/p/.opencode/opencode.json", "/p/opencode.jsonc"},
		"u": {"/home/u/.claude/.mcp.json"},
	} {
		s := server(t, r, name)
		if got := definedIn(s); !slices.Equal(got, want) {
			t.Errorf("%s defined in %v, want %v (winner first)", name, got, want)
		}
		if s.Winner != s.Definitions[0] {
			t.Errorf("%s: the last definition must win", name)
		}
	}
	if got := strings.Join(names(r), ","); got != "a,b,c,d,u" {
		t.Errorf("servers = %s: project files are read in the launch directory only, and OpenCode's global files and .opencode/opencode.jsonc not at all", got)
	}
	// Whole entries: the OpenCode definition of a replaces the others,
	// fields and all (the mixed dialects are not merged).
	a := server(t, r, "a")
	var keys []string
	for _, f := range a.Fields {
		keys = append(keys, f.Key)
	}
	if strings.Join(keys, ",") != "command,type" || a.Fields[0].From != a.Winner {
		t.Errorf("a's fields = %v, want the OpenCode entry's alone", keys)
	}
	if a.Winner.Source.Layer.ID != "project-opencode" || server(t, r, "u").Winner.Source.Layer.ID != "user" {
		t.Errorf("layers: a from %s, u from %s", a.Winner.Source.Layer.ID, server(t, r, "u").Winner.Source.Layer.ID)
	}
}

func TestAtomic_DisabledOnlyInOpenCodeFiles_ReportedAtomicSpec(t *testing.T) {
	w := tomlWorld{
		"/home/u/.copilot/mcp-config.json": `{"mcpServers": {"off": {"command": "x"}, "kept": {"command": "x", "enabled": false}}}`,
		"/p/opencode.jsonc":                `{"mcp": {"off": {"type": "local", "command": ["x"], "enabled": false}}}`,
		"/p/.mcp.json":                     `{"mcpServers": {"claude-off": {"command": "x", "enabled": false}}}`,
	}
	r := computeIn(t, "atomic", w, env, "/p", "")
	if s := server(t, r, "off"); s.Enabled || s.Winner == nil || filepath.ToSlash(s.Winner.Source.Path) != "/p/opencode.jsonc" {
		t.Errorf("off: enabled=%v winner=%s; the OpenCode entry wins and is filtered out (not started)", s.Enabled, winnerPath(s))
	}
	// Atomic's Claude and Copilot parsers set enabled: true whatever the
	// file says.
	for _, name := range []string{"kept", "claude-off"} {
		if s := server(t, r, name); !s.Enabled {
			t.Errorf("%s: enabled: false in a Claude or Copilot file must not disable it", name)
		}
	}
}

func TestAtomic_ReadsJSONCEverywhere_ConfirmedAtomicSource(t *testing.T) {
	w := tomlWorld{
		"/p/.mcp.json": `{
			// Atomic parses every file with Bun.JSONC.parse
			"mcpServers": {"a": {"command": "x"},},
		}`,
		"/home/u/.claude/.mcp.json": `{"mcpServers": {"broken": }`,
	}
	r := computeIn(t, "atomic", w, env, "/p", "")
	if d := source(t, r, "/p/.mcp.json").Dropped; d != "" {
		t.Errorf("Atomic TUI drops .mcp.json with comments (%s); it reads JSONC", d)
	}
	if s := server(t, r, "a"); s.Winner == nil {
		t.Error("a should be started")
	}
	if d := source(t, r, "/home/u/.claude/.mcp.json").Dropped; d != "syntax error" {
		t.Errorf("a file Bun.JSONC.parse rejects is skipped: Dropped = %q", d)
	}
	// Claude Code, reading the same .mcp.json, drops it.
	claude := computeIn(t, "claude-code", w, env, "/p", "")
	if d := source(t, claude, "/p/.mcp.json").Dropped; d != "comments in strict JSON" {
		t.Errorf("Claude Code: Dropped = %q", d)
	}
}

func TestAtomic_HomeNotToolHomes_ConfirmedAtomicSource(t *testing.T) {
	// Atomic joins $HOME with .copilot and .claude itself: COPILOT_HOME and
	// CLAUDE_CONFIG_DIR do not move its files.
	w := tomlWorld{
		"/home/u/.copilot/mcp-config.json": `{"mcpServers": {"h": {"command": "home"}}}`,
		"/opt/copilot/mcp-config.json":     `{"mcpServers": {"h": {"command": "copilot-home"}}}`,
	}
	e := env
	e.CopilotHome, e.ClaudeConfigDir = "/opt/copilot", "/opt/claude"
	r := computeIn(t, "atomic", w, e, "/p", "")
	if got := definedIn(server(t, r, "h")); !slices.Equal(got, []string{"/home/u/.copilot/mcp-config.json"}) {
		t.Errorf("h defined in %v", got)
	}
}

// Atomic TUI only reads other tools' files, so it is never "in use" by
// itself: the language server shows it only when the settings name it.
func TestAtomic_NeverInUseByItsOwnFiles(t *testing.T) {
	w := tomlWorld{"/p/.mcp.json": `{"mcpServers": {"a": {"command": "x"}}}`}
	if r := computeIn(t, "atomic", w, env, "/p", ""); r.InUse() || len(r.Sources) != 1 {
		t.Errorf("Atomic TUI: InUse = %v with %d sources, want false with 1", r.InUse(), len(r.Sources))
	}
	if r := computeIn(t, "claude-code", w, env, "/p", ""); !r.InUse() {
		t.Error("Claude Code reads .mcp.json as its own file")
	}
	for tool, want := range map[registry.ToolID][2]bool{"atomic": {true, false}, "claude-code": {true, true}, "nyzhi": {true, false}, "cursor": {false, false}} {
		tl, _ := registry.Default().Tool(tool)
		if found, own := Survey(Input{Tool: tl, Env: env, LaunchDir: "/p", Files: w.files}); [2]bool{found, own} != want {
			t.Errorf("Survey(%s) = %v, %v; want %v", tool, found, own, want)
		}
	}
}

const nyzhiGlobal = `[provider]
default = "openai"

[mcp.servers.fs]
command = "global-fs"

[mcp.servers.only-global]
url = "https://global"

[mcp.servers.both]
command = "global-both"
`

const nyzhiProject = `# Project-level nyzhi configuration
[mcp.servers.fs]
command = "project-fs"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]

[mcp.servers.both]
command = "project-both"
enabled = false

[mcp.servers."my server"]
url = "https://mcp.example.com"
`

func TestNyzhi_GlobalThenProjectThenMcpJSON_ConfirmedNyzhiSource(t *testing.T) {
	w := tomlWorld{
		"/home/u/.config/nyzhi/config.toml": nyzhiGlobal,
		"/p/.nyzhi/config.toml":             nyzhiProject,
		"/p/.mcp.json":                      `{"mcpServers": {"fs": {"command": "mcp-json-fs"}}}`,
	}
	r := computeIn(t, "nyzhi", w, env, "/p", "/p")
	for name, want := range map[string][]string{
		"fs":          {"/p/.mcp.json", "/p/.nyzhi/config.toml", "/home/u/.config/nyzhi/config.toml"},
		"both":        {"/p/.nyzhi/config.toml", "/home/u/.config/nyzhi/config.toml"},
		"only-global": {"/home/u/.config/nyzhi/config.toml"},
		"my server":   {"/p/.nyzhi/config.toml"},
	} {
		if got := definedIn(server(t, r, name)); !slices.Equal(got, want) {
			t.Errorf("%s defined in %v, want %v (winner first)", name, got, want)
		}
	}
	fs := server(t, r, "fs")
	if f, _ := field(fs, "command"); r.FieldMember(f).Value.Str != "mcp-json-fs" {
		t.Errorf("fs command = %q, want .mcp.json's", r.FieldMember(f).Value.Str)
	}
	if _, ok := field(fs, "args"); ok {
		t.Error("a .mcp.json entry replaces the TOML one whole: no args")
	}
	if s := server(t, r, "both"); !s.Enabled {
		t.Error("Nyzhi has no enabled key: enabled = false turns nothing off")
	}
	if !r.InUse() {
		t.Error("Nyzhi reads its own config.toml here")
	}
}

func TestNyzhi_McpServersAlias_ConfirmedNyzhiSource(t *testing.T) {
	w := tomlWorld{
		"/p/.nyzhi/config.toml": "[mcp.servers.fs]\ncommand = \"toml\"\n",
		"/p/.mcp.json":          `{"mcp_servers": {"fs": {"command": "alias"}}}`,
	}
	r := computeIn(t, "nyzhi", w, env, "/p", "")
	if got := winnerPath(server(t, r, "fs")); got != "/p/.mcp.json" {
		t.Errorf("fs winner = %s: .mcp.json's mcp_servers (serde alias of mcpServers) wins", got)
	}
}

// TestNyzhi_DefinitionSpans checks that a TOML definition points at the
// bytes a user sees as the server's name: the last segment of its table
// header, quotes included.
func TestNyzhi_DefinitionSpans(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		project := strings.ReplaceAll(nyzhiProject, "\n", eol)
		w := tomlWorld{"/p/.nyzhi/config.toml": project}
		r := computeIn(t, "nyzhi", w, env, "/p", "")
		for name, want := range map[string]string{"fs": "[mcp.servers.fs]", "my server": `[mcp.servers."my server"]`} {
			d := server(t, r, name).Winner
			key := project[r.Member(d).Key.Span.Start:r.Member(d).Key.Span.End]
			header := project[strings.Index(project, want):]
			if !strings.HasSuffix(want, key+"]") || r.Member(d).Key.Span.Start != strings.Index(project, want)+len(want)-len(key)-1 {
				t.Errorf("eol %q: %s: key spans %q at %d, want the last segment of %s", eol, name, key, r.Member(d).Key.Span.Start, want)
			}
			if !strings.HasPrefix(header, project[r.Member(d).Value.Span.Start:r.Member(d).Value.Span.End]) {
				t.Errorf("eol %q: %s: definition spans %q, want its table from the header", eol, name, project[r.Member(d).Value.Span.Start:r.Member(d).Value.Span.End])
			}
		}
		args, _ := field(server(t, r, "fs"), "args")
		if got := project[r.FieldMember(args).Value.Span.Start:r.FieldMember(args).Value.Span.End]; got != `["-y", "@modelcontextprotocol/server-filesystem", "."]` {
			t.Errorf("eol %q: args spans %q", eol, got)
		}
	}
}

func TestNyzhi_DroppedFiles_ConfirmedNyzhiSource(t *testing.T) {
	w := tomlWorld{
		"/home/u/.config/nyzhi/config.toml": nyzhiGlobal,
		"/p/.nyzhi/config.toml":             "[mcp.servers.fs]\ncommand = \"unterminated\n",
		"/p/.mcp.json": `{"mcpServers": {"fs": {"command": "x"}}, // serde_json rejects this
		}`,
	}
	r := computeIn(t, "nyzhi", w, env, "/p", "")
	if d := source(t, r, "/p/.nyzhi/config.toml").Dropped; d != "syntax error" {
		t.Errorf("broken config.toml: Dropped = %q", d)
	}
	if d := source(t, r, "/p/.mcp.json").Dropped; d != "comments in strict JSON" {
		t.Errorf(".mcp.json with a comment: Dropped = %q (Nyzhi reads it with serde_json)", d)
	}
	if got := winnerPath(server(t, r, "fs")); got != "/home/u/.config/nyzhi/config.toml" {
		t.Errorf("fs winner = %s, want the global file's (the others are dropped)", got)
	}
}

func TestNyzhi_XDGConfigHomeAndInUse(t *testing.T) {
	w := tomlWorld{
		"/xdg/nyzhi/config.toml":            "[mcp.servers.x]\ncommand = \"xdg\"\n",
		"/home/u/.config/nyzhi/config.toml": "[mcp.servers.x]\ncommand = \"shadowed\"\n",
	}
	e := env
	e.XDGConfigHome = "/xdg"
	r := computeIn(t, "nyzhi", w, e, "/p", "")
	if got := definedIn(server(t, r, "x")); !slices.Equal(got, []string{"/xdg/nyzhi/config.toml"}) {
		t.Errorf("x defined in %v", got)
	}
	// With only a .mcp.json, nothing says Nyzhi is used here.
	only := computeIn(t, "nyzhi", tomlWorld{"/p/.mcp.json": `{"mcpServers": {"a": {"command": "x"}}}`}, env, "/p", "")
	if only.InUse() {
		t.Error("Nyzhi reads .mcp.json through its profile only: not in use")
	}
}

// Claude Code drops an unknown "enabled" key and Copilot CLI ignores it:
// only OpenCode's format (and Atomic's OpenCode files) turn a server off.
func TestEnabledKeyOnlyWhereTheFormatHasIt_VerifiedCopilotCLI1_0(t *testing.T) {
	w := tomlWorld{
		"/p/.mcp.json":                 `{"mcpServers": {"s": {"command": "x", "enabled": false}}}`,
		"/p/.claude/settings.json":     `{"enableAllProjectMcpServers": true}`,
		"/home/u/.copilot/config.json": `{"trustedFolders": ["/p"]}`,
		"/p/opencode.json":             `{"mcp": {"s": {"type": "local", "command": ["x"], "enabled": false}}}`,
	}
	for tool, want := range map[registry.ToolID]bool{"claude-code": true, "copilot-cli": true, "opencode": false} {
		if s := server(t, computeIn(t, tool, w, env, "/p", "/p"), "s"); s.Enabled != want {
			t.Errorf("%s: Enabled = %v, want %v", tool, s.Enabled, want)
		}
	}
}

// A file no reader takes servers from (Claude Code does not read
// ~/.claude/.mcp.json) still gets hover and definitions from the tool
// whose profile reads it.
func TestHoverAndDefinitionInProfileOnlyFile(t *testing.T) {
	const user = `{"mcpServers": {"fs": {"command": "user"}}}`
	w := tomlWorld{
		"/home/u/.claude/.mcp.json": user,
		"/p/.mcp.json":              `{"mcpServers": {"fs": {"command": "project"}}}`,
	}
	r := computeIn(t, "atomic", w, env, "/p", "")
	kind, _ := registry.Default().Match("/home/u/.claude/.mcp.json", env)
	userDef := server(t, r, "fs").Definitions[1]
	if filepath.ToSlash(userDef.Source.Path) != "/home/u/.claude/.mcp.json" {
		t.Fatalf("fs definitions: %v", definedIn(server(t, r, "fs")))
	}
	offset := r.Member(userDef).Key.Span.Start + 1
	parsed := fileOf(r, userDef)
	h, ok := HoverAt(HoverInput{
		Path: "/home/u/.claude/.mcp.json", File: parsed, Kind: kind, Offset: offset,
		Results: []*Result{r}, Registry: registry.Default(),
		Display: func(p string) string { return p }, Line: func(string, int) int { return 1 },
	})
	if !ok || !strings.Contains(h.Markdown, "**Atomic TUI**: uses the definition in /p/.mcp.json") {
		t.Errorf("hover = %v %+v", ok, h)
	}
	d, ok := DefinitionsAt(NavigationInput{Path: "/home/u/.claude/.mcp.json", File: parsed, Kind: kind, Offset: offset, Results: []*Result{r}})
	if !ok || len(d.All) != 2 || filepath.ToSlash(d.All[0].Path) != "/p/.mcp.json" {
		t.Errorf("definitions = %v %+v", ok, d)
	}
}

// fileOf returns the parsed file a definition comes from: its root, found
// through the key's parents, wrapped so that NodeAt works on it.
func fileOf(r *Result, d *Definition) *jsonc.File {
	n := r.Member(d).Key
	for n.Parent != nil {
		n = n.Parent
	}
	return &jsonc.File{Root: n}
}
