package lsp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Mapper converts between byte offsets (what analysis speaks) and LSP
// positions (zero-based line, and a column in UTF-16 code units, or in
// bytes when the client negotiated UTF-8: see Encoding). It is the only
// place in mcp-lsp that knows about position encodings, so every feature
// gets CRLF, tabs, non-ASCII and astral characters right in the same way.
//
// Line breaks are "\n", "\r\n" and a lone "\r", as the LSP specification
// says. Invalid UTF-8 bytes count as one code unit each (the U+FFFD an
// editor shows in their place).
//
// Converting a position costs a binary search for the line and a scan of
// at most checkpointStride bytes: a line longer than that (a minified
// file is one line of megabytes) has UTF-16 checkpoints, so converting
// every diagnostic of a file is linear in their number, not quadratic in
// the line's length.
//
// A Mapper is safe for concurrent use: what it indexes lazily (the
// checkpoints) is guarded.
type Mapper struct {
	content []byte
	utf8    bool // columns are bytes (EncodingUTF8), not UTF-16 units
	// lineStarts is the byte offset of the first byte of each line, in 32
	// bits: the index of a 70 MB ~/.claude.json is 2 million lines (8 MB,
	// not 16). No file read is larger than 4 GiB (cache.MaxFileSize).
	lineStarts []uint32
	// checkpoints, for each line longer than checkpointStride in which a
	// position was converted, says whether it is all ASCII (a column is
	// then the byte offset from the line's start: a minified file's one
	// line usually is), or else holds places in it about every
	// checkpointStride bytes where a character starts, with the line's
	// UTF-16 column there. They are made on first use (under mu): a 70 MB
	// ~/.claude.json has 35,000 long lines of prompt history, and
	// positions are converted in a few of them (indexing them all was
	// 10 MB).
	mu          sync.Mutex
	checkpoints map[int]longLine
}

// longLine is what converting positions in a long line takes.
type longLine struct {
	ascii bool
	cps   []checkpoint // when not ascii
}

// checkpoint is a character boundary in a long line: its byte offset from
// the line's start and the UTF-16 code units before it in the line.
type checkpoint struct{ offset, units int }

// checkpointStride bounds the bytes scanned per conversion.
const checkpointStride = 256

// Encoding is an LSP 3.17 position encoding: how a position's character
// counts.
type Encoding string

const (
	// EncodingUTF16 counts UTF-16 code units: LSP's default, and what
	// every client takes.
	EncodingUTF16 Encoding = "utf-16"
	// EncodingUTF8 counts bytes, for clients that offer it (LSP 3.17
	// general.positionEncodings).
	EncodingUTF8 Encoding = "utf-8"
)

// NegotiateEncoding picks the position encoding for a client that offers
// encodings (preferred first): UTF-8 when offered, since it is what the
// server computes in and costs no conversion, else UTF-16, which every
// client must take.
func NegotiateEncoding(offered []string) Encoding {
	for _, e := range offered {
		if Encoding(e) == EncodingUTF8 {
			return EncodingUTF8
		}
	}
	return EncodingUTF16
}

// NewMapperEncoding indexes content for positions in enc.
func NewMapperEncoding(content []byte, enc Encoding) *Mapper {
	if enc == EncodingUTF8 {
		return &Mapper{content: content, utf8: true, lineStarts: lineStarts(content)}
	}
	return NewMapper(content)
}

// lineStarts returns the offset of the first byte of each line (of the
// first 4 GiB: a larger buffer is beyond any file mcp-lsp reads).
func lineStarts(content []byte) []uint32 {
	if limit := uint64(math.MaxUint32); uint64(len(content)) > limit {
		content = content[:limit]
	}
	starts := make([]uint32, 1, 1+len(content)/32)
	if bytes.IndexByte(content, '\r') < 0 {
		return lineFeedStarts(content, starts)
	}
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			starts = append(starts, uint32(i+1))
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			starts = append(starts, uint32(i+1))
		}
	}
	return starts
}

// afterEdit returns the Mapper of content, which is m's text with the
// bytes of sp replaced by text (one incremental change), its lines found
// from m's instead of read again: those before the change are kept, the
// change's own are added and those after it move. Typing in a large file
// then costs a copy of its line index per keystroke, not a reading of
// its text. It returns nil where the text has a carriage return (an edit
// may join or split a CRLF) or is too large to index.
func (m *Mapper) afterEdit(content []byte, sp span.Span, text string) *Mapper {
	if uint64(len(content)) > math.MaxUint32 || uint64(len(m.content)) > math.MaxUint32 ||
		sp.Start < 0 || sp.End > len(m.content) || sp.Start > sp.End ||
		bytes.IndexByte(content, '\r') >= 0 || bytes.IndexByte(m.content[sp.Start:sp.End], '\r') >= 0 {
		return nil
	}
	old := m.lineStarts
	// A line start is the offset after a line feed: kept if that line
	// feed is before the change, gone if it was in it, moved if after.
	keep := sort.Search(len(old), func(i int) bool { return int(old[i]) > sp.Start })
	from := sort.Search(len(old), func(i int) bool { return int(old[i]) > sp.End })
	starts := make([]uint32, keep, keep+strings.Count(text, "\n")+len(old)-from)
	copy(starts, old[:keep])
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, uint32(sp.Start+i))
	}
	delta := len(text) - sp.Len()
	for _, s := range old[from:] {
		starts = append(starts, uint32(int(s)+delta))
	}
	return &Mapper{content: content, utf8: m.utf8, lineStarts: starts}
}

