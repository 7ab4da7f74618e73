package rules

import (
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// duplicates runs the duplicate-key check on src as the file at path, with
// the readers' duplicateName effects changed by set (nil: as registered).
func duplicates(t *testing.T, path, src string, set func(*registry.Reader)) []Diagnostic {
	t.Helper()
	kind := *kindFor(t, path)
	kind.Readers = append([]registry.Reader(nil), kind.Readers...)
	for i := range kind.Readers {
		if set != nil {
			fx := *kind.Readers[i].Effects
			kind.Readers[i].Effects = &fx
			set(&kind.Readers[i])
		}
	}
	return duplicateKeys(FileInput{Path: path, Content: []byte(src), Parsed: jsonc.Parse([]byte(src)), Kind: &kind, Registry: registry.Default()})
}

// TestDuplicateNameReadsTheRegistry: of a server name defined twice, what
// each reader does is its registry effect (duplicateName), not one idea
// of the rule's; of any other key, the JSON parser keeps the last.
func TestDuplicateNameReadsTheRegistry(t *testing.T) {
	src := `{"mcpServers": {"a": {"command": "x", "command": "y"}, "a": {"command": "z"}}}`

	// Claude Code (verified) and Copilot CLI (inferred) keep the last.
	ds := duplicates(t, "/work/proj/.mcp.json", src, nil)
	if len(ds) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(ds), ds)
	}
	for _, d := range ds {
		if d.Severity != SeverityWarning || d.Message[:len(`duplicate key "`)] != `duplicate key "` {
			t.Errorf("last-wins readers: %s %q", d.Severity, d.Message)
		}
	}

	// A reader that refuses the whole configuration makes it an error
	// naming the tool; the inner duplicate "command" stays the parser's.
	ds = duplicates(t, "/work/proj/.mcp.json", src, func(r *registry.Reader) {
		if r.Tool == "copilot-cli" {
			r.Effects.DuplicateName.Effect = registry.RefusesWholeConfig
		}
	})
	wantOne(t, ds[:1], CodeDuplicateKey, spanOf(t, src, `"a"`, 0), SeverityError,
		`server "a" is defined twice: GitHub Copilot CLI refuses the whole configuration; Claude Code keeps the last one`)
	if len(ds) != 2 || ds[1].Severity != SeverityWarning || ds[1].Data["key"] != "command" {
		t.Errorf("the duplicate inside an entry: %+v", ds[1:])
	}

	// Where the registry does not know (Claude Desktop), the finding says so.
	desktop := `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "z"}}}`
	wantOne(t, duplicates(t, "/home/u/.config/Claude/claude_desktop_config.json", desktop, nil), CodeDuplicateKey,
		spanOf(t, desktop, `"a"`, 0), SeverityWarning, `server "a" is defined twice: which one Claude Desktop uses is not known`)
}
