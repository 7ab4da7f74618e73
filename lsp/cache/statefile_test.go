package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// claudeJSON writes a ~/.claude.json the shape Claude Code writes
// (JSON.stringify with two-space indentation): user servers, then projects
// each with a prompt history of entries of about 2 KB (escapes and
// non-ASCII included), a server and the approval keys. 70 projects of 500
// entries make the 69 MB file of issue 11. Two mistakes are planted for
// analysis to find: an empty command in the last project's server, and a
// server named "workspace" (reserved) among the user servers; and one for
// it to miss: a duplicate key inside a history entry, which no reader
// reads. The projects' servers pin their package (no unpinned-package
// note among the findings).
func claudeJSON(projects, entries int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"numStartups\": 412,\n  \"mcpServers\": {\n    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://api.githubcopilot.com/mcp/\"\n    },\n    \"workspace\": {\n      \"command\": \"npx\"\n    }\n  },\n  \"projects\": {\n")
	prompt := strings.Repeat(`please refactor the \"handler\"; keep the café's tests\n`, 36)
	for p := range projects {
		fmt.Fprintf(&b, "    \"/home/user/src/project-%02d\": {\n      \"allowedTools\": [],\n      \"history\": [\n", p)
		for e := range entries {
			fmt.Fprintf(&b, "        {\n          \"display\": \"#%d %s\",\n          \"pastedContents\": {},\n          \"pastedContents\": {}\n        }", e, prompt)
			if e < entries-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		command := "uvx"
		if p == projects-1 {
			command = ""
		}
		fmt.Fprintf(&b, "      ],\n      \"mcpServers\": {\n        \"local-%02d\": {\n          \"type\": \"stdio\",\n          \"command\": %q,\n          \"args\": [\n            \"mcp-server-git==2025.1.14\"\n          ]\n        }\n      },\n", p, command)
		b.WriteString("      \"enabledMcpjsonServers\": [],\n      \"disabledMcpjsonServers\": [],\n      \"hasTrustDialogAccepted\": true,\n      \"projectOnboardingSeenCount\": 3\n    }")
		if p < projects-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  },\n  \"hasCompletedOnboarding\": true\n}\n")
	return b.Bytes()
}

// stateFileSetup writes a ~/.claude.json of the given size in a fake home.
func stateFileSetup(t *testing.T, projects, entries int) (path string, content []byte, opts DiagnoseOptions) {
	t.Helper()
	home := t.TempDir()
	path = filepath.Join(home, ".claude.json")
	content = claudeJSON(projects, entries)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, content, DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: home, GOOS: "linux"}}
}

// line is the 0-based line of offset in content.
func line(content []byte, offset int) int { return bytes.Count(content[:offset], []byte("\n")) }

// TestStateFileAnalysedForItsMCPPartsOnly: the skimmed ~/.claude.json gets
// exactly the findings of the fully parsed one, less those in the parts no
// reader reads (the duplicate key in the history).
func TestStateFileAnalysedForItsMCPPartsOnly(t *testing.T) {
	path, content, opts := stateFileSetup(t, 4, 30)
	snap := NewSession(nil, nil).Snapshot()
	f, skimmed, ok := snap.Diagnose(path, opts)
	if !ok || f.ReadErr != nil {
		t.Fatalf("not diagnosed: %v", f.ReadErr)
	}
	if root := snap.Parse(f).Root; root.Get("numStartups") != nil || root.Get("projects").Value.Members()[0].Value.Get("history") != nil {
		t.Fatal("the parts no reader reads were parsed")
	}
	kind, _ := snap.Match(path, opts)
	full := rules.AnalyzeFile(rules.FileInput{Path: path, Content: content, Parsed: jsonc.Parse(content), Kind: kind, Registry: opts.Registry})
	var want []rules.Diagnostic
	history := 0
	for _, d := range full {
		if d.Code == rules.CodeDuplicateKey && strings.Contains(string(content[d.Span.Start:d.Span.End]), "pastedContents") {
			history++
			continue
		}
		want = append(want, d)
	}
	if history == 0 {
		t.Fatal("the planted duplicate in the history was not found by the full parse: the test proves nothing")
	}
	codes := func(ds []rules.Diagnostic) (out []string) {
		for _, d := range ds {
			out = append(out, fmt.Sprintf("%d:%s", line(content, d.Span.Start), d.Code))
		}
		return out
	}
	if !slices.EqualFunc(skimmed, want, func(a, b rules.Diagnostic) bool {
		return a.Span == b.Span && a.Code == b.Code && a.Message == b.Message
	}) {
		t.Fatalf("skimmed findings %v, want %v", codes(skimmed), codes(want))
	}
	if len(want) < 2 {
		t.Fatalf("want the planted mistakes, got %v", codes(want))
	}
}

