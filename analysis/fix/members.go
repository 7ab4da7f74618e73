package fix

import (
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// The member edits below are the building blocks of every fix and
// conversion. They change as few bytes as they can: a removed member
// takes its own lines (or, inline, itself and its separating comma) and
// nothing else, so the comments and formatting around it stay.

// removeMember deletes member i of obj with the comma separating it from
// a neighbour. The last member takes the comma before it, so no trailing
// comma is left behind in strict JSON, unless it had a trailing comma of
// its own (the file's style, kept).
func (d *Document) removeMember(obj *jsonc.Node, i int) []Edit {
	prevEnd := -1
	if i > 0 {
		prevEnd = obj.Members()[i-1].Value.Span.End
	}
	return d.removeItem(obj.Members()[i].Span, prevEnd)
}

// removeElement deletes element i of arr the way removeMember deletes a
// member.
func (d *Document) removeElement(arr *jsonc.Node, i int) []Edit {
	prevEnd := -1
	if i > 0 {
		prevEnd = arr.Elements()[i-1].Span.End
	}
	return d.removeItem(arr.Elements()[i].Span, prevEnd)
}

// removeItem deletes the member or element at sp with its separating
// comma; prevEnd is where the item before it ends (-1 for the first).
func (d *Document) removeItem(sp span.Span, prevEnd int) []Edit {
	src := d.Content
	start, end := sp.Start, sp.End
	comma, hasComma := d.commaAfter(end)
	if hasComma {
		end = comma + 1
	}
	var edits []Edit
	var prevComma = -1
	if !hasComma && prevEnd >= 0 {
		if pc, ok := d.commaAfter(prevEnd); ok {
			prevComma = pc
		}
	}
	switch {
	case startsLine(src, start) && endsLine(src, end):
		// The item has its lines to itself: delete them whole.
		if prevComma >= 0 {
			edits = append(edits, d.edit(prevComma, prevComma+1, ""))
		}
		edits = append(edits, d.edit(lineStart(src, start), nextLine(src, end), ""))
	case prevComma >= 0 && isBlank(src[prevComma+1:start]):
		// Inline and last: `, "b": 2` goes as one piece.
		edits = append(edits, d.edit(prevComma, end, ""))
	case prevComma >= 0:
		edits = append(edits, d.edit(prevComma, prevComma+1, ""), d.edit(start, end, ""))
	default:
		if hasComma {
			end = skipBlanks(src, end)
		}
		edits = append(edits, d.edit(start, end, ""))
	}
	return edits
}

// renameKey replaces m's key with name.
func (d *Document) renameKey(m *jsonc.Member, name string) Edit {
	return d.edit(m.Key.Span.Start, m.Key.Span.End, quote(name))
}

// newMember is a member to insert: a key, a value as convert.RenderEntry
// takes it, and an optional comment (lines joined by "\n", each starting
// with "//") written on the lines above it.
type newMember struct {
	key     string
	value   any
	comment string
}

// render returns the member as text at depth 0: multi-line with the
// layout, or on one line for an inline object.
func (nm newMember) render(l Layout, inline bool) string {
	if inline {
		return quote(nm.key) + ": " + compact(convert.RenderEntry(nm.value, "", "\n"))
	}
	s := quote(nm.key) + ": " + string(convert.RenderEntry(nm.value, l.Indent, l.Newline))
	if nm.comment != "" {
		s = strings.ReplaceAll(nm.comment, "\n", l.Newline) + l.Newline + s
	}
	return s
}

// compact joins the lines of a value rendered one token group per line
// into one line: `{"a": 1, "b": [2]}`. Strings hold no raw line breaks,
// so the split cannot cut one.
func compact(rendered []byte) string {
	var b strings.Builder
	var last byte
	for i, line := range strings.Split(string(rendered), "\n") {
		if i > 0 && last != '{' && last != '[' && !strings.HasPrefix(line, "}") && !strings.HasPrefix(line, "]") {
			b.WriteByte(' ')
		}
		b.WriteString(line)
		if line != "" {
			last = line[len(line)-1]
		}
	}
	return b.String()
}

// appendMembers adds members at the end of obj, indented like obj's
// existing members (or one level deeper than obj's line when it is
// empty). It returns false when obj is not a closed object.
func (d *Document) appendMembers(obj *jsonc.Node, members []newMember) ([]Edit, bool) {
	if obj == nil || obj.Kind != jsonc.Object || !obj.Closed || len(members) == 0 {
		return nil, false
	}
	src, l := d.Content, d.Layout()
	closeAt := obj.Span.End - 1
	join := func(indent string, inline bool) string {
		parts := make([]string, len(members))
		for i, nm := range members {
			parts[i] = nest([]byte(nm.render(l, inline)), l, indent)
		}
		sep := "," + l.Newline + indent
		if inline {
			sep = ", "
		}
		return strings.Join(parts, sep)
	}

	if len(obj.Members()) == 0 {
		outer := indentAt(src, obj.Span.Start)
		inner := outer + l.Indent
		open := obj.Span.Start + 1
		body := join(inner, false)
		switch {
		case len(strings.TrimSpace(string(src[open:closeAt]))) == 0:
			return []Edit{d.edit(open, closeAt, l.Newline+inner+body+l.Newline+outer)}, true
		case startsLine(src, closeAt):
			// Comments inside the empty object stay above the members.
			at := lineStart(src, closeAt)
			return []Edit{d.edit(at, at, inner+body+l.Newline)}, true
		}
		return []Edit{d.edit(closeAt, closeAt, l.Newline+inner+body+l.Newline+outer)}, true
	}

	last := obj.Members()[len(obj.Members())-1]
	valueEnd := last.Value.Span.End
	comma, hasComma := d.commaAfter(valueEnd)
	after := valueEnd
	if hasComma {
		after = comma + 1
	}
	if !startsLine(src, last.Span.Start) {
		// An inline object stays on its line.
		text := ", " + join("", true)
		if hasComma {
			text = " " + join("", true) + ","
		}
		return []Edit{d.edit(after, after, text)}, true
	}
	indent := indentAt(src, last.Span.Start)
	// After the rest of the last member's line, so a comment there stays
	// with that member; but not past the object's end or into a block
	// comment that runs on.
	at := lineEnd(src, after)
	if closeAt < at {
		at = after
	}
	if _, inside := d.commentAt(at); inside {
		at = after
	}
	text := l.Newline + indent + join(indent, false)
	if hasComma {
		return []Edit{d.edit(at, at, text)}, true
	}
	if at == valueEnd {
		return []Edit{d.edit(at, at, ","+text)}, true
	}
	return []Edit{d.edit(valueEnd, valueEnd, ","), d.edit(at, at, text)}, true
}

// prependMember inserts a one-line member text before obj's first member.
func (d *Document) prependMember(obj *jsonc.Node, text string) []Edit {
	src := d.Content
	first := obj.Members()[0]
	at := first.Span.Start
	if startsLine(src, at) {
		return []Edit{d.edit(at, at, text+","+d.Layout().Newline+indentAt(src, at))}
	}
	return []Edit{d.edit(at, at, text+", ")}
}

// insertAfter inserts a one-line member text right after member m.
func (d *Document) insertAfter(m *jsonc.Member, text string) Edit {
	src := d.Content
	at := m.Value.Span.End
	if startsLine(src, m.Span.Start) {
		return d.edit(at, at, ","+d.Layout().Newline+indentAt(src, m.Span.Start)+text)
	}
	return d.edit(at, at, ", "+text)
}

// elementTexts returns the source text of each element of an array, so
// moved elements keep their exact spelling (escapes included).
func (d *Document) elementTexts(arr *jsonc.Node) []string {
	out := make([]string, len(arr.Elements()))
	for i, e := range arr.Elements() {
		out[i] = d.text(e.Span)
	}
	return out
}

// inlineArray writes elements (source texts) as a one-line array.
func inlineArray(elems []string) string { return "[" + strings.Join(elems, ", ") + "]" }
