package lsp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestConvertReusingMatchesAFreshConversion: diagnostics converted with
// the last version's conversions (convertReusing) are those a fresh
// conversion gives, for edits at the end, inside a line, adding a line,
// a line break for a space (the same offsets on other lines), removing a
// line or a finding, in a CRLF file with non-ASCII text (UTF-16
// positions) and related places in the file; and the findings before the
// edit, and those on the lines after it (moved by the lines it added or
// removed), are taken over, not converted again.
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
	prevOut, prev := convertReusing(newLocator(snap, nil), f, found, nil, nil) // each edit is one of base
	if !anyFinding(found, func(d rules.Diagnostic) bool { return len(d.Related) > 0 && d.Related[0].Path == "" }) {
		t.Fatal("no finding with a related place in the file")
	}

	middle := strings.Index(base, "pkg-20")
	lineOf := func(sub string) int { return strings.LastIndex(base[:strings.Index(base, sub)], "\n") + 1 }
	for _, c := range []struct {
		name    string
		content string
		reused  bool // findings before the edit exist
		rebased bool // findings on the lines after it exist
	}{
		{"whitespace at the end", base + " ", true, false},
		{"a character inside a line", base[:middle] + "é" + base[middle:], true, true},
		{"a character replaced", base[:middle] + "X" + base[middle+1:], true, true},
		{"a broken line added", base[:middle] + "x\\u00e9\r\n" + base[middle:], true, false}, // the servers after it are not read
		{"a line added", base[:lineOf("pkg-20")] + "    \"nouveau é\": {\"command\": \"node\", \"args\": [\"s.js\"]},\r\n" + base[lineOf("pkg-20"):], true, true},
		{"a line removed", base[:lineOf("pkg-20")] + base[lineOf("pkg-21"):], true, true},
		{"a finding removed", strings.Replace(base, `"npx", "args": ["-y", "@exämple/pkg-30"]`, `"node", "args": ["s.js"]`, 1), true, true},
		{"a space made a line break", strings.Replace(base, `"command": "npx", "args": ["-y", "@exämple/pkg-20"]`, "\"command\":\n\"npx\", \"args\": [\"-y\", \"@exämple/pkg-20\"]", 1), true, true},
		{"the duplicate's related place moved", strings.Replace(base, `"sérver-03 🚀": {"command"`, "\"sérver-03 🚀\":\r\n{\"command\"", 1), true, true},
		{"at the start", " " + base, false, true},
		{"at the start and the end", " " + base + " ", false, false},
		{"nothing", base, true, false},
	} {
		snap, f, found := analyse(c.content)
		got, next := convertReusing(newLocator(snap, nil), f, found, prev, nil)
		want := convertDiagnostics(newLocator(snap, nil), f, found, nil)
		if !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%s: diagnostic %d: reusing gives\n%+v\nwant\n%+v", c.name, i, got[i], want[i])
					break
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d diagnostics, want %d", c.name, len(got), len(want))
			}
		}
		// Findings before the edit, and how many were taken over.
		prefix, _ := span.CommonEnds([]byte(prev.content), []byte(c.content))
		before := 0
		for _, d := range found {
			if d.Span.End < prefix && (len(d.Related) == 0 || d.Related[0].Span.End < prefix) {
				before++
			}
		}
		if c.reused != (before > 0) || c.reused && next.reused < before {
			t.Errorf("%s: %d findings before the edit, %d taken over", c.name, before, next.reused)
		}
		if rebased := next.reused - before; c.rebased != (rebased > 0) {
			t.Errorf("%s: %d findings after the edit taken over, want some: %v", c.name, rebased, c.rebased)
		}
		// The same text and findings (a new analysis of a new buffer
		// with the same bytes): the last list is the result as it is.
		if same := c.content == base; same != (len(got) > 0 && &got[0] == &prevOut[0]) {
			t.Errorf("%s: the last list returned as it is: %v, want %v", c.name, !same, same)
		}
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

// TestConvertReusingRandomEdits: after any chain of edits (insertions and
// deletions of line breaks, CRLF, non-ASCII text and JSON punctuation
// anywhere, valid JSON or not), reusing the last conversion gives exactly
// a fresh conversion.
func TestConvertReusingRandomEdits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	var b strings.Builder
	b.WriteString("{\r\n  \"mcpServers\": {\r\n")
	for i := range 30 {
		fmt.Fprintf(&b, "    \"sérver-%02d 🚀\": {\"command\": \"npx\", \"args\": [\"-y\", \"@exämple/pkg-%d\"]},\r\n", i, i)
	}
	b.WriteString("    \"sérver-03 🚀\": {\"command\": \"npx\"}\r\n  }\r\n}\r\n")
	base := b.String()
	if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := cache.DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Folders: []cache.Folder{{Path: dir}}}
	s := cache.NewSession(nil, nil)
	rng := rand.New(rand.NewPCG(11, 11))
	inserts := []string{"", " ", "\n", "\r", "\r\n", "é", "🚀", "x", `"`, ",", "}", "{", `"a": 1,`, "\r\n    \"nouveau\": {\"command\": \"npx\"},"}
	var prev *converted
	content := base
	reused := 0
	for v := range 150 {
		if v%50 == 0 {
			content = base
		} else {
			at := rng.IntN(len(content) + 1)
			for at < len(content) && !utf8.RuneStart(content[at]) {
				at++
			}
			end := at
			for range rng.IntN(4) {
				if end < len(content) {
					_, size := utf8.DecodeRuneInString(content[end:])
					end += size
				}
			}
			content = content[:at] + inserts[rng.IntN(len(inserts))] + content[end:]
		}
		snap := s.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{Path: path, URI: string(pathToURI(path)), Version: int32(v + 1), Content: []byte(content)}}}, nil)
		f, found, ok := snap.Diagnose(path, opts)
		if !ok {
			t.Fatal("not analysed")
		}
		got, next := convertReusing(newLocator(snap, nil), f, found, prev, nil)
		want := convertDiagnostics(newLocator(snap, nil), f, found, nil)
		if !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("edit %d: diagnostic %d: reusing gives\n%+v\nwant\n%+v\ntext:\n%q", v, i, got[i], want[i], content)
				}
			}
			t.Fatalf("edit %d: %d diagnostics, want %d", v, len(got), len(want))
		}
		reused += next.reused
		prev = next
	}
	if reused == 0 {
		t.Error("nothing was ever taken over")
	}
}
