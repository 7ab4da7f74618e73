package jsonc

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokLBrace
	tokRBrace
	tokLBracket
	tokRBracket
	tokColon
	tokComma
	tokString // double- or single-quoted
	tokWord   // a run of word bytes: a number, true/false/null, or an unquoted name
	tokJunk   // a run of bytes that cannot start any token
)

// token is one significant token; whitespace and comments never are.
//
// A token holds no pointer, so the parser's copies of it cost no write
// barrier while the garbage collector runs: a string's value is its
// source text between the quotes, unless the lexer had to decode it (see
// decoded).
type token struct {
	kind tokenKind
	// closed reports whether a tokString has its closing quote.
	closed bool
	// decoded, when not zero, is 1 + the slot of lexer.decoded holding a
	// tokString's value.
	decoded uint8
	span    span.Span
}

// str returns the value of a tokString.
func (l *lexer) str(t *token) string {
	if t.decoded != 0 {
		return l.decoded[t.decoded-1]
	}
	return l.text[t.span.Start+1 : t.span.End-1]
}

// lexer splits the input into tokens, recording comments and lexical
// errors as it goes. Each byte is lexed exactly once, which is
// what keeps Parse linear.
type lexer struct {
	src []byte
	// text is src's bytes as a string (not a copy). Token strings are
	// substrings of it, so the common escape-free string costs no
	// allocation until the parser keeps it (parser.own).
	text     string
	pos      int
	comments []span.Span
	log      errorLog
	// decoded holds the values of the last strings that needed decoding
	// (escapes, an unterminated string, invalid UTF-8...), in turn: the
	// parser looks at most two tokens ahead, so a slot is reused only
	// once its token is gone.
	decoded     [4]string
	lastDecoded uint8
}

// newLexer returns a lexer at the start of src, its text src's own bytes.
func newLexer(src []byte) lexer {
	return lexer{src: src, text: unsafe.String(unsafe.SliceData(src), len(src)), log: newErrorLog(src)}
}

// next stores the next token in t, skipping whitespace and comments. (It
// fills t in place: a token is several words, and this is the innermost
// loop of Parse.)
func (l *lexer) next(t *token) {
	// Most tokens follow another directly, after one space (": ") or at
	// the start of an indented line, and then skipTrivia is not worth a
	// call.
	src, start := l.src, l.pos
	if start < len(src) {
		switch src[start] {
		case ' ':
			start++
		case '\n':
			start++
			if start+8 <= len(src) {
				if x := word(src, start) ^ ones*' '; x != 0 {
					start += bits.TrailingZeros64(x) >> 3
				}
			}
		}
	}
	if start == len(src) || byteClass[src[start]] == classTrivia {
		l.pos = start
		l.skipTrivia()
		start = l.pos
		if start == len(src) {
			*t = token{kind: tokEOF, span: span.New(start, start)}
			return
		}
	}
	c := src[start]
	switch k := byteClass[c]; k {
	case classString:
		l.pos = start
		l.string(c, t)
		return
	case classWord:
		i := start + 1
		for i < len(src) && byteClass[src[i]] == classWord {
			i++
		}
		l.pos = i
		*t = token{kind: tokWord, span: span.New(start, i)}
		return
	case classJunk, classTrivia: // a '/' that starts no comment is junk
		l.pos = start
		for l.pos < len(src) && l.isJunk(l.pos) {
			l.pos++
		}
		*t = token{kind: tokJunk, span: span.New(start, l.pos)}
		return
	default: // punctuation
		l.pos = start + 1
		*t = token{kind: tokenKind(k), span: span.New(start, start+1)}
	}
}

// Byte classes for next, beside the punctuation token kinds: what a byte
// that is not whitespace starts.
const (
	classString = 0x10 + iota // a quote
	classWord                 // a word byte (isWordByte)
	classTrivia               // whitespace or '/', which may start a comment
	classJunk                 // anything else
)

