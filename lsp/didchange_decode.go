package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// bigString is the length from which decodeDidChange unescapes a string
// itself instead of leaving it to encoding/json.
const bigString = 4096

// errSlowPath sends a didChange to the ordinary decoder: something the
// fast decoder does not handle (it never guesses).
var errSlowPath = errors.New("didChange params need the ordinary decoder")

// decodeDidChange decodes textDocument/didChange params in one pass over
// the document they carry (rpcstream calls it on the raw frame, see
// Options.Predecode). encoding/json walks a 400 KB text byte by byte, in
// two passes; here every string of bigString bytes or more is unescaped
// by unquote, which jumps from backslash to backslash, and replaced by a
// placeholder in a skeleton that encoding/json then decodes (and
// validates) in microseconds. Anything unusual (a NUL escape, which the
// placeholders use, invalid UTF-8, a lone surrogate) returns errSlowPath.
func decodeDidChange(params []byte) (any, error) {
	if bytes.Contains(params, []byte(`\u0000`)) {
		return nil, errSlowPath
	}
	var big []string
	skel := make([]byte, 0, 256)
	for i := 0; i < len(params); {
		j := bytes.IndexByte(params[i:], '"')
		if j < 0 {
			skel = append(skel, params[i:]...)
			break
		}
		start := i + j
		end := quoteEnd(params, start)
		if end < 0 {
			return nil, errSlowPath
		}
		skel = append(skel, params[i:start]...)
		if end-start-1 < bigString {
			skel = append(skel, params[start:end+1]...)
		} else {
			s, err := unquote(params[start+1 : end])
			if err != nil {
				return nil, err
			}
			skel = append(skel, `"\u0000`...)
			skel = strconv.AppendInt(skel, int64(len(big)), 10)
			skel = append(skel, '"')
			big = append(big, s)
		}
		i = end + 1
	}
	var p didChangeParams
	if err := json.Unmarshal(skel, &p); err != nil {
		return nil, errSlowPath
	}
	if placeholder(string(p.TextDocument.URI)) {
		return nil, errSlowPath
	}
	for i := range p.ContentChanges {
		t := p.ContentChanges[i].Text
		if !placeholder(t) {
			continue
		}
		n, err := strconv.Atoi(t[1:])
		if err != nil || n >= len(big) {
			return nil, errSlowPath
		}
		p.ContentChanges[i].Text = big[n]
	}
	return &p, nil
}

func placeholder(s string) bool { return len(s) > 0 && s[0] == 0 }

// quoteEnd returns the offset of the quote closing the string opened at
// start, or -1.
func quoteEnd(b []byte, start int) int {
	for i := start + 1; ; i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		k := i - 1
		for b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i
		}
	}
}

// unquote decodes the body of a JSON string as encoding/json would, or
// returns errSlowPath where encoding/json would substitute or refuse.
func unquote(b []byte) (string, error) {
	var out strings.Builder // its String does not copy the text again
	out.Grow(len(b))
	for len(b) > 0 {
		// One pass to the next escape: a full-text edit of a large file
		// has one (a line break) every few dozen bytes.
		j := 0
		for j < len(b) {
			c := b[j]
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRune(b[j:])
				if r == utf8.RuneError && n == 1 {
					return "", errSlowPath
				}
				j += n
				continue
			}
			if c == '\\' {
				break
			}
			if c < 0x20 {
				return "", errSlowPath
			}
			j++
		}
		out.Write(b[:j])
		b = b[j:]
		if len(b) == 0 {
			break
		}
		if len(b) < 2 {
			return "", errSlowPath
		}
		switch b[1] {
		case '"', '\\', '/':
			out.WriteByte(b[1])
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			r, n := hex4(b[2:])
			if n < 0 {
				return "", errSlowPath
			}
			b = b[2+n:]
			if utf16.IsSurrogate(r) {
				if len(b) < 2 || b[0] != '\\' || b[1] != 'u' {
					return "", errSlowPath
				}
				r2, n2 := hex4(b[2:])
				dec := utf16.DecodeRune(r, r2)
				if n2 < 0 || dec == utf8.RuneError {
					return "", errSlowPath
				}
				r, b = dec, b[2+n2:]
			}
			out.WriteRune(r)
			continue
		default:
			return "", errSlowPath
		}
		b = b[2:]
	}
	return out.String(), nil
}

// hex4 decodes four hex digits; n is 4, or -1 if they are not there.
func hex4(b []byte) (r rune, n int) {
	if len(b) < 4 {
		return 0, -1
	}
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, -1
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}
