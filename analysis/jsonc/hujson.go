package jsonc

import (
	"bytes"

	"github.com/tailscale/hujson"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// ParseHuJSON parses src with github.com/tailscale/hujson and converts the
// result into the same tree Parse builds. It is the independent reference
// Parse is checked against: for every input hujson accepts, Parse must
// report no error and build an identical File (see the tests and FuzzParse
// for the few inputs where the two legitimately disagree).
//
// hujson is strict: on any syntax error ParseHuJSON returns only the error.
// src is not modified (hujson's values alias its input, and some of its
// methods rewrite it, so it gets a copy).
func ParseHuJSON(src []byte) (*File, error) {
	v, err := hujson.Parse(bytes.Clone(src))
	if err != nil {
		return nil, err
	}
	c := &converter{f: &File{Src: src}}
	c.f.Root = c.value(&v)
	return c.f, nil
}

// converter walks a hujson tree in source order, so that comments and
// trailing commas come out sorted.
type converter struct {
	f *File
}

// value converts v, and records the comments around it.
func (c *converter) value(v *hujson.Value) *Node {
	c.extra(v.BeforeExtra, v.StartOffset-len(v.BeforeExtra))
	n := &Node{Span: span.New(v.StartOffset, v.EndOffset)}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.Kind, n.Closed = Object, true
		var ms []*Member
		for i := range t.Members {
			ms = append(ms, c.member(&t.Members[i]))
		}
		n.setMembers(ms)
		c.closing(v, t.AfterExtra, len(t.Members) > 0 && t.Members[len(t.Members)-1].Value.AfterExtra != nil)
	case *hujson.Array:
		n.Kind, n.Closed = Array, true
		var es []*Node
		for i := range t.Elements {
			es = append(es, c.value(&t.Elements[i]))
		}
		n.setElements(es)
		c.closing(v, t.AfterExtra, len(t.Elements) > 0 && t.Elements[len(t.Elements)-1].AfterExtra != nil)
	case hujson.Literal:
		c.literal(n, t)
	}
	n.link()
	c.extra(v.AfterExtra, v.EndOffset)
	return n
}

// closing records what lies between a container's last child and its
// closing bracket. hujson marks a trailing comma by a non-nil AfterExtra
// on the last child; the comma follows that extra.
func (c *converter) closing(v *hujson.Value, after hujson.Extra, trailingComma bool) {
	closer := v.EndOffset - 1
	if trailingComma {
		comma := closer - len(after) - 1
		c.f.TrailingCommas = append(c.f.TrailingCommas, span.New(comma, comma+1))
	}
	c.extra(after, closer-len(after))
}

func (c *converter) member(m *hujson.ObjectMember) *Member {
	key := c.value(&m.Name)
	colon := m.Name.EndOffset + len(m.Name.AfterExtra)
	val := c.value(&m.Value)
	return &Member{Key: key, Colon: colon, Value: val, Span: key.Span.Cover(val.Span)}
}

func (c *converter) literal(n *Node, lit hujson.Literal) {
	switch lit.Kind() {
	case '"':
		n.Kind, n.Str, n.Closed = String, lit.String(), true
	case '0':
		n.Kind, n.Str = Number, string(lit)
	case 't':
		n.Kind = True
	case 'f':
		n.Kind = False
	case 'n':
		n.Kind = Null
	}
}

// extra records the comments in b, which starts at offset at. hujson has
// already validated b, so every comment in it is terminated. As in Parse,
// a line comment's span stops before its line break.
func (c *converter) extra(b hujson.Extra, at int) {
	for i := 0; i < len(b); {
		switch {
		case bytes.HasPrefix(b[i:], []byte("//")):
			end := i + bytes.IndexByte(b[i:], '\n')
			if b[end-1] == '\r' {
				end--
			}
			c.f.Comments = append(c.f.Comments, span.New(at+i, at+end))
			i = end
		case bytes.HasPrefix(b[i:], []byte("/*")):
			end := i + 2 + bytes.Index(b[i+2:], []byte("*/")) + 2
			c.f.Comments = append(c.f.Comments, span.New(at+i, at+end))
			i = end
		default:
			i++
		}
	}
}
