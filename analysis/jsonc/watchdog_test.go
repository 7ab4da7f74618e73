package jsonc

import (
	"os"
	"time"
)

func watchdog(src []byte) func() {
	t := time.AfterFunc(2*time.Second, func() {
		os.WriteFile("/tmp/slow_input", src, 0o644)
	})
	return func() { t.Stop() }
}
