package jsonc

import (
	"fmt"
	"strings"
	"testing"
	"time"
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

// genConfig returns a Claude Code .mcp.json of n servers shaped like the
// output of ../shared/tools/genconfig.py claude N --errors (a third remote,
// the rest npx commands, every 97th server's args a string): indented by
// two spaces as json.dumps(indent=2) prints it, or minified on one line.
func genConfig(n int, pretty bool) []byte {
	var b strings.Builder
	nl := func(depth int) {
		if pretty {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", depth))
		}
	}
	sep := ":"
	if pretty {
		sep = ": "
	}
	member := func(depth int, key string, first bool) {
		if !first {
			b.WriteByte(',')
		}
		nl(depth)
		fmt.Fprintf(&b, "%q%s", key, sep)
	}
	b.WriteByte('{')
	member(1, "mcpServers", true)
	b.WriteByte('{')
	for i := range n {
		member(2, fmt.Sprintf("server-%05d", i), i == 0)
		b.WriteByte('{')
		if i%3 == 0 {
			member(3, "type", true)
			b.WriteString(`"http"`)
			member(3, "url", false)
			fmt.Fprintf(&b, `"https://mcp%d.example.com/mcp"`, i)
			member(3, "headers", false)
			b.WriteByte('{')
			member(4, "X-Tenant", true)
			fmt.Fprintf(&b, `"t%d"`, i)
			nl(3)
			b.WriteByte('}')
			if i%97 == 5 {
				member(3, "args", false)
				b.WriteString(`"not-an-array"`)
			}
		} else {
			member(3, "type", true)
			b.WriteString(`"stdio"`)
			member(3, "command", false)
			b.WriteString(`"npx"`)
			member(3, "args", false)
			if i%97 == 5 {
				b.WriteString(`"not-an-array"`)
			} else {
				b.WriteByte('[')
				for j, a := range []string{"-y", fmt.Sprintf("@example/server-%d", i), "--port", fmt.Sprint(1000 + i)} {
					if j > 0 {
						b.WriteByte(',')
					}
					nl(4)
					fmt.Fprintf(&b, "%q", a)
				}
				nl(3)
				b.WriteByte(']')
			}
			member(3, "env", false)
			b.WriteByte('{')
			member(4, "NODE_ENV", true)
			b.WriteString(`"production"`)
			member(4, "LEVEL", false)
			fmt.Fprintf(&b, `"%d"`, i)
			nl(3)
			b.WriteByte('}')
		}
		nl(2)
		b.WriteByte('}')
	}
	nl(1)
	b.WriteByte('}')
	nl(0)
	b.WriteString("}\n")
	return []byte(b.String())
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
		src := genConfig(c.n, c.pretty)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			// CPU time (the garbage collector's included) says more than
			// wall time on a shared machine.
			cpu := processCPU()
			for b.Loop() {
				if f := Parse(src); len(f.Errors) > 0 || f.Root == nil {
					b.Fatal(f.Errors)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
