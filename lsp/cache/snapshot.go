// Package cache holds the server's view of the world as immutable,
// versioned snapshots: the editor's open buffers layered over the files on
// disk.
//
// Every edit, open, close or file-watch event produces a new Snapshot with
// a higher ID; nothing in a Snapshot ever changes after it is made, so
// analysis can run on one in the background while the next edit arrives,
// and a result is only published if its snapshot is still the current one.
// Cross-file analysis (file X's diagnostics depend on file Y) falls out of
// this: it simply reads Y from the same snapshot.
//
// The package is protocol-neutral: the check CLI builds a Snapshot with no
// overlays over the disk and runs exactly the same analysis as the server.
package cache

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
)

// FileSystem is the read access to disk a snapshot needs. Tests inject a
// fake; production uses OSFileSystem.
type FileSystem interface {
	ReadFile(path string) ([]byte, error)
}

// OSFileSystem reads the real disk, with ReadFile: regular files only, at
// most MaxFileSize bytes. A session over it also keeps what it read
// across snapshots for as long as the file on disk stays the same (see
// readCache).
type OSFileSystem struct{}

// ReadFile implements FileSystem.
func (OSFileSystem) ReadFile(path string) ([]byte, error) { return ReadFile(path, MaxFileSize) }

// Overlay is the content of an open editor buffer. It is immutable.
type Overlay struct {
	Path    string
	URI     string // as the client sent it, so publishes use the same spelling
	Version int32
	Content []byte

	hashOnce sync.Once
	hash     [sha256.Size]byte
}

// Hash is the SHA-256 of the content, computed once per buffer version
// however many snapshots and analyses ask.
func (o *Overlay) Hash() [sha256.Size]byte {
	o.hashOnce.Do(func() { o.hash = sha256.Sum256(o.Content) })
	return o.hash
}

// File is one file as a snapshot sees it: the open buffer if there is one,
// otherwise the file on disk.
type File struct {
	Path    string
	Content []byte
	Hash    [sha256.Size]byte
	// Overlay is non-nil when the content comes from an open buffer.
	Overlay *Overlay
	// Exists is false when neither a buffer nor a file on disk exists.
	Exists bool
	// ReadErr is set when the file exists but could not be read: it is
	// not a regular file (ErrNotRegular), it is larger than MaxFileSize
	// (a *TooLargeError), or the read failed.
	ReadErr error
}

// Version is the editor's version of the buffer, or 0 for disk content.
func (f *File) Version() int32 {
	if f.Overlay == nil {
		return 0
	}
	return f.Overlay.Version
}

// Snapshot is an immutable view of overlays and disk. Disk reads are made
// at most once per snapshot (lazily, and memoized) so that every analysis
// of one snapshot sees the same bytes.
type Snapshot struct {
	id       uint64
	overlays map[string]*Overlay
	fs       FileSystem
	reads    *readCache // nil: read through fs each time
	skim     func(path string) [][]string
	parses   *parseCache
	// analysis is the session's cache of verdicts and per-entry findings,
	// shared by every snapshot: it is keyed by content, not by version.
	analysis *rules.Cache
	analyses *analysisMemo
	// generation and lookups: see Session.
	generation uint64
	lookups    *lookupCache

	mu         sync.Mutex
	disk       map[string]*File
	stats      map[string]bool // Exists answers from a stat
	workspaces map[string]*WorkspaceAnalysis
	// workspacing holds the Workspace computations in progress.
	workspacing map[string]chan struct{}
	effective   map[string][]*effective.Result
	// effectives is the session's memo of effective configurations
	// across snapshots; logging records reads for it.
	effectives *effectiveMemo
	logging    logging
}

// Analysis is the session's analysis cache (verdicts on entries and
// per-entry findings), for callers that analyse or judge this snapshot's
// files outside Diagnose (hover, code actions).
func (s *Snapshot) Analysis() *rules.Cache { return s.analysis }

