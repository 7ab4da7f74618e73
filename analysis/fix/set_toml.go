package fix

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
)

// Value edits of a TOML file (Codex CLI's config.toml), the counterparts
// of SetJSON and RemoveJSON for one key of a table: they keep comments,
// formatting, key order and line endings, refuse a file that does not
// parse, and check that what they return parses. Only tables written as
// a [header] are edited: a key cannot be added to an inline table or a
// dotted key without rewriting it, which is left to the user.

// SetTOMLKey returns content with key = value (value in TOML syntax:
// `false`, `"text"`) in the table at path. An existing key has its value
// replaced; a new one goes after the table's last key-value line.
func SetTOMLKey(content []byte, path []string, key, value string) ([]byte, error) {
	d, tbl, err := tomlTable(content, path)
	if err != nil {
		return nil, err
	}
	if m := tbl.Get(key); m != nil {
		if string(content[m.Value.Span.Start:m.Value.Span.End]) == value {
			return content, nil
		}
		return applyTOML(d, []Edit{d.edit(m.Value.Span.Start, m.Value.Span.End, value)})
	}
	src := d.Content
	at := lineEnd(src, tbl.Span.Start) // after the header line
	for _, m := range tbl.Members {
		if m.Value.Kind == jsonc.Object && isHeader(src, m.Value) {
			continue // a sub-table: its header comes after the key-values
		}
		at = max(at, lineEnd(src, m.Span.End))
	}
	line := tomlKey(key) + " = " + value
	return applyTOML(d, []Edit{d.edit(at, at, d.Layout().Newline+line)})
}

// RemoveTOMLKey returns content without key in the table at path: its
// line, when the key-value has it to itself. A key that is not there is
// no change.
func RemoveTOMLKey(content []byte, path []string, key string) ([]byte, error) {
	d, tbl, err := tomlTable(content, path)
	if err != nil {
		return nil, err
	}
	m := tbl.Get(key)
	if m == nil {
		return content, nil
	}
	src := d.Content
	start, end := m.Span.Start, m.Span.End
	if startsLine(src, start) && endsLine(src, end) {
		start, end = lineStart(src, start), nextLine(src, end)
	}
	return applyTOML(d, []Edit{d.edit(start, end, "")})
}

// LookupTOML returns the value at path in content's parse, nil when the
// content does not parse or the path is not there.
func LookupTOML(content []byte, path []string) *jsonc.Node {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		return nil
	}
	return lookupJSON(f.Root, path)
}

// tomlTable parses content and finds the [header] table at path.
func tomlTable(content []byte, path []string) (*Document, *jsonc.Node, error) {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		return nil, nil, fmt.Errorf("%w: line %d: %s", ErrSyntax, strings.Count(string(content[:min(e.Span.Start, len(content))]), "\n")+1, e.Message)
	}
	d := &Document{Path: "edit.toml", Content: content, Parsed: f}
	tbl := lookupJSON(f.Root, path)
	switch {
	case tbl == nil:
		return nil, nil, fmt.Errorf("no table [%s]", strings.Join(path, "."))
	case tbl.Kind != jsonc.Object || !isHeader(content, tbl):
		return nil, nil, fmt.Errorf("[%s] is not written as a [header] table; edit it by hand", strings.Join(path, "."))
	}
	return d, tbl, nil
}

// isHeader reports whether table n is written as a [header].
func isHeader(src []byte, n *jsonc.Node) bool {
	return n.Span.Start < len(src) && src[n.Span.Start] == '['
}

// applyTOML applies edits and checks the result parses as TOML.
func applyTOML(d *Document, edits []Edit) ([]byte, error) {
	sortEdits(edits)
	out, err := Apply(d.Content, edits)
	if err != nil {
		return nil, err
	}
	if f := toml.Parse(out); len(f.Errors) > 0 {
		return nil, errors.New("internal error: the edit would break the file (" + f.Errors[0].Message + "); nothing written")
	}
	return out, nil
}

// tomlKey writes a key bare when TOML allows, else quoted.
func tomlKey(k string) string {
	if k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return k
	}
	return quote(k)
}

// SetTOMLTable returns content with the table at path replaced by block,
// a rendered table (convert.RenderCodexFile's output for one server: its
// [header], key-values and sub-tables), or block appended after a blank
// line when there is no such table. The table's old text goes whole,
// comments inside it included; everything around it stays. A table not
// written as [header] tables (inline, dotted keys) is refused.
func SetTOMLTable(content []byte, path []string, block []byte) ([]byte, error) {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		_, _, err := tomlTable(content, path)
		return nil, err
	}
	d := &Document{Path: "edit.toml", Content: content, Parsed: f}
	text := string(block)
	if tbl := lookupJSON(f.Root, path); tbl != nil {
		if tbl.Kind != jsonc.Object || !isHeader(content, tbl) {
			return nil, fmt.Errorf("[%s] is not written as a [header] table; edit it by hand", strings.Join(path, "."))
		}
		text = strings.TrimRight(text, "\r\n")
		return applyTOML(d, []Edit{d.edit(tbl.Span.Start, tbl.Span.End, text)})
	}
	nl := d.Layout().Newline
	if len(content) == 0 {
		return applyTOML(d, []Edit{d.edit(0, 0, text)})
	}
	sep := nl
	if !strings.HasSuffix(string(content), "\n") && !strings.HasSuffix(string(content), "\r") {
		sep = nl + nl
	} else if strings.HasSuffix(strings.TrimRight(string(content), " \t"), nl+nl) {
		sep = ""
	}
	return applyTOML(d, []Edit{d.edit(len(content), len(content), sep+text)})
}

// RemoveTOMLTable returns content without the [header] table at path (and
// its sub-tables) and the blank line after it. A table that is not there
// is no change.
func RemoveTOMLTable(content []byte, path []string) ([]byte, error) {
	f := toml.Parse(content)
	if len(f.Errors) > 0 {
		_, _, err := tomlTable(content, path)
		return nil, err
	}
	tbl := lookupJSON(f.Root, path)
	if tbl == nil {
		return content, nil
	}
	if tbl.Kind != jsonc.Object || !isHeader(content, tbl) {
		return nil, fmt.Errorf("[%s] is not written as a [header] table; edit it by hand", strings.Join(path, "."))
	}
	d := &Document{Path: "edit.toml", Content: content, Parsed: f}
	start, end := lineStart(content, tbl.Span.Start), nextLine(content, tbl.Span.End)
	// One blank line after it goes too, so two tables do not end up with
	// two blank lines between them.
	if e := nextLine(content, end); end < len(content) && isBlank(content[end:lineEnd(content, end)]) {
		end = e
	}
	return applyTOML(d, []Edit{d.edit(start, end, "")})
}