// lineFeedStarts appends to starts the offset after each line feed of
// content. Short lines (a config's, 20-odd bytes) are read eight bytes at
// a time, every line feed of a word found from its bits; a line that runs
// on past longLine bytes is left to the vectorized search, several times
// faster on the long lines of a 69 MB ~/.claude.json, and a call per line
// of a config (the 1,000-server file's 11,600 lines took 225 us that
// way, on every keystroke, for the new version's Mapper).
func lineFeedStarts(content []byte, starts []uint32) []uint32 {
	const (
		ones     = 0x0101010101010101
		lows     = 0x7f7f7f7f7f7f7f7f
		longLine = 64
	)
	i, last := 0, 0 // last: where the current line starts
	for i+8 <= len(content) {
		if i-last > longLine {
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			last = i
			starts = append(starts, uint32(i))
			continue
		}
		x := binary.LittleEndian.Uint64(content[i:]) ^ ones*'\n'
		// The high bit of each zero byte of x, a line feed of the word:
		// no sum carries from one byte into the next.
		for lf := ^((x&lows + lows) | x | lows); lf != 0; lf &= lf - 1 {
			last = i + bits.TrailingZeros64(lf)/8 + 1
			starts = append(starts, uint32(last))
		}
		i += 8
	}
	for ; i < len(content); i++ {
		if content[i] == '\n' {
			starts = append(starts, uint32(i+1))
		}
	}
	return starts
}

// lineStart is the offset of the first byte of line.
func (m *Mapper) lineStart(line int) int { return int(m.lineStarts[line]) }

// NewMapper indexes content for UTF-16 positions. The slice must not be
// modified afterwards.
func NewMapper(content []byte) *Mapper {
	return &Mapper{content: content, lineStarts: lineStarts(content)}
}

