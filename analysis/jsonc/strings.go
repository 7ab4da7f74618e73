package jsonc

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// The one decoder of JSON string escapes. The lexer uses it to build
// Node.Str, and SourceSpan uses it to map offsets in Node.Str back to the
// source, so a reference spelled "\u0024{VAR}" is underlined whole.

// appendEscape decodes the escape sequence at src[i] == '\\' of a string
// quoted with quote, appends the decoded bytes to buf and returns the
// index after the sequence. Decoding follows encoding/json, which is what
// tools reading the file see: a lone surrogate becomes U+FFFD. An invalid
// escape is kept verbatim (the likeliest cause is an unescaped backslash,
// as in a Windows path) and reported by invalid.
func appendEscape(src []byte, i int, quote byte, buf []byte) (next int, out []byte, invalid bool) {
	if i+1 == len(src) || src[i+1] == '\n' || src[i+1] == '\r' {
		// The string is unterminated; the lexer reports that.
		return i + 1, append(buf, '\\'), false
	}
	switch c := src[i+1]; c {
	case '"', '\\', '/':
		return i + 2, append(buf, c), false
	case 'b':
		return i + 2, append(buf, '\b'), false
	case 'f':
		return i + 2, append(buf, '\f'), false
	case 'n':
		return i + 2, append(buf, '\n'), false
	case 'r':
		return i + 2, append(buf, '\r'), false
	case 't':
		return i + 2, append(buf, '\t'), false
	case '\'':
		if quote == '\'' { // already reported as a single-quoted string
			return i + 2, append(buf, c), false
		}
	case 'u':
		return appendUnicodeEscape(src, i, buf)
	}
	r, size := utf8.DecodeRune(src[i+1:])
	return i + 1 + size, utf8.AppendRune(append(buf, '\\'), r), true
}

// appendUnicodeEscape decodes \uXXXX at src[i], combining a surrogate
// pair.
func appendUnicodeEscape(src []byte, i int, buf []byte) (int, []byte, bool) {
	r, n := hex4(src[i+2:])
	if n < 4 {
		return i + 2 + n, append(buf, src[i:i+2+n]...), true
	}
	i += 6
	if !utf16.IsSurrogate(r) {
		return i, utf8.AppendRune(buf, r), false
	}
	if i+1 < len(src) && src[i] == '\\' && src[i+1] == 'u' {
		if r2, n := hex4(src[i+2:]); n == 4 {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return i + 6, utf8.AppendRune(buf, dec), false
			}
		}
	}
	return i, utf8.AppendRune(buf, utf8.RuneError), false
}

// hex4 decodes up to four hex digits at the start of b, returning the
// value and how many digits there were.
func hex4(b []byte) (rune, int) {
	var r rune
	for n := range 4 {
		if n == len(b) {
			return r, n
		}
		c := b[n]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return r, n
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}

// SourceSpan maps the byte range [start, end) of n.Str, the decoded value
// of string node n in document src, to the source bytes that produce it:
// in "\u0024{A}" the decoded ${A} covers all eleven source bytes. A range
// that starts or ends inside a multi-byte sequence takes the whole
// sequence. When the range is empty or out of bounds, or the source does
// not decode to n.Str (a stale src), it returns the whole node's span.
func (n *Node) SourceSpan(src []byte, start, end int) span.Span {
	if n.Kind != String || start < 0 || start >= end || end > len(n.Str) || n.Span.End > len(src) || n.Span.Len() == 0 {
		return n.Span
	}
	i, stop := n.Span.Start, n.Span.End
	quote := src[i]
	if quote != '"' && quote != '\'' {
		// An unquoted key: its text is its value.
		if string(src[i:stop]) != n.Str {
			return n.Span
		}
		return span.New(i+start, i+end)
	}
	i++
	if n.Closed {
		stop--
	}
	from, to := -1, -1
	var scratch [8]byte
	decoded := 0 // bytes of n.Str produced so far
	for i < stop {
		next, count := i+1, 1
		switch c := src[i]; {
		case c == '\\':
			var out []byte
			next, out, _ = appendEscape(src, i, quote, scratch[:0])
			count = len(out)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(src[i:stop])
			next, count = i+size, size
			if r == utf8.RuneError && size == 1 {
				count = utf8.RuneLen(utf8.RuneError)
			}
		}
		if from < 0 && start < decoded+count {
			from = i
		}
		decoded += count
		if to < 0 && end <= decoded {
			to = next
		}
		i = next
	}
	if decoded != len(n.Str) || from < 0 || to < 0 {
		return n.Span
	}
	return span.New(from, to)
}
