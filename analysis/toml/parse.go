package toml

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	gotoml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Syntax error codes of TOML files (jsonc.SyntaxError.Code). jsonc's codes
// name JSON mistakes (a missing comma, an unquoted key) and would mislead
// here; go-toml's message says what is wrong. Codes are stable: users and
// quick fixes refer to them.
const (
	// CodeSyntax: text the TOML grammar does not allow.
	CodeSyntax = "toml-syntax"
	// CodeRedefinition: a key or table defined twice, or a table extended
	// the way TOML forbids (a key added to an inline table, a [header] for
	// a table made by dotted keys...). The later definition is left out.
	CodeRedefinition = "toml-redefinition"
	// CodeInvalidValue: a value of the right shape that does not exist: an
	// integer beyond 64 bits, a date like 2026-02-30.
	CodeInvalidValue = "toml-invalid-value"
	// CodeInternal: a bug in this package or in go-toml, caught so that a
	// file cannot crash the server. The rest of the file is not read.
	CodeInternal = "toml-internal-error"
)

// maxDepth bounds the nesting of the tree (tables, dotted keys and arrays
// alike), as jsonc.MaxDepth does for JSON, so that recursive consumers run
// in bounded stack space. It is below jsonc's limit because the tree is
// built through jsonc.Parse (see file), which must never meet its own.
const maxDepth = jsonc.MaxDepth / 2

var bom = []byte("\uFEFF")

// Parse parses src as TOML into jsonc's tree (see the package
// documentation). It never fails: errors are in File.Errors, sorted by
// position, and the tree keeps everything else. It does not modify src and
// retains it as File.Src. A leading UTF-8 byte order mark is skipped and
// recorded in File.BOM, as jsonc.Parse does, for the readers' facts to
// judge.
func Parse(src []byte) *jsonc.File {
	b := &builder{src: src}
	b.parse()
	return b.file()
}

// builder turns go-toml's expressions into the tree, one at a time.
type builder struct {
	src  []byte
	bom  bool
	root *node
	// cur is the table key-values go to: the last [header]'s, or nil after
	// a header that could not be read or defined.
	cur  *node
	errs []jsonc.SyntaxError
	// lastEnd is where the last expression read ends: a failed expression
	// starts at the first token after it.
	lastEnd int
	// quiet turns reporting into setting suppressed, for trial readings
	// of a broken expression (see salvage).
	quiet, suppressed bool
}

// parse reads the document expression by expression. go-toml's parser
// stops at the first error; parse records it, salvages the key of a
// key-value it broke, and starts a new parser at the next line that looks
// like an expression.
func (b *builder) parse() {
	pos := 0
	if bytes.HasPrefix(b.src, bom) {
		b.bom, pos = true, len(bom)
	}
	b.root = &node{kind: jsonc.Object, how: byHeader, explicit: true, fixed: true, span: span.New(pos, len(b.src))}
	b.cur = b.root
	for pos < len(b.src) && len(b.errs) <= jsonc.MaxErrors {
		next, ok := b.step(pos)
		if !ok {
			return
		}
		pos = next
	}
}

// step reads the expressions of src[pos:] until the end or an error, and
// returns where to resume. A panic (a bug, here or in go-toml's unstable
// API) is reported as an internal error and ends the parse rather than
// taking the language server down; the fuzz test fails on any such
// report, so such bugs still surface.
func (b *builder) step(pos int) (next int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			b.quiet = false
			b.report(span.New(pos, pos), CodeInternal, "mcp-lsp could not read this TOML file (internal error: %v); please report it", r)
			ok = false
		}
	}()
	b.lastEnd = pos
	var p unstable.Parser
	p.Reset(b.src[pos:])
	for p.NextExpression() {
		b.expression(pos, p.Expression())
	}
	err := p.Error()
	if err == nil {
		return len(b.src), true
	}
	at := b.syntaxError(pos, err)
	b.salvage(at)
	return b.resume(at.Start), true
}

