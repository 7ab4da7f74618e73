//go:build !unix

package jsonc

import "time"

// processCPU is not measured here (BenchmarkDiagnoseEdit reports 0).
func processCPU() time.Duration { return 0 }
