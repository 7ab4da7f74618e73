package toml

import "bytes"

// Small scanners over the source text. go-toml gives ranges for keys and
// scalars only; these find what it does not (where arrays end, where a
// header starts) in text its parser has already validated, and recognise
// lines worth resuming at after an error.

// skipSpace returns the first offset at or after i (before end) that is
// not a space or a tab.
func (b *builder) skipSpace(i, end int) int {
	for i < end && (b.src[i] == ' ' || b.src[i] == '\t') {
		i++
	}
	return i
}

// skipTrivia skips whitespace, line breaks and comments, as found between
// the elements of an array or a multi-line inline table.
func (b *builder) skipTrivia(i int) int {
	for i < len(b.src) {
		switch b.src[i] {
		case ' ', '\t', '\r', '\n':
			i++
		case '#':
			i = b.lineEnd(i)
		default:
			return i
		}
	}
	return i
}

// lineEnd returns the offset of the '\n' ending the line holding i, or the
// end of the source.
func (b *builder) lineEnd(i int) int {
	if i >= len(b.src) {
		return len(b.src)
	}
	if n := bytes.IndexByte(b.src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(b.src)
}

func isBare(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// scanKey returns the offset after a key (bare, quoted or dotted) starting
// at i and the spaces after it, or -1 if src[i:end] does not start with
// one. It checks the shape only; go-toml decodes the key.
func (b *builder) scanKey(i, end int) int {
	for {
		i = b.skipSpace(i, end)
		if i >= end {
			return -1
		}
		switch c := b.src[i]; {
		case c == '"':
			j := i + 1
			for j < end && b.src[j] != '"' {
				if b.src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= end {
				return -1
			}
			i = j + 1
		case c == '\'':
			j := bytes.IndexByte(b.src[i+1:end], '\'')
			if j < 0 {
				return -1
			}
			i += j + 2
		case isBare(c):
			for i < end && isBare(b.src[i]) {
				i++
			}
		default:
			return -1
		}
		i = b.skipSpace(i, end)
		if i < end && b.src[i] == '.' {
			i++
			continue
		}
		return i
	}
}

// startsExpression reports whether the line src[i:end] looks like the
// start of an expression: a key followed by '=', or a header, even an
// unfinished one ("[mcp.servers." while it is typed), so that its own
// error is reported and the key-values after it are not attributed to the
// table before. Lines inside a broken multi-line array ("x",  or  [1, 2],)
// do not look like either.
func (b *builder) startsExpression(i, end int) bool {
	j := b.skipSpace(i, end)
	if j >= end {
		return false
	}
	if b.src[j] != '[' {
		k := b.scanKey(j, end)
		return k >= 0 && k < end && b.src[k] == '='
	}
	j++
	if j < end && b.src[j] == '[' {
		j++
	}
	j = b.skipSpace(j, end)
	if j >= end || b.src[j] == '\r' {
		return true // "[" alone
	}
	// The first segment of the name, then anything but an array's ','.
	k := b.scanKey(j, end)
	if k < 0 {
		k = j
		for k < end && isBare(b.src[k]) {
			k++
		}
		if k == j {
			return false // [{...}], ["unterminated
		}
		k = b.skipSpace(k, end)
	}
	return k >= end || b.src[k] != ','
}

// closing returns the offset after the bracket that closes the array or
// inline table opening at i, skipping strings and comments; the end of the
// source if there is none. Used only for values nested too deep to read.
func (b *builder) closing(i int) int {
	depth := 0
	for i < len(b.src) {
		switch c := b.src[i]; c {
		case '[', '{':
			depth++
			i++
		case ']', '}':
			depth--
			i++
			if depth <= 0 {
				return i
			}
		case '#':
			i = b.lineEnd(i)
		case '"', '\'':
			i = b.stringEnd(i)
		default:
			i++
		}
	}
	return i
}

// stringEnd returns the offset after the string starting at i.
func (b *builder) stringEnd(i int) int {
	q := b.src[i]
	if bytes.HasPrefix(b.src[i:], []byte{q, q, q}) {
		for j := i + 3; j < len(b.src); j++ {
			if q == '"' && b.src[j] == '\\' {
				j++
				continue
			}
			if bytes.HasPrefix(b.src[j:], []byte{q, q, q}) {
				// Up to two more quotes belong to the content, so the
				// delimiter is the last three of the run.
				k := j + 3
				for n := 0; n < 2 && k < len(b.src) && b.src[k] == q; n++ {
					k++
				}
				return k
			}
		}
		return len(b.src)
	}
	for j := i + 1; j < len(b.src); j++ {
		switch b.src[j] {
		case '\\':
			if q == '"' {
				j++
			}
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(b.src)
}
