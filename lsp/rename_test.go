package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Renaming "café" in .mcp.json renames it everywhere the tools launched
// here see it: the entry (in a CRLF file, after non-ASCII text), the same
// server in ~/.claude.json and ~/.copilot/mcp-config.json, Claude Code's
// approval lists in ~/.claude.json and .claude/settings.local.json, and
// Gemini CLI's mcp.allowed and mcp.excluded (which ignore case).
func TestRenameServer(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	files := map[string]string{
		".mcp.json":                     "{\r\n  \"mcpServers\": {\r\n    \"café\": {\"command\": \"npx\", \"args\": [\"ü\"]},\r\n    \"taken\": {\"command\": \"x\"}\r\n  }\r\n}\r\n",
		".claude/settings.local.json":   `{"enabledMcpjsonServers": ["café", "other"]}`,
		".gemini/settings.json":         `{"mcpServers": {"café": {"command": "npx"}}, "mcp": {"allowed": ["café"], "excluded": ["CAFÉ", "x"]}}`,
		"home/.claude.json":             `{"mcpServers": {"café": {"command": "npx"}}, "projects": {"` + dir + `": {"hasTrustDialogAccepted": true, "disabledMcpjsonServers": ["café"]}}}`,
		"home/.copilot/mcp-config.json": `{"mcpServers": {"café": {"command": "npx"}, "other": {"command": "y"}}}`,
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initializeCaps(dir, map[string]any{"workspace": map[string]any{"configuration": true, "workspaceEdit": map[string]any{"documentChanges": true}}})
	mcp := filepath.Join(dir, ".mcp.json")
	uri := c.open(mcp, files[".mcp.json"])
	name := protocol.Position{Line: 2, Character: 7} // inside "café"

	var rng protocol.Range
	if err := c.call(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: name}}, &rng); err != nil {
		t.Fatal(err)
	}
	if want := (protocol.Range{Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 9}}); rng != want {
		t.Errorf("prepareRename %v, want the name inside its quotes %v", rng, want)
	}
	err := c.call(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 2, Character: 14}}}, &rng)
	if err == nil || !strings.Contains(err.Error(), "only a server's name") {
		t.Errorf("prepareRename on a field: %v, want a refusal", err)
	}

	rename := func(newName string) (*workspaceEditResult, error) {
		var we workspaceEditResult
		err := c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: name}, NewName: newName}, &we)
		return &we, err
	}
	for newName, want := range map[string]string{
		"taken":     `already has a server named "taken"`,
		"":          "cannot be empty",
		"workspace": "reserved",
		"a}b":       `"a}b"`,
	} {
		if _, err := rename(newName); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("rename to %q: %v, want an error with %q", newName, err, want)
		}
	}

	we, err := rename(`café "2"`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var places []string
	for _, dc := range we.DocumentChanges {
		p, _ := uriToPath(dc.TextDocument.URI)
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		text := []byte(files[rel])
		if dc.TextDocument.URI == uri && (dc.TextDocument.Version == nil || *dc.TextDocument.Version != 1) {
			t.Errorf("the open buffer's edit has version %v, want 1", dc.TextDocument.Version)
		}
		m := NewMapper(text)
		slices.SortFunc(dc.Edits, func(a, b protocol.TextEdit) int {
			return int(b.Range.Start.Line*1000+b.Range.Start.Character) - int(a.Range.Start.Line*1000+a.Range.Start.Character)
		})
		for _, e := range dc.Edits {
			places = append(places, rel+" "+formatRange(e.Range))
			sp, err := m.Span(e.Range)
			if err != nil {
				t.Fatal(err)
			}
			text = append(text[:sp.Start:sp.Start], append([]byte(e.NewText), text[sp.End:]...)...)
		}
		got[rel] = string(text)
	}
	slices.Sort(places)
	gemini := files[".gemini/settings.json"]
	want := []string{
		".claude/settings.local.json 0:27-0:33",
		".gemini/settings.json 0:16-0:22",
		".gemini/settings.json 0:" + col16(t, gemini, `["café"]`, 1) + "-0:" + col16(t, gemini, `["café"]`, 8),
		".gemini/settings.json 0:" + col16(t, gemini, `["CAFÉ"`, 1) + "-0:" + col16(t, gemini, `["CAFÉ"`, 8),
		".mcp.json 2:4-2:10",
		"home/.claude.json 0:16-0:22",
		"home/.claude.json 0:" + col16(t, files["home/.claude.json"], `["café"]`, 1) + "-0:" + col16(t, files["home/.claude.json"], `["café"]`, 8),
		"home/.copilot/mcp-config.json 0:16-0:22",
	}
	slices.Sort(want)
	if !slices.Equal(places, want) {
		t.Errorf("renamed places\n%s\nwant\n%s", strings.Join(places, "\n"), strings.Join(want, "\n"))
	}
	for rel, text := range got {
		if strings.Contains(strings.ToLower(text), `"café"`) {
			t.Errorf("%s still names café:\n%s", rel, text)
		}
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Errorf("%s is no longer JSON: %v\n%s", rel, err, text)
		}
	}
	if !strings.Contains(got[".mcp.json"], "\r\n    \"café \\\"2\\\"\": {\"command\"") {
		t.Errorf(".mcp.json after rename:\n%q", got[".mcp.json"])
	}
}

