package lsp

import (
	"crypto/sha256"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// mapperCache keeps the Mappers of the most recent file versions, by
// content hash, so that each version is indexed once however many
// publications and requests convert positions in it: an unchanged file
// beside the one being edited is not re-indexed on every keystroke.
type mapperCache struct {
	mu      sync.Mutex
	enc     Encoding // the session's position encoding
	entries map[[sha256.Size]byte]*Mapper
	order   [][sha256.Size]byte
}

// mapperCacheSize bounds the versions kept: the open buffers and the
// files their diagnostics point into.
const mapperCacheSize = 32

func newMapperCache() *mapperCache {
	return &mapperCache{entries: map[[sha256.Size]byte]*Mapper{}}
}

// setEncoding sets the position encoding of the Mappers made from now on;
// the server calls it at initialize, before any file is indexed.
func (c *mapperCache) setEncoding(enc Encoding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.enc != enc {
		c.enc = enc
		clear(c.entries)
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
	m, ok := c.entries[f.Hash]
	enc := c.enc
	c.mu.Unlock()
	if ok {
		return m
	}
	m = NewMapperEncoding(f.Content, enc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[f.Hash]; ok {
		return old
	}
	if len(c.order) >= mapperCacheSize {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[f.Hash] = m
	c.order = append(c.order, f.Hash)
	return m
}
