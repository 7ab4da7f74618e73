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

// A server in Codex CLI's config.toml is named in every table header under
// it ([mcp_servers.x] and [mcp_servers.x.env]): rename refuses rather than
// leave half of them behind.
func TestRenameRefusesTOML(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	toml := filepath.Join(home, ".codex", "config.toml")
	text := "[mcp_servers.docs]\ncommand = \"npx\"\n\n[mcp_servers.docs.env]\nA = \"1\"\n"
	if err := os.MkdirAll(filepath.Dir(toml), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(toml, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initialize(dir)
	uri := c.open(toml, text)
	var we json.RawMessage
	err := c.call(protocol.MethodTextDocumentRename, protocol.RenameParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 0, Character: 14}},
		NewName:                    "docs2",
	}, &we)
	if err == nil || !strings.Contains(err.Error(), "TOML") {
		t.Errorf("rename in config.toml: %v %s, want a refusal naming TOML", err, we)
	}
}
