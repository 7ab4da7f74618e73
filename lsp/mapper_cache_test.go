package lsp

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestMapperCacheKeepsTheNewestVersionPerFile: typing in a file indexes
// each version once, and a newer version replaces the older one (a Mapper
// holds its text: 32 versions of a large file were megabytes), while the
// other files' Mappers stay.
func TestMapperCacheKeepsTheNewestVersionPerFile(t *testing.T) {
	c := newMapperCache()
	file := func(path, text string) *cache.File {
		return &cache.File{Path: path, Content: []byte(text), Hash: sha256.Sum256([]byte(text))}
	}
	other := file("/p/other.json", "{}\n")
	mo := c.of(other)
	var last *cache.File
	for v := range 100 {
		last = file("/p/.mcp.json", fmt.Sprintf("{\"v\": %d}\n", v))
		if m := c.of(last); m != c.of(last) {
			t.Fatalf("version %d indexed twice", v)
		}
	}
	if n := len(c.entries); n != 2 {
		t.Errorf("%d versions kept for 2 files", n)
	}
	if c.of(other) != mo {
		t.Errorf("the other file was indexed again")
	}
	if _, ok := c.entries[last.Hash]; !ok {
		t.Errorf("the newest version is not kept")
	}
}

// TestMapperCacheForgetsAnOlderVersionUnindexed: newest drops the Mapper
// of another version of the path at once, before the new version is
// indexed (an edit whose findings all keep their conversions never
// indexes it), and keeps the path's Mapper when it is that version's,
// and the other files'.
func TestMapperCacheForgetsAnOlderVersionUnindexed(t *testing.T) {
	c := newMapperCache()
	file := func(path, text string) *cache.File {
		return &cache.File{Path: path, Content: []byte(text), Hash: sha256.Sum256([]byte(text))}
	}
	other, v1, v2 := file("/p/other.json", "{}\n"), file("/p/.mcp.json", "{\"v\": 1}\n"), file("/p/.mcp.json", "{\"v\": 2}\n")
	mo, m1 := c.of(other), c.of(v1)
	c.newest(v1)
	if c.of(v1) != m1 {
		t.Errorf("the newest version's Mapper was dropped")
	}
	c.newest(v2)
	if _, ok := c.entries[v1.Hash]; ok || len(c.entries) != 1 {
		t.Errorf("%d Mappers kept after a newer version was seen; the older one kept: %v", len(c.entries), ok)
	}
	if c.of(other) != mo {
		t.Errorf("the other file was indexed again")
	}
	c.of(v2)
	if len(c.entries) != 2 {
		t.Errorf("%d Mappers after the newer version was indexed, want 2", len(c.entries))
	}
}
