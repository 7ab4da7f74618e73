package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestConvertReusingMatchesAFreshConversion: diagnostics converted with
// the last version's conversions (convertReusing) are those a fresh
// conversion gives, for edits at the end, inside a line, adding a line,
// a line break for a space (the same offsets on other lines), and removing
// a finding, in a CRLF file with non-ASCII text (UTF-16
// positions) and related places in the file; and the findings before the
// edit are taken over, not converted again.
func TestConvertReusingMatchesAFreshConversion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	server := func(i int, pkg string) string {
		return fmt.Sprintf("    \"sérver-%02d 🚀\": {\"command\": \"npx\", \"args\": [\"-y\", %q], \"env\": {\"KEY\": \"é%d\"}}", i, pkg, i)
	}
	file := func(edit func(lines []string) []string) string {
		lines := []string{"{", "  \"mcpServers\": {"}
		var servers []string
		for i := range 40 {
			servers = append(servers, server(i, fmt.Sprintf("@exämple/pkg-%d", i)))
		}
		// A duplicate name: a finding with a related place in the file.
		servers = append(servers, server(3, "@exämple/again"))
		lines = append(lines, strings.Join(servers, ",\r\n"), "  }", "}")
		if edit != nil {
			lines = edit(lines)
		}
		return strings.Join(lines, "\r\n") + "\r\n"
	}
	base := file(nil)
	if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := cache.DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Base: rules.Config{}, Folders: []cache.Folder{{Path: dir}}}
	s := cache.NewSession(nil, nil)
	version := int32(0)
	analyse := func(content string) (*cache.Snapshot, *cache.File, []rules.Diagnostic) {
		version++
		snap := s.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{Path: path, URI: string(pathToURI(path)), Version: version, Content: []byte(content)}}}, nil)
		f, found, ok := snap.Diagnose(path, opts)
		if !ok || len(found) < 40 {
			t.Fatalf("%d findings, want one per server at least", len(found))
		}
		return snap, f, found
	}
	snap, f, found := analyse(base)
	_, prev := convertReusing(newLocator(snap, nil), f, found, nil, nil)
	if !anyFinding(found, func(d rules.Diagnostic) bool { return len(d.Related) > 0 && d.Related[0].Path == "" }) {
		t.Fatal("no finding with a related place in the file")
	}

	middle := strings.Index(base, "pkg-20")
	for _, c := range []struct {
		name    string
		content string
		reused  bool // findings before the edit exist
	}{
		{"whitespace at the end", base + " ", true},
		{"a character inside a line", base[:middle] + "é" + base[middle:], true},
		{"a line added", base[:middle] + "x\\u00e9\r\n" + base[middle:], true},
		{"a finding removed", strings.Replace(base, `"npx", "args": ["-y", "@exämple/pkg-30"]`, `"node", "args": ["s.js"]`, 1), true},
		{"a space made a line break", strings.Replace(base, `"command": "npx", "args": ["-y", "@exämple/pkg-20"]`, "\"command\":\n\"npx\", \"args\": [\"-y\", \"@exämple/pkg-20\"]", 1), true},
		{"at the start", " " + base, false},
	} {
		snap, f, found := analyse(c.content)
		got, next := convertReusing(newLocator(snap, nil), f, found, prev, nil)
		want := convertDiagnostics(newLocator(snap, nil), f, found, nil)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: reusing gives\n%v\nwant\n%v", c.name, got, want)
		}
		if c.reused && next.reused == 0 {
			t.Errorf("%s: no finding before the edit was taken over", c.name)
		}
		if !c.reused && next.reused != 0 {
			t.Errorf("%s: %d findings taken over after the text changed before them", c.name, next.reused)
		}
		prev = next
	}
}

func anyFinding(ds []rules.Diagnostic, f func(rules.Diagnostic) bool) bool {
	for _, d := range ds {
		if f(d) {
			return true
		}
	}
	return false
}
