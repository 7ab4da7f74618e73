package jsonc

import (
	"fmt"
	"strings"
	"testing"
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
