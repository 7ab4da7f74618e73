package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

const navSecret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"

// navProject is a project with Claude Code's three scopes defining "db":
// local (the project's entry in ~/.claude.json) beats the approved
// .mcp.json, which beats the user scope (top level of ~/.claude.json).
type navProject struct {
	dir, home, proj string
	claudeJSON      string // ~/.claude.json
	mcpJSON         string // proj/.mcp.json
}

func newNavProject(t *testing.T) navProject {
	t.Helper()
	dir := t.TempDir()
	p := navProject{dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj")}
	projKey, _ := json.Marshal(p.proj)
	p.claudeJSON = writeFile(t, filepath.Join(p.home, ".claude.json"), "{\n"+
		`  "mcpServers": {"db": {"command": "psql-user"}},`+"\n"+
		`  "projects": {`+"\n"+
		`    `+string(projKey)+`: {"mcpServers": {"db": {"command": "psql-local"}}},`+"\n"+
		`    "/elsewhere": {"mcpServers": {}}`+"\n"+
		"  }\n}\n")
	writeFile(t, filepath.Join(p.proj, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
	p.mcpJSON = writeFile(t, filepath.Join(p.proj, ".mcp.json"), `{"mcpServers": {"db": {"command": "psql-mcp"}, "gh": {"url": "https://x"}}}`)
	return p
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (p navProject) start(t *testing.T) *testClient {
	t.Helper()
	c := startServer(t, Options{Env: registry.Env{Home: p.home, GOOS: "linux"}})
	c.initialize(p.proj)
	return c
}

func (c *testClient) openFile(path string) protocol.DocumentURI {
	c.t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.open(path, string(content))
}

func textPos(uri protocol.DocumentURI, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: p}
}

func (c *testClient) definition(uri protocol.DocumentURI, p protocol.Position) []protocol.Location {
	c.t.Helper()
	var locs []protocol.Location
	if err := c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: textPos(uri, p)}, &locs); err != nil {
		c.t.Fatalf("definition: %v", err)
	}
	return locs
}

func (c *testClient) references(uri protocol.DocumentURI, p protocol.Position, includeDecl bool) []protocol.Location {
	c.t.Helper()
	var locs []protocol.Location
	params := protocol.ReferenceParams{TextDocumentPositionParams: textPos(uri, p), Context: protocol.ReferenceContext{IncludeDeclaration: includeDecl}}
	if err := c.call(protocol.MethodTextDocumentReferences, params, &locs); err != nil {
		c.t.Fatalf("references: %v", err)
	}
	return locs
}

// rawCall returns the raw result, to check that empty answers are [] and
// that no secret is anywhere in them.
func (c *testClient) rawCall(method string, params any) string {
	c.t.Helper()
	var raw json.RawMessage
	if err := c.call(method, params, &raw); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return string(raw)
}

func (c *testClient) documentSymbols(uri protocol.DocumentURI) ([]protocol.DocumentSymbol, string) {
	c.t.Helper()
	raw := c.rawCall(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	var syms []protocol.DocumentSymbol
	if err := json.Unmarshal([]byte(raw), &syms); err != nil {
		c.t.Fatalf("documentSymbol result %s: %v", raw, err)
	}
	return syms, raw
}

func (c *testClient) workspaceSymbols(query string) ([]protocol.SymbolInformation, string) {
	c.t.Helper()
	raw := c.rawCall(protocol.MethodWorkspaceSymbol, protocol.WorkspaceSymbolParams{Query: query})
	var syms []protocol.SymbolInformation
	if err := json.Unmarshal([]byte(raw), &syms); err != nil {
		c.t.Fatalf("workspace/symbol result %s: %v", raw, err)
	}
	return syms, raw
}

func loc(path string, line, start, end uint32) protocol.Location {
	return protocol.Location{URI: pathToURI(path), Range: protocol.Range{Start: pos(line, start), End: pos(line, end)}}
}

func sameLocations(t *testing.T, what string, got, want []protocol.Location) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d locations, want %d:\ngot  %+v\nwant %+v", what, len(got), len(want), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s[%d] = %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

// TestDefinitionWinnerFirstAcrossFiles: from a server name, definition
// lists every definition of the name the tools launched here read, the
// one Claude Code starts first, then by precedence; the same list from
// any of the definitions, including files that are not open.
func TestDefinitionWinnerFirstAcrossFiles(t *testing.T) {
	p := newNavProject(t)
	c := p.start(t)
	local := loc(p.claudeJSON, 3, len32(p.proj)+22, len32(p.proj)+26)
	project := loc(p.mcpJSON, 0, 16, 20)
	user := loc(p.claudeJSON, 1, 17, 21)
	want := []protocol.Location{local, project, user}

	uri := c.openFile(p.mcpJSON)
	for _, at := range []protocol.Position{pos(0, 16), pos(0, 18), pos(0, 20)} { // on, inside and just after "db"
		sameLocations(t, "definition from .mcp.json", c.definition(uri, at), want)
	}
	// From ~/.claude.json (open too): its URI, and the same order.
	home := c.openFile(p.claudeJSON)
	sameLocations(t, "definition from the user scope", c.definition(home, pos(1, 18)), want)
	sameLocations(t, "definition from the local scope", c.definition(home, local.Range.Start), want)

	// A server defined once: itself.
	sameLocations(t, "definition of gh", c.definition(uri, pos(0, 49)), []protocol.Location{loc(p.mcpJSON, 0, 47, 51)})
}

func len32(s string) uint32 { return uint32(len(s)) + 2 } // a JSON-quoted ASCII path

func TestReferencesHonorIncludeDeclaration(t *testing.T) {
	p := newNavProject(t)
	c := p.start(t)
	uri := c.openFile(p.mcpJSON)
	local := loc(p.claudeJSON, 3, len32(p.proj)+22, len32(p.proj)+26)
	project := loc(p.mcpJSON, 0, 16, 20)
	user := loc(p.claudeJSON, 1, 17, 21)

	sameLocations(t, "references with declaration", c.references(uri, pos(0, 17), true), []protocol.Location{local, project, user})
	sameLocations(t, "references without declaration", c.references(uri, pos(0, 17), false), []protocol.Location{local, user})
	sameLocations(t, "references of gh without declaration", c.references(uri, pos(0, 49), false), nil)
}

// TestNavigationElsewhereIsEmpty: off a server name, in a file that is
// not an MCP configuration, or in a buffer that is not a file, every
// request answers an empty list, not an error and not null.
func TestNavigationElsewhereIsEmpty(t *testing.T) {
	p := newNavProject(t)
	c := p.start(t)
	mcp := c.openFile(p.mcpJSON)
	other := c.open(filepath.Join(p.proj, "package.json"), `{"mcpServers": {"db": {}}}`)
	untitled := protocol.DocumentURI("untitled:Untitled-1")
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: untitled, LanguageID: "json", Version: 1, Text: `{"mcpServers": {"db": {}}}`,
	}})
	for _, tc := range []struct {
		name string
		uri  protocol.DocumentURI
		at   protocol.Position
	}{
		{"top-level key", mcp, pos(0, 3)},
		{"field key", mcp, pos(0, 25)},
		{"field value", mcp, pos(0, 37)},
		{"not an MCP file", other, pos(0, 17)},
		{"untitled buffer", untitled, pos(0, 17)},
		{"missing file", pathToURI(filepath.Join(p.proj, "gone", ".mcp.json")), pos(0, 0)},
	} {
		params := textPos(tc.uri, tc.at)
		if raw := c.rawCall(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: params}); raw != "[]" {
			t.Errorf("%s: definition = %s", tc.name, raw)
		}
		if raw := c.rawCall(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: params, Context: protocol.ReferenceContext{IncludeDeclaration: true}}); raw != "[]" {
			t.Errorf("%s: references = %s", tc.name, raw)
		}
	}
	for _, uri := range []protocol.DocumentURI{other, untitled} {
		if _, raw := c.documentSymbols(uri); raw != "[]" {
			t.Errorf("document symbols of %s = %s", uri, raw)
		}
	}
	if _, raw := c.workspaceSymbols("no-such-server"); raw != "[]" {
		t.Errorf("workspace symbols = %s", raw)
	}
}

