package cache

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
)

// BenchmarkDiagnoseEditInsideServer is BenchmarkDiagnoseEdit with the
// keystrokes inside one server (a character more in server 500's package
// name each time), so that server is new text on every edit and every
// server after it moves: what typing in a value costs.
//
//	go test ./lsp/cache -run X -bench DiagnoseEditInsideServer -benchmem
func BenchmarkDiagnoseEditInsideServer(b *testing.B) {
	path, text, opts := diagnoseBenchSetup(b)
	at := strings.Index(text, `"@example/server-500"`) + len(`"@example/server-500`)
	s := NewSession(nil, nil)
	typed := ""
	edit := func(v int32) {
		content := text[:at] + typed + text[at:]
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: v, Content: []byte(content)}}}, nil)
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
		typed += "x"
		edit(int32(i + 2))
		n++
	}
	b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}
