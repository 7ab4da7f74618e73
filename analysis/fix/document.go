package fix

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Document is a file to compute fixes or conversions for.
type Document struct {
	Path    string
	Content []byte
	// Parsed is Content's parse; nil parses on demand.
	Parsed *jsonc.File
	// Kind is what the registry knows about the file; nil for a file no
	// tool reads (a conversion target that does not exist yet has one).
	Kind *registry.FileKind

	// fallback is the layout to use when Content has no line break to
	// learn from (a target file written on one line takes the source's).
	fallback *Layout
	// sources memoizes servers(d): converting one server into each
	// dialect lists the file's servers once, not once per dialect.
	sources *[]*sourceServer
	// layout memoizes Layout: each conversion of a server asks for the
	// source's layout, and detecting it reads every line of the file
	// (a code action on a 1,000-server file asked once per target tool).
	layout *Layout
}

// isJSON reports whether the document is JSON or JSONC text, the only
// syntax the edits here write. Other formats may share the parse tree
// (TOML files map onto it) but not the syntax of their edits.
func (d *Document) isJSON() bool {
	switch strings.ToLower(filepath.Ext(d.Path)) {
	case ".json", ".jsonc":
		return true
	}
	return false
}

// parsed returns the parse, computing it when the caller did not.
func (d *Document) parsed() *jsonc.File {
	if d.Parsed == nil {
		d.Parsed = jsonc.Parse(d.Content)
	}
	return d.Parsed
}

// Layout is the document's indentation and line break.
func (d *Document) Layout() Layout {
	if d.layout == nil {
		var l Layout
		if d.fallback != nil && !bytes.ContainsAny(d.Content, "\r\n") {
			l = *d.fallback
		} else {
			l = DetectLayout(d.Content)
		}
		d.layout = &l
	}
	return *d.layout
}

// edit is an edit of this document.
func (d *Document) edit(start, end int, text string) Edit {
	return Edit{Path: d.Path, Span: span.New(start, end), NewText: text}
}

// text is the source text of sp.
func (d *Document) text(sp span.Span) string { return string(d.Content[sp.Start:sp.End]) }

// commentAt returns the comment containing off strictly inside (not at
// its edges), if any.
func (d *Document) commentAt(off int) (span.Span, bool) {
	cs := d.parsed().Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off })
	if i < len(cs) && cs[i].Start < off && off < cs[i].End {
		return cs[i], true
	}
	return span.Span{}, false
}

// skipTrivia returns the first offset at or after off that is neither
// white space nor inside a comment.
func (d *Document) skipTrivia(off int) int {
	src, cs := d.Content, d.parsed().Comments
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\n', '\r':
			off++
			continue
		}
		i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off })
		if i < len(cs) && cs[i].Start == off {
			off = cs[i].End
			continue
		}
		break
	}
	return off
}

// commaAfter returns the offset of the ',' that follows off, across white
// space and comments, if the next token is one.
func (d *Document) commaAfter(off int) (int, bool) {
	p := d.skipTrivia(off)
	if p < len(d.Content) && d.Content[p] == ',' {
		return p, true
	}
	return 0, false
}

// tokenBefore returns the end of the last token before off, across white
// space and comments (0 at the start of the file).
func (d *Document) tokenBefore(off int) int {
	src, cs := d.Content, d.parsed().Comments
	for off > 0 {
		switch src[off-1] {
		case ' ', '\t', '\n', '\r':
			off--
			continue
		}
		i := sort.Search(len(cs), func(i int) bool { return cs[i].End >= off })
		if i < len(cs) && cs[i].End == off {
			off = cs[i].Start
			continue
		}
		break
	}
	return off
}

// memberOfKey returns the member whose key spans exactly sp, with its
// object and index, or false.
func (d *Document) memberOfKey(sp span.Span) (obj *jsonc.Node, i int, ok bool) {
	n := d.parsed().NodeAt(sp.Start)
	if n == nil || n.Span != sp || n.Parent == nil || n.Parent.Kind != jsonc.Object {
		return nil, 0, false
	}
	m := n.Member()
	if m == nil || m.Key != n {
		return nil, 0, false
	}
	for j, mm := range n.Parent.Members() {
		if mm == m {
			return n.Parent, j, true
		}
	}
	return nil, 0, false
}

// valueAt returns the node spanning exactly sp that is the value of a
// member, with the member, or false.
func (d *Document) valueAt(sp span.Span) (*jsonc.Node, *jsonc.Member, bool) {
	n := d.parsed().NodeAt(sp.Start)
	for n != nil && n.Span != sp && n.Parent != nil && n.Parent.Span == sp {
		n = n.Parent
	}
	if n == nil || n.Span != sp {
		return nil, nil, false
	}
	m := n.Member()
	if m == nil || m.Value != n {
		return nil, nil, false
	}
	return n, m, true
}

// parentMember returns the member whose value is the object holding m.
func parentMember(obj *jsonc.Node) *jsonc.Member {
	if obj == nil {
		return nil
	}
	if m := obj.Member(); m != nil && m.Value == obj {
		return m
	}
	return nil
}
