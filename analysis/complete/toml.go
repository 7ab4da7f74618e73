package complete

import (
	"bytes"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// atTOML completes in a TOML file (Codex CLI's config.toml): the fields of
// a server on an empty or half-typed key at the start of a line under its
// [mcp_servers.<name>] header, and the values of an enumerated or boolean
// field after `key =`. A TOML table has no closing delimiter, so the
// entry is found by lines: the last server header above the cursor with
// no other header between them. What the user is typing is often not
// valid TOML yet (a bare `comm`), so the cursor's line is read as text,
// and the tree only says which keys the entry already has.
func atTOML(in Input) []Item {
	readers := schemaReaders(in.Kind)
	if len(readers) == 0 || in.Offset < 0 || in.Offset > len(in.File.Src) {
		return nil
	}
	src := in.File.Src
	off := in.Offset
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	lineEnd := len(src)
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	entry := tomlEntryAt(in, lineStart)
	if entry == nil {
		return nil
	}
	c := &ctx{in: in, entry: entry, readers: readers}
	before := src[lineStart:off]

	// A key: only a bare key so far on this line.
	ks := lineStart + len(before) - len(bytes.TrimLeft(before, " \t"))
	if isBareKey(src[ks:off]) {
		ke := off
		for ke < lineEnd && isBareByte(src[ke]) {
			ke++
		}
		rest := bytes.TrimSpace(src[ke:lineEnd])
		if len(rest) > 0 && rest[0] != '=' && rest[0] != '#' {
			return nil // a header or other text follows
		}
		rng := span.Span{Start: ks, End: ke}
		items := c.keys(memberAt(entry, rng), rng)
		if len(rest) > 0 && rest[0] == '=' {
			// Renaming a key: its "= value" stays.
			for i := range items {
				items[i].Text, items[i].Snippet = items[i].Label, ""
			}
		}
		return items
	}

	// A value: `key = ` then nothing, a bare word or an open string.
	eq := bytes.IndexByte(before, '=')
	if eq < 0 {
		return nil
	}
	key := string(bytes.TrimSpace(before[:eq]))
	if !isBareKey([]byte(key)) || key == "" {
		return nil
	}
	vs := lineStart + eq + 1
	for vs < off && (src[vs] == ' ' || src[vs] == '\t') {
		vs++
	}
	typed := src[vs:off]
	var ve int
	switch {
	case len(typed) > 0 && typed[0] == '"':
		if bytes.IndexByte(typed[1:], '"') >= 0 {
			return nil // past the closing quote
		}
		ve = off
		if i := bytes.IndexByte(src[off:lineEnd], '"'); i >= 0 {
			ve = off + i + 1
		}
	case isBareKey(typed):
		ve = off
		for ve < lineEnd && isBareByte(src[ve]) {
			ve++
		}
	default:
		return nil
	}
	return c.values(key, memberNamed(entry, key), span.Span{Start: vs, End: ve})
}

// tomlEntryAt returns the server table whose [mcp_servers.<name>] header
// is the last header line before lineStart, nil when the cursor is under
// another table (a sub-table such as [mcp_servers.<name>.env] included).
func tomlEntryAt(in Input, lineStart int) *jsonc.Node {
	src := in.File.Src
	// The last header line above the cursor's line.
	header := -1
	for i := lineStart; i > 0; {
		j := bytes.LastIndexByte(src[:i-1], '\n') + 1
		if t := bytes.TrimLeft(src[j:i-1], " \t"); len(t) > 0 && t[0] == '[' {
			header = j
			break
		}
		i = j
	}
	if header < 0 {
		return nil
	}
	for i := range in.Kind.Readers {
		for _, sm := range rules.FindServerMaps(in.File, &in.Kind.Readers[i]) {
			for _, s := range sm.Servers() {
				k := s.Member.Key
				v := s.Value()
				if v == nil || v.Kind != jsonc.Object || k.Span.Start < header || k.Span.Start >= lineStart {
					continue
				}
				// The header names the server itself: its name is the
				// last segment, closed by "]".
				rest := bytes.TrimLeft(src[k.Span.End:], " \t")
				if len(rest) > 0 && rest[0] == ']' {
					return v
				}
			}
		}
	}
	return nil
}

// memberAt is the entry's member whose key spans rng, nil if none.
func memberAt(entry *jsonc.Node, rng span.Span) *jsonc.Member {
	for _, m := range entry.Members() {
		if m.Key != nil && m.Key.Span == rng {
			return m
		}
	}
	return nil
}

// memberNamed is the entry's member called key, nil if none.
func memberNamed(entry *jsonc.Node, key string) *jsonc.Member {
	i := slices.IndexFunc(entry.Members(), func(m *jsonc.Member) bool { return m.Key != nil && m.Key.Str == key })
	if i < 0 {
		return nil
	}
	return entry.Members()[i]
}

func isBareByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// isBareKey reports whether b is empty or a TOML bare key.
func isBareKey(b []byte) bool {
	for _, c := range b {
		if !isBareByte(c) {
			return false
		}
	}
	return true
}

// isBoolean reports whether key is a boolean field of the entry's branch.
func isBoolean(dialect string, entry map[string]any, key string) bool {
	p := property(dialect, entry, key)
	for i := 0; p != nil && i < 8; i, p = i+1, p.Ref {
		if slices.Contains(p.Types, "boolean") {
			return true
		}
	}
	return false
}

// propertyDoc is the description of key in the entry's branch.
func propertyDoc(dialect string, entry map[string]any, key string) string {
	if p := property(dialect, entry, key); p != nil {
		return p.Description
	}
	return ""
}
