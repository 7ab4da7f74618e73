//go:build !unix

package benchgen

import "time"

// ProcessCPU is 0 where getrusage is missing: cpu-ms/op then reads 0.
func ProcessCPU() time.Duration { return 0 }