// TestStateFile69MB: on the 69 MB ~/.claude.json of issue 11 the history is
// skipped, and the findings point at the right lines; reading it again
// after the disk is forgotten costs nothing while it is unchanged.
func TestStateFile69MB(t *testing.T) {
	saved := racyWindow
	racyWindow = 0
	defer func() { racyWindow = saved }()
	path, content, opts := stateFileSetup(t, 70, 500)
	if len(content) < 65<<20 {
		t.Fatalf("generated %d bytes, want about 69 MB", len(content))
	}
	s := NewSession(nil, nil)
	snap := s.Snapshot()
	f, found, _ := snap.Diagnose(path, opts)
	wantLines := map[string]int{
		rules.CodeEmptyCommand:       line(content, bytes.Index(content, []byte(`"command": ""`))),
		rules.CodeReservedServerName: line(content, bytes.Index(content, []byte(`"workspace": {`))),
	}
	got := map[string]int{}
	for _, d := range found {
		got[d.Code] = line(content, d.Span.Start)
	}
	for code, l := range wantLines {
		if got[code] != l {
			t.Errorf("%s on line %d, want %d (all: %v)", code, got[code], l, got)
		}
	}
	if len(found) != len(wantLines) {
		t.Errorf("findings %v, want only %v", got, wantLines)
	}
	root := snap.Parse(f).Root
	projects := root.Get("projects").Value
	if len(projects.Members()) != 70 {
		t.Fatalf("%d projects", len(projects.Members()))
	}
	for _, p := range projects.Members() {
		var keys []string
		for _, m := range p.Value.Members() {
			keys = append(keys, m.Key.Str)
		}
		if want := []string{"mcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers", "hasTrustDialogAccepted"}; !slices.Equal(keys, want) {
			t.Fatalf("%s keeps %v, want %v", p.Key.Str, keys, want)
		}
		m := p.Value.Get("mcpServers")
		if !bytes.HasPrefix(content[m.Span.Start:], []byte(`"mcpServers": {`)) || content[m.Span.End-1] != '}' {
			t.Fatalf("%s: mcpServers spans %q...", p.Key.Str, content[m.Span.Start:m.Span.Start+20])
		}
	}
	if again := s.ForgetDisk().File(path); again != f {
		t.Error("the unchanged state file was read again after the disk was forgotten")
	}
}

// BenchmarkReadStateFile measures what a change of the 69 MB
// ~/.claude.json costs the server: the read (regular file, capped) and the
// skim, then what every later snapshot pays while it is unchanged (a stat):
//
//	go test ./lsp/cache -run X -bench StateFile -benchmem
func BenchmarkReadStateFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), ".claude.json")
	if err := os.WriteFile(path, claudeJSON(70, 500), 0o644); err != nil {
		b.Fatal(err)
	}
	saved := racyWindow
	racyWindow = 0
	defer func() { racyWindow = saved }()
	b.Run("read+skim", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			snap := NewSession(nil, nil).Snapshot()
			if f := snap.File(path); snap.Parse(f).Root == nil {
				b.Fatal("no tree")
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		s := NewSession(nil, nil)
		first := s.Snapshot()
		first.Parse(first.File(path))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			snap := s.ForgetDisk()
			if f := snap.File(path); snap.Parse(f).Root == nil {
				b.Fatal("no tree")
			}
		}
	})
}
