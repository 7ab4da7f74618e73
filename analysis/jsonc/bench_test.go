package jsonc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
)

// mcpDocument returns a pretty-printed config with n server entries, the
// shape of a large real .mcp.json (12 lines per server).
func mcpDocument(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i := range n {
		fmt.Fprintf(&b, `    "s%d": {
      "command": "npx",
      "args": [
        "-y",
        "pkg"
      ],
      "env": {
        "K": "v"
      }
    }`, i)
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	src := mcpDocument(1000)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if f := Parse(src); len(f.Errors) > 0 {
			b.Fatal(f.Errors)
		}
	}
}

// BenchmarkParseConfig parses the two inputs of issue 11: the pretty
// 1,000-server file (270 KB, 11,600 lines) and the minified 20,000-server
// line (5 MB).
func BenchmarkParseConfig(b *testing.B) {
	for _, c := range []struct {
		name   string
		n      int
		pretty bool
	}{{"pretty-1000", 1000, true}, {"minified-20000", 20000, false}} {
		src := benchgen.MCPJSON(c.n, true, c.pretty)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			// CPU time (the garbage collector's included) says more than
			// wall time on a shared machine.
			cpu := benchgen.ProcessCPU()
			for b.Loop() {
				if f := Parse(src); len(f.Errors) > 0 || f.Root == nil {
					b.Fatal(f.Errors)
				}
			}
			b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkReparse is Reparse of the pretty 1,000-server file after a
// character typed in server 500's package name (the splice), beside
// Parse of the same text.
func BenchmarkReparse(b *testing.B) {
	text := string(benchgen.MCPJSON(1000, true, true))
	at := strings.Index(text, `"@example/server-500"`) + len(`"@example/server-500`)
	old := Parse([]byte(text[:at] + "x" + text[at:]))
	next := []byte(text[:at] + "xy" + text[at:])
	if splice(old, next) == nil {
		b.Fatal("not spliced")
	}
	for _, c := range []struct {
		name  string
		parse func() *File
	}{{"splice", func() *File { return Reparse(old, next) }}, {"parse", func() *File { return Parse(next) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchgen.ProcessCPU()
			for b.Loop() {
				c.parse()
			}
			b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
