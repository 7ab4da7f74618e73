package verdict

import (
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// BenchmarkOfCold judges every entry of a 1,000-server .mcp.json for each
// of the file's readers (Claude Code, Copilot CLI, VS Code, Kilo Code)
// with an empty cache: verdict.Of's share of opening the file.
//
//	go test ./analysis/verdict -run X -bench OfCold -benchmem
func BenchmarkOfCold(b *testing.B) {
	reg := registry.Default()
	kind, ok := reg.Kind("mcp-json")
	if !ok {
		b.Fatal("no kind mcp-json")
	}
	f := jsonc.Parse([]byte(string(benchgen.MCPJSON(1000, true, true))))
	servers := f.Root.Get("mcpServers").Value
	Prepare()
	b.ReportAllocs()
	cpu, n := benchgen.ProcessCPU(), 0
	for b.Loop() {
		n++
		c := NewCache()
		c.Fit(len(servers.Members()) * len(kind.Readers))
		for i := range kind.Readers {
			r := &kind.Readers[i]
			for _, m := range servers.Members() {
				v := m.Value
				Of(c, reg, r, Entry{Name: m.Key.Str, Value: v, Text: f.Src[v.Span.Start:v.Span.End]})
			}
		}
	}
	// The machine is shared: CPU time (both cores, GC included) moves
	// less with the load than the wall time does.
	b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(len(kind.Readers)), "readers")
}
