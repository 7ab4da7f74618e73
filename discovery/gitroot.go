package discovery

import (
	"io/fs"
	"path"
)

// GitRoot returns the nearest of dir and its ancestors that holds a ".git"
// entry, or "" if none does. dir is an absolute slash path in fsys, which
// is rooted at "/" as in [Options].
//
// Any entry counts: a directory in a plain clone, a file in a worktree or a
// submodule ("gitdir: ..."), or a link. The tools bound their walks at the
// repository's top, not at the directory holding the object store, so a
// submodule is its own root.
//
// The result is a prefix of dir as written, so that a caller can walk from
// dir up to it (effective.Compute does). Symbolic links in dir are
// followed to look for .git but not resolved in the result.
func GitRoot(fsys fs.FS, dir string) string {
	return newResolver(fsys).gitRoot(dir)
}

func (r *resolver) gitRoot(dir string) string {
	name, ok := toName(dir)
	if !ok {
		return ""
	}
	for {
		if canon, info, err := r.resolve(name); err == nil && info.IsDir() {
			if r.lstat(path.Join(canon, ".git")).err == nil {
				return fromName(name)
			}
		}
		if name == "." {
			return ""
		}
		name = path.Dir(name)
	}
}
