package jsonc

import (
	"math/bits"
	"unicode/utf8"
)

// Skim parses src like Parse but builds only the object members on the
// paths in keep, and the objects leading to them: a tool's state file that
// embeds MCP settings (Claude Code's ~/.claude.json keeps every project's
// prompt history beside its mcpServers, 15 to 100 MB and more) costs a
// scan of its bytes, not a tree of them.
//
// A path is a list of object keys from the root; "*" matches any key.
// A member whose path is a kept path, or lies below one, is parsed as
// Parse would; one on the way to a kept path is kept with only the members
// that lead on. Every other member is skipped with a scan that checks it is
// strict JSON (no comment, trailing comma, invalid escape, number or
// UTF-8: none of what Parse would record) and is left out of the tree. A
// member that does not pass the check is parsed and kept, so its errors are
// reported at the right place and a file that is not strict JSON gets the
// same errors as from Parse. Arrays are kept whole.
//
// So for every input, the tree holds the kept members with the same nodes
// and spans Parse gives them, Errors, Comments and TrailingCommas are those
// of Parse, and the members left out are exactly the well-formed ones off
// the kept paths.
//
// There is no copy of a 100 MB input: src must not be modified while the
// File is in use. The tree's strings have memory of their own (see
// Node.Str), so keeping one does not keep src.
func Skim(src []byte, keep [][]string) *File {
	return parse(src, &skimmer{keep: keep, active: true})
}

// skimmer is the parser's state while skimming.
type skimmer struct {
	keep [][]string
	// path holds the keys from the root to the object being parsed,
	// while active.
	path []string
	// active reports whether the members of the object being parsed are
	// filtered: the object lies on the way to a kept path.
	active bool
}

// decide classifies the member key of the object at s.path: kept whole
// (the path is a kept one or below one), kept and filtered further (on
// the way to one), or skipped.
func (s *skimmer) decide(key string) (keep, filter bool) {
	n := len(s.path) + 1
	seg := func(i int) string {
		if i == len(s.path) {
			return key
		}
		return s.path[i]
	}
	for _, q := range s.keep {
		matches := true
		for i := 0; i < min(len(q), n) && matches; i++ {
			matches = q[i] == "*" || q[i] == seg(i)
		}
		switch {
		case !matches:
		case len(q) <= n:
			return true, false
		default:
			keep, filter = true, true
		}
	}
	return keep, filter
}

// suspend turns filtering off (inside a member kept whole, or an array)
// and returns the function that restores it.
func (s *skimmer) suspend() func() {
	saved := s.active
	s.active = false
	return func() { s.active = saved }
}

// skimMember finishes member m, whose key and colon are parsed, in an
// object whose members are filtered. It returns nil when the member is
// skipped.
func (p *parser) skimMember(m *Member, depth int) *Member {
	keep, filter := p.skim.decide(m.Key.Str)
	if !keep && m.Colon >= 0 && p.skipStrict(depth) {
		return nil
	}
	if filter {
		p.skim.path = append(p.skim.path, m.Key.Str)
		m.Value = p.value(depth)
		p.skim.path = p.skim.path[:len(p.skim.path)-1]
	} else {
		restore := p.skim.suspend()
		m.Value = p.value(depth)
		restore()
	}
	m.Span = m.Key.Span.Cover(m.Value.Span)
	return m
}

// skipStrict skips the value at the current token if it is strict JSON,
// and reports whether it did. Nothing is recorded: strict JSON holds
// nothing Parse would record.
func (p *parser) skipStrict(depth int) bool {
	if p.hasAhead || !startsValue(p.tok.kind) {
		return false
	}
	end, ok := scanStrict(p.src, p.tok.span.Start, MaxDepth-depth)
	if !ok {
		return false
	}
	p.pos = end
	p.prevEnd = end
	p.clean = true
	p.next(&p.tok)
	return true
}

