package complete

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
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
