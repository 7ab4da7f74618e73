package cache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// resolver answers analysis's questions about the machine from this
// snapshot (files, open buffers included) and the real PATH. It only
// looks: nothing is ever executed.
type resolver struct {
	snap *Snapshot
	// lookups remembers the answers of LookPath: a 1,000-server file
	// names the same few programs a thousand times.
	lookups *lookupCache
	home    string
	// lookup enables command lookup (the command-not-found rule); off, every
	// command is reported as found so the rule stays silent.
	lookup bool
	// exists, when set, records the FileExists answers (analysisMemo).
	exists *existsLog
}

var _ rules.Resolver = resolver{}

// LookPath implements rules.Resolver with exec.LookPath for bare names
// (a PATH search: stat calls, no execution) and a stat for paths.
func (r resolver) LookPath(command, dir string) bool {
	if !r.lookup {
		return true
	}
	if r.lookups == nil {
		return lookPath(command, dir, r.home)
	}
	return r.lookups.get(lookupKey{command: command, path: os.Getenv("PATH"), dir: dir, home: r.home})
}

// lookupCache memoizes command lookups per (command, PATH, directory) for
// a session until an event says the machine may have changed: a save, a
// watched-file event, new settings (Session.ForgetLookups).
type lookupCache struct {
	mu    sync.Mutex
	found map[lookupKey]bool
}

type lookupKey struct{ command, path, dir, home string }

func newLookupCache() *lookupCache { return &lookupCache{found: map[lookupKey]bool{}} }

func (c *lookupCache) get(k lookupKey) bool {
	c.mu.Lock()
	found, ok := c.found[k]
	c.mu.Unlock()
	if ok {
		return found
	}
	found = lookPath(k.command, k.dir, k.home)
	c.mu.Lock()
	c.found[k] = found
	c.mu.Unlock()
	return found
}

// lookPath looks command up: a PATH search for a bare name, a stat for a
// path (relative ones from dir).
func lookPath(command, dir, home string) bool {
	if strings.ContainsRune(command, '/') || strings.ContainsRune(command, filepath.Separator) {
		p := expandHome(command, home)
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

// FileExists implements rules.Resolver over the snapshot, with a stat
// (Snapshot.Exists): the file a {file:...} reference names is never read.
func (r resolver) FileExists(path string) bool {
	p := expandHome(path, r.home)
	ok := r.snap.Exists(p)
	if r.exists != nil {
		r.exists.record(p, ok)
	}
	return ok
}

func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return p
}