// scanStrict returns the end of the strict JSON value at src[i], which
// is not whitespace, nesting at most maxDepth containers; ok is false if
// there is none, or it is not strict JSON, or it is nested deeper. It runs
// without recursion, in one pass, and allocates only the container stack.
func scanStrict(src []byte, i, maxDepth int) (end int, ok bool) {
	var stack []byte // the open containers' opening brackets
	for {
		// A value starts at i.
		if i >= len(src) {
			return 0, false
		}
		switch c := src[i]; {
		case c == '{' || c == '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			i = skipSpace(src, i+1)
			if i < len(src) && src[i] == closer {
				i++
				break // an empty container is a complete value
			}
			if len(stack) == maxDepth {
				return 0, false
			}
			stack = append(stack, c)
			if c == '{' {
				if i, ok = scanKey(src, i); !ok {
					return 0, false
				}
			}
			continue
		case c == '"':
			if i, ok = scanString(src, i); !ok {
				return 0, false
			}
		case c == 't':
			if i, ok = scanWord(src, i, "true"); !ok {
				return 0, false
			}
		case c == 'f':
			if i, ok = scanWord(src, i, "false"); !ok {
				return 0, false
			}
		case c == 'n':
			if i, ok = scanWord(src, i, "null"); !ok {
				return 0, false
			}
		case c == '-' || '0' <= c && c <= '9':
			if i, ok = scanNumber(src, i); !ok {
				return 0, false
			}
		default:
			return 0, false
		}
		// A value ends at i: close containers until one continues.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipSpace(src, i)
			if i == len(src) {
				return 0, false
			}
			top := stack[len(stack)-1]
			if c := src[i]; c == '}' && top == '{' || c == ']' && top == '[' {
				stack = stack[:len(stack)-1]
				i++
				continue
			} else if c != ',' {
				return 0, false
			}
			i = skipSpace(src, i+1)
			if top == '{' {
				if i, ok = scanKey(src, i); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// scanKey scans `"key" :` and the whitespace after it.
func scanKey(src []byte, i int) (int, bool) {
	if i == len(src) || src[i] != '"' {
		return 0, false
	}
	i, ok := scanString(src, i)
	if !ok {
		return 0, false
	}
	i = skipSpace(src, i)
	if i == len(src) || src[i] != ':' {
		return 0, false
	}
	return skipSpace(src, i+1), true
}

func skipSpace(src []byte, i int) int {
outer:
	for i < len(src) {
		switch src[i] {
		case ' ': // indentation, eight spaces at a time, then to its end
			for i+8 <= len(src) {
				if x := word(src, i) ^ ones*' '; x != 0 {
					i += bits.TrailingZeros64(x) >> 3
					continue outer
				}
				i += 8
			}
			for i < len(src) && src[i] == ' ' {
				i++
			}
		case '\n', '\r', '\t':
			i++
		default:
			return i
		}
	}
	return i
}

// Masks for word-at-a-time scans.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// word is the little-endian word of src[i:i+8]. (The compiler makes one
// load of it.)
func word(src []byte, i int) uint64 {
	b := src[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// specialBytes has the high bit set of the first byte of w that is
// special in a string (see strSpecial), and maybe of later ones; it is
// zero if there is none. A byte sets its high bit in w-0x20 if it is
// below 0x20, in (w^c)-1 if it is c, and in w if it is not ASCII; a
// borrow carries only upwards, from a byte that is special.
func specialBytes(w uint64) uint64 {
	dq, sq, bs := w^(ones*'"'), w^(ones*'\''), w^(ones*'\\')
	return ((w - ones*0x20) | (dq - ones) | (sq - ones) | (bs - ones) | w) & highs
}

// strictSpecial marks the bytes a strict string scan stops at: the quote,
// a backslash, control characters and the start of non-ASCII sequences.
var strictSpecial = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

// scanString scans the double-quoted string at src[i] and returns the
// index after its closing quote; ok is false for anything Parse would
// report (a control character, an invalid escape or UTF-8 sequence, no
// closing quote).
func scanString(src []byte, i int) (int, bool) {
	nonASCII := false
	start := i
	i++
	for {
		for i < len(src) && !strictSpecial[src[i]] {
			i++
		}
		if i == len(src) {
			return 0, false
		}
		switch c := src[i]; {
		case c == '"':
			if nonASCII && !utf8.Valid(src[start:i]) {
				return 0, false
			}
			return i + 1, true
		case c == '\\':
			if i+1 == len(src) {
				return 0, false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, n := hex4(src[i+2:]); n < 4 {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		default:
			nonASCII = true
			i++
		}
	}
}

// scanWord scans the literal word at src[i], which must be a whole word.
func scanWord(src []byte, i int, word string) (int, bool) {
	end := i + len(word)
	if end > len(src) || string(src[i:end]) != word || end < len(src) && isWordByte(src[end]) {
		return 0, false
	}
	return end, true
}

// scanNumber scans the number at src[i], which must be a whole word with
// JSON's grammar.
func scanNumber(src []byte, i int) (int, bool) {
	end := i
	for end < len(src) && isWordByte(src[end]) {
		end++
	}
	if numberProblem(string(src[i:end])) != "" {
		return 0, false
	}
	return end, true
}
