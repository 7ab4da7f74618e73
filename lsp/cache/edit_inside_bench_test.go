package cache

import (
	"strings"
	"testing"
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
	// Version v has v-1 characters typed at the end of the name.
	benchDiagnoseEdits(b, path, opts, func(v int32) string { return text[:at] + strings.Repeat("x", int(v)-1) + text[at:] })
}
