package cache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// BenchmarkDiagnoseEdit is the analysis half of an edit of a 1,000-server
// .mcp.json open in a workspace folder, in process (no JSON-RPC): a new
// buffer version, then Diagnose as the server's worker calls it (command
// lookup on, cross-file analysis over the folder). The built-server
// benchmark (cmd/mcp-lsp, BenchmarkServer) measures what the user feels;
// this one isolates the part a profile of it attributes to the cache:
//
//	go test ./lsp/cache -run X -bench DiagnoseEdit -benchmem
func BenchmarkDiagnoseEdit(b *testing.B) {
	path, text, opts := diagnoseBenchSetup(b)
	benchDiagnoseEdits(b, path, opts, func(v int32) string { return text + strings.Repeat(" ", int(v)%2+1) })
}

// benchDiagnoseEdits opens version 1 of path, then times new versions
// (content(v) for v = 2, 3, ...) each diagnosed as the server's worker
// does, reporting the CPU time per edit besides the wall time.
func benchDiagnoseEdits(b *testing.B, path string, opts DiagnoseOptions, content func(v int32) string) {
	s := NewSession(nil, nil)
	edit := func(v int32) {
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: v, Content: []byte(content(v))}}}, nil)
		if _, found, ok := snap.Diagnose(path, opts); !ok || len(found) == 0 {
			b.Fatal("no diagnostics")
		}
	}
	edit(1)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchgen.ProcessCPU()
	n := 0
	for i := 0; b.Loop(); i++ {
		edit(int32(i + 2))
		n++
	}
	// The machine is shared: CPU time (both cores, GC included) moves
	// less with the load than the wall time does.
	b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// BenchmarkDiagnoseOpen is the analysis half of opening the same file in
// a new session: nothing is cached, every entry is judged.
//
//	go test ./lsp/cache -run X -bench DiagnoseOpen -benchmem
func BenchmarkDiagnoseOpen(b *testing.B) {
	path, text, opts := diagnoseBenchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		s := NewSession(nil, nil)
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: 1, Content: []byte(text)}}}, nil)
		if _, found, ok := snap.Diagnose(path, opts); !ok || len(found) == 0 {
			b.Fatal("no diagnostics")
		}
	}
}

// diagnoseBenchSetup writes the 1,000-server file in a workspace folder
// and returns its path, its text and the server's default options.
func diagnoseBenchSetup(b testing.TB) (string, string, DiagnoseOptions) {
	root := b.TempDir()
	home := filepath.Join(root, "home")
	folder := filepath.Join(root, "project")
	for _, d := range []string{home, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	text := string(benchgen.MCPJSON(1000, true, true))
	path := filepath.Join(folder, ".mcp.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	opts := DiagnoseOptions{
		Registry: registry.Default(),
		Env:      registry.Env{Home: home, GOOS: "linux"},
		Base:     rules.Config{CommandLookup: true},
		Folders:  []Folder{{Path: folder}},
	}
	return path, text, opts
}

// BenchmarkWorkspaceEdit is the cross-file half of an edit inside one
// server of the 1,000-server .mcp.json (one character typed in an
// argument of the middle server, which moves every server after it): the
// workspace's effective configurations and cross-file findings
// (Snapshot.Workspace), the file already parsed and its entries' verdicts
// cached, as the per-file analysis leaves them.
//
//	go test ./lsp/cache -run X -bench WorkspaceEdit -benchmem
func BenchmarkWorkspaceEdit(b *testing.B) {
	path, text, opts := diagnoseBenchSetup(b)
	s := NewSession(nil, nil)
	at := strings.Index(text, "@example/server-500\"") + len("@example/server-500")
	snapshot := func(v int32) *Snapshot {
		// Typing in the argument: one, then two characters, then one.
		content := text[:at] + strings.Repeat("x", int(v)%2+1) + text[at:]
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: v, Content: []byte(content)}}}, nil)
		if _, _, ok := snap.Diagnose(path, DiagnoseOptions{Registry: opts.Registry, Env: opts.Env, Base: opts.Base}); !ok {
			b.Fatal("not diagnosed")
		}
		return snap
	}
	snapshot(1).Workspace(opts)
	b.ReportAllocs()
	b.ResetTimer()
	var cpu time.Duration
	n := 0
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		snap := snapshot(int32(i + 2))
		b.StartTimer()
		c := benchgen.ProcessCPU()
		if w := snap.Workspace(opts); len(w.Results) == 0 {
			b.Fatal("no effective configurations")
		}
		cpu += benchgen.ProcessCPU() - c
		n++
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// BenchmarkLensesAndHints is what codeLens and inlayHint on the whole
// 1,000-server .mcp.json compute after an edit inside one server, the
// effective configurations already computed for the diagnostics
// (effective.Lenses and effective.InlayHints; the conversion to the
// wire is the lsp package's).
//
//	go test ./lsp/cache -run X -bench LensesAndHints -benchmem
func BenchmarkLensesAndHints(b *testing.B) {
	path, text, opts := diagnoseBenchSetup(b)
	s := NewSession(nil, nil)
	at := strings.Index(text, "@example/server-500\"") + len("@example/server-500")
	for _, what := range []string{"lenses", "hints"} {
		b.Run(what, func(b *testing.B) {
			var cpu time.Duration
			n := 0
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				content := text[:at] + strings.Repeat("x", i%2+1) + text[at:]
				snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: int32(i + 1), Content: []byte(content)}}}, nil)
				snap.Workspace(opts)
				kind, _ := snap.Match(path, opts)
				f := snap.Parse(snap.File(path))
				b.StartTimer()
				c := benchgen.ProcessCPU()
				switch what {
				case "lenses":
					if len(effective.Lenses(effective.LensInput{Path: path, File: f, Kind: kind, Results: snap.Effective(opts.Folders[0].Path, "", opts), Registry: opts.Registry, Display: func(p string) string { return DisplayPath(p, opts) }})) == 0 {
						b.Fatal("no lenses")
					}
				case "hints":
					if len(effective.InlayHints(effective.HintInput{File: f, Kind: kind, Registry: opts.Registry, IsSet: func(string) bool { return false }})) == 0 {
						b.Fatal("no hints")
					}
				}
				cpu += benchgen.ProcessCPU() - c
				n++
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
		})
	}
}
