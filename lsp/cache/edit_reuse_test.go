package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// editWork is what a session has computed so far, per kind of per-entry
// work: verdicts (one per entry and reader), the effective engine's
// fields of a server (one per entry and tool), the rules' findings (one
// per entry and memo).
type editWork struct{ verdicts, fields, findings int }

func (s *Session) editWork() editWork {
	return editWork{int(s.analysis.Verdicts.Judged()), int(s.analysis.Verdicts.Derivations()), s.analysis.Computed()}
}

func (w editWork) minus(o editWork) editWork {
	return editWork{w.verdicts - o.verdicts, w.fields - o.fields, w.findings - o.findings}
}

// TestEditRedoesOnlyTheEditedEntry: in a workspace folder, with command
// lookup on (the server's defaults), an edit of one server of a
// 300-server .mcp.json, which moves every server after it, judges that
// server only, for each of the file's three readers; the effective
// engine resolves its fields only, and the rules find its findings only.
// The findings are those of a session that never saw the file. Counts,
// not time: a cache keyed by position, or by the whole file, fails it.
func TestEditRedoesOnlyTheEditedEntry(t *testing.T) {
	root := t.TempDir()
	folder := filepath.Join(root, "project")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 300
	file := func(edited string) string {
		var b strings.Builder
		b.WriteString("{\n  \"mcpServers\": {\n")
		for i := range n {
			pkg := fmt.Sprintf("@example/server-%d", i)
			if i == n/2 {
				pkg = edited
			}
			fmt.Fprintf(&b, "    \"server-%03d\": {\"command\": \"npx\", \"args\": [\"-y\", %q], \"env\": {\"LEVEL\": \"%d\"}},\n", i, pkg, i)
		}
		b.WriteString("    \"remote\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}\n  }\n}\n")
		return b.String()
	}
	path := filepath.Join(folder, ".mcp.json")
	opts := DiagnoseOptions{
		Registry: registry.Default(),
		Env:      registry.Env{Home: filepath.Join(root, "home"), GOOS: "linux"},
		Base:     rules.Config{CommandLookup: true},
		Folders:  []Folder{{Path: folder}},
	}
	kind, _ := NewSession(nil, nil).Snapshot().Match(path, opts)
	readers := len(kind.Readers)
	if readers < 2 {
		t.Fatalf(".mcp.json in a workspace folder has %d readers; the test wants several", readers)
	}
	diagnose := func(s *Session, v int32, content string) []rules.Diagnostic {
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: v, Content: []byte(content)}}}, nil)
		_, found, ok := snap.Diagnose(path, opts)
		if !ok || len(found) < n {
			t.Fatalf("version %d: %d findings, want one per npx server at least", v, len(found))
		}
		return found
	}

	s := NewSession(nil, nil)
	diagnose(s, 1, file("@example/old"))
	opened := s.editWork()
	if opened.verdicts < n*readers || opened.fields < n || opened.findings < n {
		t.Fatalf("opening did %+v for %d servers and %d readers: the counters do not count", opened, n, readers)
	}
	edited := file("@example/a-longer-name-that-moves-every-server-after-it")
	got := diagnose(s, 2, edited)
	w := s.editWork().minus(opened)
	if w.verdicts < 1 || w.verdicts > readers {
		t.Errorf("the edit of one server judged %d entries, want one per reader (%d)", w.verdicts, readers)
	}
	if w.fields < 1 || w.fields > readers {
		t.Errorf("the edit of one server resolved the fields of %d, want at most one per tool (%d)", w.fields, readers)
	}
	if w.findings < 1 || w.findings > 3 {
		t.Errorf("the edit of one server ran the rules on %d entries, want that one's (3 memos)", w.findings)
	}

	// The same edit again (a whitespace change after the last brace, as
	// the benchmark's): nothing is computed again.
	diagnose(s, 3, edited+" ")
	if again := s.editWork().minus(opened).minus(w); again != (editWork{}) {
		t.Errorf("an edit outside every entry did %+v again, want nothing", again)
	}

	if cold := diagnose(NewSession(nil, nil), 1, edited); !reflect.DeepEqual(got, cold) {
		t.Errorf("findings after the edit differ from a fresh session's:\n%v\nwant:\n%v", got, cold)
	}
}
