package jsonc

import (
	"hash/maphash"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Kind is the syntactic kind of a Node.
type Kind uint8

const (
	// Invalid marks a value that is missing or could not be parsed, such as
	// the value of "type" in {"type": }. It is the zero Kind so that a
	// zero Node is never mistaken for real data.
	Invalid Kind = iota
	Object
	Array
	String
	Number
	True
	False
	Null
)

var kindNames = [...]string{"invalid", "object", "array", "string", "number", "true", "false", "null"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is one JSON value.
//
// A Node is 56 bytes with three pointers (children, Str, Parent): a
// 1,000-server file has about 27,000 of them, and every garbage
// collection while a tree is live scans them all, so each field is paid
// for on every keystroke. An Object's members and an Array's elements
// share one child list (see Members and Elements).
type Node struct {
	Kind Kind
	// Closed reports whether an Object, Array or String has its closing
	// delimiter. Completion uses it to know whether to insert one.
	Closed bool
	// keysUnique: see KeysUnique.
	keysUnique bool
	// nkids is the length of kids.
	nkids int32
	// Span covers the value's own bytes, without surrounding whitespace or
	// comments. A missing value is an Invalid node with an empty span where
	// the value was expected. An unclosed object or array extends up to the
	// token that ended it (a mismatched bracket, or the end of input), so
	// a cursor in text typed after an unfinished '{' is still inside it.
	Span span.Span
	// kids points at the first of nkids *Member (an Object) or *Node (an
	// Array); nil for the other kinds.
	kids unsafe.Pointer
	// Str is the decoded value of a String (escapes resolved; invalid
	// escapes kept verbatim; invalid UTF-8 replaced by U+FFFD per byte, as
	// encoding/json does) and the source text of a Number. It is empty for
	// other kinds. It never shares memory with the document's text, so
	// keeping it keeps no more than itself.
	Str string
	// Parent is the enclosing Object or Array, nil for the root. The Parent
	// of an object key is the object.
	Parent *Node
}

// Members returns an Object's members in source order, duplicates
// included; nil for the other kinds. The slice is the tree's: never
// modify it.
func (n *Node) Members() []*Member {
	if n.Kind != Object || n.kids == nil {
		return nil
	}
	return unsafe.Slice((**Member)(n.kids), n.nkids)
}

// Elements returns an Array's elements in source order; nil for the other
// kinds. The slice is the tree's: never modify it.
func (n *Node) Elements() []*Node {
	if n.Kind != Array || n.kids == nil {
		return nil
	}
	return unsafe.Slice((**Node)(n.kids), n.nkids)
}

// setMembers makes ms the members of the Object n. Builders only.
func (n *Node) setMembers(ms []*Member) {
	n.kids, n.nkids = unsafe.Pointer(unsafe.SliceData(ms)), int32(len(ms))
}

// setElements makes es the elements of the Array n. Builders only.
func (n *Node) setElements(es []*Node) {
	n.kids, n.nkids = unsafe.Pointer(unsafe.SliceData(es)), int32(len(es))
}

// Member is one "key": value pair of an Object.
type Member struct {
	// Key is a String node; its Str is the decoded name. Unquoted and
	// single-quoted names (a syntax error) are still String nodes.
	Key *Node
	// Colon is the byte offset of the ':' or -1 if it is missing.
	Colon int
	// Value is never nil: a missing value is an Invalid node.
	Value *Node
	// Span runs from the start of Key to the end of Value.
	Span span.Span
}

// File is the result of parsing one document.
type File struct {
	// Src is the parsed input. It is a reference to the caller's slice,
	// never modified by this package.
	Src []byte
	// Root is the top-level value, nil if the input holds no value at all
	// (empty, whitespace or comments only). An empty document is not a
	// syntax error here: whether it is acceptable is a rule's decision.
	Root *Node
	// Errors are the syntax errors, sorted by Span.Start: about one per
	// mistake (likely consequences of an earlier error are dropped), at
	// most MaxErrors+1.
	Errors []SyntaxError
	// Comments are the spans of all // and /* */ comments, in order. A line
	// comment's span excludes its line break.
	Comments []span.Span
	// TrailingCommas are the one-byte spans of commas directly followed by
	// the closing '}' or ']', in order.
	TrailingCommas []span.Span
	// BOM reports whether the input starts with a UTF-8 byte order mark,
	// which is skipped.
	BOM bool

	// keysChecked and keysRepeat: see KeysRepeat.
	keysChecked, keysRepeat bool
	// parsed: Parse made the tree (not Skim, hujson or another package),
	// so Reparse may splice it.
	parsed bool
	// sizes: how many nodes, members and child pointers the tree holds,
	// when parsed.
	sizes sizes
}

// KeysRepeat reports whether some object of the tree has two members with
// the same key. known is false when the tree was not made by this
// package's parser (TOML's), which does not check.
func (f *File) KeysRepeat() (repeat, known bool) { return f.keysRepeat, f.keysChecked }

// SyntaxError is one syntax error. Span covers the offending token; it is
// empty only for an insertion point at the end of the input (right after
// the last token), e.g. where a missing '}' belongs.
type SyntaxError struct {
	Span    span.Span
	Code    string // one of the Code* constants; stable, safe to dispatch on
	Message string
}

// NodeAt returns the innermost node at offset, or nil if offset is outside
// the root value. Where two nodes touch, the one starting at offset wins
// over the one ending there; a node ending at offset still counts, so a
// cursor just after a token is "on" it, as hover and completion expect.
// Use Parent, Member and Path to learn the context of the result.
func (f *File) NodeAt(offset int) *Node {
	n := f.Root
	if n == nil || !n.Span.ContainsInclusive(offset) {
		return nil
	}
	for {
		c := n.childAt(offset)
		if c == nil {
			return n
		}
		n = c
	}
}

// childAt returns the key, value or element of n under offset, or nil.
// Children are ordered and disjoint, so a binary search finds the first
// child ending at or after offset; only it and the next one can match.
func (n *Node) childAt(offset int) *Node {
	var hit *Node
	switch n.Kind {
	case Object:
		i := sort.Search(len(n.Members()), func(i int) bool { return n.Members()[i].Span.End >= offset })
		for _, m := range n.Members()[i:min(i+2, len(n.Members()))] {
			hit = nearer(hit, m.Key, offset)
			hit = nearer(hit, m.Value, offset)
		}
	case Array:
		i := sort.Search(len(n.Elements()), func(i int) bool { return n.Elements()[i].Span.End >= offset })
		for _, e := range n.Elements()[i:min(i+2, len(n.Elements()))] {
			hit = nearer(hit, e, offset)
		}
	}
	return hit
}

// nearer returns whichever of best and c is more squarely at offset: a
// node containing offset beats a missing (empty) node there, which beats a
// node merely ending at offset; earlier wins ties.
func nearer(best, c *Node, offset int) *Node {
	if score(c, offset) > score(best, offset) {
		return c
	}
	return best
}

func score(n *Node, offset int) int {
	switch {
	case n == nil:
		return 0
	case n.Span.Start <= offset && offset < n.Span.End:
		return 3
	case n.Span.Start == offset: // an empty span
		return 2
	case n.Span.End == offset:
		return 1
	}
	return 0
}

// Get returns the last member of an Object named key, or nil. The last
// one wins because that is what JSON.parse and encoding/json do with
// duplicate keys, so it is what every tool reading the file sees.
func (n *Node) Get(key string) *Member {
	if n == nil {
		return nil
	}
	for _, m := range slices.Backward(n.Members()) {
		if m.Key.Str == key {
			return m
		}
	}
	return nil
}

// Lookup returns the value at path, a key of an Object at each step, or
// nil where a step is missing or not an Object. Each step takes the last
// member of that name, as Get does.
func (n *Node) Lookup(path ...string) *Node {
	for _, k := range path {
		if n == nil || n.Kind != Object {
			return nil
		}
		m := n.Get(k)
		if m == nil {
			return nil
		}
		n = m.Value
	}
	return n
}

// uniqueKeysMin is the number of members above which the parser checks
// an object's keys for duplicates (KeysUnique): a smaller object is
// checked faster by comparing its keys than by building a set.
const uniqueKeysMin = 16

// KeysUnique reports that the parser checked that no two members of the
// Object n share a key. It does so for objects of more than 16 members
// only (a server map), so false means "not known", not "duplicated".
func (n *Node) KeysUnique() bool { return n.keysUnique }

// Member returns the member whose Key or Value is n, or nil if n is not
// directly inside an Object.
func (n *Node) Member() *Member {
	if n.Parent == nil || n.Parent.Kind != Object {
		return nil
	}
	if i := n.index(); i >= 0 {
		return n.Parent.Members()[i]
	}
	return nil
}

// index returns n's position among its Parent's members or elements, -1
// for the root.
func (n *Node) index() int {
	switch {
	case n.Parent == nil:
		return -1
	case n.Parent.Kind == Object:
		ms := n.Parent.Members()
		return childIndex(len(ms), func(i int) span.Span { return ms[i].Span },
			func(i int) bool { return ms[i].Key == n || ms[i].Value == n }, n.Span.Start)
	}
	es := n.Parent.Elements()
	return childIndex(len(es), func(i int) span.Span { return es[i].Span },
		func(i int) bool { return es[i] == n }, n.Span.Start)
}

// childIndex returns the i < n for which is(i), given the children's
// spans (a member's covers its key and value) and the start of the one
// sought. Children are in source order with disjoint spans, so a binary
// search finds the first that could hold at, and only those starting at
// or before at follow; a tree whose children are out of order (one a
// builder made by hand) is searched in full. Looking up a position this
// way instead of storing it in every node keeps a Node 8 bytes smaller.
func childIndex(n int, spanOf func(int) span.Span, is func(int) bool, at int) int {
	i := sort.Search(n, func(i int) bool { return spanOf(i).End >= at })
	for ; i < n && spanOf(i).Start <= at; i++ {
		if is(i) {
			return i
		}
	}
	for i := range n {
		if is(i) {
			return i
		}
	}
	return -1
}

// Path returns the keys and array indexes leading from the root to n. A
// key node has the path of its member's value, so hovering a key or its
// value describes the same schema location.
func (n *Node) Path() []string {
	var path []string
	for c := n; c.Parent != nil; c = c.Parent {
		if m := c.Member(); m != nil {
			path = append(path, m.Key.Str)
		} else {
			path = append(path, strconv.Itoa(c.index()))
		}
	}
	slices.Reverse(path)
	return path
}

// Pointer returns n's Path as an RFC 6901 JSON Pointer ("" for the root),
// the form JSON Schema validators report instance locations in.
func (n *Node) Pointer() string {
	var b strings.Builder
	for _, seg := range n.Path() {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(seg))
	}
	return b.String()
}

// Find resolves an RFC 6901 JSON Pointer relative to n, mapping a schema
// validator's instance location back to a node. Among duplicate keys the
// last wins, as in Get. It returns nil if the pointer is malformed or
// leads nowhere.
func (n *Node) Find(pointer string) *Node {
	if pointer == "" {
		return n
	}
	if pointer[0] != '/' {
		return nil
	}
	for _, seg := range strings.Split(pointer[1:], "/") {
		n = n.step(pointerUnescaper.Replace(seg))
		if n == nil {
			return nil
		}
	}
	return n
}

// step returns the child of n named by one pointer segment.
func (n *Node) step(seg string) *Node {
	switch n.Kind {
	case Object:
		if m := n.Get(seg); m != nil {
			return m.Value
		}
	case Array:
		// RFC 6901 array indexes are "0" or digits without a leading zero.
		i, err := strconv.Atoi(seg)
		if err == nil && i >= 0 && i < len(n.Elements()) && strconv.Itoa(i) == seg {
			return n.Elements()[i]
		}
	}
	return nil
}

// The RFC 6901 escapes. A Replacer works in a single left-to-right pass,
// so "~01" correctly decodes to "~1", not "/".
var (
	pointerEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// link points the children of n (keys, values, elements) back at n.
// Builders call it once the child lists are final.
func (n *Node) link() {
	for _, m := range n.Members() {
		m.Key.Parent, m.Value.Parent = n, n
	}
	for _, e := range n.Elements() {
		e.Parent = n
	}
}

// Hash returns a 64-bit hash of the source bytes of n's span in f: two
// nodes (of this file or of another version of it) with the same bytes
// have the same hash within one process. It keys caches of per-entry
// results across edits, so an edit in one server costs the others one
// hash of their bytes (tens of nanoseconds), not a comparison of their
// content. The seed is per process: never store the hash.
func (f *File) Hash(n *Node) uint64 {
	if n == nil || n.Span.Start < 0 || n.Span.End > len(f.Src) || n.Span.End < n.Span.Start {
		return 0
	}
	return maphash.Bytes(ownSeed, f.Src[n.Span.Start:n.Span.End])
}
