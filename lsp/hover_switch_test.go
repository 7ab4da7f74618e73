package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHoverSaysWhyNoSwitch: Cursor keeps no per-server switch in its
// files, so the editor offers no "Disable in Cursor"; hover on the
// server's name says why. Claude Code has one (its settings lists): its
// .mcp.json entry gets no such line, and a field's hover none either.
func TestHoverSaysWhyNoSwitch(t *testing.T) {
	files := map[string]string{
		".cursor/mcp.json": "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"node\", \"args\": [\"/srv/db.js\"]}\n  }\n}\n",
		".mcp.json":        "{\n  \"mcpServers\": {\n    \"web\": {\"command\": \"node\", \"args\": [\"/srv/web.js\"]}\n  }\n}\n",
	}
	c, ed, dir := actionProject(t, "full", files)

	cursor := filepath.Join(dir, ".cursor", "mcp.json")
	uri := ed.open(cursor)
	text, _ := ed.content(cursor)
	got := c.hover(uri, markerRange(t, text, `"|db"`).Start)
	if want := `No "Disable in Cursor": Cursor has no per-server switch in its files`; !strings.Contains(got, want) {
		t.Errorf("hover on the Cursor server's name lacks %q:\n%s", want, got)
	}
	if field := c.hover(uri, markerRange(t, text, `"|command"`).Start); strings.Contains(field, "Disable in") {
		t.Errorf("hover on a field speaks of switches:\n%s", field)
	}

	mcp := filepath.Join(dir, ".mcp.json")
	muri := ed.open(mcp)
	mtext, _ := ed.content(mcp)
	if h := c.hover(muri, markerRange(t, mtext, `"|web"`).Start); strings.Contains(h, `No "Disable in Claude Code"`) {
		t.Errorf("Claude Code has a switch, yet hover says it has none:\n%s", h)
	}
}