// byteClass maps each byte to the kind of token it starts (punctuation)
// or to its class.
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		switch {
		case punctuation(b) != tokEOF:
			t[c] = uint8(punctuation(b))
		case b == '"' || b == '\'':
			t[c] = classString
		case isWordByte(b):
			t[c] = classWord
		case isSpace(b) || b == '/':
			t[c] = classTrivia
		default:
			t[c] = classJunk
		}
	}
	return t
}()

func punctuation(c byte) tokenKind {
	switch c {
	case '{':
		return tokLBrace
	case '}':
		return tokRBrace
	case '[':
		return tokLBracket
	case ']':
		return tokRBracket
	case ':':
		return tokColon
	case ',':
		return tokComma
	}
	return tokEOF
}

// isWordByte reports whether c belongs in a tokWord. The set is the one
// hujson uses for literals plus '_' and '$', so that unquoted names like
// my_server stay one token.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '+' || c == '.' || c == '_' || c == '$'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isJunk reports whether the byte at i cannot start any token, trivia
// included. Runs of such bytes form one tokJunk, hence one error.
func (l *lexer) isJunk(i int) bool {
	c := l.src[i]
	return !isSpace(c) && punctuation(c) == tokEOF && c != '"' && c != '\'' &&
		!isWordByte(c) && !l.commentAt(i)
}

func (l *lexer) commentAt(i int) bool {
	return l.src[i] == '/' && i+1 < len(l.src) && (l.src[i+1] == '/' || l.src[i+1] == '*')
}

// skipTrivia advances past whitespace and comments. Whitespace is JSON's
// four characters only: anything else (form feed, NBSP, a BOM in the
// middle) is junk, as it is for every strict reader.
func (l *lexer) skipTrivia() {
	// Hot loops read a local copy of l.src: one memory access per byte
	// instead of two, which matters most under the race detector.
	src := l.src
	for l.pos < len(src) {
		i := skipSpace(src, l.pos)
		l.pos = i
		if i == len(src) || !l.commentAt(i) {
			return
		}
		l.comment()
	}
}

// comment consumes the comment at l.pos and records it. A line comment
// ends before the first CR or LF, the line breaks an editor (and the LSP
// position mapping) recognises. Comments are checked even where the parser
// mutes errors: they are trivia, not skipped content.
func (l *lexer) comment() {
	muted := l.log.muted
	l.log.muted = false
	defer func() { l.log.muted = muted }()
	start := l.pos
	var end int
	if l.src[start+1] == '/' {
		end = len(l.src)
		if i := bytes.IndexAny(l.src[start:], "\r\n"); i >= 0 {
			end = start + i
		}
	} else if i := bytes.Index(l.src[start+2:], []byte("*/")); i >= 0 {
		end = start + 2 + i + 2
	} else {
		end = len(l.src)
		l.log.report(span.New(start, start+2), CodeUnterminatedComment, "unterminated comment: missing */")
	}
	l.pos = end
	l.comments = append(l.comments, span.New(start, end))
	l.checkUTF8(start, end)
}

// checkUTF8 reports the invalid UTF-8 in src[start:end], a comment.
func (l *lexer) checkUTF8(start, end int) {
	if utf8.Valid(l.src[start:end]) {
		return
	}
	for i := start; i < end; {
		r, size := utf8.DecodeRune(l.src[i:end])
		if r == utf8.RuneError && size == 1 {
			l.log.reportRun(span.New(i, i+1), CodeInvalidUTF8, "invalid UTF-8 in comment")
		}
		i += size
	}
}

