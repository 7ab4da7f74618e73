package cache

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
)

// SyncHost is this machine as the template values of sync see it
// (mcpsync.TemplateValues), for `mcp-lsp sync` and the editor's "Update
// from" alike: a stat for a .venv's Python, a PATH search for python3.
// Nothing is run.
func SyncHost() mcpsync.Host {
	return mcpsync.Host{
		GOOS: runtime.GOOS,
		IsFile: func(path string) bool {
			info, err := os.Stat(path)
			return err == nil && !info.IsDir()
		},
		LookPath: func(name string) (string, bool) {
			p, err := exec.LookPath(name)
			if err != nil {
				return "", false
			}
			if abs, err := filepath.Abs(p); err == nil {
				return abs, true
			}
			return p, true
		},
	}
}
