package lsp

import (
	"crypto/sha256"
	"slices"
	"sync"
	"unsafe"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
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
	// pending holds, per path, the incremental change that made its
	// newest text from one whose Mapper is here (see edited).
	pending map[string]pendingEdit
}

// pendingEdit: the text at content (its first byte and length) is base's
// with sp replaced by text.
type pendingEdit struct {
	content *byte
	n       int
	base    *Mapper
	sp      span.Span
	text    string
}

type mapperEntry struct {
	m     *Mapper
	paths int // how many paths' newest version this is
}

// mapperCacheSize bounds the files kept: the open buffers and the files
// their diagnostics point into.
const mapperCacheSize = 32

func newMapperCache() *mapperCache {
	return &mapperCache{entries: map[[sha256.Size]byte]*mapperEntry{}, latest: map[string][sha256.Size]byte{}, pending: map[string]pendingEdit{}}
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
		clear(c.pending)
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
	p, edited := c.pending[f.Path]
	c.mu.Unlock()
	if ok {
		return e.m
	}
	var m *Mapper
	if edited && p.content == unsafe.SliceData(f.Content) && p.n == len(f.Content) {
		m = p.base.afterEdit(f.Content, p.sp, p.text)
	}
	if m == nil {
		m = NewMapperEncoding(f.Content, enc)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if edited && c.pending[f.Path].content == p.content {
		delete(c.pending, f.Path)
	}
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
// one: 300 KB of the 1,000-server file's live heap. (An edit recorded
// for f keeps the older Mapper until f's is made from it, or the next
// edit; one recorded for another version goes now.)
func (c *mapperCache) newest(f *cache.File) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.pending[f.Path]; ok && (p.content != unsafe.SliceData(f.Content) || p.n != len(f.Content)) {
		delete(c.pending, f.Path)
	}
	if old, ok := c.latest[f.Path]; ok && old != f.Hash {
		delete(c.latest, f.Path)
		c.release(old)
	}
}

// edited records that path's text old became content by one incremental
// change (sp of old replaced by text), so that the Mapper of content,
// when first asked for, is made from old's if it is here (see
// Mapper.afterEdit). Called with a nil old (several changes, or a full
// text), it forgets what it recorded for path. Nothing is computed here:
// a version typed past before anything converts a position in it costs
// nothing.
func (c *mapperCache) edited(path string, old, content []byte, sp span.Span, text string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, path)
	h, ok := c.latest[path]
	if !ok || old == nil {
		return
	}
	if e := c.entries[h]; e != nil && unsafe.SliceData(e.m.content) == unsafe.SliceData(old) && len(e.m.content) == len(old) {
		c.pending[path] = pendingEdit{content: unsafe.SliceData(content), n: len(content), base: e.m, sp: sp, text: text}
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
