package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The targets, on a 2-core machine: full analysis of a
// 1,000-server file (about 12,000 lines) under 20 ms, diagnostics after
// one edit under 5 ms, a 5-server file tiny, growth linear. Each
// benchmark does what the language server does per version: parse the
// text, then AnalyzeFile. The file is a .mcp.json, read by two tools, so
// every entry is validated twice.
//
//	go test -bench . -run '^$' ./analysis/

// benchServers returns a .mcp.json with n servers of 12 lines each,
// alternating stdio and http entries, all distinct.
func benchServers(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `    "server-%04d": {
      "command": "node",
      "args": [
        "/opt/mcp/server-filesystem/dist/index.js",
        "--root",
        "/tmp/%04d"
      ],
      "env": {
        "API_KEY": "${API_KEY}",
        "LOG_LEVEL": "info"
      }
    }`, i, i)
		} else {
			fmt.Fprintf(&b, `    "server-%04d": {
      "type": "http",
      "url": "https://mcp.example.com/%04d/mcp",
      "headers": {
        "Authorization": "Bearer ${TOKEN}",
        "X-Team": "platform",
        "X-Client": "client-%04d",
        "X-Scopes": "read write",
        "X-Trace": "on"
      }
    }`, i, i, i)
		}
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

func benchKind(b *testing.B) *registry.FileKind {
	k, ok := registry.Default().Kind("mcp-json")
	if !ok {
		b.Fatal("no mcp-json kind")
	}
	return k
}

// analyze is one server-side update: parse, then analyse.
func analyze(src []byte, k *registry.FileKind) []Diagnostic {
	return AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: src, Parsed: jsonc.Parse(src), Kind: k, Cache: benchCache})
}

// resetMemos empties every memo: a cold start.
func resetMemos() { benchCache.Reset() }

// benchCache is the session cache of the benchmarks.
var benchCache = NewCache()

// BenchmarkAnalyzeFull_1000Servers: opening a large file. "cold" starts
// with an empty memo (the first time the server sees these entries);
// "warm" re-analyses unchanged text.
func BenchmarkAnalyzeFull_1000Servers(b *testing.B) {
	src, k := benchServers(1000), benchKind(b)
	if ds := analyze(src, k); len(ds) != 0 {
		b.Fatalf("benchmark file is not clean: %v", ds[0])
	}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			resetMemos()
			analyze(src, k)
		}
	})
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		analyze(src, k)
		defer reportCPU(b)()
		for b.Loop() {
			analyze(src, k)
		}
	})
}

// BenchmarkAnalyzeEdit_1000Servers: one keystroke in one server of a
// large file. Every iteration gives server 500 new text (so its verdicts
// are computed afresh, as after a real edit) and re-parses and re-analyses
// the whole file, as the server does; the other 999 entries hit the memo.
func BenchmarkAnalyzeEdit_1000Servers(b *testing.B) {
	src, k := benchServers(1000), benchKind(b)
	analyze(src, k)
	at := strings.Index(string(src), `"/tmp/0500"`) + len(`"/tmp/0500`)
	b.ReportAllocs()
	defer reportCPU(b)()
	i := 0
	for b.Loop() {
		i++
		edited := make([]byte, 0, len(src)+12)
		edited = append(edited, src[:at]...)
		edited = fmt.Appendf(edited, "-%d", i)
		edited = append(edited, src[at:]...)
		analyze(edited, k)
	}
}

// BenchmarkParse_1000Servers is the parser's share of the two above.
func BenchmarkParse_1000Servers(b *testing.B) {
	src := benchServers(1000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		jsonc.Parse(src)
	}
}

// BenchmarkAnalyze_5Servers: a typical project file, cold and warm.
func BenchmarkAnalyze_5Servers(b *testing.B) {
	src, k := benchServers(5), benchKind(b)
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			resetMemos()
			analyze(src, k)
		}
	})
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			analyze(src, k)
		}
	})
}

// BenchmarkAnalyzeFull_10000Servers checks that growth is linear: about
// ten times the 1,000-server numbers.
func BenchmarkAnalyzeFull_10000Servers(b *testing.B) {
	src, k := benchServers(10000), benchKind(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		resetMemos()
		analyze(src, k)
	}
}