// ID increases with every change; a larger ID is a newer snapshot.
func (s *Snapshot) ID() uint64 { return s.id }

// Overlays returns the open buffers, sorted by path.
func (s *Snapshot) Overlays() []*Overlay {
	paths := slices.Sorted(maps.Keys(s.overlays))
	out := make([]*Overlay, len(paths))
	for i, p := range paths {
		out[i] = s.overlays[p]
	}
	return out
}

// Overlay returns the open buffer for path, if any.
func (s *Snapshot) Overlay(path string) (*Overlay, bool) {
	o, ok := s.overlays[path]
	return o, ok
}

// File returns path's content in this snapshot.
func (s *Snapshot) File(path string) *File {
	f := s.file(path)
	s.recordFile(f)
	return f
}

func (s *Snapshot) file(path string) *File {
	if o, ok := s.overlays[path]; ok {
		return &File{Path: path, Content: o.Content, Hash: o.Hash(), Overlay: o, Exists: true}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.disk[path]; ok {
		return f
	}
	var f *File
	var err error
	if s.reads != nil {
		f, err = s.reads.read(path, func(content []byte) *File {
			return &File{Path: path, Content: content, Hash: sha256.Sum256(content), Exists: true}
		})
	} else {
		var content []byte
		if content, err = s.fs.ReadFile(path); err == nil {
			f = &File{Path: path, Content: content, Hash: sha256.Sum256(content), Exists: true}
		}
	}
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		f = &File{Path: path}
	default:
		f = &File{Path: path, Exists: true, ReadErr: err}
	}
	s.disk[path] = f
	return f
}

// Exists reports whether path is an open buffer or names something on
// disk, looking without reading: a {file:...} reference may name
// /dev/zero, a FIFO or /dev/stdin, and only its existence matters. A
// file this snapshot has read answers from its read; otherwise the answer
// is one stat per snapshot.
func (s *Snapshot) Exists(path string) bool {
	ok := s.exists(path)
	s.recordExists(path, ok)
	return ok
}

