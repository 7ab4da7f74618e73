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