// col16 is the UTF-16 column of the i-th byte of the last occurrence of
// sub in text (one line).
func col16(t *testing.T, text, sub string, i int) string {
	t.Helper()
	off := strings.LastIndex(text, sub)
	if off < 0 {
		t.Fatalf("%q not in %q", sub, text)
	}
	p, err := NewMapper([]byte(text)).OffsetPosition(off + i)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(p.Character)
}

type workspaceEditResult struct {
	DocumentChanges []struct {
		TextDocument struct {
			URI     protocol.DocumentURI `json:"uri"`
			Version *int32               `json:"version"`
		} `json:"textDocument"`
		Edits []protocol.TextEdit `json:"edits"`
	} `json:"documentChanges"`
}

// Renaming a server in Codex CLI's config.toml renames every key naming
// its table: its [mcp_servers.<name>] header and the headers of its
// sub-tables in the user file (CRLF, non-ASCII text), its key in an inline
// table after non-ASCII text in the trusted project's file, to a
// non-ASCII name that TOML must quote; the renamed files parse with the server under its new
// name. A rename that would break a file is refused.
func TestRenameInCodexTOML(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	files := map[string]string{
		"home/.codex/config.toml": "# ü: 日本\r\n[mcp_servers.docs]\r\ncommand = \"npx\"\r\n\r\n[mcp_servers.docs.env]\r\nA = \"1\"\r\n\r\n[mcp_servers.other]\r\ncommand = \"docs\"\r\n\r\n[projects.\"" + filepath.ToSlash(proj) + "\"]\r\ntrust_level = \"trusted\"\r\n",
		"proj/.codex/config.toml": "mcp_servers = { \"ü日\" = { command = \"x\" }, docs = { args = [\"-y\"] } }\nmcp_servers_note = \"docs\"\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initializeCaps(proj, map[string]any{"workspace": map[string]any{"configuration": true, "workspaceEdit": map[string]any{"documentChanges": true}}})
	user := filepath.Join(home, ".codex", "config.toml")
	uri := c.open(user, files["home/.codex/config.toml"])
	name := protocol.Position{Line: 1, Character: 15} // inside docs of [mcp_servers.docs]

	var rng protocol.Range
	if err := c.call(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: name}}, &rng); err != nil {
		t.Fatal(err)
	}
	if want := (protocol.Range{Start: protocol.Position{Line: 1, Character: 13}, End: protocol.Position{Line: 1, Character: 17}}); rng != want {
		t.Errorf("prepareRename %v, want %v", rng, want)
	}
	rename := func(newName string) (*workspaceEditResult, error) {
		var we workspaceEditResult
		err := c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: name}, NewName: newName}, &we)
		return &we, err
	}
	if _, err := rename("other"); err == nil || !strings.Contains(err.Error(), `already has a server named "other"`) {
		t.Errorf("rename to a taken name: %v", err)
	}
	// From the name in a sub-table's header, the same rename.
	sub := protocol.Position{Line: 4, Character: 15} // inside docs of [mcp_servers.docs.env]
	if err := c.call(protocol.MethodTextDocumentPrepareRename, protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: sub}}, &rng); err != nil {
		t.Fatal(err)
	}
	if want := (protocol.Range{Start: protocol.Position{Line: 4, Character: 13}, End: protocol.Position{Line: 4, Character: 17}}); rng != want {
		t.Errorf("prepareRename in the sub-table's header %v, want %v", rng, want)
	}
	var fromSub workspaceEditResult
	if err := c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: sub}, NewName: "dócs ü"}, &fromSub); err != nil {
		t.Fatal(err)
	}
	we, err := rename("dócs ü")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var places []string
	for _, dc := range we.DocumentChanges {
		p, _ := uriToPath(dc.TextDocument.URI)
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		text := []byte(files[rel])
		m := NewMapper(text)
		slices.SortFunc(dc.Edits, func(a, b protocol.TextEdit) int {
			return int(b.Range.Start.Line*1000+b.Range.Start.Character) - int(a.Range.Start.Line*1000+a.Range.Start.Character)
		})
		for _, e := range dc.Edits {
			places = append(places, rel+" "+formatRange(e.Range)+" "+e.NewText)
			sp, err := m.Span(e.Range)
			if err != nil {
				t.Fatal(err)
			}
			text = append(text[:sp.Start:sp.Start], append([]byte(e.NewText), text[sp.End:]...)...)
		}
		got[rel] = string(text)
	}
	slices.Sort(places)
	want := []string{
		`home/.codex/config.toml 1:13-1:17 "dócs ü"`,
		`home/.codex/config.toml 4:13-4:17 "dócs ü"`,
		"proj/.codex/config.toml 0:" + col16(t, files["proj/.codex/config.toml"], "docs =", 0) + "-0:" + col16(t, files["proj/.codex/config.toml"], "docs =", 4) + ` "dócs ü"`,
	}
	if !slices.Equal(places, want) {
		t.Errorf("renamed places\n%s\nwant\n%s", strings.Join(places, "\n"), strings.Join(want, "\n"))
	}
	flat := func(we *workspaceEditResult) string {
		var out []string
		for _, dc := range we.DocumentChanges {
			for _, e := range dc.Edits {
				out = append(out, fmt.Sprint(dc.TextDocument.URI, " ", formatRange(e.Range), " ", e.NewText))
			}
		}
		slices.Sort(out)
		return strings.Join(out, "\n")
	}
	if a, b := flat(&fromSub), flat(we); a != b {
		t.Errorf("rename from the sub-table's header\n%s\ndiffers from the rename from the table's\n%s", a, b)
	}
	if w := "# ü: 日本\r\n[mcp_servers.\"dócs ü\"]\r\ncommand = \"npx\"\r\n\r\n[mcp_servers.\"dócs ü\".env]\r\n"; !strings.HasPrefix(got["home/.codex/config.toml"], w) {
		t.Errorf("user config.toml after rename:\n%q", got["home/.codex/config.toml"])
	}
	for rel, text := range got {
		f := toml.Parse([]byte(text))
		servers := f.Root.Get("mcp_servers")
		if len(f.Errors) > 0 || servers == nil || servers.Value.Get("dócs ü") == nil || servers.Value.Get("docs") != nil {
			t.Errorf("%s after rename (errors %v):\n%s", rel, f.Errors, text)
		}
	}
	if !strings.Contains(got["home/.codex/config.toml"], "command = \"docs\"") {
		t.Errorf("a value equal to the name was renamed:\n%q", got["home/.codex/config.toml"])
	}
}