// syntaxError reports go-toml's error for the text starting at pos and
// returns its span: the bytes go-toml highlights.
func (b *builder) syntaxError(pos int, err error) span.Span {
	s := span.New(pos, pos)
	if perr, ok := errors.AsType[*unstable.ParserError](err); ok {
		// Highlight is a subslice of the parser's input: its offset is the
		// difference of capacities (the trick unstable.Parser.Range uses).
		data := b.src[pos:]
		off := cap(data) - cap(perr.Highlight)
		if off < 0 || off > len(data) {
			off = len(data)
		}
		end := min(off+len(perr.Highlight), len(data))
		s = span.New(pos+off, pos+end)
	}
	b.report(s, CodeSyntax, "%s", err.Error())
	return s
}

// report records an error, at most jsonc.MaxErrors of them (the last one
// then says there are more), as jsonc does. The span is widened to whole
// characters: go-toml highlights one byte of a multi-byte character it
// does not expect, and a span cutting through a character has no UTF-16
// position of its own.
func (b *builder) report(s span.Span, code, format string, args ...any) {
	s = wholeChars(b.src, s)
	if b.quiet {
		b.suppressed = true
		return
	}
	if len(b.errs) > jsonc.MaxErrors {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if len(b.errs) == jsonc.MaxErrors {
		code, msg = jsonc.CodeTooManyErrors, "too many errors; the rest are not reported"
	}
	b.errs = append(b.errs, jsonc.SyntaxError{Span: s, Code: code, Message: msg})
}

// wholeChars widens s to the characters it cuts through, counting an
// invalid byte as a character of its own, as the language server's mapper
// does. An empty span stays empty, at the start of its character.
func wholeChars(src []byte, s span.Span) span.Span {
	i := s.Start
	for i > 0 && src[i-1] >= utf8.RuneSelf {
		i-- // back to a place after an ASCII byte, where decoding is in step
	}
	for i < len(src) {
		_, n := utf8.DecodeRune(src[i:])
		if i+n > s.Start {
			break
		}
		i += n
	}
	start, end := i, i
	for end < s.End {
		_, n := utf8.DecodeRune(src[end:])
		end += n
	}
	return span.New(start, end)
}

// expression adds one top-level expression read from src[base:].
func (b *builder) expression(base int, e *unstable.Node) {
	switch e.Kind {
	case unstable.KeyValue:
		b.keyValue(base, e)
	case unstable.Table:
		b.header(base, e, false)
	case unstable.ArrayTable:
		b.header(base, e, true)
	}
}

// keyPart is one segment of a (dotted) key.
type keyPart struct {
	name string
	span span.Span
}

func (b *builder) keys(base int, it unstable.Iterator) []keyPart {
	var out []keyPart
	for it.Next() {
		k := it.Node()
		out = append(out, keyPart{name: string(k.Data), span: rawSpan(base, k.Raw)})
	}
	return out
}

func rawSpan(base int, r unstable.Range) span.Span {
	return span.New(base+int(r.Offset), base+int(r.Offset)+int(r.Length))
}

func pathOf(keys []keyPart) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return strings.Join(names, ".")
}

// keyValue adds a top-level key = value to the current table.
func (b *builder) keyValue(base int, e *unstable.Node) {
	keys := b.keys(base, e.Key())
	end := rawSpan(base, e.Raw).End
	b.lastEnd = end
	if b.cur == nil || len(keys) == 0 {
		return // after a broken header: not attributed to the wrong table
	}
	eq, vs := b.afterKey(keys[len(keys)-1].span.End)
	if b.cur.depth+len(keys) > maxDepth {
		b.report(keys[0].span.Cover(keys[len(keys)-1].span), jsonc.CodeTooDeep, "nested more than %d levels deep; the rest is not read", maxDepth)
		return
	}
	t := b.dotted(b.cur, keys)
	if t == nil {
		return
	}
	v, _ := b.value(base, e.Value(), vs, t.depth+1)
	t.add(keys[len(keys)-1], v, eq)
}

