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

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
)

// FileSystem is the read access to disk a snapshot needs. Tests inject a
// fake; production uses OSFileSystem.
type FileSystem interface {
	ReadFile(path string) ([]byte, error)
}

// OSFileSystem reads the real disk.
type OSFileSystem struct{}

// ReadFile implements FileSystem.
func (OSFileSystem) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// Overlay is the content of an open editor buffer. It is immutable.
type Overlay struct {
	Path    string
	URI     string // as the client sent it, so publishes use the same spelling
	Version int32
	Content []byte
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
	// ReadErr is set when the file exists but could not be read.
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
	parses   *parseCache
	// analysis is the session's cache of verdicts and per-entry findings,
	// shared by every snapshot: it is keyed by content, not by version.
	analysis *analysis.Cache

	mu         sync.Mutex
	disk       map[string]*File
	workspaces map[string]*WorkspaceAnalysis
}

// Analysis is the session's analysis cache (verdicts on entries and
// per-entry findings), for callers that analyse or judge this snapshot's
// files outside Diagnose (hover, code actions).
func (s *Snapshot) Analysis() *analysis.Cache { return s.analysis }

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
	if o, ok := s.overlays[path]; ok {
		return &File{Path: path, Content: o.Content, Hash: sha256.Sum256(o.Content), Overlay: o, Exists: true}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.disk[path]; ok {
		return f
	}
	f := &File{Path: path}
	content, err := s.fs.ReadFile(path)
	switch {
	case err == nil:
		f.Content, f.Hash, f.Exists = content, sha256.Sum256(content), true
	case errors.Is(err, fs.ErrNotExist):
	default:
		f.Exists, f.ReadErr = true, err
	}
	s.disk[path] = f
	return f
}

// Parse returns the parsed form of f: a TOML file (Nyzhi's config.toml)
// read into the same tree as JSON ones, so that every analysis works on
// both, and every other file as JSONC. Parses are shared between snapshots
// by content hash and format, so an unchanged file is parsed once per
// session no matter how many snapshots come and go.
func (s *Snapshot) Parse(f *File) *jsonc.File {
	return s.parses.get(parseKey{f.Hash, formatOf(f.Path)}, f.Content)
}

// format is how a file's text is parsed.
type format uint8

const (
	formatJSONC format = iota
	formatTOML
)

// formatOf chooses the parser by the file's name. Every registry kind is
// JSON(C) except the TOML ones, whose names end in .toml; case is ignored
// for the case-insensitive file systems the registry also matches on.
func formatOf(path string) format {
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		return formatTOML
	}
	return formatJSONC
}

func (k format) parse(content []byte) *jsonc.File {
	if k == formatTOML {
		return toml.Parse(content)
	}
	return jsonc.Parse(content)
}

// parseKey identifies a parse: the same bytes are a different tree in
// another format.
type parseKey struct {
	hash   [sha256.Size]byte
	format format
}

// parseCache memoizes parses by content hash and format. It keeps the
// most recent entries only: an editing session produces a new hash per
// keystroke.
type parseCache struct {
	mu      sync.Mutex
	entries map[parseKey]*jsonc.File
	order   []parseKey
}

const parseCacheSize = 256

func (c *parseCache) get(key parseKey, content []byte) *jsonc.File {
	c.mu.Lock()
	if f, ok := c.entries[key]; ok {
		c.mu.Unlock()
		return f
	}
	c.mu.Unlock()
	f := key.format.parse(content) // outside the lock: parses of different files run in parallel
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok {
		return old
	}
	if len(c.order) >= parseCacheSize {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = f
	c.order = append(c.order, key)
	return f
}
