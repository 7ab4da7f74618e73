package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// actionTitled returns the action with title prefix, or fails.
func actionTitled(t *testing.T, actions []wireAction, prefix string) wireAction {
	t.Helper()
	i := slices.IndexFunc(actions, func(a wireAction) bool { return strings.HasPrefix(a.Title, prefix) })
	if i < 0 {
		t.Fatalf("no action %q in %q", prefix, titlesOf(actions))
	}
	return actions[i]
}

// TestAddToIsIdempotent: once "Add to OpenCode" is applied, OpenCode has
// the server and the action is no longer offered; on OpenCode's new entry,
// "Disable in OpenCode" is, since OpenCode now runs it from there.
func TestAddToIsIdempotent(t *testing.T) {
	text := `{"mcpServers": {"db": {"command": "psql-mcp"}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text, "opencode.json": "{}\n"})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	rng := markerRange(t, text, `|"db"`)
	actions, _ := c.codeActions(uri, rng, nil, "refactor")
	a, _, err := c.resolve(actionTitled(t, actions, "Add to OpenCode"))
	if err != nil || a.Edit == nil {
		t.Fatalf("resolve: %v", err)
	}
	written := ed.apply(a.Edit)
	if want := []string{filepath.Join(dir, ".mcp-lsp", "sync.json"), filepath.Join(dir, "opencode.json")}; !slices.Equal(sortedCopy(written), want) {
		t.Errorf("wrote %q, want %q", written, want)
	}
	ed.latestDiagnostics(filepath.Join(dir, "opencode.json"))
	again, _ := c.codeActions(uri, rng, nil, "refactor")
	titles := titlesOf(again)
	if slices.ContainsFunc(titles, func(s string) bool { return strings.Contains(s, "Add to OpenCode") }) {
		t.Errorf("Add to OpenCode offered again: %q", titles)
	}
	target := filepath.Join(dir, "opencode.json")
	ttext, _ := ed.content(target)
	there, _ := c.codeActions(pathToURI(target), markerRange(t, ttext, `|"db"`), nil, "refactor")
	actionTitled(t, there, "Disable in OpenCode")
}

// TestResolveOfStaleAddIsContentModified: when the target gained the
// server since the action was offered, resolve refuses with
// ContentModified rather than write it twice.
func TestResolveOfStaleAddIsContentModified(t *testing.T) {
	text := `{"mcpServers": {"db": {"command": "psql-mcp"}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text, "opencode.json": "{}\n"})
	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	actions, _ := c.codeActions(uri, markerRange(t, text, `|"db"`), nil, "refactor")
	add := actionTitled(t, actions, "Add to OpenCode")
	target := filepath.Join(dir, "opencode.json")
	turi := ed.open(target)
	ed.buffers[target] = `{"mcp": {"db": {"type": "local", "command": ["other"]}}}`
	c.change(turi, nil, ed.buffers[target])
	ed.latestDiagnostics(target)
	_, _, err := c.resolve(add)
	if got := wireCode(t, err); got != protocol.CodeContentModified {
		t.Errorf("resolve of a stale Add to: %v (code %d), want ContentModified", err, got)
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// templateProject is a project whose .cursor/mcp.json entry "x" was synced
// from tmpl.json, a template using every kind of variable ({{root}},
// {{runtime.python}} found in the .venv beside it, {{region}} given with
// --var at the last sync), then changed by hand (the recorded hash is not
// the entry's). records is the "vars" of .mcp-lsp/sync.json.
func templateProject(t *testing.T, profile, vars string) (*testClient, *editor, string) {
	t.Helper()
	return actionProject(t, profile, map[string]string{
		"ext/tmpl.json":        `{"mcpServers": {"x": {"command": "{{runtime.python}}", "args": ["-m", "x", "--region", "{{region}}", "--home", "{{root}}"]}}}`,
		"ext/.venv/bin/python": "",
		".cursor/mcp.json":     `{"mcpServers": {"x": {"command": "python", "args": ["-m", "x", "--region", "hand-edited"]}}}` + "\n",
		".mcp-lsp/sync.json": `{"version": 1, "entries": [{"source": "ext/tmpl.json", "target": ".cursor/mcp.json", "tool": "cursor", "server": "x",
			"hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}]` + vars + `}`,
	})
}

// TestUpdateFromTemplateResolvesEveryVariable: "Update from <template>"
// resolves the template as mcp-lsp sync does (mcpsync.TemplateValues): the
// root, the Python of the .venv beside it, and the --var values recorded
// at its last sync; nothing of the form {{...}} is written, and the drift
// goes away.
func TestUpdateFromTemplateResolvesEveryVariable(t *testing.T) {
	c, ed, dir := templateProject(t, "full", `, "vars": {"ext/tmpl.json": {"region": "eu"}}`)
	path := filepath.Join(dir, ".cursor", "mcp.json")
	uri := ed.open(path)
	diags := ed.latestDiagnostics(path)
	if !slices.ContainsFunc(diags, func(d protocol.Diagnostic) bool { return d.Code == "sync-drift" }) {
		t.Fatalf("no sync-drift: %v", diags)
	}
	text, _ := ed.content(path)
	actions, _ := c.codeActions(uri, markerRange(t, text, `"|x"`), diags, "quickfix")
	a := actionTitled(t, actions, "Update from ext/tmpl.json")
	if a.Disabled != nil || a.Edit == nil {
		t.Fatalf("update not offered with its edit: %+v", a)
	}
	ed.apply(a.Edit)
	got, _ := ed.content(path)
	for _, want := range []string{
		`"command": "` + filepath.Join(dir, "ext", ".venv", "bin", "python") + `"`,
		`"eu"`, `"` + dir + `"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("updated entry lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "{{") || strings.Contains(got, "hand-edited") {
		t.Errorf("updated entry:\n%s", got)
	}
	// The target's buffer and the records on disk change; once the
	// server has both, the drift is gone.
	c.waitDiagnostics(uri, "no drift after the update", func(p publishParams) bool {
		return versionIs(p, ed.version(path)) && !hasCode(p, "sync-drift")
	})
}

// TestUpdateFromTemplateReportsUnresolved: with no value for {{region}}
// (never given with --var, or not recorded), "Update from" is offered
// disabled, saying which variable and how to give it, and hover says so;
// a client that cannot show a disabled action gets none. Nothing is
// written with a {{...}} in it.
func TestUpdateFromTemplateReportsUnresolved(t *testing.T) {
	c, ed, dir := templateProject(t, "full", "")
	path := filepath.Join(dir, ".cursor", "mcp.json")
	uri := ed.open(path)
	diags := ed.latestDiagnostics(path)
	text, _ := ed.content(path)
	actions, _ := c.codeActions(uri, markerRange(t, text, `"|x"`), diags, "quickfix")
	a := actionTitled(t, actions, "Update from ext/tmpl.json")
	if a.Disabled == nil || a.Edit != nil {
		t.Fatalf("update offered with an edit: %+v", a)
	}
	for _, want := range []string{"{{region}}", "line 1", "--var NAME=VALUE"} {
		if !strings.Contains(a.Disabled.Reason, want) {
			t.Errorf("reason lacks %q: %s", want, a.Disabled.Reason)
		}
	}
	if h := c.hover(uri, markerRange(t, text, `"|x"`).Start); !strings.Contains(h, "{{region}}") || !strings.Contains(h, "changed by hand since (drift)") {
		t.Errorf("hover does not say why there is no update:\n%s", h)
	}

	c2, ed2, dir2 := templateProject(t, "no-create-no-disabled", "")
	path2 := filepath.Join(dir2, ".cursor", "mcp.json")
	uri2 := ed2.open(path2)
	actions2, _ := c2.codeActions(uri2, markerRange(t, text, `"|x"`), ed2.latestDiagnostics(path2), "quickfix")
	if slices.ContainsFunc(actions2, func(a wireAction) bool { return strings.HasPrefix(a.Title, "Update from") }) {
		t.Errorf("a client without disabled actions got %q", titlesOf(actions2))
	}
}

// TestConvertToOffered: "Convert to <Tool>" on a server of .mcp.json is
// offered for each tool that can hold it and does not read .mcp.json
// already (Claude Code and Copilot CLI do), Codex CLI included; Claude
// Desktop takes no remote server, and only Claude Code speaks WebSocket.
// A target with syntax errors gets the action disabled, with the reason.
func TestConvertToOffered(t *testing.T) {
	text := `{"mcpServers": {
  "local": {"command": "npx", "args": ["fs"]},
  "remote": {"type": "http", "url": "https://x/mcp"},
  "ws": {"type": "ws", "url": "wss://x/mcp"}
}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text, ".roo/mcp.json": `{"mcpServers": {"local": `})
	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	converts := func(name string) ([]string, []wireAction) {
		actions, _ := c.codeActions(uri, markerRange(t, text, `"|`+name+`"`), nil, "refactor")
		var out []string
		var all []wireAction
		for _, a := range actions {
			if tool, ok := strings.CutPrefix(a.Title, "Convert to "); ok {
				out = append(out, tool)
				all = append(all, a)
			}
		}
		return out, all
	}
	local, actions := converts("local")
	if want := []string{"Claude Desktop (in ~/.config/Claude/claude_desktop_config.json)", "Codex CLI", "Cursor", "Gemini CLI", "OpenCode", "Roo Code", "VS Code", "Zed"}; !slices.Equal(local, want) {
		t.Errorf("local: %q, want %q", local, want)
	}
	roo := actionTitled(t, actions, "Convert to Roo Code")
	if roo.Disabled == nil || !strings.Contains(roo.Disabled.Reason, ".roo/mcp.json has syntax errors") {
		t.Errorf("a broken target: %+v", roo.Disabled)
	}
	if remote, _ := converts("remote"); slices.ContainsFunc(remote, func(s string) bool { return strings.HasPrefix(s, "Claude Desktop") }) || !slices.Contains(remote, "Codex CLI") {
		t.Errorf("remote: %q", remote)
	}
	if ws, _ := converts("ws"); len(ws) != 0 {
		t.Errorf("ws: %q, want none", ws)
	}
}
