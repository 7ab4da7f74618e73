//go:build unix

package benchgen

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user and system) this process has used. A
// benchmark reports its difference per operation (cpu-ms/op): on a machine
// other work shares, it varies far less than the wall time.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
