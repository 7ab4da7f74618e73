package complete

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// at completes src at the "|" marker for the file kind id.
func at(t *testing.T, kind, src string) ([]Item, []byte) {
	t.Helper()
	off := strings.Index(src, "|")
	if off < 0 {
		t.Fatal("no cursor marker")
	}
	b := []byte(src[:off] + src[off+1:])
	reg := registry.Default()
	k, ok := reg.Kind(kind)
	if !ok {
		t.Fatalf("no kind %q", kind)
	}
	return At(Input{File: jsonc.Parse(b), Kind: k, Offset: off, Registry: reg}), b
}

func labels(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func find(items []Item, label string) *Item {
	for i := range items {
		if items[i].Label == label {
			return &items[i]
		}
	}
	return nil
}

func TestCompleteKeyInPartialFile(t *testing.T) {
	src := "{\r\n  \"mcpServers\": {\r\n    \"fïlé-sérver✓\": {\"co|\r\n"
	items, b := at(t, "mcp-json", src)
	cmd := find(items, "command")
	if cmd == nil {
		t.Fatalf("no command among %v", labels(items))
	}
	if cmd.Kind != Property || cmd.Text != `"command": ` || cmd.Snippet != `"command": $0` {
		t.Errorf("command item = %+v", cmd)
	}
	if got := string(b[cmd.Span.Start:cmd.Span.End]); got != `"co` {
		t.Errorf("replaced %q, want the typed key with its quote", got)
	}
	if !strings.Contains(cmd.Detail, "Claude Code") || !strings.Contains(cmd.Detail, "Copilot CLI") {
		t.Errorf("detail %q should name both readers", cmd.Detail)
	}
	if cmd.Doc == "" {
		t.Error("command has no documentation")
	}
	if find(items, "args") == nil || find(items, "env") == nil {
		t.Errorf("missing stdio fields in %v", labels(items))
	}
}

func TestCompleteKeyExcludesPresent(t *testing.T) {
	items, b := at(t, "mcp-json", `{"mcpServers": {"fs": {"command": "x", |}}}`)
	if len(items) == 0 {
		t.Fatal("no items")
	}
	if find(items, "command") != nil {
		t.Error("command is already present")
	}
	a := find(items, "args")
	if a == nil || a.Span.Start != a.Span.End || a.Span.Start != strings.Index(string(b), "}") {
		t.Errorf("args = %+v, want insertion at the cursor", a)
	}
}

func TestCompleteTypeValues(t *testing.T) {
	items, b := at(t, "mcp-json", `{"mcpServers": {"fs": {"type": "|"}}}`)
	got := labels(items)
	want := []string{`"stdio"`, `"sse"`, `"http"`, `"streamable-http"`, `"ws"`, `"local"`}
	if !slices.Equal(got, want) {
		t.Fatalf("values = %v, want %v", got, want)
	}
	for _, it := range items {
		common := it.Label != `"ws"` && it.Label != `"local"`
		if it.Preferred != common || it.Kind != EnumMember {
			t.Errorf("%s: preferred=%v kind=%v", it.Label, it.Preferred, it.Kind)
		}
		if got := string(b[it.Span.Start:it.Span.End]); got != `""` {
			t.Errorf("%s replaces %q", it.Label, got)
		}
	}
	if d := find(items, `"ws"`).Detail; d != "Claude Code" {
		t.Errorf("ws detail %q", d)
	}

	items, _ = at(t, "opencode-project", `{"mcp": {"fs": {"type": |}}}`)
	if got := labels(items); !slices.Equal(got, []string{`"local"`, `"remote"`}) {
		t.Errorf("opencode values = %v", got)
	}
	for _, it := range items {
		if it.Preferred {
			t.Errorf("%s preferred with a single reader", it.Label)
		}
		if it.Span != (span.Span{Start: 24, End: 24}) {
			t.Errorf("%s span %v", it.Label, it.Span)
		}
	}
}

func TestCompleteElsewhereIsEmpty(t *testing.T) {
	for _, src := range []string{
		`{"mcpServers": {"fs": {"command": "x"|}}}`,
		`{"mcpServers": {|}}`,
		`{"mcpServers": {"fs": {"command": "x", "env": {|}}}}`,
		`{"mcpServers": {"fs": {"command": "|"}}}`,
		`{|}`,
	} {
		if items, _ := at(t, "mcp-json", src); len(items) != 0 {
			t.Errorf("%s: got %v", src, labels(items))
		}
	}
}

// Gemini CLI's settings get its schema's keys and types; httpUrl and
// trust are Gemini CLI's own.
func TestCompleteGeminiSettings(t *testing.T) {
	items, _ := at(t, "gemini-workspace-settings", `{
  // comments are fine here
  "theme": "Default",
  "mcpServers": {"fs": {"command": "x", |}}
}`)
	for _, k := range []string{"args", "env", "cwd", "trust", "includeTools", "excludeTools", "timeout", "description"} {
		it := find(items, k)
		if it == nil {
			t.Errorf("no %s among %v", k, labels(items))
			continue
		}
		if !strings.Contains(it.Detail, "Gemini CLI") || it.Doc == "" {
			t.Errorf("%s: detail %q, doc %q", k, it.Detail, it.Doc)
		}
	}
	if find(items, "command") != nil {
		t.Error("command is already present")
	}
	items, _ = at(t, "gemini-user-settings", `{"mcpServers": {"api": {"httpUrl": "https://x/mcp", "type": "|"}}}`)
	if got := labels(items); !slices.Equal(got, []string{`"stdio"`, `"sse"`, `"http"`}) {
		t.Errorf("gemini types = %v", got)
	}
}

// Roo Code's and Zed's files get their own keys: Roo Code's
// alwaysAllow, disabled and its three types; Zed's context_servers
// entries (inside Zed's other settings) their enabled and timeout.
func TestCompleteRooCodeAndZed(t *testing.T) {
	items, _ := at(t, "roo-project", `{"mcpServers": {"fs": {"command": "x", |}}}`)
	for _, k := range []string{"args", "env", "cwd", "alwaysAllow", "disabled", "disabledTools", "watchPaths", "timeout"} {
		if it := find(items, k); it == nil || !strings.Contains(it.Detail, "Roo Code") {
			t.Errorf("roo-code: no %s from Roo Code among %v", k, labels(items))
		}
	}
	items, _ = at(t, "roo-project", `{"mcpServers": {"api": {"url": "https://x/mcp", "type": "|"}}}`)
	for _, v := range []string{`"sse"`, `"streamable-http"`} {
		if find(items, v) == nil {
			t.Errorf("roo-code types: no %s among %v", v, labels(items))
		}
	}
	items, _ = at(t, "zed-project", `{
  // Zed's settings are JSON with comments
  "tab_size": 2,
  "context_servers": {"pg": {"command": "x", |}},
}`)
	for _, k := range []string{"args", "env", "enabled", "timeout"} {
		if it := find(items, k); it == nil || !strings.Contains(it.Detail, "Zed") {
			t.Errorf("zed: no %s from Zed among %v", k, labels(items))
		}
	}
	if find(items, "command") != nil || find(items, "url") != nil {
		t.Errorf("zed: command is present and url belongs to another shape: %v", labels(items))
	}
}

// tomlAt completes a TOML src at the "|" marker for the file kind id.
func tomlAt(t *testing.T, kind, src string) ([]Item, []byte) {
	t.Helper()
	off := strings.Index(src, "|")
	if off < 0 {
		t.Fatal("no cursor marker")
	}
	b := []byte(src[:off] + src[off+1:])
	reg := registry.Default()
	k, ok := reg.Kind(kind)
	if !ok {
		t.Fatalf("no kind %q", kind)
	}
	return At(Input{File: toml.Parse(b), Kind: k, Offset: off, Registry: reg, TOML: true}), b
}

// TestCompleteCodexTOML: under a [mcp_servers.<name>] header, a half-typed
// key gets the fields of the server's transport (decided by command or
// url), written `key = `, minus those present; an enumerated field gets
// its quoted values and a boolean one true and false; under another table
// (a sub-table, the projects trust table) nothing is offered.
func TestCompleteCodexTOML(t *testing.T) {
	stdio := "model = \"o3\"\r\n\r\n[mcp_servers.fs]\r\ncommand = \"npx\"\r\nen|\r\n\r\n[mcp_servers.web]\r\nurl = \"https://x\"\r\n"
	items, b := tomlAt(t, "codex-project", stdio)
	envVars := find(items, "env_vars")
	if envVars == nil {
		t.Fatalf("no env_vars among %v", labels(items))
	}
	if envVars.Text != "env_vars = " || envVars.Snippet != "env_vars = $0" || envVars.Kind != Property || !strings.Contains(envVars.Detail, "Codex CLI") {
		t.Errorf("env_vars item = %+v", envVars)
	}
	if got := string(b[envVars.Span.Start:envVars.Span.End]); got != "en" {
		t.Errorf("replaced %q, want the typed key", got)
	}
	for _, absent := range []string{"command", "url", "bearer_token_env_var", "http_headers"} {
		if find(items, absent) != nil {
			t.Errorf("%s offered on a stdio server that has command: %v", absent, labels(items))
		}
	}

	// An empty line under the http server: its own fields.
	items, _ = tomlAt(t, "codex-project", "[mcp_servers.web]\nurl = \"https://x\"\n|\n")
	for _, want := range []string{"bearer_token_env_var", "env_http_headers", "http_headers", "oauth", "enabled"} {
		if find(items, want) == nil {
			t.Errorf("no %s for a url server among %v", want, labels(items))
		}
	}
	if find(items, "env_vars") != nil || find(items, "url") != nil {
		t.Errorf("env_vars or url offered on a url server: %v", labels(items))
	}

	// Values: an enum after "key = " (quoted), a boolean (bare).
	items, b = tomlAt(t, "codex-project", "[mcp_servers.web]\nurl = \"https://x\"\nauth = \"ch|\"\n")
	if got := labels(items); !slices.Equal(got, []string{`"oauth"`, `"chatgpt"`, `"ema_auth"`}) {
		t.Errorf("auth values %v", got)
	}
	if it := find(items, `"chatgpt"`); it == nil || string(b[it.Span.Start:it.Span.End]) != `"ch"` || it.Text != `"chatgpt"` {
		t.Errorf("chatgpt item %+v", it)
	}
	items, _ = tomlAt(t, "codex-project", "[mcp_servers.fs]\ncommand = \"x\"\nenabled = |\n")
	if got := labels(items); !slices.Equal(got, []string{"true", "false"}) || items[0].Text != "true" || items[0].Kind != EnumMember {
		t.Errorf("enabled values %v (%+v)", got, items)
	}

	// Nothing under another table, on a header, or after a string value.
	for _, src := range []string{
		"[mcp_servers.fs]\ncommand = \"x\"\n[mcp_servers.fs.env]\nA|\n",
		"[projects.\"/p\"]\ntrust|\n",
		"[mcp_servers.fs]\ncommand = \"x\"\n|[mcp_servers.b]\n",
		"[mcp_servers.fs]\ncommand = \"x\"|\n",
		"en|\n",
	} {
		if items, _ := tomlAt(t, "codex-project", src); len(items) != 0 {
			t.Errorf("%q: unexpected %v", src, labels(items))
		}
	}
}
