package fix

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// The edits of a conversion, computed only when the action is picked
// (a language server defers them through codeAction/resolve).

// Change computes the conversion's edits: the target created with its
// content, or the servers inserted into the existing target (replacing
// the same names), indented and broken into lines like that file.
func (c *Conversion) Change() (*Change, error) {
	if c.Disabled != "" {
		return nil, errors.New(c.Disabled)
	}
	if c.Create || c.target.parsed().Root == nil {
		// A new file, or an empty one: written whole.
		content := c.created
		if content == nil {
			var err error
			if content, err = c.newFile(); err != nil {
				return nil, err
			}
		}
		if c.Create {
			return &Change{Creates: []Create{{Path: c.Target, Content: content}}}, nil
		}
		return &Change{Edits: []Edit{{Path: c.Target, Span: span.New(0, len(c.target.Content)), NewText: string(content)}}}, nil
	}
	t := c.target
	var edits []Edit
	var added []newMember
	for _, nm := range c.members {
		var old *jsonc.Member
		if c.mapNode != nil {
			old = c.mapNode.Get(nm.key)
		}
		if old == nil {
			added = append(added, nm)
			continue
		}
		// The new value takes the old one's place: on its line when the
		// old member shares a line with others, else indented like it.
		l := t.Layout()
		text := compact(convert.RenderEntry(nm.value, "", "\n"))
		if startsLine(t.Content, old.Span.Start) {
			text = nest(convert.RenderEntry(nm.value, l.Indent, l.Newline), l, indentAt(t.Content, old.Span.Start))
		}
		edits = append(edits, t.edit(old.Value.Span.Start, old.Value.Span.End, text))
	}
	if len(added) > 0 {
		obj, ms := c.mapNode, added
		if obj == nil {
			obj, ms = t.parsed().Root, []newMember{{key: c.mapKey, value: convert.Object{}}}
		}
		ins, ok := t.appendMembers(obj, ms)
		if !ok {
			return nil, fmt.Errorf("cannot insert into %s", c.ws.display(c.Target))
		}
		if c.mapNode == nil {
			// The map is new: build it, then the servers inside, in one
			// pass over a scratch copy, so the result has one layout.
			return c.viaScratch(ins, added)
		}
		edits = append(edits, ins...)
	}
	sortEdits(edits)
	if !applies(t, edits) {
		return nil, fmt.Errorf("conversion edits do not apply to %s", c.ws.display(c.Target))
	}
	return &Change{Edits: edits}, nil
}

// viaScratch applies mapEdits (which add an empty server map) to a copy
// of the target, inserts the servers into that map, and returns the
// whole difference as one edit of the region that changed.
func (c *Conversion) viaScratch(mapEdits []Edit, added []newMember) (*Change, error) {
	t := c.target
	scratch, err := Apply(t.Content, mapEdits)
	if err != nil {
		return nil, err
	}
	layout := t.Layout()
	sd := &Document{Path: t.Path, Content: scratch, fallback: &layout}
	m := sd.parsed().Root.Get(c.mapKey)
	if m == nil {
		return nil, fmt.Errorf("cannot insert into %s", c.ws.display(c.Target))
	}
	ins, ok := sd.appendMembers(m.Value, added)
	if !ok {
		return nil, fmt.Errorf("cannot insert into %s", c.ws.display(c.Target))
	}
	final, err := Apply(scratch, ins)
	if err != nil {
		return nil, err
	}
	return &Change{Edits: []Edit{minimalEdit(t.Path, t.Content, final)}}, nil
}

// minimalEdit is the single edit turning old into new: the bytes between
// their common prefix and common suffix.
func minimalEdit(path string, old, new []byte) Edit {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return Edit{Path: path, Span: span.New(p, len(old)-s), NewText: string(new[p : len(new)-s])}
}

// newFile renders a new target file holding the converted servers: the
// skeleton the target tool expects (OpenCode's with its $schema), in the
// source's layout, ending with a line break.
func (c *Conversion) newFile() ([]byte, error) {
	l := c.src.Layout()
	var root convert.Object
	if c.To == "opencode" {
		root = append(root, convert.Member{Key: "$schema", Value: convert.OpenCodeSchemaURL})
	}
	root = append(root, convert.Member{Key: c.mapKey, Value: convert.Object{}})
	skeleton := append(convert.RenderEntry(root, l.Indent, l.Newline), l.Newline...)
	sd := &Document{Path: c.Target, Content: skeleton, fallback: &l}
	ins, ok := sd.appendMembers(sd.parsed().Root.Get(c.mapKey).Value, c.members)
	if !ok {
		return nil, errors.New("cannot build the new file")
	}
	return Apply(skeleton, ins)
}

// reindent re-indents convert.ConvertFile's output (two spaces per level)
// with l's unit. JSON strings cannot hold a raw line break, so leading
// spaces are indentation only.
func reindent(out []byte, l Layout) []byte {
	if l.Indent == "  " {
		return out
	}
	lines := strings.Split(string(out), "\n")
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		lines[i] = strings.Repeat(l.Indent, (len(line)-len(trimmed))/2) + trimmed
	}
	return []byte(strings.Join(lines, "\n"))
}
