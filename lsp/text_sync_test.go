package lsp

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestChangeSpanIsTheWholeTextMappers: converting an incremental change's
// range from the lines it is on only gives what a Mapper of the whole
// text gives (the offsets, or the same error), in both position
// encodings, on texts with non-ASCII and astral characters, long lines,
// empty lines, a final line with and without its line feed, and texts
// with CRLF and lone CRs (converted whole); positions past a line's end,
// lines past the last, and ranges that end before they start included.
func TestChangeSpanIsTheWholeTextMappers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	long := strings.Repeat("ab😀é", 120) // a line of more than checkpointStride bytes
	pieces := []string{"x", "é", "😀", "日本", " ", "\n", "\n", "\n\n", long, "\xff", "\t"}
	for _, enc := range []Encoding{EncodingUTF16, EncodingUTF8} {
		s := &Server{encoding: enc}
		for n := range 400 {
			var b strings.Builder
			for range r.IntN(60) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			if n%5 == 0 {
				b.WriteString([]string{"\r\n", "\r", "a\rb"}[n%3])
			}
			content := []byte(b.String())
			lines := strings.Count(b.String(), "\n") + 1
			pos := func() protocol.Position {
				return protocol.Position{Line: uint32(r.IntN(lines + 2)), Character: uint32(r.IntN(30) * r.IntN(30))}
			}
			for range 30 {
				rng := protocol.Range{Start: pos(), End: pos()}
				if r.IntN(3) > 0 { // most ranges on one line, as a keystroke's
					rng.End = protocol.Position{Line: rng.Start.Line, Character: rng.Start.Character + uint32(r.IntN(3))}
				}
				m := s.newMapper(content)
				want, wantErr := m.Span(clampRange(m, rng))
				got, err := s.changeSpan(content, rng)
				if got != want || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Fatalf("%s: changeSpan(%q, %v) = %v, %v; want %v, %v", enc, content, rng, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestLineFeedsAfter counts line feeds across the blocks it counts by.
func TestLineFeedsAfter(t *testing.T) {
	text := []byte(strings.Repeat("a\n", 5000) + "tail")
	for _, c := range []struct{ from, n, want int }{
		{0, 0, 0}, {0, 1, 2}, {0, 5000, 10000}, {3, 1, 4}, {4095, 1, 4096}, {4096, 2048, 8192}, {9999, 1, 10000},
	} {
		if got, ok := lineFeedsAfter(text, c.from, c.n); !ok || got != c.want {
			t.Errorf("lineFeedsAfter(%d, %d) = %d, %v; want %d", c.from, c.n, got, ok, c.want)
		}
	}
	if _, ok := lineFeedsAfter(text, 0, 5001); ok {
		t.Errorf("found a 5001st line feed")
	}
	if _, ok := lineFeedsAfter(text, 10000, 1); ok {
		t.Errorf("found a line feed in the tail")
	}
}

// TestMapperAfterEditIsANewMapper: the Mapper of a text after one
// incremental change, made from the old text's (Mapper.afterEdit), has the
// lines a Mapper of the new text has, wherever the change is and however
// many line feeds it removes and adds; a text with a carriage return is
// left to a new Mapper.
func TestMapperAfterEditIsANewMapper(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pieces := []string{"x", "é", "\n", "\n\n", "  ", "😀", strings.Repeat("y", 80)}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		old := []byte(b.String())
		start := r.IntN(len(old) + 1)
		end := start + r.IntN(len(old)-start+1)
		var ins strings.Builder
		for range r.IntN(4) {
			ins.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := ins.String()
		content := append(append(append([]byte(nil), old[:start]...), text...), old[end:]...)
		for _, enc := range []Encoding{EncodingUTF16, EncodingUTF8} {
			m := NewMapperEncoding(old, enc).afterEdit(content, span.New(start, end), text)
			want := NewMapperEncoding(content, enc)
			if m == nil || !slices.Equal(m.lineStarts, want.lineStarts) || m.utf8 != want.utf8 || len(content) > 0 && &m.content[0] != &content[0] {
				t.Fatalf("afterEdit(%q, [%d,%d), %q): lines %v, want %v", old, start, end, text, m, want.lineStarts)
			}
		}
	}
	m := NewMapper([]byte("a\nb\r\nc"))
	if m.afterEdit([]byte("a\nbx\r\nc"), span.New(3, 3), "x") != nil {
		t.Errorf("a text with a CR was indexed from the old one")
	}
	if NewMapper([]byte("a\nb")).afterEdit([]byte("a\r\nb"), span.New(1, 1), "\r") != nil {
		t.Errorf("a CR typed was indexed from the old text")
	}
}

// TestMapperCacheIndexesAnEditFromTheOldText: after an incremental change
// of a file whose Mapper is cached, the new version's Mapper is made from
// the old one (the edit recorded is used once), and is a new Mapper's;
// a text with the same bytes elsewhere in memory, or a change recorded
// as several, gets a Mapper of its own.
func TestMapperCacheIndexesAnEditFromTheOldText(t *testing.T) {
	c := newMapperCache()
	const path = "/p/.mcp.json"
	file := func(b []byte) *cache.File { return &cache.File{Path: path, Content: b, Hash: sha256.Sum256(b)} }
	old := []byte("{\n  \"a\": 1\n}\n")
	mo := c.of(file(old))
	next := []byte("{\n  \"a\": 12,\n\n}\n")
	c.edited(path, old, next, span.New(10, 10), "2,\n")
	if _, ok := c.pending[path]; !ok {
		t.Fatalf("the edit of a cached text was not recorded")
	}
	m := c.of(file(next))
	if _, ok := c.pending[path]; ok {
		t.Errorf("the recorded edit was kept after use")
	}
	if !slices.Equal(m.lineStarts, NewMapper(next).lineStarts) || m == mo {
		t.Errorf("lines %v, want %v", m.lineStarts, NewMapper(next).lineStarts)
	}
	// The same bytes at another address are not the text the edit made.
	again := []byte("{\n  \"a\": 123,\n\n}\n")
	c.edited(path, next, again, span.New(11, 11), "3")
	copied := slices.Clone(again)
	if m := c.of(file(copied)); !slices.Equal(m.lineStarts, NewMapper(copied).lineStarts) || &m.content[0] != &copied[0] {
		t.Errorf("a copy of the text got the Mapper of another")
	}
	c.edited(path, nil, nil, span.Span{}, "")
	if len(c.pending) != 0 {
		t.Errorf("several changes left an edit recorded")
	}
}
