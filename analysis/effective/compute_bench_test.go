package effective

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// benchWorld is the 1,000-server .mcp.json of issue 11's benchmarks in
// a project folder, edited inside one server (at: after server 500's
// package name), each version parsed once, outside the timer.
type benchWorld struct {
	folder, path string
	text         string
	at           int
	env          registry.Env
	verdicts     *verdict.Cache
}

func newBenchWorld(b *testing.B) *benchWorld {
	text := string(benchgen.MCPJSON(1000, true, true))
	folder := filepath.FromSlash("/bench/project")
	return &benchWorld{
		folder: folder, path: filepath.Join(folder, ".mcp.json"), text: text,
		at:       strings.Index(text, `@example/server-500"`) + len(`@example/server-500`),
		env:      registry.Env{Home: filepath.FromSlash("/bench/home"), GOOS: "linux"},
		verdicts: verdict.NewCache(),
	}
}

// version parses the file with typed inserted in server 500's argument.
func (w *benchWorld) version(typed string) func(string) *jsonc.File {
	f := jsonc.Parse([]byte(w.text[:w.at] + typed + w.text[w.at:]))
	return func(p string) *jsonc.File {
		if p == w.path {
			return f
		}
		return nil
	}
}

// workspace computes what lsp/cache's Workspace does for the folder: the
// effective configuration of each tool in use (Survey), then the
// cross-file findings.
func (w *benchWorld) workspace(files func(string) *jsonc.File, prev []*Result) []*Result {
	reg := registry.Default()
	shared := &Shared{}
	var out []*Result
	for _, tool := range reg.Tools() {
		if tool.Profile == nil {
			continue
		}
		in := Input{Tool: tool, Env: w.env, LaunchDir: w.folder, Folders: []string{w.folder}, Files: files, Registry: reg, Verdicts: w.verdicts, Shared: shared}
		for _, p := range prev {
			if p.Tool == tool {
				in.Prev = p
			}
		}
		if _, own := Survey(in); !own {
			continue
		}
		out = append(out, Compute(in))
	}
	CrossFile(out, func(p string) string { return p })
	return out
}

// BenchmarkComputeEdit is the cross-file pass of an edit inside one
// server of the 1,000-server .mcp.json (a character typed in server 500's
// argument, which moves every server after it): every reader's effective
// configuration from the previous ones, and the cross-file findings.
//
//	go test ./analysis/effective -run X -bench ComputeEdit -benchmem
func BenchmarkComputeEdit(b *testing.B) {
	w := newBenchWorld(b)
	prev := w.workspace(w.version(""), nil)
	typed := ""
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		typed += "x"
		files := w.version(typed)
		b.StartTimer()
		c := benchgen.ProcessCPU()
		prev = w.workspace(files, prev)
		cpu += benchgen.ProcessCPU() - c
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkComputeCold is the same pass on the file's first analysis:
// every entry judged, nothing to reuse.
//
//	go test ./analysis/effective -run X -bench ComputeCold -benchmem
func BenchmarkComputeCold(b *testing.B) {
	w := newBenchWorld(b)
	files := w.version("")
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		w.verdicts = verdict.NewCache()
		b.StartTimer()
		c := benchgen.ProcessCPU()
		w.workspace(files, nil)
		cpu += benchgen.ProcessCPU() - c
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