// TestDocumentSymbolsUTF16AndCRLF: one symbol per server with the whole
// entry as range and the name as selection, in UTF-16 units over CRLF
// lines; details say transport, program or endpoint and enabled state,
// with no env or header value and the URL's token masked.
func TestDocumentSymbolsUTF16AndCRLF(t *testing.T) {
	dir := t.TempDir()
	content := strings.Join([]string{
		`{`,
		`  "mcpServers": {`,
		`    "db": {"command": "npx", "args": ["-y", "--api-key=` + navSecret + `"]},`,
		`    "🚀 fusée": {"type": "http", "url": "https://api.example.com/mcp?token=` + navSecret + `", "headers": {"Authorization": "Bearer ` + navSecret + `"}},`,
		`    "local": {"type": "stdio", "command": "uvx", "env": {"TOKEN": "` + navSecret + `"}, "enabled": false}`,
		`  }`,
		`}`,
		``,
	}, "\r\n")
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initialize(dir)
	uri := c.open(filepath.Join(dir, ".mcp.json"), content)

	syms, raw := c.documentSymbols(uri)
	if strings.Contains(raw, navSecret) || strings.Contains(raw, "Bearer") {
		t.Errorf("a secret leaked into document symbols: %s", raw)
	}
	rng := func(line, start, end uint32) protocol.Range {
		return protocol.Range{Start: pos(line, start), End: pos(line, end)}
	}
	want := []protocol.DocumentSymbol{
		{Name: "db", Detail: "stdio · npx", Kind: protocol.SymbolKindModule, Range: rng(2, 4, 98), SelectionRange: rng(2, 4, 8)},
		{Name: "🚀 fusée", Detail: "http · https://api.example.com/mcp?token=" + rules.Masked, Kind: protocol.SymbolKindModule, Range: rng(3, 4, 198), SelectionRange: rng(3, 4, 14)},
		{Name: "local", Detail: "stdio · uvx · disabled", Kind: protocol.SymbolKindModule, Range: rng(4, 4, 128), SelectionRange: rng(4, 4, 11)},
	}
	if len(syms) != len(want) {
		t.Fatalf("%d symbols, want %d: %s", len(syms), len(want), raw)
	}
	for i := range want {
		got, w := syms[i], want[i]
		if got.Name != w.Name || got.Detail != w.Detail || got.Kind != w.Kind || got.Range != w.Range || got.SelectionRange != w.SelectionRange || got.Children != nil {
			t.Errorf("symbol %d:\ngot  %+v\nwant %+v", i, got, w)
		}
	}
}