// afterKey returns the offsets of the '=' after a key ending at i and of
// the value after it.
func (b *builder) afterKey(i int) (eq, value int) {
	eq = b.skipSpace(i, len(b.src))
	if eq >= len(b.src) || b.src[eq] != '=' {
		return -1, eq
	}
	return eq, b.skipSpace(eq+1, len(b.src))
}

// dotted walks the intermediate segments of a key-value's key from t and
// returns the table that receives its last segment, creating the tables
// the dotted key makes; nil, after reporting why, when TOML forbids the
// definition. Nothing is created unless the definition is valid: the walk
// checks the existing tables first, and from the first missing segment on
// everything is new.
func (b *builder) dotted(t *node, keys []keyPart) *node {
	last := keys[len(keys)-1]
	i := 0
	for ; i < len(keys)-1; i++ {
		m := t.get(keys[i].name)
		if m == nil {
			break
		}
		if m.value.kind != jsonc.Object || m.value.how != byDottedKey {
			b.report(keys[i].span, CodeRedefinition, "%q is already defined as %s; a dotted key cannot add to it", keys[i].name, describe(m.value))
			return nil
		}
		t = m.value
	}
	if i == len(keys)-1 {
		if m := t.get(last.name); m != nil {
			b.report(last.span, CodeRedefinition, "duplicate key %q: it is already defined as %s, and TOML does not allow defining a key twice", last.name, describe(m.value))
			return nil
		}
	}
	for ; i < len(keys)-1; i++ {
		t = t.add(keys[i], &node{kind: jsonc.Object, how: byDottedKey}, -1)
	}
	return t
}

// header handles [table] and [[array of tables]]: it finds or creates the
// table and makes it the current one. go-toml's decoder rules apply: a
// header may pass through tables made by headers or dotted keys and
// through arrays of tables (into their last element), but not through
// values; a [table] may be named by its own header once, and not when
// dotted keys made it; [[name]] only extends an array of tables.
func (b *builder) header(base int, e *unstable.Node, array bool) {
	keys := b.keys(base, e.Key())
	b.cur = nil
	if len(keys) == 0 {
		return
	}
	hdr := b.headerSpan(keys, array)
	b.lastEnd = hdr.End
	if len(keys)+1 > maxDepth {
		b.report(hdr, jsonc.CodeTooDeep, "nested more than %d levels deep; the rest is not read", maxDepth)
		return
	}
	t := b.root
	i := 0
	for ; i < len(keys)-1; i++ {
		m := t.get(keys[i].name)
		if m == nil {
			break
		}
		switch v := m.value; {
		case v.kind == jsonc.Object && (v.how == byHeader || v.how == byDottedKey):
			t = v
		case v.kind == jsonc.Array && v.how == byArrayTable && len(v.elems) > 0:
			t = v.elems[len(v.elems)-1]
		default:
			b.report(keys[i].span, CodeRedefinition, "%q is already defined as %s, not a table", pathOf(keys[:i+1]), describe(v))
			return
		}
	}
	last := keys[len(keys)-1]
	var m *member
	if i == len(keys)-1 {
		m = t.get(last.name)
	}
	for ; i < len(keys)-1; i++ {
		t = t.add(keys[i], &node{kind: jsonc.Object, how: byHeader}, -1)
	}
	name := pathOf(keys)
	if !array {
		switch {
		case m == nil:
			b.cur = t.add(last, &node{kind: jsonc.Object, how: byHeader, explicit: true, headers: []span.Span{hdr}}, -1)
		case m.value.kind == jsonc.Object && m.value.how == byHeader && !m.value.explicit:
			// Named before only as a prefix ([a.b] before [a]): this
			// header defines it, so it becomes the key's place.
			m.key.span = last.span
			m.value.explicit = true
			m.value.headers = append(m.value.headers, hdr)
			b.cur = m.value
		case m.value.kind == jsonc.Object && m.value.how == byHeader:
			b.report(last.span, CodeRedefinition, "table [%s] is already defined; TOML does not allow defining a table twice", name)
		case m.value.kind == jsonc.Array && m.value.how == byArrayTable:
			b.report(last.span, CodeRedefinition, "[%s] is an array of tables: add an element with [[%s]]", name, name)
		default:
			b.report(last.span, CodeRedefinition, "%q is already defined as %s; TOML does not allow a [header] for it", name, describe(m.value))
		}
		return
	}
	var arr *node
	switch {
	case m == nil:
		arr = t.add(last, &node{kind: jsonc.Array, how: byArrayTable}, -1)
	case m.value.kind == jsonc.Array && m.value.how == byArrayTable:
		arr = m.value
	default:
		b.report(last.span, CodeRedefinition, "%q is already defined as %s, not an array of tables", name, describe(m.value))
		return
	}
	elem := &node{kind: jsonc.Object, how: byHeader, explicit: true, headers: []span.Span{hdr}, depth: arr.depth + 1}
	arr.elems = append(arr.elems, elem)
	b.cur = elem
}

