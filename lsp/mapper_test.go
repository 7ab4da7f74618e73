package lsp

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestMapperOffsetPosition(t *testing.T) {
	tests := []struct {
		name    string
		content string
		offset  int
		want    protocol.Position
	}{
		{"start", "abc", 0, pos(0, 0)},
		{"end of content", "abc", 3, pos(0, 3)},
		{"second line LF", "ab\ncd", 4, pos(1, 1)},
		{"second line CRLF", "ab\r\ncd", 5, pos(1, 1)},
		{"inside CRLF maps to end of line", "ab\r\ncd", 3, pos(0, 2)},
		{"lone CR is a line break", "ab\rcd", 4, pos(1, 1)},
		{"tab is one unit", "\t\"x\"", 2, pos(0, 2)},
		{"two-byte char is one unit", "é:x", 3, pos(0, 2)},
		{"three-byte char is one unit", "日本x", 6, pos(0, 2)},
		{"astral char is two units", "😀x", 4, pos(0, 2)},
		{"after astral char", "😀x", 5, pos(0, 3)},
		{"inside astral char maps to its start", "😀x", 2, pos(0, 0)},
		{"invalid byte is one unit", "\xffx", 1, pos(0, 1)},
		{"invalid lead byte at end of line", "a\xe6\nb", 2, pos(0, 2)},
		{"empty last line after trailing newline", "a\n", 2, pos(1, 0)},
		{"empty content", "", 0, pos(0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewMapper([]byte(tt.content)).OffsetPosition(tt.offset)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("OffsetPosition(%q, %d) = %v, want %v", tt.content, tt.offset, got, tt.want)
			}
		})
	}
}

func TestMapperPositionOffset(t *testing.T) {
	tests := []struct {
		name    string
		content string
		pos     protocol.Position
		want    int
	}{
		{"start", "abc", pos(0, 0), 0},
		{"past end of line means end of line", "abc\ndef", pos(0, 99), 3},
		{"past end of CRLF line stops before CR", "abc\r\ndef", pos(0, 99), 3},
		{"second line CRLF", "ab\r\ncd", pos(1, 2), 6},
		{"after astral char", "😀x", pos(0, 2), 4},
		{"between surrogate halves stays before the char", "😀x", pos(0, 1), 0},
		{"non-ASCII", "é日x", pos(0, 2), 5},
		{"empty last line", "a\n", pos(1, 0), 2},
		{"empty content", "", pos(0, 5), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewMapper([]byte(tt.content)).PositionOffset(tt.pos)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("PositionOffset(%q, %v) = %d, want %d", tt.content, tt.pos, got, tt.want)
			}
		})
	}
}

func TestMapperOutOfRangeIsAnError(t *testing.T) {
	m := NewMapper([]byte("ab\ncd"))
	if _, err := m.PositionOffset(pos(2, 0)); err == nil {
		t.Error("line past the last line: want error, got none")
	}
	if _, err := m.OffsetPosition(-1); err == nil {
		t.Error("negative offset: want error")
	}
	if _, err := m.OffsetPosition(6); err == nil {
		t.Error("offset past the end: want error")
	}
	if _, err := m.Span(protocol.Range{Start: pos(1, 0), End: pos(0, 0)}); err == nil {
		t.Error("reversed range: want error")
	}
}

// TestMapperRoundTrip checks, for every rune boundary of a mixed document,
// that offset -> position -> offset is the identity.
func TestMapperRoundTrip(t *testing.T) {
	content := []byte("{\r\n\t\"naïve😀\": \"日本\",\n  \"x\": 1\r\"y\"\n}")
	m := NewMapper(content)
	for off := 0; off <= len(content); off++ {
		if off < len(content) && !utf8.RuneStart(content[off]) {
			continue
		}
		if off > 0 && content[off-1] == '\r' && off < len(content) && content[off] == '\n' {
			continue // inside CRLF: not a position of its own
		}
		p, err := m.OffsetPosition(off)
		if err != nil {
			t.Fatal(err)
		}
		back, err := m.PositionOffset(p)
		if err != nil {
			t.Fatal(err)
		}
		if back != off {
			t.Errorf("offset %d -> %v -> %d", off, p, back)
		}
	}
}

func TestMapperRangeAndLineColumn(t *testing.T) {
	m := NewMapper([]byte("x\r\n\"é😀\": ,"))
	r, err := m.Range(span.New(3, 12))
	if err != nil {
		t.Fatal(err)
	}
	if want := (protocol.Range{Start: pos(1, 0), End: pos(1, 6)}); r != want {
		t.Errorf("Range = %v, want %v", r, want)
	}
	line, col, err := m.LineColumn(12)
	if err != nil {
		t.Fatal(err)
	}
	if line != 2 || col != 10 {
		t.Errorf("LineColumn = %d:%d, want 2:10 (byte columns, as Go tools print)", line, col)
	}
}

