package effective

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// navWorld is Claude Code's three scopes defining "db": local (the
// projects entry of ~/.claude.json) beats the approved project .mcp.json,
// which beats the user scope.
var navWorld = world{
	"/home/u/.claude.json": `{"mcpServers": {"db": {"command": "user-db"}},
		"projects": {"/p": {"mcpServers": {"db": {"command": "local-db"}}}}}`,
	"/p/.mcp.json":             `{"mcpServers": {"db": {"command": "project-db"}, "gh": {"type": "http", "url": "https://x"}}}`,
	"/p/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
}

// keySpan is the span of the n-th (0-based) occurrence of "name" in path.
func keySpan(t *testing.T, w world, path, name string, n int) span.Span {
	t.Helper()
	src, quoted, off := w[path], `"`+name+`"`, 0
	for ; n >= 0; n-- {
		i := strings.Index(src[off:], quoted)
		if i < 0 {
			t.Fatalf("%s: no occurrence of %s", path, quoted)
		}
		off += i + len(quoted)
	}
	return span.New(off-len(quoted), off)
}

func navInput(t *testing.T, w world, path string, offset int, tools ...registry.ToolID) NavigationInput {
	t.Helper()
	kind, ok := registry.Default().Match(path, env)
	if !ok {
		t.Fatalf("no file kind for %s", path)
	}
	var results []*Result
	for _, tool := range tools {
		results = append(results, compute(t, tool, w, "/p", "/p"))
	}
	return NavigationInput{Path: path, File: w.files(path), Kind: kind, Offset: offset, Results: results}
}

func TestDefinitionsAt_WinnerFirstThenByPrecedence(t *testing.T) {
	local := Place{"/home/u/.claude.json", keySpan(t, navWorld, "/home/u/.claude.json", "db", 1)}
	user := Place{"/home/u/.claude.json", keySpan(t, navWorld, "/home/u/.claude.json", "db", 0)}
	project := Place{"/p/.mcp.json", keySpan(t, navWorld, "/p/.mcp.json", "db", 0)}
	want := []Place{local, project, user}

	// From every one of the three definitions, and with the cursor at the
	// start, inside and just after the name: the same list, Claude Code's
	// winner first. Copilot CLI reads .mcp.json too (untrusted: no winner);
	// its definition is listed once.
	check := func(tools []registry.ToolID, here Place, want []Place) {
		t.Helper()
		for _, off := range []int{here.Span.Start, here.Span.Start + 2, here.Span.End} {
			d, ok := DefinitionsAt(navInput(t, navWorld, here.Path, off, tools...))
			if !ok {
				t.Fatalf("%s@%d: not on a server name", here.Path, off)
			}
			if d.Name != "db" || d.Here != here || !slices.Equal(d.All, want) {
				t.Errorf("%v %s@%d: got %s here=%v all=%v, want all=%v", tools, here.Path, off, d.Name, d.Here, d.All, want)
			}
		}
	}
	registryOrder := []registry.ToolID{"claude-code", "copilot-cli"}
	for _, here := range want {
		check(registryOrder, here, want)
	}
	// The first tool that reads the file leads, wherever it is in the list:
	// Copilot CLI does not read ~/.claude.json, but does read .mcp.json.
	copilotFirst := []registry.ToolID{"copilot-cli", "claude-code"}
	check(copilotFirst, local, want)
	check(copilotFirst, user, want)
	check(copilotFirst, project, []Place{project, local, user})
}

func TestDefinitionsAt_FileNoToolReadsStillListsItself(t *testing.T) {
	w := world{
		"/p/.mcp.json":        `{"mcpServers": {"db": {"command": "a"}}}`,
		"/p/.vscode/mcp.json": `{"servers": {"db": {"command": "b"}}}`,
	}
	here := Place{"/p/.vscode/mcp.json", keySpan(t, w, "/p/.vscode/mcp.json", "db", 0)}
	d, ok := DefinitionsAt(navInput(t, w, here.Path, here.Span.Start, "claude-code"))
	if !ok {
		t.Fatal("not on a server name")
	}
	want := []Place{{"/p/.mcp.json", keySpan(t, w, "/p/.mcp.json", "db", 0)}, here}
	if !slices.Equal(d.All, want) {
		t.Errorf("all = %v, want %v", d.All, want)
	}
}

func TestDefinitionsAt_OnlyOnServerNames(t *testing.T) {
	src := navWorld["/p/.mcp.json"]
	for _, at := range []string{`"mcpServers"`, `"command"`, `"project-db"`, `"http"`} {
		off := strings.Index(src, at) + 1
		if _, ok := DefinitionsAt(navInput(t, navWorld, "/p/.mcp.json", off, "claude-code")); ok {
			t.Errorf("definitions on %s", at)
		}
	}
	if _, ok := DefinitionsAt(NavigationInput{Path: "/p/x.json", File: jsonc.Parse([]byte(`{}`)), Offset: 1}); ok {
		t.Error("definitions without a file kind")
	}
}

