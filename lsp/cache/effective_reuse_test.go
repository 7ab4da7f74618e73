package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestEffectiveEditReusesTheOtherServers: an edit inside one server of a
// 300-server .mcp.json (CRLF line ends, non-ASCII text before the edited
// server, an edit that changes its length) computes the workspace's
// effective configurations from the previous ones. Every other server
// keeps its verdict and merged fields; every definition points into the
// new text (each name's span holds the name); the servers defined only
// in ~/.claude.json are the very same objects; and the results and the
// cross-file findings are those of a session that never saw the file.
// A change of a gate file (Claude Code's approval lists) counts at once.
func TestEffectiveEditReusesTheOtherServers(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	folder := filepath.Join(root, "project")
	for _, d := range []string{home, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// ~/.claude.json: one server of its own, one the project overrides
	// (shadowed and overrides findings in .mcp.json, after the edit).
	user := `{"mcpServers": {"only-user": {"command": "uvx", "args": ["only-user"]}, "server-250": {"command": "uvx", "args": ["user-250"]}}}`
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 300
	file := func(edited string) string {
		var b strings.Builder
		b.WriteString("{\r\n  \"mcpServers\": {\r\n")
		for i := range n {
			arg := fmt.Sprintf("@example/server-%d", i)
			if i == n/2 {
				arg = edited
			}
			desc := ""
			if i%7 == 0 {
				desc = `, "description": "café ☕ 日本語 \u00e9 𝄞"`
			}
			args := fmt.Sprintf(`["-y", %q]`, arg)
			if i == 260 || i == 270 {
				args = `["-y", "@example/twin"]` // started twice, after the edit
			}
			if i == 20 {
				args = `"not-an-array"` // Kilo Code refuses the whole file
			}
			fmt.Fprintf(&b, "    \"server-%03d\": {\"command\": \"npx\", \"args\": %s%s},\r\n", i, args, desc)
		}
		b.WriteString("    \"remote\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}\r\n  }\r\n}\r\n")
		return b.String()
	}
	path := filepath.Join(folder, ".mcp.json")
	settings := filepath.Join(folder, ".claude", "settings.json")
	opts := DiagnoseOptions{
		Registry: registry.Default(),
		Env:      registry.Env{Home: home, GOOS: "linux"},
		Base:     rules.Config{CommandLookup: true},
		Folders:  []Folder{{Path: folder}},
	}
	open := func(s *Session, v int32, files map[string]string) *Snapshot {
		var mods []Modification
		for p, c := range files {
			mods = append(mods, Modification{Path: p, Overlay: &Overlay{Path: p, URI: "file://" + p, Version: v, Content: []byte(c)}})
		}
		return s.Modify(mods, nil)
	}
	approve := func(disabled string) string {
		return fmt.Sprintf(`{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": [%q]}`, disabled)
	}

	s := NewSession(nil, nil)
	before := open(s, 1, map[string]string{path: file("@example/old"), settings: approve("server-010")})
	old := before.Workspace(opts).Results
	edited := file("@example/a-longer-name, with ☕, that moves every server after it")
	after := open(s, 2, map[string]string{path: edited})
	// Forget every verdict (as the bounded cache does with old ones): the
	// other entries' come from the previous results, or are judged again.
	s.analysis.Verdicts.Reset()
	judged := s.analysis.Verdicts.Judged()
	w := after.Workspace(opts)
	if j := s.analysis.Verdicts.Judged() - judged; j < 1 || j > 4 {
		t.Errorf("the edit of one server judged %d entries, want that one, once per reader of the file (4)", j)
	}

	tools := map[registry.ToolID]bool{}
	for _, r := range w.Results {
		tools[r.Tool.ID] = true
	}
	for _, id := range []registry.ToolID{"claude-code", "copilot-cli", "vscode", "kilo-code"} {
		if !tools[id] {
			t.Fatalf("no effective configuration of %s; the test wants the four readers of .mcp.json", id)
		}
	}
	find := func(rs []*effective.Result, id registry.ToolID) *effective.Result {
		for _, r := range rs {
			if r.Tool.ID == id {
				return r
			}
		}
		t.Fatalf("no result of %s", id)
		return nil
	}
	content := []byte(edited)
	for _, r := range w.Results {
		prev := find(old, r.Tool.ID)
		was := map[string]*effective.Server{}
		for _, srv := range prev.Servers {
			was[srv.Name] = srv
		}
		for _, srv := range r.Servers {
			for _, d := range srv.Definitions {
				if d.Source.Path == path {
					if got := string(content[r.Member(d).Key.Span.Start:r.Member(d).Key.Span.End]); got != fmt.Sprintf("%q", srv.Name) {
						t.Errorf("%s: %s's name spans %q in the new text", r.Tool.ID, srv.Name, got)
					}
				}
			}
			p := was[srv.Name]
			if p == nil {
				t.Fatalf("%s: %s is new", r.Tool.ID, srv.Name)
			}
			switch {
			case srv.Name == fmt.Sprintf("server-%03d", n/2):
				if srv.Definitions[0].Verdict != nil && srv.Definitions[0].Verdict == p.Definitions[0].Verdict {
					t.Errorf("%s: the edited server kept its verdict", r.Tool.ID)
				}
			case srv.Name == "only-user":
				if r.Tool.ID == "claude-code" && srv != p {
					t.Errorf("%s: %s, defined in ~/.claude.json only, was computed again", r.Tool.ID, srv.Name)
				}
			default:
				for i, d := range srv.Definitions {
					if d.Verdict != p.Definitions[i].Verdict {
						t.Errorf("%s: %s's definition %d was judged again", r.Tool.ID, srv.Name, i)
					}
				}
			}
		}
	}

	// The same as a session that never saw the file.
	cold := open(NewSession(nil, nil), 1, map[string]string{path: edited, settings: approve("server-010")}).Workspace(opts)
	compareWorkspaces(t, w, cold)

	// A gate file changed: server-020's approval goes, server-010's comes.
	gated := open(s, 3, map[string]string{settings: approve("server-020")}).Workspace(opts)
	gate := func(ws *WorkspaceAnalysis, name string) effective.GateState {
		for _, srv := range find(ws.Results, "claude-code").Servers {
			if srv.Name == name {
				return srv.Definitions[0].Gate.State
			}
		}
		t.Fatalf("no %s", name)
		return ""
	}
	if g10, g20 := gate(gated, "server-010"), gate(gated, "server-020"); g10 == effective.GateRejected || g20 != effective.GateRejected {
		t.Errorf("after the approval lists changed: server-010 %q, server-020 %q; want it no longer rejected, and server-020 rejected", g10, g20)
	}
	compareWorkspaces(t, gated, open(NewSession(nil, nil), 1, map[string]string{path: edited, settings: approve("server-020")}).Workspace(opts))
}

// compareWorkspaces fails unless got and want say the same: the same
// cross-file findings, and for each tool the same sources and servers,
// with their definitions at the same places.
func compareWorkspaces(t *testing.T, got, want *WorkspaceAnalysis) {
	t.Helper()
	if !reflect.DeepEqual(got.CrossFile, want.CrossFile) {
		t.Errorf("cross-file findings differ from a fresh session's:\n%v\nwant:\n%v", got.CrossFile, want.CrossFile)
	}
	if len(got.Results) != len(want.Results) {
		t.Fatalf("%d results, want %d", len(got.Results), len(want.Results))
	}
	for i, g := range got.Results {
		if a, b := describeResult(g), describeResult(want.Results[i]); a != b {
			t.Errorf("%s's effective configuration differs from a fresh session's:\n%s\nwant:\n%s", g.Tool.ID, a, b)
		}
	}
}

// describeResult writes down all a result says, positions included.
func describeResult(r *effective.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s: refused %q", r.Tool.ID, r.LaunchDir, r.Refused)
	if r.Stopped != nil {
		fmt.Fprintf(&b, " stopped by %s", r.Stopped.Path)
	}
	b.WriteString("\n")
	for _, src := range r.Sources {
		fmt.Fprintf(&b, "source %+v\n", *src)
	}
	def := func(d *effective.Definition) string {
		if d == nil {
			return "none"
		}
		v := "no verdict"
		if d.Verdict != nil {
			v = fmt.Sprintf("%s %v", d.Verdict.Outcome, d.Verdict.Reasons)
		}
		return fmt.Sprintf("%s@%v-%v gate %+v, %s", d.Source.Path, r.Member(d).Key.Span, r.Member(d).Value.Span, d.Gate, v)
	}
	for _, s := range r.Servers {
		fmt.Fprintf(&b, "server %s enabled %v variables %q ignored %q merged %v winner %s\n", s.Name, s.Enabled, s.Variables, s.Ignored, s.Merged != nil, def(s.Winner))
		for _, d := range s.Definitions {
			fmt.Fprintf(&b, "  def %s\n", def(d))
		}
		for _, f := range s.Fields {
			fmt.Fprintf(&b, "  field %s from %s at %v\n", f.Key, def(f.From), r.FieldMember(f).Span)
		}
	}
	return b.String()
}