// TestMapperLongLinesMatchLineScan: on lines long enough to get
// checkpoints (a minified file), or to be known all ASCII, every offset
// and every column converts exactly as a scan from the line's start does,
// invalid UTF-8, astral characters and CRLF included, and one non-ASCII
// byte anywhere in a long line (the last, or one in the middle of a word
// the ASCII check reads) gives it checkpoints.
func TestMapperLongLinesMatchLineScan(t *testing.T) {
	var b []byte
	chunks := []string{"ab", "é", "😀", "日本", "\xff", "\xe2\x82", `"x"`, "\t"}
	for i := range 3000 {
		b = append(b, chunks[(i*7+i/5)%len(chunks)]...)
		if i == 1500 {
			b = append(b, "\r\n"...)
		}
	}
	b = append(b, "\nshort\n"...)
	ascii := []byte(strings.Repeat(`{"a":"b\t\u00e9",`, 150))
	b = append(b, ascii...) // line 3: all ASCII
	b = append(b, "\r\n"...)
	b = append(b, ascii[:1001]...) // line 4: one astral character in a word
	b = append(b, "😀"...)
	b = append(b, ascii[:1000]...)
	b = append(b, '\r')
	b = append(b, ascii...) // line 5: the last byte is not ASCII
	b = append(b, 0x80)
	longLines := map[int]bool{0: false, 1: false, 3: true, 4: false, 5: false} // line -> all ASCII
	m := NewMapper(b)
	if len(m.checkpoints) != 0 {
		t.Fatalf("checkpoints made before any position was converted: %d lines", len(m.checkpoints))
	}
	for off := 0; off <= len(b); off++ {
		line := m.line(off)
		start, end := m.lineStart(line), m.lineEnd(line)
		want := protocol.Position{Line: uint32(line), Character: uint32(utf16Units(b[start:end], min(off, end)-start))}
		got, err := m.OffsetPosition(off)
		if err != nil || got != want {
			t.Fatalf("OffsetPosition(%d) = %v, %v; want %v", off, got, err, want)
		}
	}
	if len(m.checkpoints) != len(longLines) {
		t.Fatalf("want an index of the %d long lines, got %d lines with one", len(longLines), len(m.checkpoints))
	}
	for line, ascii := range longLines {
		if l := m.checkpoints[line]; l.ascii != ascii || (len(l.cps) == 0) != ascii {
			t.Errorf("line %d: ascii %v with %d checkpoints, want ascii %v", line, l.ascii, len(l.cps), ascii)
		}
	}
	for line := range m.LineCount() {
		start, end := m.lineStart(line), m.lineEnd(line)
		width := utf16Units(b[start:end], end-start)
		for c := 0; c <= width+2; c++ {
			want := start
			for units := c; units > 0 && want < end; {
				r, size := utf8.DecodeRune(b[want:end])
				n := 1
				if r >= 0x10000 && size == 4 {
					n = 2
				}
				if n > units {
					break
				}
				units -= n
				want += size
			}
			got, err := m.PositionOffset(pos(uint32(line), uint32(c)))
			if err != nil || got != want {
				t.Fatalf("PositionOffset(%d:%d) = %d, %v; want %d", line, c, got, err, want)
			}
		}
	}
}

// With UTF-8 negotiated, a column counts bytes; lines still break at LF,
// CRLF and a lone CR, and an offset inside a character is the character.
func TestMapperUTF8(t *testing.T) {
	tests := []struct {
		name    string
		content string
		offset  int
		want    protocol.Position
	}{
		{"two-byte char is two bytes", "é:x", 3, pos(0, 3)},
		{"astral char is four bytes", "😀x", 4, pos(0, 4)},
		{"inside astral char maps to its start", "😀x", 2, pos(0, 0)},
		{"CRLF then non-ASCII", "ab\r\ncafé🚀x", 13, pos(1, 9)},
		{"inside CRLF maps to end of line", "ab\r\ncd", 3, pos(0, 2)},
		{"lone CR", "é\rx", 4, pos(1, 1)},
		{"invalid byte is one byte", "\xffx", 1, pos(0, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapperEncoding([]byte(tt.content), EncodingUTF8)
			got, err := m.OffsetPosition(tt.offset)
			if err != nil || got != tt.want {
				t.Fatalf("OffsetPosition(%d) = %v, %v; want %v", tt.offset, got, err, tt.want)
			}
			back, err := m.PositionOffset(got)
			if err != nil {
				t.Fatal(err)
			}
			if want := NewMapper([]byte(tt.content)); back != tt.offset {
				// Only an offset inside a character or a CRLF may move.
				if p16, _ := want.OffsetPosition(tt.offset); p16 != mustPos(t, want, back) {
					t.Errorf("PositionOffset(%v) = %d, want %d", got, back, tt.offset)
				}
			}
		})
	}
	// A column inside a character or past the line's end.
	m := NewMapperEncoding([]byte("é😀\r\nx"), EncodingUTF8)
	for _, tt := range []struct {
		p    protocol.Position
		want int
	}{{pos(0, 1), 0}, {pos(0, 3), 2}, {pos(0, 4), 2}, {pos(0, 6), 6}, {pos(0, 99), 6}, {pos(1, 1), 9}} {
		if got, err := m.PositionOffset(tt.p); err != nil || got != tt.want {
			t.Errorf("PositionOffset(%v) = %d, %v; want %d", tt.p, got, err, tt.want)
		}
	}
	if _, err := m.PositionOffset(pos(2, 0)); err == nil {
		t.Error("a line past the end was accepted")
	}
}

func mustPos(t *testing.T, m *Mapper, off int) protocol.Position {
	p, err := m.OffsetPosition(off)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNegotiateEncoding(t *testing.T) {
	for _, tt := range []struct {
		offered []string
		want    Encoding
	}{
		{nil, EncodingUTF16},
		{[]string{"utf-16"}, EncodingUTF16},
		{[]string{"utf-32", "utf-8", "utf-16"}, EncodingUTF8},
		{[]string{"utf-32"}, EncodingUTF16},
	} {
		if got := NegotiateEncoding(tt.offered); got != tt.want {
			t.Errorf("NegotiateEncoding(%q) = %s, want %s", tt.offered, got, tt.want)
		}
	}
}