// lineCheckpoints walks line the way utf16Units does and records a
// checkpoint at the first character start past every checkpointStride
// bytes.
func lineCheckpoints(line []byte) []checkpoint {
	cps := make([]checkpoint, 1, 1+len(line)/checkpointStride)
	n, next := 0, checkpointStride
	for i := 0; i < len(line); {
		if i >= next {
			cps = append(cps, checkpoint{offset: i, units: n})
			next = i + checkpointStride
		}
		if line[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return cps
}

// longLine returns line's index, made on first use, and whether the
// line is long enough to have one.
func (m *Mapper) longLine(line int) (longLine, bool) {
	start, end := m.lineStart(line), m.lineEnd(line)
	if end-start <= checkpointStride {
		return longLine{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.checkpoints[line]
	if !ok {
		if m.checkpoints == nil {
			m.checkpoints = map[int]longLine{}
		}
		if text := m.content[start:end]; isASCII(text) {
			l.ascii = true
		} else {
			l.cps = lineCheckpoints(text)
		}
		m.checkpoints[line] = l
	}
	return l, true
}

// before is the last checkpoint c of the line for which less(c) holds
// (checkpoints grow in both offset and units), or the line's start.
func (l longLine) before(less func(checkpoint) bool) checkpoint {
	i := sort.Search(len(l.cps), func(i int) bool { return !less(l.cps[i]) })
	if i == 0 {
		return checkpoint{}
	}
	return l.cps[i-1]
}

// isASCII reports whether b is all ASCII, 8 bytes at a time.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Content returns the mapped bytes.
func (m *Mapper) Content() []byte { return m.content }

// LineCount is the number of lines; a trailing line break opens an empty
// last line, as in every editor.
func (m *Mapper) LineCount() int { return len(m.lineStarts) }

// line returns the zero-based line containing offset.
func (m *Mapper) line(offset int) int {
	return sort.Search(len(m.lineStarts), func(i int) bool { return int(m.lineStarts[i]) > offset }) - 1
}

// lineEnd is the offset of the line break ending line (or len(content)).
func (m *Mapper) lineEnd(line int) int {
	if line+1 >= len(m.lineStarts) {
		return len(m.content)
	}
	end := m.lineStart(line + 1)
	if end > 0 && m.content[end-1] == '\n' {
		end--
	}
	if end > 0 && m.content[end-1] == '\r' {
		end--
	}
	return end
}

// OffsetPosition converts a byte offset in [0, len(content)] to an LSP
// position. An offset inside a multi-byte character maps to the start of
// that character; an offset inside a CRLF pair maps to the end of the line.
func (m *Mapper) OffsetPosition(offset int) (protocol.Position, error) {
	if offset < 0 || offset > len(m.content) {
		return protocol.Position{}, fmt.Errorf("offset %d out of range [0, %d]", offset, len(m.content))
	}
	line := m.line(offset)
	start := m.lineStart(line)
	end := m.lineEnd(line)
	rel := min(offset, end) - start
	if m.utf8 {
		return protocol.Position{Line: uint32(line), Character: uint32(m.runeStart(start, start+rel) - start)}, nil
	}
	var cp checkpoint
	if l, long := m.longLine(line); long {
		if l.ascii {
			return protocol.Position{Line: uint32(line), Character: uint32(rel)}, nil
		}
		cp = l.before(func(c checkpoint) bool { return c.offset <= rel })
	}
	units := cp.units + utf16Units(m.content[start+cp.offset:end], rel-cp.offset)
	return protocol.Position{Line: uint32(line), Character: uint32(units)}, nil
}

// PositionOffset converts an LSP position to a byte offset. A character
// past the end of its line means the end of that line (the LSP
// specification says so); a line past the last one is an error, since
// silently clamping it would apply an edit in the wrong place.
func (m *Mapper) PositionOffset(p protocol.Position) (int, error) {
	line := int(p.Line)
	if line >= len(m.lineStarts) {
		return 0, fmt.Errorf("line %d out of range (document has %d lines)", line, len(m.lineStarts))
	}
	start, end := m.lineStart(line), m.lineEnd(line)
	if m.utf8 {
		return m.runeStart(start, start+int(min(uint64(p.Character), uint64(end-start)))), nil
	}
	var cp checkpoint
	if l, long := m.longLine(line); long {
		if l.ascii {
			return start + int(min(uint64(p.Character), uint64(end-start))), nil
		}
		cp = l.before(func(c checkpoint) bool { return c.units <= int(p.Character) })
	}
	offset := start + cp.offset
	for units := int(p.Character) - cp.units; units > 0 && offset < end; {
		r, size := utf8.DecodeRune(m.content[offset:end])
		n := 1
		if r >= 0x10000 && size == 4 {
			n = 2
		}
		if n > units {
			// The position points between the two halves of a surrogate
			// pair; no byte offset is there, so stay before the character.
			break
		}
		units -= n
		offset += size
	}
	return offset, nil
}

// runeStart moves offset back to the start of the character it is in
// (never before lineStart): a UTF-8 column inside a character means the
// character, as a UTF-16 one between surrogates does.
func (m *Mapper) runeStart(lineStart, offset int) int {
	if offset >= len(m.content) || utf8.RuneStart(m.content[offset]) {
		return offset
	}
	for j := offset - 1; j >= lineStart && j >= offset-3; j-- {
		if utf8.RuneStart(m.content[j]) {
			r, size := utf8.DecodeRune(m.content[j:])
			if (r != utf8.RuneError || size > 1) && j+size > offset {
				return j
			}
			break
		}
	}
	return offset // an invalid byte is a character of its own
}

// Range converts a span to an LSP range.
func (m *Mapper) Range(s span.Span) (protocol.Range, error) {
	start, err := m.OffsetPosition(s.Start)
	if err != nil {
		return protocol.Range{}, err
	}
	end, err := m.OffsetPosition(s.End)
	if err != nil {
		return protocol.Range{}, err
	}
	return protocol.Range{Start: start, End: end}, nil
}

// Span converts an LSP range to a span.
func (m *Mapper) Span(r protocol.Range) (span.Span, error) {
	start, err := m.PositionOffset(r.Start)
	if err != nil {
		return span.Span{}, err
	}
	end, err := m.PositionOffset(r.End)
	if err != nil {
		return span.Span{}, err
	}
	if end < start {
		return span.Span{}, fmt.Errorf("range end %v before start %v", r.End, r.Start)
	}
	return span.Span{Start: start, End: end}, nil
}

// LineColumn returns the 1-based line and 1-based byte column of offset,
// the way Go tools print positions (`file:line:col`).
func (m *Mapper) LineColumn(offset int) (line, col int, err error) {
	if offset < 0 || offset > len(m.content) {
		return 0, 0, fmt.Errorf("offset %d out of range [0, %d]", offset, len(m.content))
	}
	l := m.line(offset)
	return l + 1, offset - m.lineStart(l) + 1, nil
}

// utf16Units counts the UTF-16 code units of the characters of line that
// end at or before byte limit. Valid runes above the Basic Multilingual
// Plane take two units; every invalid byte takes one (the U+FFFD an editor
// shows). A character that limit cuts through is not counted, so an offset
// inside a character maps to the character's start.
func utf16Units(line []byte, limit int) int {
	n := 0
	for i := 0; i < limit; {
		if line[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		if i+size > limit {
			break
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}
