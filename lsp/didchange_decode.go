package lsp

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"go.lsp.dev/protocol"
)

// bigString is the length from which decodeDidChange unescapes a string
// itself instead of leaving it to encoding/json.
const bigString = 4096

// errSlowPath sends a didChange or didOpen to the ordinary decoder: something the
// fast decoder does not handle (it never guesses).
var errSlowPath = errors.New("params need the ordinary decoder")

// decodeDidChange decodes textDocument/didChange params in one pass over
// the document they carry (rpcstream calls it on the raw frame, see
// Options.Predecode). encoding/json walks a 400 KB text byte by byte, in
// two passes; here every string of bigString bytes or more is unescaped
// by unquote, which skips eight plain bytes at a time, and replaced by a
// placeholder in a skeleton that encoding/json then decodes (and
// validates) in microseconds. Anything unusual (a NUL escape, which the
// placeholders use, invalid UTF-8, a lone surrogate) returns errSlowPath.
func decodeDidChange(params []byte) (any, error) {
	return decodeDidChangeWith(params, unquote)
}

// decodeDidChangeWith is decodeDidChange with big strings unescaped by
// decode (unquote, or a textReuse's).
func decodeDidChangeWith(params []byte, decode func(b []byte, i int) (string, int, error)) (any, error) {
	skel, big, err := skeleton(params, decode)
	if err != nil {
		return nil, err
	}
	var p didChangeParams
	if err := json.Unmarshal(skel, &p); err != nil {
		return nil, errSlowPath
	}
	if placeholder(string(p.TextDocument.URI)) {
		return nil, errSlowPath
	}
	for i := range p.ContentChanges {
		if p.ContentChanges[i].Text, err = restore(p.ContentChanges[i].Text, big); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

// decodeDidOpen decodes textDocument/didOpen params as decodeDidChange
// does a didChange: the document they carry (2.6 MB for a minified
// 20,000-server file) is unescaped in one pass instead of by the
// protocol's decoder, which walked it three times over (a third of a
// second of CPU on the way to that file's first diagnostics on the
// shared machine, its largest single cost before the analysis).
func decodeDidOpen(params []byte) (any, error) {
	skel, big, err := skeleton(params, unquote)
	if err != nil {
		return nil, err
	}
	var p protocol.DidOpenTextDocumentParams
	if err := json.Unmarshal(skel, &p); err != nil {
		return nil, errSlowPath
	}
	d := &p.TextDocument
	if placeholder(string(d.URI)) || placeholder(string(d.LanguageID)) {
		return nil, errSlowPath
	}
	if d.Text, err = restore(d.Text, big); err != nil {
		return nil, err
	}
	return &p, nil
}

// skeleton returns params with every string of bigString bytes or more
// replaced by a placeholder ("\u0000" and its index), and those strings
// unescaped (unquote), in order.
func skeleton(params []byte, decode func(b []byte, i int) (string, int, error)) ([]byte, []string, error) {
	var big []string
	skel := make([]byte, 0, 256)
	for i := 0; i < len(params); {
		j := bytes.IndexByte(params[i:], '"')
		if j < 0 {
			skel = append(skel, params[i:]...)
			break
		}
		start := i + j
		skel = append(skel, params[i:start]...)
		// A short string goes to the skeleton as it is; its end is found
		// within bigString bytes.
		end := quoteEnd(params, start, bigString)
		if end >= 0 {
			if bytes.Contains(params[start:end], []byte(`\u0000`)) {
				return nil, nil, errSlowPath
			}
			skel = append(skel, params[start:end+1]...)
			i = end + 1
			continue
		}
		s, end, err := decode(params, start+1)
		if err != nil {
			return nil, nil, err
		}
		skel = append(skel, `"\u0000`...)
		skel = strconv.AppendInt(skel, int64(len(big)), 10)
		skel = append(skel, '"')
		big = append(big, s)
		i = end + 1
	}
	return skel, big, nil
}

// restore returns the string a placeholder of skeleton stands for, or t
// itself when it is none.
func restore(t string, big []string) (string, error) {
	if !placeholder(t) {
		return t, nil
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || n >= len(big) {
		return "", errSlowPath
	}
	return big[n], nil
}

func placeholder(s string) bool { return len(s) > 0 && s[0] == 0 }

// quoteEnd returns the offset of the quote closing the string opened at
// start if it lies within limit bytes of it, or -1.
func quoteEnd(b []byte, start, limit int) int {
	stop := min(len(b), start+1+limit)
	for i := start + 1; i < stop; i++ {
		switch b[i] {
		case '"':
			return i
		case '\\':
			i++
		}
	}
	return -1
}

// Masks for specials.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specials flags the bytes of w (little-endian) that unquote cannot copy
// as they are: a quote, a backslash, a control character or a non-ASCII
// byte. A byte sets its high bit in w-0x20 if it is below 0x20, in
// (w^'"')-1 if it is a quote, in (w^'\\')-1 if it is a backslash, and in
// w if it is not ASCII. A borrow runs on only from a byte that is itself
// flagged, so the lowest flag is exact: it marks the first special byte.
func specials(w uint64) uint64 {
	quote, slash := w^(ones*'"'), w^(ones*'\\')
	return ((w - ones*0x20) | (quote - ones) | (slash - ones) | w) & highs
}

// unquote decodes the body of the JSON string starting at b[i], just after
// its opening quote, as encoding/json would, and returns it with the
// offset of its closing quote; or errSlowPath where encoding/json would
// substitute or refuse, or for a NUL escape (see decodeDidChange).
//
// It is one pass, a word at a time: each word of eight bytes is copied
// whole to the output, which then advances to the word's first special
// byte (all eight in the common case). A JSON document escaped as a
// string has a quote or a line break every few bytes, so a special byte
// costs a few instructions, not a call. Decoding never lengthens the text,
// so one buffer of the raw length holds the result (and the overhang of
// the last word copied), and the string shares its memory.
func unquote(b []byte, i int) (string, int, error) {
	return unquoteMarking(b, i, nil)
}

// unquoteMarking is unquote, appending to marks, when not nil, a safe
// point about every markEvery bytes (see textReuse).
func unquoteMarking(b []byte, i int, marks *[]textMark) (string, int, error) {
	out := make([]byte, len(b)-i)
	k := 0 // bytes decoded into out
	j := i
	next := markEvery
	if marks == nil {
		next = len(b) // never
	}
	for {
		// Here j is between two characters or escapes: no state but j
		// and k carries on.
		if j-i >= next {
			*marks = append(*marks, textMark{raw: j - i, text: k})
			next += markEvery
		}
		if j+8 <= len(b) {
			// k+8 <= len(out) here, as k <= j-i.
			w := binary.LittleEndian.Uint64(b[j:])
			binary.LittleEndian.PutUint64(out[k:], w)
			f := specials(w)
			if f == 0 {
				j, k = j+8, k+8
				continue
			}
			n := bits.TrailingZeros64(f) / 8
			j, k = j+n, k+n
		} else {
			for j < len(b) && plain[b[j]] {
				out[k] = b[j]
				j, k = j+1, k+1
			}
			if j == len(b) {
				return "", 0, errSlowPath // unterminated
			}
		}
		switch c := b[j]; {
		case c == '"':
			if k < len(out)/2 {
				// The params held more than this string (another full
				// text after it): do not keep their size with it.
				out = bytes.Clone(out[:k])
			}
			return unsafe.String(unsafe.SliceData(out), k), j, nil
		case c < 0x20:
			return "", 0, errSlowPath
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && n == 1 {
				return "", 0, errSlowPath
			}
			k += copy(out[k:], b[j:j+n])
			j += n
			continue
		}
		// A backslash.
		if j+1 == len(b) {
			return "", 0, errSlowPath
		}
		c := b[j+1]
		j += 2
		switch c {
		case '"', '\\', '/':
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r, n := hex4(b[j:])
			if n < 0 || r == 0 {
				return "", 0, errSlowPath
			}
			j += n
			if utf16.IsSurrogate(r) {
				if len(b) < j+2 || b[j] != '\\' || b[j+1] != 'u' {
					return "", 0, errSlowPath
				}
				r2, n2 := hex4(b[j+2:])
				dec := utf16.DecodeRune(r, r2)
				if n2 < 0 || dec == utf8.RuneError {
					return "", 0, errSlowPath
				}
				r, j = dec, j+2+n2
			}
			k += utf8.EncodeRune(out[k:], r)
			continue
		default:
			return "", 0, errSlowPath
		}
		out[k] = c
		k++
	}
}

// plain marks the bytes unquote copies as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

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