// TestDocumentSymbolsClaudeJSONProjects: ~/.claude.json's per-project
// servers are grouped under their project, after or before the user-scope
// servers as in the file; projects without servers are left out.
func TestDocumentSymbolsClaudeJSONProjects(t *testing.T) {
	p := newNavProject(t)
	c := p.start(t)
	syms, raw := c.documentSymbols(c.openFile(p.claudeJSON))
	if len(syms) != 2 {
		t.Fatalf("want the user-scope db and one project: %s", raw)
	}
	user, proj := syms[0], syms[1]
	if user.Name != "db" || user.Kind != protocol.SymbolKindModule || user.Detail != "stdio · psql-user" || user.SelectionRange != loc(p.claudeJSON, 1, 17, 21).Range {
		t.Errorf("user-scope symbol: %+v", user)
	}
	q := len32(p.proj)
	if proj.Name != p.proj || proj.Kind != protocol.SymbolKindNamespace ||
		proj.SelectionRange != loc(p.claudeJSON, 3, 4, 4+q).Range || proj.Range != loc(p.claudeJSON, 3, 4, q+55).Range {
		t.Errorf("project symbol: %+v", proj)
	}
	if len(proj.Children) != 1 || proj.Children[0].Name != "db" || proj.Children[0].Detail != "stdio · psql-local" ||
		proj.Children[0].SelectionRange != loc(p.claudeJSON, 3, q+22, q+26).Range {
		t.Errorf("project children: %+v", proj.Children)
	}
}

// TestWorkspaceSymbols: servers of every known file, open or only read by
// a tool for the workspace folder (~/.claude.json here, never opened),
// matched on the name ignoring case.
func TestWorkspaceSymbols(t *testing.T) {
	p := newNavProject(t)
	writeFile(t, filepath.Join(p.proj, ".vscode", "mcp.json"), `{"servers": {"DB-admin": {"type": "http", "url": "https://admin?key=`+navSecret+`"}}}`)
	c := p.start(t)
	c.openFile(filepath.Join(p.proj, ".vscode", "mcp.json")) // no tool with a profile reads it: tracked because open

	type hit struct{ name, container string }
	hits := func(syms []protocol.SymbolInformation) []hit {
		var out []hit
		for _, s := range syms {
			if s.Kind != protocol.SymbolKindModule {
				t.Errorf("%s: kind %v", s.Name, s.Kind)
			}
			out = append(out, hit{s.Name, s.ContainerName})
		}
		return out
	}
	syms, raw := c.workspaceSymbols("Db")
	if strings.Contains(raw, navSecret) {
		t.Errorf("a secret leaked into workspace symbols: %s", raw)
	}
	got, want := hits(syms), []hit{
		{"db", ".mcp.json"},
		{"DB-admin", ".vscode/mcp.json"},
		{"db", "~/.claude.json"},
		{"db", "~/.claude.json"},
	}
	if len(got) != len(want) {
		t.Fatalf("query Db: %v, want %v", got, want)
	}
	// Files sorted by path: the temporary directory's home/ before proj/.
	if filepath.Join(p.dir, "home") < filepath.Join(p.dir, "proj") {
		want = append(want[2:], want[:2]...)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("query Db [%d] = %v, want %v", i, got[i], want[i])
		}
	}
	for _, s := range syms {
		if s.Name == "db" && s.ContainerName == ".mcp.json" && s.Location != loc(p.mcpJSON, 0, 16, 20) {
			t.Errorf("location of .mcp.json's db: %+v", s.Location)
		}
	}

	if syms, _ := c.workspaceSymbols(""); len(syms) != 5 {
		t.Errorf("empty query: %v, want every server (5)", hits(syms))
	}
	if syms, _ := c.workspaceSymbols("GH"); len(syms) != 1 || syms[0].Location != loc(p.mcpJSON, 0, 47, 51) {
		t.Errorf("query GH: %+v", syms)
	}
}

func TestNavigationCapabilities(t *testing.T) {
	c := startServer(t, Options{})
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := c.call(protocol.MethodInitialize, protocol.InitializeParams{}, &res); err != nil {
		t.Fatal(err)
	}
	for _, cap := range []string{"definitionProvider", "referencesProvider", "documentSymbolProvider", "workspaceSymbolProvider"} {
		if res.Capabilities[cap] != true {
			t.Errorf("%s = %v", cap, res.Capabilities[cap])
		}
	}
}