// string scans a string starting with quote at l.pos. Strings cannot span
// lines, so an unterminated string ends at the end of its line (see
// unterminated) instead of swallowing the rest of the file.
func (l *lexer) string(quote byte, t *token) {
	start := l.pos
	// Fast path: no escapes, control characters or invalid UTF-8, so the
	// value is a substring of the text.
	src, i := l.src, start+1
	if quote == '"' { // the shape of nearly every string: plain bytes, then '"'
		for i+8 <= len(src) {
			if m := specialBytes(word(src, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				if src[i] == '"' {
					l.pos = i + 1
					*t = token{kind: tokString, span: span.New(start, i+1), closed: true}
					return
				}
				break
			}
			i += 8
		}
	}
	for i < len(src) {
		// Skip the bytes that need no attention, most of a string,
		// eight at a time, then one at a time.
		for i+8 <= len(src) {
			if m := specialBytes(word(src, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(src) && !strSpecial[src[i]] {
			i++
		}
		if i == len(src) {
			break
		}
		c := src[i]
		if c == quote {
			l.pos = i + 1
			if quote == '\'' {
				*t = l.stringToken(start, "", false, true)
				return
			}
			// A closed double-quoted string: nothing to report.
			*t = token{kind: tokString, span: span.New(start, i+1), closed: true}
			return
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c < utf8.RuneSelf { // the other quote
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, l.src[start+1:i]...)
	*t = l.slowString(quote, start, i, buf)
}

// strSpecial marks the bytes the string fast path must look at: quotes,
// backslashes, control characters and the start of non-ASCII sequences.
var strSpecial = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\'' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

// slowString continues scanning a string at i, decoding into buf.
func (l *lexer) slowString(quote byte, start, i int, buf []byte) token {
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == quote:
			l.pos = i + 1
			return l.stringToken(start, string(buf), true, true)
		case c == '\n' || c == '\r':
			return l.unterminated(start, i, buf)
		case c == '\\':
			i, buf = l.escape(quote, i, buf)
		case c < 0x20:
			l.log.reportRun(span.New(i, i+1), CodeControlCharacter, "control characters in strings must be escaped")
			buf = append(buf, c)
			i++
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRune(l.src[i:])
			if r == utf8.RuneError && size == 1 {
				l.log.reportRun(span.New(i, i+1), CodeInvalidUTF8, "invalid UTF-8 in string")
			}
			buf = utf8.AppendRune(buf, r)
			i += size
		}
	}
	return l.unterminated(start, i, buf)
}

// unterminated ends a string that has no closing quote at i, the end of
// its line or input, decoded into buf. Commas and closing brackets at the
// end of the line are given back to the parser: they are far more likely
// structure the user meant to keep ("command": "npx,) than string content,
// and keeping them keeps the brackets of the rest of the file balanced.
func (l *lexer) unterminated(start, i int, buf []byte) token {
	for i > start+1 && strings.IndexByte(" ,]}", l.src[i-1]) >= 0 {
		i--
		buf = buf[:len(buf)-1] // these bytes were copied verbatim
	}
	l.pos = i
	return l.stringToken(start, string(buf), true, false)
}

// stringToken builds the token for the string src[start:l.pos], whose
// value is value if decoded (else the text between its quotes), and
// reports what is wrong with its delimiters.
func (l *lexer) stringToken(start int, value string, decoded, closed bool) token {
	s := span.New(start, l.pos)
	switch {
	case !closed:
		l.log.report(s, CodeUnterminatedString, "unterminated string")
	case l.src[start] == '\'':
		l.log.report(s, CodeSingleQuotedString, "strings must use double quotes")
	}
	t := token{kind: tokString, span: s, closed: closed}
	if decoded {
		l.lastDecoded = (l.lastDecoded + 1) % uint8(len(l.decoded))
		l.decoded[l.lastDecoded] = value
		t.decoded = l.lastDecoded + 1
	}
	return t
}

// escape decodes the escape sequence at src[i] == '\\' into buf (see
// appendEscape) and reports an invalid one.
func (l *lexer) escape(quote byte, i int, buf []byte) (int, []byte) {
	next, buf, invalid := appendEscape(l.src, i, quote, buf)
	switch {
	case !invalid:
	case l.src[i+1] == 'u':
		l.log.report(span.New(i, next), CodeInvalidEscape, "invalid escape %s in string: expected four hex digits", l.src[i:next])
	default:
		r, _ := utf8.DecodeRune(l.src[i+1:])
		msg := "invalid escape sequence in string"
		if unicode.IsPrint(r) {
			msg = fmt.Sprintf("invalid escape \\%c in string", r)
		}
		l.log.report(span.New(i, next), CodeInvalidEscape, "%s", msg)
	}
	return next, buf
}