func symbolsOf(t *testing.T, path, src string) []Symbol {
	t.Helper()
	kind, ok := registry.Default().Match(path, env)
	if !ok {
		t.Fatalf("no file kind for %s", path)
	}
	return Symbols(jsonc.Parse([]byte(src)), kind)
}

// outline prints symbols as "name [detail] {children}" for comparison.
func outline(syms []Symbol) string {
	var parts []string
	for _, s := range syms {
		p := s.Name
		if s.Detail != "" {
			p += " [" + s.Detail + "]"
		}
		if len(s.Children) > 0 {
			p += " {" + outline(s.Children) + "}"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func TestSymbols_ClaudeJSONGroupsProjects(t *testing.T) {
	src := `{"projects": {
		"/a": {"mcpServers": {"db": {"command": "psql"}, "api": {"type": "sse", "url": "https://a/sse"}}},
		"/empty": {"mcpServers": {}},
		"/b": {"allowedTools": []}},
	"mcpServers": {"db": {"command": "pg"}},
	"oauth": {"mcpServers": {"x": {}}}}`
	syms := symbolsOf(t, "/home/u/.claude.json", src)
	want := "/a {db [stdio · psql], api [sse · https://a/sse]}, db [stdio · pg]"
	if got := outline(syms); got != want {
		t.Errorf("outline = %s\nwant      %s", got, want)
	}
	g := syms[0]
	if g.Kind != SymbolGroup || src[g.NameSpan.Start:g.NameSpan.End] != `"/a"` || !strings.HasSuffix(src[g.Span.Start:g.Span.End], `"https://a/sse"}}}`) {
		t.Errorf("group spans: name %q, whole %q", src[g.NameSpan.Start:g.NameSpan.End], src[g.Span.Start:g.Span.End])
	}
	db := g.Children[0]
	if db.Kind != SymbolServer || src[db.NameSpan.Start:db.NameSpan.End] != `"db"` || src[db.Span.Start:db.Span.End] != `"db": {"command": "psql"}` {
		t.Errorf("server spans: name %q, whole %q", src[db.NameSpan.Start:db.NameSpan.End], src[db.Span.Start:db.Span.End])
	}
}

func TestSymbols_DetailsNeverShowSecrets(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	src := `{"mcp": {
		"local": {"type": "local", "command": ["npx", "-y", "pkg", "--token=` + secret + `"], "environment": {"T": "` + secret + `"}, "enabled": false},
		"remote": {"type": "remote", "url": "https://api.example.com/mcp?key=` + secret + `", "headers": {"Authorization": "Bearer ` + secret + `"}},
		"userinfo": {"type": "remote", "url": "https://me:` + secret + `@api.example.com/mcp"},
		"override": {"enabled": false},
		"": {"type": "local", "command": ["` + secret + `"]},
		"dup": {"type": "local", "command": ["old"]},
		"dup": {"type": "local", "command": ["new"]}
	}}`
	syms := symbolsOf(t, "/p/opencode.json", src)
	want := "local [local · npx · disabled], remote [remote · https://api.example.com/mcp?key=" + rules.Masked + "], " +
		"userinfo [remote · https://" + rules.Masked + "@api.example.com/mcp], override [disabled], " +
		`"" [local · ` + rules.Masked + "], dup [local · new]"
	if got := outline(syms); got != want {
		t.Errorf("outline = %s\nwant      %s", got, want)
	}
	if strings.Contains(outline(syms), secret) {
		t.Error("a secret leaked into a symbol")
	}
}

func TestSymbols_SharedMapOnce(t *testing.T) {
	// .mcp.json is read by Claude Code and Copilot CLI at the same path.
	syms := symbolsOf(t, "/p/.mcp.json", `{"mcpServers": {"a": {"command": "x"}, "b": {"url": "https://b"}}}`)
	if got, want := outline(syms), "a [stdio · x], b [remote · https://b]"; got != want {
		t.Errorf("outline = %s, want %s", got, want)
	}
	if syms := symbolsOf(t, "/p/.mcp.json", `[1, 2`); len(syms) != 0 {
		t.Errorf("symbols of a non-object: %v", syms)
	}
}

func TestMatchServers(t *testing.T) {
	syms := []Symbol{
		{Name: "/proj", Kind: SymbolGroup, Children: []Symbol{{Name: "GitHub"}, {Name: "db"}}},
		{Name: "github-enterprise"},
		{Name: "postgres"},
	}
	names := func(ss []Symbol) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return strings.Join(out, ",")
	}
	for query, want := range map[string]string{
		"":       "GitHub,db,github-enterprise,postgres",
		"git":    "GitHub,github-enterprise",
		"HUB":    "GitHub,github-enterprise",
		"proj":   "",
		"zzz":    "",
		"gres":   "postgres",
		"github": "GitHub,github-enterprise",
	} {
		if got := names(MatchServers(syms, query)); got != want {
			t.Errorf("query %q: %s, want %s", query, got, want)
		}
	}
}
