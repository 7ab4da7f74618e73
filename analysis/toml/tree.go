package toml

import (
	"cmp"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// origin is how a table or array came to be, which decides how TOML lets
// a later expression add to it.
type origin uint8

const (
	// literal: written as a value (a scalar, an array, an inline table);
	// nothing can be added to it later.
	literal origin = iota
	// byHeader: a table named by a [header], as itself (explicit) or as a
	// prefix of a longer one ([a.b] names a).
	byHeader
	// byDottedKey: a table made by a dotted key (a.b = 1 makes a); only
	// other dotted keys of the same table, and sub-table headers, add to it.
	byDottedKey
	// byArrayTable: an array of tables, one element per [[header]].
	byArrayTable
)

// node is the builder's tree, converted to jsonc's at the end (see
// builder.file). Objects index their members by name, which TOML's
// uniqueness rules need.
type node struct {
	kind    jsonc.Kind
	span    span.Span
	str     string
	members []*member
	byName  map[string]*member
	elems   []*node
	how     origin
	// explicit: a byHeader table that its own [header] defined.
	explicit bool
	// headers are the [header] lines of a table or array-of-tables element.
	headers []span.Span
	depth   int
	// fixed: span is known (values); otherwise it covers the headers,
	// members and elements (tables made by headers and dotted keys, arrays
	// of tables), computed by finish.
	fixed bool
}

// member is one key of a table.
type member struct {
	key   *node
	value *node
	eq    int // offset of '=', -1 for a table named by a header
	span  span.Span
}

func (n *node) get(name string) *member { return n.byName[name] }

// add defines key k of the table n and returns v, the key's value.
func (n *node) add(k keyPart, v *node, eq int) *node {
	if n.byName == nil {
		n.byName = map[string]*member{}
	}
	v.depth = n.depth + 1
	m := &member{key: &node{kind: jsonc.String, str: k.name, span: k.span, fixed: true}, value: v, eq: eq}
	n.members = append(n.members, m)
	n.byName[k.name] = m
	return v
}

// describe names what a value is, for messages.
func describe(v *node) string {
	switch {
	case v.kind == jsonc.Object && v.how == literal:
		return "an inline table"
	case v.kind == jsonc.Object && v.how == byDottedKey:
		return "a table made by dotted keys"
	case v.kind == jsonc.Object:
		return "a table"
	case v.kind == jsonc.Array && v.how == byArrayTable:
		return "an array of tables"
	case v.kind == jsonc.Array:
		return "an array"
	}
	return "a value"
}

// finish computes the spans of tables from their parts and of members
// from their key and value, bottom up, and orders each table's members by
// where they end. Ordered that way, jsonc's binary search over a node's
// children (which assumes disjoint, ordered children) still finds the
// innermost node when a table's parts are spread over the file and its
// span overlaps its siblings'.
func (n *node) finish() span.Span {
	s, have := n.span, n.fixed
	grow := func(t span.Span) {
		if !have {
			s, have = t, true
		} else {
			s = s.Cover(t)
		}
	}
	for _, h := range n.headers {
		grow(h)
	}
	for _, m := range n.members {
		m.span = m.key.span.Cover(m.value.finish())
		grow(m.span)
	}
	for _, e := range n.elems {
		grow(e.finish())
	}
	if !n.fixed {
		n.span = s
	}
	slices.SortStableFunc(n.members, func(a, b *member) int {
		return cmp.Or(cmp.Compare(a.span.End, b.span.End), cmp.Compare(a.span.Start, b.span.Start))
	})
	return n.span
}

// appendSkeleton appends a JSON text of n's shape: objects and arrays with
// as many members and elements, every key "" and every scalar 0.
func (n *node) appendSkeleton(buf []byte) []byte {
	switch n.kind {
	case jsonc.Object:
		buf = append(buf, '{')
		for i, m := range n.members {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `"":`...)
			buf = m.value.appendSkeleton(buf)
		}
		return append(buf, '}')
	case jsonc.Array:
		buf = append(buf, '[')
		for i, e := range n.elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = e.appendSkeleton(buf)
		}
		return append(buf, ']')
	}
	return append(buf, '0')
}

// fill copies n into j, the node jsonc.Parse made of n's skeleton.
func (n *node) fill(j *jsonc.Node) {
	j.Kind, j.Span, j.Str = n.kind, n.span, n.str
	j.Closed = n.kind == jsonc.Object || n.kind == jsonc.Array || n.kind == jsonc.String
	for i, m := range n.members[:min(len(n.members), len(j.Members()))] {
		jm := j.Members()[i]
		jm.Key.Span, jm.Key.Str, jm.Key.Closed = m.key.span, m.key.str, true
		jm.Colon, jm.Span = m.eq, m.span
		m.value.fill(jm.Value)
	}
	for i, e := range n.elems[:min(len(n.elems), len(j.Elements()))] {
		e.fill(j.Elements()[i])
	}
}
