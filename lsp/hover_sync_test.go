package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

// TestHoverShowsDrift: on the name of an entry sync wrote and someone
// changed by hand, hover shows both versions (this file's and the
// source's), secrets masked; on a field of it, and on an entry in sync,
// it adds nothing.
func TestHoverShowsDrift(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	scen, err := os.ReadFile(filepath.Join("..", "testdata", "scenarios", "rule-sync-drift.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range txtar.Parse(scen).Files {
		if f.Name != "want.json" {
			files[f.Name] = string(f.Data)
		}
	}
	// A secret in the source, which hover must not show.
	files[".mcp.json"] = strings.Replace(files[".mcp.json"], `"args": ["--read-only"]`, `"args": ["--read-only"], "env": {"TOKEN": "`+secret+`"}`, 1)
	c, ed, dir := actionProject(t, "full", files)
	path := filepath.Join(dir, "opencode.json")
	uri := ed.open(path)
	text, _ := ed.content(path)
	got := c.hover(uri, markerRange(t, text, `"|db"`).Start)
	for _, want := range []string{"**Synced from .mcp.json**, changed by hand since (drift)", `"--read-write"`, `"--read-only"`, "From .mcp.json:", `"TOKEN": "••••••"`} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, secret) {
		t.Errorf("hover shows the secret:\n%s", got)
	}
	if field := c.hover(uri, markerRange(t, text, `"|command"`).Start); strings.Contains(field, "Synced from") {
		t.Errorf("hover on a field shows the sync section:\n%s", field)
	}
	src := filepath.Join(dir, ".mcp.json")
	suri := ed.open(src)
	stext, _ := ed.content(src)
	if h := c.hover(suri, markerRange(t, stext, `"|db"`).Start); strings.Contains(h, "Synced from") {
		t.Errorf("hover on the source shows the sync section:\n%s", h)
	}
}

// TestDriftFollowsRecordsOnDisk: a sync run in a terminal writes the
// records; once the client reports the change, the open target that was
// changed by hand shows sync-drift, and it goes when the records go.
func TestDriftFollowsRecordsOnDisk(t *testing.T) {
	scen, err := os.ReadFile(filepath.Join("..", "testdata", "scenarios", "rule-sync-drift.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var records string
	for _, f := range txtar.Parse(scen).Files {
		switch f.Name {
		case "want.json":
		case ".mcp-lsp/sync.json":
			records = string(f.Data)
		default:
			files[f.Name] = string(f.Data)
		}
	}
	c, ed, dir := actionProject(t, "full", files)
	path := filepath.Join(dir, "opencode.json")
	uri := ed.open(path)
	c.waitDiagnostics(uri, "no records, no drift", func(p publishParams) bool { return versionIs(p, 1) && !hasCode(p, "sync-drift") })
	recs := filepath.Join(dir, ".mcp-lsp", "sync.json")
	mustWrite(t, recs, records)
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(recs), Type: protocol.FileChangeTypeCreated}}})
	c.waitDiagnostics(uri, "drift once recorded", func(p publishParams) bool { return hasCode(p, "sync-drift") })
	if err := os.Remove(recs); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathToURI(recs), Type: protocol.FileChangeTypeDeleted}}})
	c.waitDiagnostics(uri, "no drift without records", func(p publishParams) bool { return !hasCode(p, "sync-drift") })
}

// TestHoverShowsDriftInCodexTOML: in Codex CLI's config.toml, hover on the
// name of a [mcp_servers.<name>] table sync wrote and someone changed shows
// both versions too, written as the TOML tables they are, secrets masked;
// on the table's keys and on a table in sync it adds nothing.
func TestHoverShowsDriftInCodexTOML(t *testing.T) {
	scen, err := os.ReadFile(filepath.Join("..", "testdata", "scenarios", "rule-sync-drift-codex.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range txtar.Parse(scen).Files {
		if f.Name != "want.json" {
			files[f.Name] = string(f.Data)
		}
	}
	c, ed, dir := actionProject(t, "full", files)
	path := filepath.Join(dir, ".codex", "config.toml")
	uri := ed.open(path)
	text, _ := ed.content(path)
	got := c.hover(uri, markerRange(t, text, `[mcp_servers.|db]`).Start)
	for _, want := range []string{"**Synced from .mcp.json**, changed by hand since (drift)", "```toml", `args = ["--read-write"]`, `args = ["--read-only"]`, "From .mcp.json:", `PGHOST = "••••••"`} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "localhost") {
		t.Errorf("hover shows an env value:\n%s", got)
	}
	if field := c.hover(uri, markerRange(t, text, `|command = "psql-mcp"`).Start); strings.Contains(field, "Synced from") {
		t.Errorf("hover on a key shows the sync section:\n%s", field)
	}
	if h := c.hover(uri, markerRange(t, text, `[mcp_servers.|docs]`).Start); strings.Contains(h, "Synced from") {
		t.Errorf("hover on a table in sync shows the sync section:\n%s", h)
	}
}

// TestHoverShowsTemplateValues: in a sync template (a file no tool reads),
// hover on a {{...}} shows the value mcp-lsp sync substitutes there: the
// project root, the Python of the .venv beside it, a --var value recorded
// at its last sync; an unknown variable says it has no value and how to
// give it.
func TestHoverShowsTemplateValues(t *testing.T) {
	text := `{"mcpServers": {"x": {"command": "{{runtime.python}}", "args": ["--region", "{{region}}", "--home", "{{root}}", "{{nope}}"]}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{
		"ext/tmpl.json":        text,
		"ext/.venv/bin/python": "",
		".mcp-lsp/sync.json":   `{"version": 1, "entries": [], "vars": {"ext/tmpl.json": {"region": "eu"}}}`,
	})
	uri := ed.open(filepath.Join(dir, "ext", "tmpl.json"))
	for _, tc := range []struct{ at, want string }{
		{"{{runtime.|python}}", "`" + filepath.Join(dir, "ext", ".venv", "bin", "python") + "`"},
		{"{{reg|ion}}", "is `eu`: the value given with `--var`"},
		{"{{|root}}", "is `" + dir + "`: the project root"},
		{"{{no|pe}}", "has no value here"},
	} {
		if got := c.hover(uri, markerRange(t, text, tc.at).Start); !strings.Contains(got, tc.want) {
			t.Errorf("hover at %s lacks %q:\n%s", tc.at, tc.want, got)
		}
	}
	if got := c.hover(uri, markerRange(t, text, `"|command"`).Start); got != "" {
		t.Errorf("hover outside a placeholder: %s", got)
	}
}
