//go:build unix

package rules

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds a cpu-ns/op metric: the process's CPU time (user and
// system, garbage collection included) per iteration. On a shared machine
// wall-clock ns/op also counts time spent waiting for a core; CPU time
// does not, so it is the steadier measure of the work done.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
