package lsp

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// mapperCache keeps the Mappers of the newest version of each file, by
// content hash, so that each version is indexed once however many
// publications and requests convert positions in it: an unchanged file
// beside the one being edited is not re-indexed on every keystroke.
//
// An older version of a file is dropped when a newer one is indexed: a
// Mapper holds its text, and keeping the last 32 versions of a
// 1,000-server file being typed in kept 13 MB of old texts alive. A
// request still answering from an older snapshot indexes it again.
type mapperCache struct {
	mu      sync.Mutex
	enc     Encoding // the session's position encoding
	entries map[[sha256.Size]byte]*mapperEntry
	latest  map[string][sha256.Size]byte // each path's newest version
	order   [][sha256.Size]byte
}

type mapperEntry struct {
	m     *Mapper
	paths int // how many paths' newest version this is
}

// mapperCacheSize bounds the files kept: the open buffers and the files
// their diagnostics point into.
const mapperCacheSize = 32

func newMapperCache() *mapperCache {
	return &mapperCache{entries: map[[sha256.Size]byte]*mapperEntry{}, latest: map[string][sha256.Size]byte{}}
}

// setEncoding sets the position encoding of the Mappers made from now on;
// the server calls it at initialize, before any file is indexed.
func (c *mapperCache) setEncoding(enc Encoding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.enc != enc {
		c.enc = enc
		clear(c.entries)
		clear(c.latest)
		c.order = nil
	}
}

// of returns the Mapper of f's content. A nil cache indexes afresh, for
// UTF-16 positions.
func (c *mapperCache) of(f *cache.File) *Mapper {
	if c == nil {
		return NewMapper(f.Content)
	}
	c.mu.Lock()
	e, ok := c.entries[f.Hash]
	enc := c.enc
	c.mu.Unlock()
	if ok {
		return e.m
	}
	m := NewMapperEncoding(f.Content, enc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[f.Hash]; ok {
		return e.m
	}
	if old, ok := c.latest[f.Path]; ok {
		c.release(old)
	}
	if len(c.order) >= mapperCacheSize {
		c.drop(c.order[0])
	}
	c.entries[f.Hash] = &mapperEntry{m: m, paths: 1}
	c.latest[f.Path] = f.Hash
	c.order = append(c.order, f.Hash)
	return m
}

// newest tells the cache that f is its path's newest version: the Mapper
// of another version of the path is dropped, before f is indexed, if it
// ever is. An edit whose findings all keep their conversions
// (convertReusing) maps nothing, and the Mapper of the last version that
// did kept that version's text and line index alive beside the current
// one: 300 KB of the 1,000-server file's live heap.
func (c *mapperCache) newest(f *cache.File) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.latest[f.Path]; ok && old != f.Hash {
		delete(c.latest, f.Path)
		c.release(old)
	}
}

// release drops the version h unless it is another path's newest too.
func (c *mapperCache) release(h [sha256.Size]byte) {
	if e, ok := c.entries[h]; ok {
		if e.paths--; e.paths <= 0 {
			c.drop(h)
		}
	}
}

// drop forgets the version h.
func (c *mapperCache) drop(h [sha256.Size]byte) {
	delete(c.entries, h)
	c.order = slices.DeleteFunc(c.order, func(o [sha256.Size]byte) bool { return o == h })
	for p, l := range c.latest {
		if l == h {
			delete(c.latest, p)
		}
	}
}