// Renaming a synced server renames its records in .mcp-lsp/sync.json
// with it (the name only; the hash covers the entry), where the rename
// edits both the source and the target, so the next mcp-lsp sync neither
// writes the old name again nor reports drift. A record of another server,
// or whose target the rename leaves alone, is kept.
func TestRenameKeepsSyncRecords(t *testing.T) {
	records := "{\r\n  \"version\": 1,\r\n  \"entries\": [\r\n" +
		"    {\"source\": \".mcp.json\", \"target\": \".gemini/settings.json\", \"tool\": \"gemini\", \"server\": \"café\", \"hash\": \"sha256:1\"},\r\n" +
		"    {\"source\": \".mcp.json\", \"target\": \"gone/mcp.json\", \"tool\": \"cursor\", \"server\": \"café\", \"hash\": \"sha256:2\"},\r\n" +
		"    {\"source\": \".mcp.json\", \"target\": \".gemini/settings.json\", \"tool\": \"gemini\", \"server\": \"other\", \"hash\": \"sha256:3\"}\r\n" +
		"  ]\r\n}\r\n"
	mcp := "{\"mcpServers\": {\r\n  \"café\": {\"command\": \"npx\"}, \"other\": {\"command\": \"y\"}}}\r\n"
	c, ed, dir := actionProject(t, "full", map[string]string{
		".mcp.json":             mcp,
		".gemini/settings.json": `{"mcpServers": {"café": {"command": "npx"}, "other": {"command": "y"}}}`,
		".mcp-lsp/sync.json":    records,
	})
	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	var we workspaceEditResult
	at := markerRange(t, mcp, `"ca|fé"`).Start
	if err := c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: at}, NewName: "thé-☕"}, &we); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, dc := range we.DocumentChanges {
		p, _ := uriToPath(dc.TextDocument.URI)
		if filepath.Base(p) != "sync.json" {
			continue
		}
		text := []byte(records)
		m := NewMapper(text)
		for _, e := range dc.Edits {
			got = append(got, formatRange(e.Range)+" "+e.NewText)
			if _, err := m.Span(e.Range); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := markerRange(t, records, `"server": |"café"|`) // the first record's
	if want := []string{formatRange(r) + ` "thé-☕"`}; !slices.Equal(got, want) {
		t.Errorf("sync.json edits %v, want %v", got, want)
	}
}
