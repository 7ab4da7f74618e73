package lsp_test

import (
	"bytes"
	"math"
	"sync"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/lsp"
)

// FuzzMapper checks the Mapper through its public API only, against a
// model written from its documented contract: lines end at "\n", "\r\n"
// or a lone "\r"; characters are counted in UTF-16 code units, two for a
// valid rune above U+FFFF and one for every invalid byte; an offset inside
// a character maps to its start and one inside "\r\n" to the end of the
// line; a character past the end of a line means the line end, a
// position inside a surrogate pair the start of the character; offsets
// outside [0, len] and lines past the last are errors. On every
// character boundary offset -> position -> offset is the identity, and
// so is position -> offset -> position on every position that names one.
// It is also called from two goroutines at once, since the server shares
// one Mapper per file version (run with -race to check for data races).
// The seed corpus in testdata/fuzz/FuzzMapper holds CRLF, lone CR, astral
// characters, invalid UTF-8 and a BOM, so a plain "go test" runs them.
func FuzzMapper(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n\U0001F600é\xff\xe2\x82"))
	f.Fuzz(func(t *testing.T, content []byte) {
		if len(content) > 1<<12 {
			return // every offset and position is checked: keep it quick
		}
		orig := bytes.Clone(content)
		m := lsp.NewMapper(content)
		model := newMapperModel(content)
		var wg sync.WaitGroup
		wg.Go(func() { checkMapper(t, m, model) })
		checkMapper(t, m, model)
		wg.Wait()
		if !bytes.Equal(content, orig) || !bytes.Equal(m.Content(), orig) {
			t.Fatal("the Mapper changed its content")
		}
	})
}

// mapperModel is the documented contract, computed the slow and obvious
// way.
type mapperModel struct {
	content []byte
	// pos is the position of every offset in [0, len(content)].
	pos []protocol.Position
	// boundary marks the offsets where a character starts (len included),
	// except the "\n" of a "\r\n".
	boundary []bool
	// lines: for each line, the offset of each character boundary by its
	// UTF-16 column, and the offset of the line's end.
	lines []modelLine
}

type modelLine struct {
	at  map[uint32]int // UTF-16 column -> offset
	end int
	// width is the line's length in UTF-16 code units.
	width uint32
	// inside maps the second unit of a surrogate pair to the offset of
	// its character.
	inside map[uint32]int
}

func newMapperModel(content []byte) *mapperModel {
	m := &mapperModel{
		content:  content,
		pos:      make([]protocol.Position, len(content)+1),
		boundary: make([]bool, len(content)+1),
	}
	line, char := uint32(0), uint32(0)
	cur := modelLine{at: map[uint32]int{}, inside: map[uint32]int{}}
	endLine := func(end int) {
		cur.end, cur.width = end, char
		m.lines = append(m.lines, cur)
		cur = modelLine{at: map[uint32]int{}, inside: map[uint32]int{}}
		line, char = line+1, 0
	}
	for i := 0; i < len(content); {
		here := protocol.Position{Line: line, Character: char}
		m.pos[i], m.boundary[i] = here, true
		cur.at[char] = i
		switch c := content[i]; {
		case c == '\r' && i+1 < len(content) && content[i+1] == '\n':
			m.pos[i+1] = here
			endLine(i)
			i += 2
		case c == '\n' || c == '\r':
			endLine(i)
			i++
		default:
			r, size := utf8.DecodeRune(content[i:])
			for j := 1; j < size; j++ {
				m.pos[i+j] = here
			}
			if r >= 0x10000 && size == 4 {
				cur.inside[char+1] = i
				char += 2
			} else {
				char++
			}
			i += size
		}
	}
	m.pos[len(content)], m.boundary[len(content)] = protocol.Position{Line: line, Character: char}, true
	cur.at[char] = len(content)
	endLine(len(content))
	return m
}

