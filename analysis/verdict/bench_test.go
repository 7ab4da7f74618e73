package verdict

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// benchServers is a .mcp.json of n servers as genconfig.py writes it
// (../shared/tools): every third remote ("type": "http"), the others
// stdio, every 97th with "args" a string.
func benchServers(n int) string {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i%3 == 0 {
			fmt.Fprintf(&b, "    \"server-%05d\": {\n      \"type\": \"http\",\n      \"url\": \"https://mcp%d.example.com/mcp\",\n      \"headers\": {\n        \"X-Tenant\": \"t%d\"\n      }\n    }", i, i, i)
			continue
		}
		args := fmt.Sprintf("[\n        \"-y\",\n        \"@example/server-%d\",\n        \"--port\",\n        \"%d\"\n      ]", i, 1000+i)
		if i%97 == 5 {
			args = `"not-an-array"`
		}
		fmt.Fprintf(&b, "    \"server-%05d\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": %s,\n      \"env\": {\n        \"NODE_ENV\": \"production\",\n        \"LEVEL\": \"%d\"\n      }\n    }", i, args, i)
	}
	b.WriteString("\n  }\n}\n")
	return b.String()
}

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
	f := jsonc.Parse([]byte(benchServers(1000)))
	servers := f.Root.Get("mcpServers").Value
	Prepare()
	b.ReportAllocs()
	cpu, n := processCPU(), 0
	for b.Loop() {
		n++
		c := NewCache()
		c.Fit(len(servers.Members) * len(kind.Readers))
		for i := range kind.Readers {
			r := &kind.Readers[i]
			for _, m := range servers.Members {
				v := m.Value
				Of(c, reg, r, Entry{Name: m.Key.Str, Value: v, Text: f.Src[v.Span.Start:v.Span.End]})
			}
		}
	}
	// The machine is shared: CPU time (both cores, GC included) moves
	// less with the load than the wall time does.
	b.ReportMetric(float64(processCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(len(kind.Readers)), "readers")
}
