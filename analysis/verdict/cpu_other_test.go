//go:build !unix

package verdict

import "time"

// processCPU is not measured here (BenchmarkOfCold reports 0).
func processCPU() time.Duration { return 0 }
