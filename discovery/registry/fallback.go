package registry

import (
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// A tool may read a file only as a fallback: Kilo Code reads the
// workspace folder's .cursor/mcp.json only when .kilocode/mcp.json does
// not exist, and .mcp.json only when neither does (profile layers'
// fallbackFor). Such a reader does not read the file at all while a file
// it prefers exists, so it must not judge the file's entries either: a
// Claude Code .mcp.json beside a .kilocode/mcp.json gets no Kilo Code
// findings. The effective engine applies the same rule to whole layers;
// here it is applied to a kind's readers, from the same data.

// launchDirPrefix starts a layer file's path that is relative to the
// launch directory, which the editor's workspace folder stands for.
const launchDirPrefix = "{launchDir}/"

// deriveFallbacks sets each workspace-folder reader's unless: the files
// of the layers its own layer is a fallback for.
func (r *Registry) deriveFallbacks() {
	for _, k := range r.kinds {
		for i := range k.Readers {
			rd := &k.Readers[i]
			t := r.toolByID[rd.Tool]
			if rd.At != AtWorkspaceFolder || t == nil || t.Profile == nil {
				continue
			}
			for _, l := range t.Profile.Layers {
				if len(l.FallbackFor) == 0 || !l.readsKind(k) {
					continue
				}
				for _, id := range l.FallbackFor {
					for _, pl := range t.Profile.Layers {
						if pl.ID != id {
							continue
						}
						for _, f := range pl.Files {
							if rel, ok := strings.CutPrefix(f.Path, launchDirPrefix); ok {
								rd.unless = append(rd.unless, rel)
							}
						}
					}
				}
			}
			if len(rd.unless) > 0 && k.fallbacks == nil {
				k.fallbacks = &fallbackKinds{}
			}
		}
	}
}

// readsKind reports whether one of the layer's launch-directory files is
// a file of kind k directly in the launch directory.
func (l *Layer) readsKind(k *FileKind) bool {
	const dir = "/launch"
	for _, f := range l.Files {
		if rel, ok := strings.CutPrefix(f.Path, launchDirPrefix); ok && k.inFolder(path.Join(dir, rel), dir, false) {
			return true
		}
	}
	return false
}

// fallbackKinds holds a kind's variants without some fallback readers.
type fallbackKinds struct {
	mu    sync.Mutex
	kinds map[uint64]*FileKind // by the bit set of the readers left out
}

// withoutFallbacks returns k, a kind of file directly in workspace
// folder folder (an OS path), without the readers that prefer a file that
// exists there. It returns k itself when every reader reads the file.
func (k *FileKind) withoutFallbacks(folder string, exists func(string) bool) *FileKind {
	if k.fallbacks == nil || exists == nil {
		return k
	}
	var out uint64
	for i, rd := range k.Readers {
		for _, rel := range rd.unless {
			if i < 64 && exists(filepath.Join(folder, filepath.FromSlash(rel))) {
				out |= 1 << i
				break
			}
		}
	}
	if out == 0 {
		return k
	}
	fb := k.fallbacks
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if v, ok := fb.kinds[out]; ok {
		return v
	}
	v := new(FileKind)
	*v = *k
	v.Readers, v.fallbacks = nil, nil
	for i, rd := range k.Readers {
		if out&(1<<i) == 0 {
			v.Readers = append(v.Readers, rd)
		}
	}
	if fb.kinds == nil {
		fb.kinds = map[uint64]*FileKind{}
	}
	fb.kinds[out] = v
	return v
}
