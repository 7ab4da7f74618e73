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