// headerSpan is the span of a header from '[' to ']' (or '[[' to ']]'),
// given its key segments. go-toml gives no range for a header itself.
func (b *builder) headerSpan(keys []keyPart, array bool) span.Span {
	start := keys[0].span.Start
	for start > 0 && (b.src[start-1] == ' ' || b.src[start-1] == '\t') {
		start--
	}
	if start > 0 && b.src[start-1] == '[' {
		start--
	}
	if array && start > 0 && b.src[start-1] == '[' {
		start--
	}
	end := b.skipSpace(keys[len(keys)-1].span.End, len(b.src))
	for range 1 + btoi(array) {
		if end < len(b.src) && b.src[end] == ']' {
			end++
		}
	}
	return span.New(start, end)
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}

// value converts a value node whose text starts at start (needed for
// arrays, which go-toml gives no range) at the given depth, and returns
// it with the offset just after it.
func (b *builder) value(base int, v *unstable.Node, start, depth int) (*node, int) {
	switch v.Kind {
	case unstable.String:
		s := rawSpan(base, v.Raw)
		return &node{kind: jsonc.String, str: string(v.Data), span: s, fixed: true}, s.End
	case unstable.Bool:
		s := rawSpan(base, v.Raw)
		k := jsonc.False
		if len(v.Data) > 0 && v.Data[0] == 't' {
			k = jsonc.True
		}
		return &node{kind: k, span: s, fixed: true}, s.End
	case unstable.Integer, unstable.Float:
		s := rawSpan(base, v.Raw)
		str, ok := number(v.Kind, string(v.Data))
		if !ok {
			what := "integer %s does not fit in 64 bits"
			if v.Kind == unstable.Float {
				what = "float %s is out of the range of a 64-bit float"
			}
			b.report(s, CodeInvalidValue, what, v.Data)
			return &node{kind: jsonc.Invalid, span: s, fixed: true}, s.End
		}
		return &node{kind: jsonc.Number, str: str, span: s, fixed: true}, s.End
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		s := rawSpan(base, v.Raw)
		if !validDateTime(v.Data) {
			b.report(s, CodeInvalidValue, "%s is not a valid %s", v.Data, dateKind(v.Kind))
			return &node{kind: jsonc.Invalid, span: s, fixed: true}, s.End
		}
		return &node{kind: jsonc.String, str: string(v.Data), span: s, fixed: true}, s.End
	case unstable.InlineTable:
		start = rawSpan(base, v.Raw).Start // the '{'
		if depth > maxDepth {
			return b.tooDeep(start)
		}
		return b.inlineTable(base, v, start, depth)
	case unstable.Array:
		if depth > maxDepth {
			return b.tooDeep(start)
		}
		n := &node{kind: jsonc.Array, how: literal, fixed: true, depth: depth}
		i := start + 1
		for it := v.Children(); it.Next(); {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			e, end := b.value(base, c, b.skipTrivia(i), depth+1)
			n.elems = append(n.elems, e)
			i = b.skipTrivia(end)
			if i < len(b.src) && b.src[i] == ',' {
				i++
			}
		}
		i = b.closeAt(i, ']')
		n.span = span.New(start, i)
		return n, i
	}
	s := rawSpan(base, v.Raw)
	return &node{kind: jsonc.Invalid, span: s, fixed: true}, s.End
}

