package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// workspaceKind is .mcp.json directly in a workspace folder, as the
// language server sees it: read by Claude Code, Copilot CLI, VS Code and
// (no .kilocode/mcp.json or .cursor/mcp.json beside it) Kilo Code.
func workspaceKind(tb testing.TB) *registry.FileKind {
	k, ok := registry.Default().MatchIn("/p/.mcp.json", registry.Env{Home: "/home/u", GOOS: "linux"}, []string{"/p"}, func(string) bool { return false })
	if !ok {
		tb.Fatal("no kind for /p/.mcp.json")
	}
	return k
}

// lookupResolver finds every command but "missing-*", and remembers
// nothing (the language server's lookups are cached per session).
type lookupResolver struct{}

func (lookupResolver) LookPath(command, dir string) bool {
	return !strings.HasPrefix(command, "missing-")
}
func (lookupResolver) FileExists(path string) bool { return false }

// BenchmarkAnalyzeEditInsideServer is what the language server's per-file
// analysis costs on a keystroke inside one server of the 1,000-server
// file (genconfig.py claude 1000 --errors, four readers, command lookup
// on): every iteration types one more character into server 500's
// package name, so that entry is new text each time and every entry after
// it moves. The parse is not timed (package jsonc's benchmarks time it);
// cpu-ns/op is the process's CPU during AnalyzeFile, GC included.
//
//	go test ./analysis/rules -run X -bench AnalyzeEditInsideServer -benchmem
func BenchmarkAnalyzeEditInsideServer(b *testing.B) {
	src := string(benchgen.MCPJSON(1000, true, true))
	kind := workspaceKind(b)
	cache := NewCache()
	at := strings.Index(src, `"@example/server-500"`) + len(`"@example/server-500`)
	run := func(text string) []Diagnostic {
		return AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: []byte(text), Parsed: jsonc.Parse([]byte(text)), Kind: kind, Cache: cache, Resolver: lookupResolver{}})
	}
	if ds := run(src); len(ds) < 1000 {
		b.Fatalf("%d findings, want one per npx server at least", len(ds))
	}
	typed := ""
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		typed += "x"
		text := src[:at] + typed + src[at:]
		content := []byte(text)
		in := FileInput{Path: "/p/.mcp.json", Content: content, Parsed: jsonc.Parse(content), Kind: kind, Cache: cache, Resolver: lookupResolver{}}
		b.StartTimer()
		start := benchgen.ProcessCPU()
		AnalyzeFile(in)
		cpu += benchgen.ProcessCPU() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAnalyzeOpen is the first analysis of the same file in a new
// session: nothing cached, every server judged by every reader.
//
//	go test ./analysis/rules -run X -bench AnalyzeOpen -benchmem
func BenchmarkAnalyzeOpen(b *testing.B) {
	content := []byte(string(benchgen.MCPJSON(1000, true, true)))
	kind := workspaceKind(b)
	parsed := jsonc.Parse(content)
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		in := FileInput{Path: "/p/.mcp.json", Content: content, Parsed: parsed, Kind: kind, Cache: NewCache(), Resolver: lookupResolver{}}
		start := benchgen.ProcessCPU()
		AnalyzeFile(in)
		cpu += benchgen.ProcessCPU() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
