package jsonc

import (
	"bytes"
	"cmp"
	"slices"
	"sort"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Reparse returns what Parse(src) returns, given old, the File that Parse
// made of an earlier version of the same document. A language client sends
// the whole text on every keystroke, and a keystroke changes the inside of
// one value, or the white space between two tokens. When the bytes that
// differ (between the common prefix and the common suffix of the two
// texts) lie strictly inside the brackets of one object or array below
// the root, only that value's new text is parsed (see spliceChange); when they
// are white space between tokens on both sides, nothing is parsed (see
// respace). Either way the rest of the tree is copied from old with its
// offsets shifted. On the 1,000-server file that replaces lexing 270 KB
// with lexing one server, or none, and copying the nodes of the others.
// old is not modified: the snapshot that holds it keeps reading it.
//
// The result is exactly Parse's, and each shortcut is only taken where
// that is easy to be sure of; every other edit is a full Parse.
// TestReparseIsParse and FuzzReparse check the equality, errors,
// comments and duplicate-key facts included.
func Reparse(old *File, src []byte) *File {
	if old != nil && old.parsed && old.Root != nil {
		pre, suf := span.CommonEnds(old.Src, src)
		if pre == len(old.Src) && pre == len(src) {
			// The same text: nothing to splice (and two Files never
			// share nodes).
			return Parse(src)
		}
		if f := respace(old, src, pre, suf); f != nil {
			return f
		}
		if f := spliceChange(old, src, pre, suf); f != nil {
			return f
		}
	}
	return Parse(src)
}

// spliceChange is Reparse's path for a change inside one value, given
// the length of the texts' common prefix and suffix; nil where it does
// not apply. The splice gives Parse's result exactly, and it is only tried
// where that is easy to be sure of: old has no repeated key and no syntax
// error outside the value, and the new value ends where the old one
// ended, shifted. Then the parser reaches the value's opening bracket in
// the state it had in old (the text before is the same), leaves it in a
// state that makes no difference to what follows (see spliceAt), and goes
// on through the same bytes after it.
func spliceChange(old *File, src []byte, pre, suf int) *File {
	if old.keysRepeat || len(old.Errors) >= MaxErrors {
		return nil
	}
	changeEnd := len(old.Src) - suf // the change is old.Src[pre:changeEnd]

	// The objects and arrays whose brackets are both outside the change,
	// outermost first.
	var chain []*Node
	for at := old.Root; at != nil && encloses(at, pre, changeEnd); at = enclosingChild(at, pre, changeEnd) {
		chain = append(chain, at)
	}
	// Try the innermost first, then the ones around it: a value whose new
	// text does not end where it did (a quote typed that swallows its
	// closing bracket) may be whole in its parent. The root, or a value
	// of more than half the text, is not worth a splice.
	for i, tries := len(chain)-1, 0; i > 0 && tries < 3; i, tries = i-1, tries+1 {
		at := chain[i]
		if 2*at.Span.Len() > len(old.Src) {
			break
		}
		if f := spliceAt(old, src, at, i+1); f != nil {
			return f
		}
	}
	return nil
}

// respace is Reparse's path for a change of white space between tokens:
// old.Src[pre:len(old.Src)-suf] replaced by src[pre:len(src)-suf], both
// nothing but JSON's four white-space characters, anywhere in the file
// (typing a line break or indenting, or the space an editor adds at the
// end). The tokens, and so the tree, are old's, at shifted offsets; nil
// where that might not hold:
//   - old has a syntax error: the error log keeps one error per line, and
//     an unterminated string ends at its line's end, so a line break
//     added or removed may change them;
//   - the change is inside a string or a literal, or at or inside a
//     comment (a line comment ends at the next line break);
//   - a byte order mark would no longer start the text.
//
// Removing all the white space between two tokens joins them only when
// both are words or both junk, which a file without errors never has side
// by side.
func respace(old *File, src []byte, pre, suf int) *File {
	oldEnd, newEnd := len(old.Src)-suf, len(src)-suf
	if len(old.Errors) > 0 || pre > oldEnd || pre > newEnd || old.BOM && pre < len(bom) ||
		!allSpace(old.Src[pre:oldEnd]) || !allSpace(src[pre:newEnd]) {
		return nil
	}
	if n := old.NodeAt(pre); n != nil && n.Kind != Object && n.Kind != Array && n.Span.Start < pre && pre < n.Span.End {
		return nil // inside a string or a literal
	}
	cs := old.Comments
	if i := sort.Search(len(cs), func(i int) bool { return cs[i].End >= pre }); i < len(cs) && cs[i].Start <= oldEnd {
		return nil
	}
	delta := newEnd - oldEnd
	// Nothing starts or ends inside the change: what starts at or after
	// its end moves, and what ends after its start.
	c := copier{mem: newArenaFor(old.sizes), from: oldEnd, after: pre, delta: delta}
	f := &File{Src: src, BOM: old.BOM, parsed: true, keysChecked: true, keysRepeat: old.keysRepeat}
	f.Root = c.node(old.Root, nil)
	f.sizes = c.mem.sizes()
	f.Comments = shiftSpans(old.Comments, oldEnd, delta)
	f.TrailingCommas = shiftSpans(old.TrailingCommas, oldEnd, delta)
	return f
}

// allSpace reports whether b is JSON white space only.
func allSpace(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// shiftSpans returns a copy of spans, each starting at or after from
// moved by delta; nil if there are none.
func shiftSpans(spans []span.Span, from, delta int) []span.Span {
	if len(spans) == 0 {
		return nil
	}
	out := slices.Clone(spans)
	for i := sort.Search(len(out), func(i int) bool { return out[i].Start >= from }); i < len(out); i++ {
		out[i].Start += delta
		out[i].End += delta
	}
	return out
}

// spliceAt is splice with the value at replaced, at depth depth (the
// root's is 1), or nil if Parse might not give the result.
//
// Errors inside at are allowed in old and in the new text, but no error
// outside it in old: then the parser reaches at's opening bracket in its
// initial state (nothing to suppress, as after any accepted token), so
// the sub-parse records the errors the full parse would. After at, the
// only state the errors inside leave that can change what follows is the
// line of the last one (errorLog keeps one structural error per line):
// that is why the text after the last error inside, in old and in the
// new text, must reach a line break before at ends.
func spliceAt(old *File, src []byte, at *Node, depth int) *File {
	delta := len(src) - len(old.Src)
	if !errorsWithin(old.Errors, old.Src, at.Span) {
		return nil
	}
	// Parse the new text of at, from its opening bracket, as Parse would
	// reach it: at the same depth, inside the same open containers.
	p := &parser{
		lexer:   newLexer(src),
		mem:     newArena(at.Span.Len() + delta),
		clean:   true,
		lastErr: -1,
	}
	for a := at.Parent; a != nil; a = a.Parent {
		if a.Kind == Object {
			p.openObjects++
		} else {
			p.openArrays++
		}
	}
	p.pos, p.prevEnd = at.Span.Start, at.Span.Start
	p.next(&p.tok)
	var n *Node
	if at.Kind == Object {
		n = p.object(depth)
	} else {
		n = p.array(depth)
	}
	newSpan := span.New(at.Span.Start, at.Span.End+delta)
	if n.Kind != at.Kind || !n.Closed || n.Span != newSpan || len(p.log.errs) >= MaxErrors {
		return nil
	}
	errs := p.log.errs
	slices.SortStableFunc(errs, func(a, b SyntaxError) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
	if !errorsWithin(errs, src, newSpan) {
		return nil
	}

	f := &File{Src: src, Errors: errs, BOM: old.BOM, parsed: true, keysChecked: true, keysRepeat: p.keysRepeat}
	c := copier{mem: newArenaFor(old.sizes), at: at, with: n, from: at.Span.End, after: at.Span.End - 1, delta: delta}
	f.Root = c.node(old.Root, nil)
	// The copy left at's nodes out, which the sub-parse made instead.
	f.sizes = c.mem.sizes().add(p.mem.sizes())
	// The comments lexed after at (the sub-parse looked one token past
	// it) are old's, shifted.
	inside := p.comments
	for len(inside) > 0 && inside[len(inside)-1].Start >= newSpan.End {
		inside = inside[:len(inside)-1]
	}
	f.Comments = spliceSpans(old.Comments, inside, at.Span, delta)
	f.TrailingCommas = spliceSpans(old.TrailingCommas, p.trailingCommas, at.Span, delta)
	return f
}

// errorsWithin reports whether errs, sorted, lie inside the brackets of
// the value at s in src (the closing one may be the token an error is
// about), with a line break after the start of the last one before s
// ends.
func errorsWithin(errs []SyntaxError, src []byte, s span.Span) bool {
	if len(errs) == 0 {
		return true
	}
	for _, e := range errs {
		if e.Span.Start <= s.Start || e.Span.End > s.End {
			return false
		}
	}
	return bytes.IndexByte(src[errs[len(errs)-1].Span.Start:s.End], '\n') >= 0
}

// encloses reports whether n is an object or array whose opening bracket
// is before the change [pre, changeEnd) and whose closing one after it.
func encloses(n *Node, pre, changeEnd int) bool {
	return (n.Kind == Object || n.Kind == Array) && n.Closed &&
		n.Span.Start < pre && n.Span.End-1 >= changeEnd
}

// enclosingChild returns the member value or element of n that encloses
// the change [pre, changeEnd), or nil.
func enclosingChild(n *Node, pre, changeEnd int) *Node {
	if ms := n.Members(); ms != nil {
		i := sort.Search(len(ms), func(i int) bool { return ms[i].Span.End > pre })
		if i < len(ms) && encloses(ms[i].Value, pre, changeEnd) {
			return ms[i].Value
		}
		return nil
	}
	es := n.Elements()
	i := sort.Search(len(es), func(i int) bool { return es[i].Span.End > pre })
	if i < len(es) && encloses(es[i], pre, changeEnd) {
		return es[i]
	}
	return nil
}

// copier copies a tree, replacing the node at (if any) by with and
// moving by delta the starts (and colons) at or after from and the ends
// after after. (A splice moves what is at or after old's end of at; a
// change of white space what starts at or after its end and what ends
// after its start, which differ for an insertion right after a token.)
type copier struct {
	mem         arena
	at, with    *Node
	from, after int
	delta       int
}

func (c *copier) pos(x int) int {
	if x >= c.from {
		return x + c.delta
	}
	return x
}

func (c *copier) span(s span.Span) span.Span {
	end := s.End
	if end > c.after {
		end += c.delta
	}
	return span.Span{Start: c.pos(s.Start), End: end}
}

// node returns a copy of n, a child of parent (the copy of n's parent).
func (c *copier) node(n, parent *Node) *Node {
	if n == c.at {
		c.with.Parent = parent
		return c.with
	}
	m := c.leaf(n, parent)
	switch n.Kind {
	case Object:
		ms := n.Members()
		out := grab(&c.mem.memPtrs, c.mem.chunk, len(ms))
		for i, om := range ms {
			nm := take(&c.mem.members, c.mem.chunk)
			nm.Key = c.leaf(om.Key, m) // a key is a String
			if v := om.Value; v.Kind == Object || v.Kind == Array {
				nm.Value = c.node(v, m)
			} else {
				nm.Value = c.leaf(v, m)
			}
			nm.Colon = c.pos(om.Colon)
			nm.Span = c.span(om.Span)
			out[i] = nm
		}
		m.setMembers(out)
	case Array:
		es := n.Elements()
		out := grab(&c.mem.nodePtrs, c.mem.chunk, len(es))
		for i, e := range es {
			if e.Kind == Object || e.Kind == Array {
				out[i] = c.node(e, m)
			} else {
				out[i] = c.leaf(e, m)
			}
		}
		m.setElements(out)
	}
	return m
}

// leaf returns a copy of n without its children, a child of parent.
func (c *copier) leaf(n, parent *Node) *Node {
	// Field by field, not *m = *n: a struct copy with pointers is a bulk
	// write barrier while the collector runs, and kids is set by node.
	m := take(&c.mem.nodes, c.mem.chunk)
	m.Kind, m.Closed, m.keysUnique = n.Kind, n.Closed, n.keysUnique
	m.Span = c.span(n.Span)
	m.Parent = parent
	if n.Str != "" {
		m.Str = n.Str
	}
	return m
}

// spliceSpans returns old's spans before at, then inside (the new spans
// within at), then old's spans after at shifted by delta; nil if none.
func spliceSpans(old, inside []span.Span, at span.Span, delta int) []span.Span {
	before := sort.Search(len(old), func(i int) bool { return old[i].Start >= at.Start })
	after := sort.Search(len(old), func(i int) bool { return old[i].Start >= at.End })
	n := before + len(inside) + len(old) - after
	if n == 0 {
		return nil
	}
	out := make([]span.Span, 0, n)
	out = append(out, old[:before]...)
	out = append(out, inside...)
	for _, s := range old[after:] {
		out = append(out, span.Span{Start: s.Start + delta, End: s.End + delta})
	}
	return out
}
