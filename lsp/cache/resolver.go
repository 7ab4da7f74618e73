package cache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis"
)

// resolver answers analysis's questions about the machine from this
// snapshot (files, open buffers included) and the real PATH. It only
// looks: nothing is ever executed.
type resolver struct {
	snap *Snapshot
	home string
	// lookup enables command lookup (the command-not-found rule); off, every
	// command is reported as found so the rule stays silent.
	lookup bool
}

var _ analysis.Resolver = resolver{}

// LookPath implements analysis.Resolver with exec.LookPath for bare names
// (a PATH search: stat calls, no execution) and a stat for paths.
func (r resolver) LookPath(command, dir string) bool {
	if !r.lookup {
		return true
	}
	if strings.ContainsRune(command, '/') || strings.ContainsRune(command, filepath.Separator) {
		p := r.expandHome(command)
		if !filepath.IsAbs(p) {
			if dir == "" {
				return true // cannot know where it would start: do not guess
			}
			p = filepath.Join(dir, p)
		}
		info, err := os.Stat(p)
		return err == nil && !info.IsDir()
	}
	_, err := exec.LookPath(command)
	return err == nil
}

// FileExists implements analysis.Resolver over the snapshot, with a stat
// (Snapshot.Exists): the file a {file:...} reference names is never read.
func (r resolver) FileExists(path string) bool {
	return r.snap.Exists(r.expandHome(path))
}

func (r resolver) expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && r.home != "" {
		return filepath.Join(r.home, rest)
	}
	return p
}
