// Package discovery finds the MCP configuration files that affect a
// project: inside its folders, in their ancestors and at user level.
package discovery

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// skipDirs are never entered: they hold dependencies or VCS data, never a
// configuration a tool reads for this project, and can be huge.
var skipDirs = map[string]bool{
	"node_modules": true, ".git": true, ".hg": true, ".svn": true,
	"vendor": true, ".venv": true, "venv": true, "__pycache__": true,
	"dist": true, "build": true, "target": true, ".next": true, ".cache": true,
}

// WalkLimits bound a tree walk so that a huge or looping tree cannot hang
// the server or the CLI. Zero values mean the defaults.
type WalkLimits struct {
	MaxDepth int // directories below the root; default 12
	MaxFiles int // entries visited; default 200,000
}

// Walk returns the files under root for which match is true, sorted. It
// does not follow symbolic links to directories (so it cannot loop),
// skips dependency and VCS directories, and stops at the limits. Errors
// are returned alongside what was found: an unreadable directory must not
// hide the rest of the tree.
func Walk(root string, match func(path string) bool, limits WalkLimits) ([]string, []error) {
	if limits.MaxDepth == 0 {
		limits.MaxDepth = 12
	}
	if limits.MaxFiles == 0 {
		limits.MaxFiles = 200_000
	}
	var found []string
	var errs []error
	visited := 0
	root = filepath.Clean(root)
	base := depth(root)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		visited++
		if visited > limits.MaxFiles {
			errs = append(errs, fmt.Errorf("%s: stopped after %d entries", root, limits.MaxFiles))
			return fs.SkipAll
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || depth(path)-base > limits.MaxDepth) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if info, err := os.Stat(path); err != nil || info.IsDir() {
				return nil
			}
		}
		if match(path) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	slices.Sort(found)
	return found, errs
}

func depth(p string) int {
	n := 0
	for _, c := range p {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}