// inlineTable converts { k = v, ... }: a table closed to everything
// outside it, whose keys may be dotted.
func (b *builder) inlineTable(base int, v *unstable.Node, start, depth int) (*node, int) {
	n := &node{kind: jsonc.Object, how: literal, fixed: true, depth: depth}
	i := start + 1
	for it := v.Children(); it.Next(); {
		kv := it.Node()
		if kv.Kind != unstable.KeyValue {
			continue
		}
		keys := b.keys(base, kv.Key())
		end := rawSpan(base, kv.Raw).End
		if len(keys) > 0 {
			eq, vs := b.afterKey(keys[len(keys)-1].span.End)
			if depth+len(keys) > maxDepth {
				b.report(keys[0].span, jsonc.CodeTooDeep, "nested more than %d levels deep; the rest is not read", maxDepth)
			} else if t := b.dotted(n, keys); t != nil {
				val, _ := b.value(base, kv.Value(), vs, t.depth+1)
				t.add(keys[len(keys)-1], val, eq)
			}
		}
		i = b.skipTrivia(end)
		if i < len(b.src) && b.src[i] == ',' {
			i++
		}
	}
	i = b.closeAt(i, '}')
	n.span = span.New(start, i)
	return n, i
}

// closeAt returns the offset after the closing bracket c expected at i
// (after trivia), or i if it is not there (which the parser rules out).
func (b *builder) closeAt(i int, c byte) int {
	j := b.skipTrivia(i)
	if j < len(b.src) && b.src[j] == c {
		return j + 1
	}
	return i
}

// tooDeep reports an array or inline table at start nested beyond
// maxDepth and returns an Invalid node in its place.
func (b *builder) tooDeep(start int) (*node, int) {
	end := b.closing(start)
	b.report(span.New(start, start+1), jsonc.CodeTooDeep, "nested more than %d levels deep; the rest is not read", maxDepth)
	return &node{kind: jsonc.Invalid, span: span.New(start, end), fixed: true}, end
}

// number returns an integer's or float's value in JSON number syntax; ok
// is false for an integer beyond 64 bits, which TOML requires rejecting,
// and for a float beyond the 64-bit range (1e400), which go-toml rejects.
// go-toml's parser has already checked the grammar (digits, underscores,
// leading zeros).
func number(kind unstable.Kind, raw string) (string, bool) {
	s := strings.TrimPrefix(strings.ReplaceAll(raw, "_", ""), "+")
	if kind == unstable.Float {
		if t := strings.TrimPrefix(s, "-"); t == "inf" || t == "nan" {
			return s, true
		}
		_, err := strconv.ParseFloat(s, 64)
		return s, err == nil
	}
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatInt(v, 10), true
}

// validDateTime checks a date or time go-toml's parser only delimited: its
// decoder is the reference for what exists (no February 30, no hour 24).
func validDateTime(raw []byte) bool {
	var v map[string]any
	return gotoml.Unmarshal(append([]byte("v="), raw...), &v) == nil
}

func dateKind(k unstable.Kind) string {
	switch k {
	case unstable.LocalDate:
		return "date"
	case unstable.LocalTime:
		return "time"
	}
	return "date-time"
}

