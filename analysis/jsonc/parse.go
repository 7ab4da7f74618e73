package jsonc

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// MaxDepth is the deepest nesting of objects and arrays Parse builds.
// Content nested deeper is skipped (by counting brackets, in linear time)
// and reported once, so that the parser and every recursive consumer of
// the tree run in bounded stack space whatever the input.
const MaxDepth = 1000

// Parse parses src as JSONC. It never fails: syntax errors are recorded in
// File.Errors and the tree keeps everything that could be recovered. It
// runs in time linear in len(src), does not modify src, and retains it as
// File.Src: src must not be modified while the File is in use. The tree's
// strings are copies (Node.Str), and keeping one does not keep src.
func Parse(src []byte) *File {
	return parse(src, nil)
}

// parse parses src (the lexer's text is src's own memory: the parse never
// keeps a substring of it, see own), keeping only what skim keeps
// (everything when skim is nil).
func parse(src []byte, skim *skimmer) *File {
	p := &parser{
		lexer:   newLexer(src),
		mem:     newArena(len(src)),
		clean:   true,
		lastErr: -1,
		skim:    skim,
	}
	f := &File{Src: src, BOM: bytes.HasPrefix(src, bom)}
	if f.BOM {
		p.pos = len(bom)
	}
	p.prevEnd = p.pos
	p.next(&p.tok)
	f.Root = p.file()
	f.Comments, f.TrailingCommas = p.comments, p.trailingCommas
	f.keysChecked, f.keysRepeat = true, p.keysRepeat
	f.parsed = skim == nil
	f.sizes = p.mem.sizes()
	// Errors are recorded nearly in order: the lexical errors of a peeked
	// token come before the parser's errors about the current one.
	f.Errors = p.log.errs
	slices.SortStableFunc(f.Errors, func(a, b SyntaxError) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
	return f
}

var bom = []byte("\uFEFF")

// parser is a recursive-descent parser over the lexer's tokens with one
// token of lookahead (two where a member's missing colon needs it).
//
// Error recovery follows three rules that keep it to about one error per
// mistake. First, every error is attached to a token and parsing resumes
// as if the likeliest fix had been made (a missing comma inserted, a stray
// token deleted). Second, an error is suppressed when no token has been
// accepted since the previous one, or when it is at the same place: those
// are consequences of the previous error, not new mistakes. Third, the
// error log keeps one structural error per line (see errorLog).
type parser struct {
	lexer
	tok      token // the current token
	ahead    token // the token after tok, if hasAhead
	hasAhead bool
	prevEnd  int // end of the last token consumed

	clean   bool // a token was accepted since the last parser error
	lastErr int  // Span.Start of the last parser error

	// Open containers enclosing the current position, by kind. A closing
	// bracket that does not match the innermost container but matches an
	// enclosing one closes the inner one as unclosed; otherwise it is a
	// stray token.
	openObjects, openArrays int

	trailingCommas []span.Span

	mem arena
	// The members and elements of the containers being parsed, innermost
	// last. A container's children collect here and are copied out once,
	// at their exact size, when it ends.
	memberStack  []*Member
	elementStack []*Node

	// skim, when set, drops the members no reader needs (see Skim).
	skim *skimmer

	// strs holds short strings of the tree (see own).
	strs strCache

	// keys is the table checkKeys reuses for every large object.
	keys []uint64
	// keysRepeat: some object has two members with the same key.
	keysRepeat bool
}

// own returns s, a token's text, in memory of the tree's own: a
// substring of the document would keep the whole document alive for as
// long as anything keeps the string (a memo's key holding a server's
// name kept every edited version of a file, one per keystroke), and the
// document's text is the caller's src, not a copy. Short strings are
// shared within the tree: keys and values such as "command", "args" or
// "npx" repeat in every server (see strCache).
func (p *parser) own(s string) string {
	if len(s) > maxSharedString {
		return strings.Clone(s)
	}
	if s == "" {
		return ""
	}
	return p.strs.get(s)
}

// maxSharedString is the length up to which own shares a string: longer
// ones (paths, URLs, prompts) seldom repeat.
const maxSharedString = 24

// strCache shares the short strings of one parse. A string seen once goes
// to seen, where the next new string of its slot replaces it; seen again,
// it moves to hot, where only another string seen twice can replace it.
// So the thousand server names of a large file, each seen once, pass
// through seen without evicting "command" or "npx" from hot.
type strCache struct {
	hot, seen [256]string
}

func (c *strCache) get(s string) string {
	h := strHash(s)
	hot := &c.hot[uint8(h>>56)]
	if *hot == s {
		return *hot
	}
	seen := &c.seen[uint8(h>>48)]
	if *seen == s {
		*hot = *seen
		return *hot
	}
	*seen = strings.Clone(s)
	return *seen
}

// strHash is a cheap hash of a short string for strCache: its first and
// last eight bytes (all of them up to 16) and its length. A collision
// costs a copy, never a wrong string.
func strHash(s string) uint64 {
	var h uint64
	switch {
	case len(s) >= 8:
		h = le64(s) ^ le64(s[len(s)-8:])*0x9e3779b97f4a7c15
	case len(s) >= 4: // two loads that overlap unless len(s) == 8
		h = uint64(le32(s)) | uint64(le32(s[len(s)-4:]))<<32
	default:
		for i := range len(s) {
			h = h<<8 | uint64(s[i])
		}
	}
	h = (h ^ uint64(len(s))) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// le64 is the little-endian word of the first eight bytes of s. (The
// compiler makes one load of it.)
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// le32 is the little-endian word of the first four bytes of s.
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// ownSeed seeds File.Hash.
var ownSeed = maphash.MakeSeed()

// advance moves to the next token.
func (p *parser) advance() {
	p.prevEnd = p.tok.span.End
	if p.hasAhead {
		p.tok, p.hasAhead = p.ahead, false
		return
	}
	p.next(&p.tok)
}

// accept consumes the current token as part of the structure. A string
// missing its closing quote does not count as a clean token: what follows
// it on the next line is likely a consequence of the missing quote.
func (p *parser) accept() {
	p.clean = p.tok.kind != tokString || p.tok.closed
	p.advance()
}

// skip consumes the current token as part of an error.
func (p *parser) skip() { p.advance() }

// peek returns the token after the current one.
func (p *parser) peek() token {
	if !p.hasAhead {
		p.next(&p.ahead)
		p.hasAhead = true
	}
	return p.ahead
}

// errorf records a parser error unless it is dropped (see suppressed).
func (p *parser) errorf(s span.Span, code, format string, args ...any) {
	if !p.suppressed(s, code) {
		p.log.add(s, code, fmt.Sprintf(format, args...))
	}
}

// suppressed reports whether a parser error is a consequence of the
// previous one (see parser) or dropped by the error log, and updates the
// state as if it had been reported. An error at the end of input (an empty
// span) is kept unless one was already reported there, so an unclosed
// bracket is not hidden by an unrelated earlier error.
func (p *parser) suppressed(s span.Span, code string) bool {
	consequence := s.Start == p.lastErr || !p.clean && !s.IsEmpty()
	p.lastErr, p.clean = s.Start, false
	return consequence || p.log.drop(s, code)
}

// expected returns where something missing was expected: the current
// token, or at the end of input an insertion point right after the last
// token, where the user will type it.
func (p *parser) expected() span.Span {
	if p.tok.kind == tokEOF {
		return span.New(p.prevEnd, p.prevEnd)
	}
	return p.tok.span
}

func (p *parser) newNode(kind Kind, s span.Span) *Node {
	n := take(&p.mem.nodes, p.mem.chunk)
	n.Kind, n.Span = kind, s
	return n
}

// missing returns the Invalid node standing for a value that is not there.
func (p *parser) missing() *Node {
	at := p.expected().Start
	return p.newNode(Invalid, span.New(at, at))
}

// file parses the whole input and returns the root value.
func (p *parser) file() *Node {
	for !startsValue(p.tok.kind) && p.tok.kind != tokEOF {
		p.unexpected("expected a JSON value")
	}
	if p.tok.kind == tokEOF {
		return nil
	}
	root := p.value(0)
	if p.tok.kind != tokEOF {
		p.trailingContent()
	}
	return root
}

// trailingContent reports everything after the top-level value as one
// error and skips it unanalysed.
func (p *parser) trailingContent() {
	start := p.tok.span.Start
	p.log.muted = true
	for p.tok.kind != tokEOF {
		p.skip()
	}
	p.log.muted = false
	p.errorf(span.New(start, p.prevEnd), CodeTrailingContent, "unexpected content after the top-level value")
}

func startsValue(k tokenKind) bool {
	return k == tokLBrace || k == tokLBracket || k == tokString || k == tokWord
}

// value parses a value at nesting depth depth (that of the enclosing
// container). If there is none, it reports that and returns an Invalid node
// without consuming the token that is there instead.
func (p *parser) value(depth int) *Node {
	for p.tok.kind == tokJunk || p.tok.kind == tokColon {
		p.unexpected("expected a value")
	}
	switch p.tok.kind {
	case tokLBrace:
		return p.object(depth + 1)
	case tokLBracket:
		return p.array(depth + 1)
	case tokString:
		n := p.newNode(String, p.tok.span)
		n.Str, n.Closed = p.own(p.str(&p.tok)), p.tok.closed
		p.accept()
		return n
	case tokWord:
		return p.literal()
	}
	n := p.missing()
	p.errorf(p.expected(), CodeMissingValue, "expected a value")
	return n
}

// unexpected reports and skips the current token. Junk that is not even
// UTF-8 gets its own code: the fix is the file's encoding, not its syntax.
func (p *parser) unexpected(expectation string) {
	tok := p.tok
	s := p.skipToken()
	if tok.kind == tokJunk && !utf8.Valid(p.src[s.Start:s.End]) {
		p.errorf(s, CodeInvalidUTF8, "invalid UTF-8 (is the file in another encoding?)")
	} else if !p.suppressed(s, CodeUnexpectedToken) {
		p.log.add(s, CodeUnexpectedToken, expectation+", found "+p.describe(tok))
	}
}

// skipToken skips the current token, or the whole run if it is junk, and
// returns the skipped span. Skipping junk keeps the structure around it:
// in {"a": 1 @ "b": 2} the '@' is the mistake, not the members.
func (p *parser) skipToken() span.Span {
	junk := p.tok.kind == tokJunk
	s := p.tok.span
	p.skip()
	for junk && p.tok.kind == tokJunk {
		s.End = p.tok.span.End
		p.skip()
	}
	return s
}

// describe names a punctuation or junk token for an error message. (The
// other tokens are never unexpected: they always start a value or a key.)
func (p *parser) describe(tok token) string {
	text := p.text[tok.span.Start:tok.span.End]
	if tok.kind != tokJunk {
		return "'" + text + "'"
	}
	if r, size := utf8.DecodeRuneInString(text); size == len(text) && r != utf8.RuneError {
		return "character " + strconv.QuoteRune(r)
	}
	return "characters " + strconv.Quote(truncate(text))
}

// truncate shortens s for a message, without splitting a UTF-8 sequence.
func truncate(s string) string {
	const max = 24
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// literal parses a word in value position: true, false, null or a number.
// Anything else that looks like a number is still a Number (with an error)
// so that schema checks see the type the user meant.
func (p *parser) literal() *Node {
	s := p.tok.span
	text := p.text[s.Start:s.End]
	var n *Node
	switch text {
	case "true":
		n = p.newNode(True, s)
	case "false":
		n = p.newNode(False, s)
	case "null":
		n = p.newNode(Null, s)
	default:
		if c := text[0]; c == '-' || c == '+' || c == '.' || '0' <= c && c <= '9' {
			n = p.newNode(Number, s)
			n.Str = p.own(text)
			if problem := numberProblem(text); problem != "" {
				p.errorf(s, CodeInvalidNumber, "invalid number %s: %s", truncate(text), problem)
			}
		} else {
			n = p.newNode(Invalid, s)
			p.invalidValue(s, text)
		}
	}
	p.accept()
	return n
}

func (p *parser) invalidValue(s span.Span, text string) {
	for _, lit := range []string{"true", "false", "null"} {
		if strings.EqualFold(text, lit) {
			p.errorf(s, CodeInvalidValue, "invalid value %s: JSON literals are lower case (%s)", text, lit)
			return
		}
	}
	p.errorf(s, CodeInvalidValue, "invalid value %s: expected a string (in double quotes), number, true, false or null", truncate(text))
}

// numberProblem explains why s is not a JSON number, or returns "".
// The grammar is -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func numberProblem(s string) string {
	i := 0
	if s[i] == '-' {
		i++
	}
	switch {
	case i == len(s) || s[i] < '0' || s[i] > '9':
		return "expected a digit" + where(s, i)
	case s[i] == '0' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9':
		return "leading zeros are not allowed"
	}
	i = digits(s, i)
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return "expected a digit" + where(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if j := digits(s, i); j > i {
			i = j
		} else {
			return "expected a digit" + where(s, i)
		}
	}
	if i < len(s) {
		return "unexpected " + strconv.QuoteRune(rune(s[i]))
	}
	return ""
}

func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

func where(s string, i int) string {
	if i == len(s) {
		return " at the end"
	}
	return ", found " + strconv.QuoteRune(rune(s[i]))
}

// object parses an object starting at the current '{'.
func (p *parser) object(depth int) *Node {
	if depth > MaxDepth {
		return p.tooDeep()
	}
	obj := p.newNode(Object, p.tok.span)
	p.accept()
	p.openObjects++
	mark := len(p.memberStack)
	p.members(obj, depth)
	obj.setMembers(carve(&p.mem.memPtrs, p.mem.chunk, p.memberStack[mark:]))
	p.memberStack = p.memberStack[:mark]
	p.checkKeys(obj)
	p.openObjects--
	return obj
}

// checkKeys notes whether two members of obj share a key: for the file
// (File.KeysRepeat), and for a large object whose keys are all different
// (Node.KeysUnique). The duplicate-key rule and every analysis of a
// server map need to know; the parser finds out once per parse, on the
// members it has just read, instead of each of them walking the tree and
// building a set of a thousand server names.
func (p *parser) checkKeys(obj *Node) {
	ms := obj.Members()
	if len(ms) <= uniqueKeysMin {
		for i := 1; i < len(ms) && !p.keysRepeat; i++ {
			for _, o := range ms[:i] {
				if o.Key.Str == ms[i].Key.Str {
					p.keysRepeat = true
					break
				}
			}
		}
		return
	}
	// An open-addressing set of member indexes, each slot the high half
	// of the key's hash and 1 + the index: no pointer in it for the GC to
	// scan or guard, one load per probe, and a string comparison only for
	// equal halves. The hash is seeded per process, so no file can make
	// the probing quadratic.
	size := 1 << bits.Len(uint(len(ms)+len(ms)/2))
	if cap(p.keys) < size {
		p.keys = make([]uint64, size)
	} else {
		p.keys = p.keys[:size]
		clear(p.keys)
	}
	const low = 1<<32 - 1
	mask := uint64(size - 1)
	for i, m := range ms {
		h := maphash.String(ownSeed, m.Key.Str)
		tag := h &^ low
		for j := h & mask; ; j = (j + 1) & mask {
			slot := p.keys[j]
			if slot == 0 {
				p.keys[j] = tag | uint64(i+1)
				break
			}
			if slot&^low == tag && ms[slot&low-1].Key.Str == m.Key.Str {
				p.keysRepeat = true
				return
			}
		}
	}
	obj.keysUnique = true
}

// members parses an object's members onto memberStack, up to
// and including the object's '}'. It links each member's key and value to
// obj as it goes, while they are in the cache.
func (p *parser) members(obj *Node, depth int) {
	needComma := false
	for {
		// The kind is all most iterations look at: the token itself is
		// several words, not worth copying.
		switch kind := p.tok.kind; {
		case kind == tokRBrace:
			p.close(obj)
			return
		case kind == tokEOF || kind == tokRBracket && p.openArrays > 0:
			p.unclosed(obj, CodeUnclosedObject, "unclosed object: expected '}'")
			return
		case kind == tokComma && needComma:
			comma := p.tok.span
			p.accept()
			p.noteTrailingComma(comma, tokRBrace)
			needComma = false
		case kind == tokString || kind == tokWord:
			if needComma {
				p.errorf(p.tok.span, CodeMissingComma, "expected ',' or '}' after object member")
			}
			if m := p.member(depth); m != nil { // nil: skimmed over
				m.Key.Parent, m.Value.Parent = obj, obj
				p.memberStack = append(p.memberStack, m)
			}
			needComma = true
		case kind == tokLBrace || kind == tokLBracket:
			// A value without a name; skip all of it, not just the bracket.
			p.errorf(p.tok.span, CodeUnexpectedToken, "expected property name or '}', found %s", p.describe(p.tok))
			p.skipValue()
		default: // ',' without a member before it, ':', junk, stray ']'
			p.unexpected("expected property name or '}'")
		}
	}
}

// member parses "key": value, starting at the key. It returns nil for a
// member skimmed over (see Skim).
func (p *parser) member(depth int) *Member {
	m := take(&p.mem.members, p.mem.chunk)
	m.Colon = -1
	if p.keyColon(m) || p.colon(m) {
		if p.skim != nil && p.skim.active {
			return p.skimMember(m, depth)
		}
		m.Value = p.value(depth)
	} else {
		m.Value = p.missing()
	}
	m.Span = m.Key.Span.Cover(m.Value.Span)
	return m
}

// key parses a member name: a string, or a word as in {command: "npx"}.
// A word is taken for a key but not accepted as clean, because it may as
// well be a stray value ({"a": 1 2}); a missing colon after it is then a
// consequence, not a second mistake.
func (p *parser) key() *Node {
	sp := p.tok.span
	n := p.newNode(String, sp)
	if p.tok.kind != tokWord {
		n.Str, n.Closed = p.own(p.str(&p.tok)), p.tok.closed
		p.accept()
		return n
	}
	n.Str, n.Closed = p.own(p.text[sp.Start:sp.End]), true // nothing to close
	p.errorf(sp, CodeUnquotedKey, "property name %s must be in double quotes", truncate(n.Str))
	p.skip()
	return n
}

// keyColon parses the key of m and, if only spaces separate it from a
// ':', the colon too, without lexing it as a token: the shape of nearly
// every member. It reports whether it consumed the colon; if not, the
// current token is the one after the key.
func (p *parser) keyColon(m *Member) bool {
	if p.tok.kind != tokString || p.hasAhead {
		m.Key = p.key()
		return false
	}
	n := p.newNode(String, p.tok.span)
	n.Str, n.Closed = p.own(p.str(&p.tok)), p.tok.closed
	m.Key = n
	src, i := p.src, p.pos // the lexer is right after the key
	for i < len(src) && src[i] == ' ' {
		i++
	}
	if i == len(src) || src[i] != ':' {
		p.accept()
		return false
	}
	m.Colon = i
	p.clean = true // as accepting the key, then the colon, leaves it
	p.prevEnd = i + 1
	p.pos = i + 1
	p.next(&p.tok)
	return true
}

// colon consumes the ':' after a key, recording it in m, and reports
// whether a value follows. Without a colon it guesses, from the next
// token, whether the value is there anyway ({"a" 1}) or not ({"a"},
// {"a" "b": 1}).
func (p *parser) colon(m *Member) bool {
	if p.tok.kind == tokColon { // the common case, without copying the token
		m.Colon = p.tok.span.Start
		p.accept()
		return true
	}
	const msg = "expected ':' after property name"
	switch tok := p.tok; {
	case tok.kind == tokJunk: // {"a" = 1}: take the junk for a misspelt colon
		p.errorf(p.skipToken(), CodeMissingColon, "%s, found %s", msg, p.describe(tok))
	case (tok.kind == tokString || tok.kind == tokWord) && p.peek().kind == tokColon:
		p.errorf(tok.span, CodeMissingColon, msg) // it is the next member's key
		return false
	case startsValue(tok.kind):
		p.errorf(tok.span, CodeMissingColon, msg)
	default:
		p.errorf(p.expected(), CodeMissingColon, msg)
		return false
	}
	return true
}

// array parses an array starting at the current '['.
func (p *parser) array(depth int) *Node {
	if depth > MaxDepth {
		return p.tooDeep()
	}
	arr := p.newNode(Array, p.tok.span)
	p.accept()
	p.openArrays++
	mark := len(p.elementStack)
	if p.skim != nil { // kept paths name object members: an array is kept whole
		defer p.skim.suspend()()
	}
	p.elements(arr, depth)
	arr.setElements(carve(&p.mem.nodePtrs, p.mem.chunk, p.elementStack[mark:]))
	p.elementStack = p.elementStack[:mark]
	p.openArrays--
	return arr
}

// elements parses an array's elements onto elementStack, up
// to and including the array's ']', linking each to arr.
func (p *parser) elements(arr *Node, depth int) {
	needComma := false
	for {
		switch kind := p.tok.kind; {
		case kind == tokRBracket:
			p.close(arr)
			return
		case kind == tokEOF || kind == tokRBrace && p.openObjects > 0:
			p.unclosed(arr, CodeUnclosedArray, "unclosed array: expected ']'")
			return
		case kind == tokComma:
			comma := p.tok.span
			if !needComma { // [,1] or [1,,2]: keep the hole so indexes match the text
				p.pushElement(arr, p.missing())
				p.errorf(comma, CodeMissingValue, "expected a value before ','")
			}
			p.accept()
			if needComma {
				p.noteTrailingComma(comma, tokRBracket)
			}
			needComma = false
		case startsValue(kind):
			if needComma {
				p.errorf(p.tok.span, CodeMissingComma, "expected ',' or ']' after array element")
			}
			p.pushElement(arr, p.value(depth))
			needComma = true
		default: // ':', junk, stray '}'
			p.unexpected("expected a value or ']'")
		}
	}
}

// pushElement adds e to the elements of arr.
func (p *parser) pushElement(arr *Node, e *Node) {
	e.Parent = arr
	p.elementStack = append(p.elementStack, e)
}

// noteTrailingComma records the comma at span comma, just accepted, if it
// is followed by the closing bracket.
func (p *parser) noteTrailingComma(comma span.Span, closer tokenKind) {
	if p.tok.kind == closer {
		p.trailingCommas = append(p.trailingCommas, comma)
	}
}

// close consumes the closing bracket of n.
func (p *parser) close(n *Node) {
	n.Closed = true
	n.Span.End = p.tok.span.End
	p.accept()
}

// unclosed ends n at the current token (end of input, or a bracket that
// closes an enclosing container) without consuming it.
func (p *parser) unclosed(n *Node, code, msg string) {
	p.errorf(p.expected(), code, "%s", msg)
	n.Span.End = p.tok.span.Start
}

// tooDeep reports and skips a container nested deeper than MaxDepth.
func (p *parser) tooDeep() *Node {
	s := p.tok.span
	p.log.report(s, CodeTooDeep, "nesting deeper than %d levels", MaxDepth)
	p.lastErr, p.clean = s.Start, false
	p.skipValue()
	return p.newNode(Invalid, span.New(s.Start, p.prevEnd))
}

// skipValue skips the current token, and everything up to its matching
// bracket if it is an opening one, without analysing it. Brackets are
// merely counted (any closer matches any opener), so the skip is linear
// and needs no stack however deep the nesting.
func (p *parser) skipValue() {
	p.log.muted = true
	for level := 0; p.tok.kind != tokEOF; {
		switch p.tok.kind {
		case tokLBrace, tokLBracket:
			level++
		case tokRBrace, tokRBracket:
			level--
		}
		if level <= 0 {
			// Unmute first: the token after the skipped one is analysed.
			p.log.muted = false
			p.skip()
			return
		}
		p.skip()
	}
	p.log.muted = false
}
