package rules

import (
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
)

// reportCPU adds a cpu-ns/op metric: the process's CPU time (user and
// system, garbage collection included) per iteration. On a shared machine
// wall-clock ns/op also counts time spent waiting for a core; CPU time
// does not, so it is the steadier measure of the work done.
func reportCPU(b *testing.B) func() {
	start := benchgen.ProcessCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(benchgen.ProcessCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
