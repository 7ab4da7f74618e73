package fix

import (
	"path/filepath"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
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

func TestConversionTitles(t *testing.T) {
	ws := fakeWorkspace(nil)
	var c *Conversion
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
