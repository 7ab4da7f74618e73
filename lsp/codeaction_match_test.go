package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// Published diagnostics carry no data: a quick fix is found by matching
// the diagnostic the client echoes to the snapshot's finding by code and
// range (quickFixActions, findingOf). These tests drive that over a
// JSON-RPC pipe; testdata/codeactions covers every quick fix by title.

// matchText has a non-ASCII server name (a UTF-16 surrogate pair before
// the findings on their line) and CRLF line ends.
const matchText = "{\r\n  \"mcpServers\": {\r\n    \"fé🙂\": {\"type\": \"local\", \"command\": \"npx\", \"args\": [\"-y\", \"pkg@1.0.0\"]}\r\n  }\r\n}\r\n"

// diagnosticOf returns the published diagnostic with code.
func diagnosticOf(t *testing.T, ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if d.Code == code {
			return d
		}
	}
	t.Fatalf("no %s diagnostic in %+v", code, ds)
	return protocol.Diagnostic{}
}

func quickFixTitles(t *testing.T, c *testClient, uri protocol.DocumentURI, d protocol.Diagnostic) []string {
	t.Helper()
	actions, _ := c.codeActions(uri, d.Range, []protocol.Diagnostic{d}, "quickfix")
	return titlesOf(actions)
}

// TestPublishedDiagnosticsCarryNoDataAndStillGetTheirFixes: no
// diagnostic published over the pipe carries data, and each one echoed
// back (its range in UTF-16 after an emoji, on a CRLF line) gets the
// fixes of its finding, naming it.
func TestPublishedDiagnosticsCarryNoDataAndStillGetTheirFixes(t *testing.T) {
	c, ed, dir := actionProject(t, "eager", map[string]string{".mcp.json": matchText})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	diags := ed.latestDiagnostics(path)
	for _, d := range diags {
		if d.Data != nil {
			t.Errorf("%v %s carries data: %v", d.Code, formatRange(d.Range), d.Data)
		}
	}
	for code, want := range map[string][]string{
		"type-not-accepted":   {`quickfix: Change type to "stdio"`},
		"windows-cmd-wrapper": {`quickfix: Run "npx" through cmd /c`},
	} {
		d := diagnosticOf(t, diags, code)
		if d.Range.Start.Line != 2 {
			t.Fatalf("%s on line %d, want 2 (the CRLF line after the emoji)", code, d.Range.Start.Line)
		}
		actions, _ := c.codeActions(uri, d.Range, []protocol.Diagnostic{d}, "quickfix")
		if got := titlesOf(actions); !slices.Equal(got, want) {
			t.Errorf("%s: actions %v, want %v", code, got, want)
			continue
		}
		if len(actions[0].Diagnostics) != 1 || !strings.Contains(string(actions[0].Diagnostics[0]), `"code":"`+code+`"`) {
			t.Errorf("%s: the action does not echo the diagnostic it fixes: %s", code, actions[0].Diagnostics)
		}
		// Applied, the fix edits the right bytes (UTF-16 after the
		// emoji, CRLF kept).
		ed.apply(actions[0].Edit)
	}
	got, _ := ed.content(path)
	want := strings.Replace(strings.Replace(matchText, `"local"`, `"stdio"`, 1), `"command": "npx", "args": [`, `"command": "cmd", "args": ["/c", "npx", `, 1)
	if got != want {
		t.Errorf("after both fixes:\n%q\nwant\n%q", got, want)
	}
}

// TestStaleDiagnosticGetsNoFix: a diagnostic the client still shows from
// an older version gets no fix when the current text has no finding of
// its code at its range, even where its old data would still apply (the
// command at the same range, now "bun": wrapping it in cmd /c would be
// wrong), and when the finding moved (an edit above it).
func TestStaleDiagnosticGetsNoFix(t *testing.T) {
	c, ed, dir := actionProject(t, "eager", map[string]string{".mcp.json": matchText})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	old := diagnosticOf(t, ed.latestDiagnostics(path), "windows-cmd-wrapper")
	if got := quickFixTitles(t, c, uri, old); len(got) != 1 {
		t.Fatalf("fresh diagnostic: actions %v, want one fix", got)
	}

	// The command at the same range is now one that needs no wrapper.
	bun := strings.Replace(matchText, `"npx"`, `"bun"`, 1)
	c.change(uri, nil, bun)
	ed.buffers[path] = bun
	for _, d := range ed.latestDiagnostics(path) {
		if d.Code == "windows-cmd-wrapper" {
			t.Fatalf("bun still gets %s: the test needs a command without a wrapper", d.Code)
		}
	}
	if got := quickFixTitles(t, c, uri, old); len(got) != 0 {
		t.Errorf("stale diagnostic on a command that needs no wrapper: actions %v, want none", got)
	}

	// Back to npx, one line lower: the old range no longer holds the
	// finding; the new one does.
	moved := strings.Replace(matchText, "{\r\n", "{\r\n\r\n", 1)
	c.change(uri, nil, moved)
	ed.buffers[path] = moved
	now := diagnosticOf(t, ed.latestDiagnostics(path), "windows-cmd-wrapper")
	if now.Range == old.Range {
		t.Fatalf("the finding did not move: %s", formatRange(now.Range))
	}
	if got := quickFixTitles(t, c, uri, old); len(got) != 0 {
		t.Errorf("stale range: actions %v, want none", got)
	}
	if got := quickFixTitles(t, c, uri, now); !slices.Equal(got, []string{`quickfix: Run "npx" through cmd /c`}) {
		t.Errorf("current range: actions %v", got)
	}

	// A diagnostic of another code at the finding's range, or of another
	// source, gets nothing.
	other := now
	other.Code = "unknown-key"
	if got := quickFixTitles(t, c, uri, other); len(got) != 0 {
		t.Errorf("another code at the range: actions %v, want none", got)
	}
	foreign := now
	foreign.Source = "json"
	if got := quickFixTitles(t, c, uri, foreign); len(got) != 0 {
		t.Errorf("another source: actions %v, want none", got)
	}
}

// TestQuickFixesOnlyForDiagnosticsInTheRange: a client that sends every
// diagnostic of the file (LSP says: the ones overlapping the range) gets
// the fixes of those at the range only, not one per diagnostic of the
// file.
func TestQuickFixesOnlyForDiagnosticsInTheRange(t *testing.T) {
	c, ed, dir := actionProject(t, "eager", map[string]string{".mcp.json": matchText})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	all := ed.latestDiagnostics(path)
	typ := diagnosticOf(t, all, "type-not-accepted")
	diagnosticOf(t, all, "windows-cmd-wrapper") // sent too, out of the range
	cursor := protocol.Range{Start: typ.Range.End, End: typ.Range.End}
	actions, _ := c.codeActions(uri, cursor, all, "quickfix")
	if got := titlesOf(actions); !slices.Equal(got, []string{`quickfix: Change type to "stdio"`}) {
		t.Errorf("actions %v, want the type's fix only", got)
	}
}
