package fix

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// fakeWorkspace is a project at /p over an in-memory set of files.
func fakeWorkspace(files map[string]string) *Workspace {
	return &Workspace{
		Registry: registry.Default(), Env: testEnv, ProjectDir: "/p",
		File: func(p string) ([]byte, bool, error) {
			c, ok := files[filepath.ToSlash(p)]
			return []byte(c), ok, nil
		},
	}
}

func TestTargetFile(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		exists  []string
		want    string
	}{
		{schemas.ClaudeCode, nil, "/p/.mcp.json"},
		{schemas.CopilotCLI, nil, "/p/.github/mcp.json"},
		// Copilot reads .github/mcp.json only when there is no .mcp.json.
		{schemas.CopilotCLI, []string{"/p/.mcp.json"}, "/p/.mcp.json"},
		{schemas.OpenCode, nil, "/p/opencode.json"},
		{schemas.OpenCode, []string{"/p/opencode.jsonc"}, "/p/opencode.jsonc"},
		// Both: opencode.json is merged last, so it wins.
		{schemas.OpenCode, []string{"/p/opencode.jsonc", "/p/opencode.json"}, "/p/opencode.json"},
		{schemas.VSCode, nil, "/p/.vscode/mcp.json"},
		{schemas.Cursor, nil, "/p/.cursor/mcp.json"},
		{schemas.ClaudeDesktop, nil, "/home/u/.config/Claude/claude_desktop_config.json"},
	} {
		files := map[string]string{}
		for _, e := range tc.exists {
			files[e] = "{}"
		}
		if got := filepath.ToSlash(fakeWorkspace(files).targetFile(tc.dialect)); got != tc.want {
			t.Errorf("%s with %v: %s, want %s", tc.dialect, tc.exists, got, tc.want)
		}
	}
	for goos, want := range map[string]string{
		"darwin":  "/home/u/Library/Application Support/Claude/claude_desktop_config.json",
		"windows": "/home/u/AppData/Roaming/Claude/claude_desktop_config.json",
	} {
		env := testEnv
		env.GOOS = goos
		if got := filepath.ToSlash(claudeDesktopFile(env)); got != want {
			t.Errorf("%s: %s, want %s", goos, got, want)
		}
	}
	if got := claudeDesktopFile(registry.Env{}); got != "" {
		t.Errorf("no home: %q", got)
	}
}

func dialectsOf(cs []*Conversion) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.To)
	}
	return out
}

func TestServerConversionsOffered(t *testing.T) {
	ws := fakeWorkspace(nil)
	d, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {
  "local": {"command": "npx", "args": ["fs"]},
  "remote": {"type": "http", "url": "https://x/mcp"},
  "ws": {"type": "ws", "url": "wss://x/mcp"}
}}`)
	at := func(name string) []string {
		i := strings.Index(string(d.Content), `"`+name+`"`)
		return dialectsOf(ServerConversions(d, ws, i, i))
	}
	// Claude Code and Copilot CLI read .mcp.json already.
	if got, want := at("local"), []string{"claude-desktop", "cursor", "gemini-cli", "opencode", "roo-code", "vscode", "zed"}; !slices.Equal(got, want) {
		t.Errorf("local: %v, want %v", got, want)
	}
	// Claude Desktop takes no remote server.
	if got, want := at("remote"), []string{"cursor", "gemini-cli", "opencode", "roo-code", "vscode", "zed"}; !slices.Equal(got, want) {
		t.Errorf("remote: %v, want %v", got, want)
	}
	// Only Claude Code speaks WebSocket.
	if got := at("ws"); len(got) != 0 {
		t.Errorf("ws: %v, want none", got)
	}
	// Outside every server: none (the file conversions are for that).
	if got := dialectsOf(ServerConversions(d, ws, 0, 0)); len(got) != 0 {
		t.Errorf("outside: %v", got)
	}
	// A selection across two servers is in neither.
	i, j := strings.Index(string(d.Content), `"local"`), strings.Index(string(d.Content), `"remote"`)
	if _, ok := ServerAt(d, i, j); ok {
		t.Errorf("a selection across two servers is in one")
	}
}

func TestConversionTitles(t *testing.T) {
	files := map[string]string{"/p/opencode.json": `{"mcp": {"fs": {"type": "local", "command": ["old"]}}}`}
	ws := fakeWorkspace(files)
	d, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {"fs": {"command": "npx", "args": ["fs"]}}}`)
	c, err := ConvertServer(d, ws, "fs", schemas.OpenCode)
	if err != nil {
		t.Fatal(err)
	}
	if want := `Convert to OpenCode (replaces "fs" in opencode.json)`; c.Title != want {
		t.Errorf("title %q, want %q", c.Title, want)
	}
	c, err = ConvertServer(d, ws, "fs", schemas.ClaudeDesktop)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Convert to Claude Desktop (in ~/.config/Claude/claude_desktop_config.json)"; c.Title != want {
		t.Errorf("title %q, want %q", c.Title, want)
	}

	c = &Conversion{ws: ws, Target: "/p/x.json", Server: "a", Replaces: []string{"a"}}
	for i := range 6 {
		c.Losses = append(c.Losses, convert.Loss{Server: "a", Field: "f" + string(rune('0'+i)), Kind: convert.Dropped})
	}
	c.Losses = append(c.Losses, convert.Loss{Server: "a", Field: "g", Kind: convert.Changed})
	if got, want := c.title("Convert"), `Convert (replaces "a" in x.json; drops: f0, f1, f2, f3, 2 more; changes: g)`; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}