func (s *Snapshot) exists(path string) bool {
	if _, ok := s.overlays[path]; ok {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.disk[path]; ok {
		return f.Exists
	}
	if ok, seen := s.stats[path]; seen {
		return ok
	}
	if s.stats == nil {
		s.stats = map[string]bool{}
	}
	_, err := os.Stat(path)
	s.stats[path] = err == nil || !errors.Is(err, fs.ErrNotExist)
	return s.stats[path]
}

// Parse returns the parsed form of f: a TOML file (Nyzhi's config.toml)
// read into the same tree as JSON ones, so that every analysis works on
// both, a tool's state file skimmed for its MCP settings, and every other
// file as JSONC; a file too large to analyse (TooLarge) is an empty tree.
// Parses are shared between snapshots, buffers and the disk (by content
// hash and format, see parseCache), so an unchanged file is parsed once per
// session no matter how many snapshots come and go.
func (s *Snapshot) Parse(f *File) *jsonc.File {
	tree := s.parse(f)
	s.recordParse(f.Path, tree)
	return tree
}

func (s *Snapshot) parse(f *File) *jsonc.File {
	fm := s.formatOf(f)
	return s.parses.get(f.Path, parseKey{f.Hash, fm.kind}, fm, f.Content)
}

// TooLarge reports whether f is not analysed for its size, and the limit
// it is over: a file larger than MaxFileSize was not even read; a file
// that is not a tool's state file is analysed up to rules.MaxConfigSize
// (see there for why, buffers included). Diagnose gives such a file one
// finding, and every other feature sees an empty document.
func (s *Snapshot) TooLarge(f *File) (size, limit int64, tooLarge bool) {
	if e, ok := errors.AsType[*TooLargeError](f.ReadErr); ok {
		return e.Size, e.Limit, true
	}
	if f.ReadErr == nil && len(f.Content) > rules.MaxConfigSize && s.skim(f.Path) == nil {
		return int64(len(f.Content)), rules.MaxConfigSize, true
	}
	return 0, 0, false
}

// format is how a file's text is parsed.
type format struct {
	kind formatKind
	keep [][]string // formatSkim: the paths kept
}

type formatKind uint8

const (
	formatJSONC formatKind = iota
	formatTOML
	formatSkim
	formatTooLarge
)

// formatOf chooses the parser: the registry's skim paths for a tool's
// state file (by name), TOML for the kinds whose names end in .toml (case
// is ignored for the case-insensitive file systems the registry also
// matches on), JSONC for every other kind, and none for a file too large.
func (s *Snapshot) formatOf(f *File) format {
	if keep := s.skim(f.Path); keep != nil {
		return format{kind: formatSkim, keep: keep}
	}
	if _, _, tooLarge := s.TooLarge(f); tooLarge {
		return format{kind: formatTooLarge}
	}
	if strings.EqualFold(filepath.Ext(f.Path), ".toml") {
		return format{kind: formatTOML}
	}
	return format{kind: formatJSONC}
}

// parse parses content; prev, when not nil, is the tree of the path's
// previous version, which a JSONC parse splices into where it can (see
// jsonc.Reparse).
func (k format) parse(content []byte, prev *jsonc.File) *jsonc.File {
	switch k.kind {
	case formatTOML:
		return toml.Parse(content)
	case formatSkim:
		return jsonc.Skim(content, k.keep)
	case formatTooLarge:
		return &jsonc.File{Src: content}
	}
	if prev != nil {
		return jsonc.Reparse(prev, content)
	}
	return jsonc.Parse(content)
}

// parseKey identifies a parse: the same bytes are a different tree in
// another format. (The skim paths are those of the session's registry for
// the file's name, the same for every file parsed with formatSkim.)
type parseKey struct {
	hash   [sha256.Size]byte
	format formatKind
}

// parseCache memoizes the parses of files, open buffers and files read
// from disk alike, by content hash and format. It keeps the newest version
// of each path only: an editing session produces a new hash per keystroke,
// and a 1,000-server file's tree is megabytes, so keeping old versions is
// what made memory grow with typing; and once a buffer moves away from
// what the disk holds, the disk's tree is not kept beside it (only a
// closed buffer needs it again). A snapshot still working on an older
// version parses it again if it must.
type parseCache struct {
	mu      sync.Mutex
	entries map[parseKey]*parseEntry
	latest  map[string]parseKey // each path's newest parse
}

type parseEntry struct {
	once  sync.Once
	paths int // how many paths' newest version this is
	// file is the parse once it is over (nil before): the next version
	// of the path reparses from it (jsonc.Reparse) without waiting for it.
	file atomic.Pointer[jsonc.File]
}

func newParseCache() *parseCache {
	return &parseCache{entries: map[parseKey]*parseEntry{}, latest: map[string]parseKey{}}
}

func (c *parseCache) get(path string, key parseKey, fm format, content []byte) *jsonc.File {
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok {
		e = &parseEntry{}
		c.entries[key] = e
	}
	var prev *parseEntry // the path's previous version
	if old, had := c.latest[path]; !had || old != key {
		if had {
			if oe := c.entries[old]; oe != nil {
				prev = oe
				if oe.paths--; oe.paths <= 0 {
					delete(c.entries, old)
				}
			}
		}
		c.latest[path] = key
		e.paths++
	}
	c.mu.Unlock()
	// Outside the lock: parses of different files run in parallel, and
	// callers wanting the same one wait for it (a 70 MB ~/.claude.json is
	// skimmed once).
	e.once.Do(func() {
		var base *jsonc.File
		if prev != nil {
			base = prev.file.Load()
		}
		e.file.Store(fm.parse(content, base))
	})
	return e.file.Load()
}

// Generation is the session's generation this snapshot belongs to: the
// lookups and per-file analyses of one generation are reused by the next
// snapshots until something that may change them (a settings change, a
// file appearing) starts a new one.
func (s *Snapshot) Generation() uint64 { return s.generation }
