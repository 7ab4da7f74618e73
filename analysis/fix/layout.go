package fix

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Layout is how a file is laid out: one level of indentation and the line
// break. Inserted JSON follows it, so a tab-indented CRLF file gets tabs
// and CRLF, not two spaces and LF.
type Layout struct {
	Indent  string // "  ", "    ", "\t"
	Newline string // "\n", "\r\n" or "\r"
}

// DefaultLayout is used for files with nothing to learn from (empty, or a
// single line): two spaces, as every tool writes its files, and LF.
var DefaultLayout = Layout{Indent: "  ", Newline: "\n"}

// DetectLayout learns the layout of content. The line break is the first
// one in the file. The indentation unit is the most common increase of
// indentation from one non-blank line to the next (the way editors detect
// it), tabs when more lines start with a tab than with a space.
func DetectLayout(content []byte) Layout {
	l := DefaultLayout
	if i := bytes.IndexAny(content, "\r\n"); i >= 0 {
		switch {
		case content[i] == '\n':
			l.Newline = "\n"
		case i+1 < len(content) && content[i+1] == '\n':
			l.Newline = "\r\n"
		default:
			l.Newline = "\r"
		}
	}
	tabs, spaces := 0, 0
	deltas := map[int]int{}
	prev := 0
	for _, line := range splitLines(content) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 {
			continue
		}
		lead := line[:len(line)-len(trimmed)]
		switch {
		case len(lead) == 0:
		case lead[0] == '\t':
			tabs++
		default:
			spaces++
		}
		n := len(lead) - len(bytes.TrimLeft(lead, " "))
		if n == len(lead) { // only spaces: count them
			if d := n - prev; d > 0 {
				deltas[d]++
			}
			prev = n
		}
	}
	if tabs > spaces {
		l.Indent = "\t"
		return l
	}
	best, count := 0, 0
	for d, c := range deltas {
		if c > count || c == count && d < best {
			best, count = d, c
		}
	}
	if best > 0 && best <= 8 {
		l.Indent = strings.Repeat(" ", best)
	}
	return l
}

// splitLines splits content at "\n", "\r\n" and lone "\r", without the
// breaks.
func splitLines(content []byte) [][]byte {
	var out [][]byte
	start := 0
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			out = append(out, content[start:i])
			start = i + 1
		case '\r':
			out = append(out, content[start:i])
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, content[start:])
}

// lineStart is the offset of the first byte of the line holding off.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' && src[off-1] != '\r' {
		off--
	}
	return off
}

// lineEnd is the offset of the line break ending the line holding off
// (len(src) on the last line).
func lineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' && src[off] != '\r' {
		off++
	}
	return off
}

// nextLine is the offset just after the line break ending the line
// holding off (len(src) on the last line).
func nextLine(src []byte, off int) int {
	off = lineEnd(src, off)
	switch {
	case off+1 < len(src) && src[off] == '\r' && src[off+1] == '\n':
		return off + 2
	case off < len(src):
		return off + 1
	}
	return off
}

// indentAt is the leading blanks of the line holding off.
func indentAt(src []byte, off int) string {
	s := lineStart(src, off)
	e := s
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return string(src[s:e])
}

// startsLine reports whether only blanks precede off on its line.
func startsLine(src []byte, off int) bool {
	return isBlank(src[lineStart(src, off):off])
}

// endsLine reports whether only blanks follow off on its line.
func endsLine(src []byte, off int) bool {
	return isBlank(src[off:lineEnd(src, off)])
}

func isBlank(b []byte) bool { return len(bytes.Trim(b, " \t")) == 0 }

// skipBlanks returns the first offset at or after off that is not a space
// or tab.
func skipBlanks(src []byte, off int) int {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

// quote returns s as a JSON string. Unlike encoding/json's default it does
// not escape <, > and &: the files are not HTML, and a URL should stay
// readable.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// escapeInString returns s escaped for use inside a JSON string (quote
// without the quotes), for edits that replace part of a string.
func escapeInString(s string) string {
	q := quote(s)
	return q[1 : len(q)-1]
}

// nest indents a rendered multi-line value for a position whose line is
// indented by base: every line break gets base after it. Rendered JSON
// has no raw line breaks inside strings, so this cannot alter a value.
func nest(rendered []byte, l Layout, base string) string {
	return strings.ReplaceAll(string(rendered), l.Newline, l.Newline+base)
}
