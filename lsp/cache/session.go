package cache

import (
	"bytes"
	"maps"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Session owns the sequence of snapshots. It is the only mutable part of
// the cache: each change swaps in a new Snapshot under a lock, and readers
// take the current one and work on it without further locking.
type Session struct {
	fs     FileSystem
	reads  *readCache
	reg    *registry.Registry
	parses *parseCache
	// analysis holds the verdicts on entries and the per-entry findings
	// for the session's lifetime (rules.Cache), keyed by content.
	analysis   *rules.Cache
	analyses   *analysisMemo
	effectives *effectiveMemo

	mu      sync.Mutex
	current *Snapshot
	// generation increases whenever the answers of a file's analysis
	// about other files or programs may change: files read again from
	// disk, buffers opened or closed, command lookups forgotten. Edits
	// to an open buffer keep it, so the other files' analyses are reused.
	generation uint64
	lookups    *lookupCache
}

// NewSession starts with an empty snapshot over fs (nil: the disk, read
// once per version of each file), parsing files as reg says (nil: the
// default registry): a tool's state file is skimmed for what its kind
// keeps.
func NewSession(fs FileSystem, reg *registry.Registry) *Session {
	var reads *readCache
	if _, ok := fs.(OSFileSystem); ok || fs == nil {
		fs, reads = OSFileSystem{}, newReadCache()
	}
	if reg == nil {
		reg = registry.Default()
	}
	s := &Session{
		fs: fs, reads: reads, reg: reg, parses: newParseCache(), analysis: rules.NewCache(),
		analyses: &analysisMemo{entries: map[string]analysisEntry{}}, effectives: &effectiveMemo{},
		lookups: newLookupCache(),
	}
	s.current = s.newSnapshot(0, map[string]*Overlay{})
	return s
}

func (s *Session) newSnapshot(id uint64, overlays map[string]*Overlay) *Snapshot {
	return &Snapshot{
		id: id, overlays: overlays, fs: s.fs, reads: s.reads, skim: s.reg.SkimPaths, parses: s.parses, analysis: s.analysis, disk: map[string]*File{},
		generation: s.generation, lookups: s.lookups, analyses: s.analyses, effectives: s.effectives,
	}
}

// VerdictsJudged is the number of verdicts the session has computed
// (verdict cache misses): tests assert that an edit judges only what it
// changed.
func (s *Session) VerdictsJudged() int64 { return s.analysis.Verdicts.Judged() }

// Snapshot returns the current snapshot.
func (s *Session) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// IsCurrent reports whether snap is still the newest snapshot; results
// computed from an older one are stale and must not be published.
func (s *Session) IsCurrent(snap *Snapshot) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current == snap
}

// Modification changes one file in a new snapshot.
type Modification struct {
	Path string
	// Overlay is the new buffer, or nil to close the buffer (the file then
	// falls back to its content on disk).
	Overlay *Overlay
}

// Modify applies mods, forgets what was read from disk for the paths in
// diskChanged (after a save or a file-watch event), and returns the new
// current snapshot. Disk reads of other paths carry over: files on disk do
// not change because the user typed in a buffer.
func (s *Session) Modify(mods []Modification, diskChanged []string) *Snapshot {
	return s.modify(mods, diskChanged, false)
}

// ForgetDisk returns a new current snapshot that re-reads every file from
// disk, for events that may have changed any of them (a watcher overflow,
// a new workspace folder, a save).
func (s *Session) ForgetDisk() *Snapshot {
	return s.modify(nil, nil, true)
}

// ForgetLookups returns a new current snapshot that looks commands up
// again, for the events after which a program may have appeared or gone:
// a save, a watched-file event, a change of settings (the user may have
// installed the program they were told was missing).
func (s *Session) ForgetLookups() *Snapshot {
	s.mu.Lock()
	s.lookups = newLookupCache()
	s.generation++
	s.mu.Unlock()
	return s.modify(nil, nil, false)
}

func (s *Session) modify(mods []Modification, diskChanged []string, forgetAll bool) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	overlays := maps.Clone(s.current.overlays)
	changed := forgetAll || len(diskChanged) > 0
	for _, m := range mods {
		_, had := overlays[m.Path]
		if m.Overlay == nil {
			delete(overlays, m.Path)
		} else {
			s.shareDisk(m.Overlay)
			overlays[m.Path] = m.Overlay
		}
		changed = changed || (had != (m.Overlay != nil) && !s.current.readOnDisk(m.Path))
	}
	if changed {
		// A program may have been installed, a file created or deleted:
		// what other files' analyses looked up may differ now.
		s.generation++
	}
	next := s.newSnapshot(s.current.id+1, overlays)
	if !forgetAll {
		s.current.mu.Lock()
		maps.Copy(next.disk, s.current.disk)
		s.current.mu.Unlock()
		for _, p := range diskChanged {
			delete(next.disk, p)
		}
	}
	s.current = next
	return next
}

// shareDisk makes a new buffer that holds what its file on disk holds
// share the disk's bytes and hash (and so, through parseCache, its parse): opening
// a file keeps one copy of its text and tree, not two, and neither is
// hashed or parsed again. o is not yet shared with anyone.
func (s *Session) shareDisk(o *Overlay) {
	if s.reads == nil {
		return
	}
	d := s.reads.last(o.Path)
	if d == nil || !bytes.Equal(d.Content, o.Content) {
		return
	}
	o.Content = d.Content
	o.hashOnce.Do(func() { o.hash = d.Hash })
}

// readOnDisk reports whether this snapshot has read path from disk and
// found a regular file. Opening or closing a buffer over such a file
// changes no file's existence, so it does not start a new generation:
// the analyses of the other files (and of this one, when the buffer holds
// what the disk does) stay valid. On a 20,000-server file, the open after
// the first diagnosis of the file on disk analysed it all over again.
func (s *Snapshot) readOnDisk(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.disk[path]
	return ok && f.Exists && f.ReadErr == nil
}