func checkMapper(t *testing.T, m *lsp.Mapper, model *mapperModel) {
	n := len(model.content)
	if got, want := m.LineCount(), len(model.lines); got != want {
		t.Errorf("LineCount() = %d, want %d", got, want)
	}

	// offset -> position, and back on boundaries.
	for off := 0; off <= n; off++ {
		p, err := m.OffsetPosition(off)
		if err != nil {
			t.Fatalf("OffsetPosition(%d): %v", off, err)
		}
		if p != model.pos[off] {
			t.Fatalf("OffsetPosition(%d) = %v, want %v in %q", off, p, model.pos[off], model.content)
		}
		back, err := m.PositionOffset(p)
		if err != nil {
			t.Fatalf("PositionOffset(%v) of offset %d: %v", p, off, err)
		}
		if model.boundary[off] && back != off {
			t.Fatalf("offset %d -> %v -> offset %d in %q", off, p, back, model.content)
		}
		line, col, err := m.LineColumn(off)
		if err != nil || line != int(p.Line)+1 || col != off-model.lines[p.Line].at[0]+1 {
			t.Fatalf("LineColumn(%d) = %d, %d, %v; want %d, %d", off, line, col, err, p.Line+1, off-model.lines[p.Line].at[0]+1)
		}
	}
	for _, off := range []int{-1, n + 1, math.MinInt, math.MaxInt} {
		if p, err := m.OffsetPosition(off); err == nil {
			t.Fatalf("OffsetPosition(%d) of %d bytes = %v, want an error", off, n, p)
		}
		if _, _, err := m.LineColumn(off); err == nil {
			t.Fatalf("LineColumn(%d) of %d bytes: want an error", off, n)
		}
	}

	// position -> offset, and back where the position names a boundary.
	for l, ml := range model.lines {
		for c := uint32(0); c <= ml.width+2; c++ {
			p := protocol.Position{Line: uint32(l), Character: c}
			off, err := m.PositionOffset(p)
			if err != nil {
				t.Fatalf("PositionOffset(%v): %v", p, err)
			}
			want, exact := ml.at[c]
			switch {
			case exact:
			case c > ml.width:
				want = ml.end // past the line end: the line end
			default:
				want = ml.inside[c] // inside a surrogate pair: before the character
			}
			if off != want {
				t.Fatalf("PositionOffset(%v) = %d, want %d in %q", p, off, want, model.content)
			}
			if exact {
				if back, err := m.OffsetPosition(off); err != nil || back != p {
					t.Fatalf("%v -> offset %d -> %v, %v", p, off, back, err)
				}
			}
		}
		p := protocol.Position{Line: uint32(l), Character: math.MaxUint32}
		if off, err := m.PositionOffset(p); err != nil || off != ml.end {
			t.Fatalf("PositionOffset(%v) = %d, %v; want the line end %d", p, off, err, ml.end)
		}
	}
	for _, l := range []uint32{uint32(len(model.lines)), math.MaxUint32} {
		if off, err := m.PositionOffset(protocol.Position{Line: l}); err == nil {
			t.Fatalf("PositionOffset(line %d) of %d lines = %d, want an error", l, len(model.lines), off)
		}
	}

	// Ranges and spans: a round trip on boundaries, an error for a range
	// that ends before it starts or lies outside the document.
	var bounds []int
	for off, ok := range model.boundary {
		if ok {
			bounds = append(bounds, off)
		}
	}
	for i, a := range bounds {
		b := bounds[(i*7+3)%len(bounds)]
		s := span.New(min(a, b), max(a, b))
		r, err := m.Range(s)
		if err != nil {
			t.Fatalf("Range(%v): %v", s, err)
		}
		if r.Start != model.pos[s.Start] || r.End != model.pos[s.End] {
			t.Fatalf("Range(%v) = %v", s, r)
		}
		if got, err := m.Span(r); err != nil || got != s {
			t.Fatalf("Span(Range(%v)) = %v, %v", s, got, err)
		}
		if s.Start < s.End {
			if got, err := m.Span(protocol.Range{Start: r.End, End: r.Start}); err == nil {
				t.Fatalf("Span of the reversed range %v = %v, want an error", r, got)
			}
		}
	}
	if r, err := m.Range(span.New(0, n+1)); err == nil {
		t.Fatalf("Range past the end = %v, want an error", r)
	}
	if s, err := m.Span(protocol.Range{End: protocol.Position{Line: uint32(len(model.lines))}}); err == nil {
		t.Fatalf("Span past the last line = %v, want an error", s)
	}
}