// change applies a conversion to the fake files and returns the new
// content of the target.
func change(t *testing.T, c *Conversion, files map[string]string) string {
	t.Helper()
	ch, err := c.Change()
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range ch.Creates {
		if _, ok := files[cr.Path]; ok {
			t.Fatalf("create of existing %s", cr.Path)
		}
		return string(cr.Content)
	}
	out, err := Apply([]byte(files[c.Target]), ch.EditsFor(c.Target))
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Paths()) != 1 {
		t.Errorf("change touches %v", ch.Paths())
	}
	return string(out)
}

func TestConversionEdits(t *testing.T) {
	src := "{\n\t\"mcpServers\": {\n\t\t\"fs\": {\"command\": \"npx\"}\n\t}\n}\n"
	for _, tc := range []struct {
		name, to, target, existing, want string
	}{
		{
			name: "new file in the source's layout", to: schemas.VSCode, target: "/p/.vscode/mcp.json",
			want: "{\n\t\"servers\": {\n\t\t\"fs\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\"\n\t\t}\n\t}\n}\n",
		},
		{
			name: "an empty file is written whole", to: schemas.Cursor, target: "/p/.cursor/mcp.json", existing: "\n",
			want: "{\n\t\"mcpServers\": {\n\t\t\"fs\": {\n\t\t\t\"command\": \"npx\"\n\t\t}\n\t}\n}\n",
		},
		{
			name: "a missing server map is added", to: schemas.OpenCode, target: "/p/opencode.json",
			existing: "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"dark\" // mine\n}\n",
			want:     "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"dark\", // mine\n  \"mcp\": {\n    \"fs\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"npx\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "VS Code's deprecated map is used when it is the one there", to: schemas.VSCode, target: "/p/.vscode/mcp.json",
			existing: "{\"mcpServers\": {}}",
			want:     "{\"mcpServers\": {\n\t\"fs\": {\n\t\t\"type\": \"stdio\",\n\t\t\"command\": \"npx\"\n\t}\n}}",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			if tc.existing != "" {
				files[tc.target] = tc.existing
			}
			d, _ := analyze(t, "/p/.mcp.json", src)
			c, err := ConvertServer(d, fakeWorkspace(files), "fs", tc.to)
			if err != nil {
				t.Fatal(err)
			}
			if c.Target != tc.target || c.Create != (tc.existing == "") {
				t.Errorf("target %s (create %v)", c.Target, c.Create)
			}
			got := change(t, c, files)
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			if f := jsonc.Parse([]byte(got)); len(f.Errors) > 0 {
				t.Errorf("result does not parse: %v", f.Errors)
			}
		})
	}
}

func TestConversionDisabled(t *testing.T) {
	d, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {"fs": {"command": "npx"}}}`)
	for existing, want := range map[string]string{
		`{"mcp": {`:   "opencode.json has syntax errors; fix them first",
		`[]`:          "opencode.json does not hold a JSON object",
		`{"mcp": []}`: `"mcp" in opencode.json is not an object`,
	} {
		files := map[string]string{"/p/opencode.json": existing}
		c, err := ConvertServer(d, fakeWorkspace(files), "fs", schemas.OpenCode)
		if err != nil {
			t.Fatal(err)
		}
		if c.Disabled != want {
			t.Errorf("%s: disabled %q, want %q", existing, c.Disabled, want)
		}
		if _, err := c.Change(); err == nil {
			t.Errorf("%s: a disabled conversion computed a change", existing)
		}
	}
}

func TestConvertFileReindents(t *testing.T) {
	src := "{\n\t\"mcpServers\": {\n\t\t\"a\": {\"command\": \"x\"},\n\t\t\"b\": {\"type\": \"http\", \"url\": \"https://b\"}\n\t}\n}\n"
	d, _ := analyze(t, "/p/.mcp.json", src)
	files := map[string]string{}
	c, err := ConvertFile(d, fakeWorkspace(files), schemas.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n\t\"mcpServers\": {\n\t\t\"a\": {\n\t\t\t\"command\": \"x\"\n\t\t},\n\t\t\"b\": {\n\t\t\t\"url\": \"https://b\"\n\t\t}\n\t}\n}\n"
	if got := change(t, c, files); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if c.Title != "Convert this file to Cursor" {
		t.Errorf("title %q", c.Title)
	}
}

func TestConversionRefusesNonJSON(t *testing.T) {
	d := &Document{Path: "/p/config.toml", Content: []byte(`[mcp_servers.fs]`), Kind: &registry.FileKind{Scope: registry.ScopeProject}}
	if cs := FileConversions(d, fakeWorkspace(nil)); len(cs) != 0 {
		t.Errorf("conversions of a TOML file: %v", dialectsOf(cs))
	}
}

func TestConversionReplacesInline(t *testing.T) {
	files := map[string]string{"/p/.cursor/mcp.json": `{"mcpServers": {"fs": {"command": "old"}, "git": {"command": "git-mcp"}}}`}
	d, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {"fs": {"command": "npx", "args": ["fs"]}}}`)
	c, err := ConvertServer(d, fakeWorkspace(files), "fs", schemas.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"mcpServers": {"fs": {"command": "npx", "args": ["fs"]}, "git": {"command": "git-mcp"}}}`
	if got := change(t, c, files); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