// salvage keeps what it can of the expression an error broke, once the
// error at err is reported. A key-value keeps its key: with its value
// when the text before the error is a complete key-value on its own
// (a = 1 x: the error is at x), with an Invalid value otherwise (a =
// "unterminated). After a broken header, the following key-values are not
// attributed to the previous table.
func (b *builder) salvage(err span.Span) {
	start := b.skipTrivia(b.lastEnd)
	if start >= len(b.src) || start > err.Start {
		return
	}
	if b.src[start] == '[' {
		b.cur = nil
		return
	}
	if b.cur == nil {
		return
	}
	lineEnd := b.lineEnd(start)
	k := b.scanKey(start, lineEnd)
	if k < 0 || k >= lineEnd || b.src[k] != '=' || k >= err.Start {
		return // the key itself is broken
	}
	b.quiet, b.suppressed = true, false
	defer func() { b.quiet, b.suppressed = false, false }()

	// The whole key-value before the error, read on its own.
	var p unstable.Parser
	p.Reset(b.src[start:err.Start])
	if p.NextExpression() && p.Expression().Kind == unstable.KeyValue {
		e := p.Expression()
		keys := b.keys(start, e.Key())
		eq, vs := b.afterKey(keys[len(keys)-1].span.End)
		if b.cur.depth+len(keys) <= maxDepth {
			if v, _ := b.value(start, e.Value(), vs, b.cur.depth+len(keys)); !b.suppressed {
				if t := b.dotted(b.cur, keys); t != nil {
					t.add(keys[len(keys)-1], v, eq)
				}
				return
			}
		}
		b.suppressed = false
	}

	// The key alone: go-toml decodes it from "key = 0".
	text := make([]byte, 0, k+3-start)
	text = append(append(text, b.src[start:k+1]...), " 0"...)
	p.Reset(text)
	if !p.NextExpression() || p.Expression().Kind != unstable.KeyValue {
		return
	}
	keys := b.keys(start, p.Expression().Key())
	if len(keys) == 0 || b.cur.depth+len(keys) > maxDepth {
		return
	}
	vs := b.skipSpace(k+1, lineEnd)
	ve := lineEnd
	for ve > vs && (b.src[ve-1] == ' ' || b.src[ve-1] == '\t' || b.src[ve-1] == '\r') {
		ve--
	}
	if t := b.dotted(b.cur, keys); t != nil {
		t.add(keys[len(keys)-1], &node{kind: jsonc.Invalid, span: span.New(vs, ve), fixed: true}, k)
	}
	// go-toml points at the line break ending an unterminated string;
	// the mistake is the value it ends, which is what to underline.
	if n := len(b.errs); n > 0 && b.errs[n-1].Span == err && ve > vs && err.Start >= ve && err.Start <= lineEnd && isLineBreak(b.src[err.Start:err.End]) {
		b.errs[n-1].Span = span.New(vs, ve)
	}
}

func isLineBreak(s []byte) bool {
	return string(s) == "\n" || string(s) == "\r\n" || string(s) == "\r"
}

// resume returns where to start reading again after an error at e: the
// first line after e's that looks like the start of an expression (see
// startsExpression), so that the rest of a broken multi-line value (an
// array's elements) is skipped instead of producing an error per line.
func (b *builder) resume(e int) int {
	i := b.lineEnd(e) + 1
	for i < len(b.src) {
		end := b.lineEnd(i)
		if b.startsExpression(i, end) {
			return i
		}
		i = end + 1
	}
	return len(b.src)
}

// file builds the jsonc tree. jsonc keeps the links from children to
// parents private to its builders, so the tree is made by parsing a JSON
// skeleton of it ({"":{"":[0]}}: the same shape, no content) and filling
// in kinds, spans and strings, which are public; jsonc.Parse is linear
// and the skeleton is smaller than the source.
func (b *builder) file() *jsonc.File {
	b.root.finish()
	skeleton := b.root.appendSkeleton(make([]byte, 0, 64))
	f := jsonc.Parse(skeleton)
	if f.Root != nil {
		b.root.fill(f.Root)
	}
	slices.SortStableFunc(b.errs, func(x, y jsonc.SyntaxError) int { return cmp.Compare(x.Span.Start, y.Span.Start) })
	return &jsonc.File{Src: b.src, Root: f.Root, Errors: b.errs, BOM: b.bom}
}
