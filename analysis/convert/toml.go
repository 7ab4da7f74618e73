package convert

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RenderCodexFile writes a Codex CLI config.toml holding the servers of
// root's mcp_servers map: one [mcp_servers.<name>] table per server, in
// order, its scalars and arrays first, then each table inside it (env,
// http_headers, oauth, ...) as a [mcp_servers.<name>.<key>] table, the
// layout `codex mcp add` writes. newline separates lines; the file ends
// with one. An empty map is written as an empty [mcp_servers] table.
func RenderCodexFile(servers Object, newline string) []byte {
	var b strings.Builder
	if len(servers) == 0 {
		b.WriteString("[mcp_servers]" + newline)
		return []byte(b.String())
	}
	for i, m := range servers {
		if i > 0 {
			b.WriteString(newline)
		}
		o, _ := m.Value.(Object)
		writeTable(&b, []string{"mcp_servers", m.Key}, o, newline)
	}
	return []byte(b.String())
}

// RenderTOMLTable writes the table o at path (keys unquoted; they are
// quoted here where TOML needs it) in the layout of RenderCodexFile: a
// [header] when o has key-values or is empty, its key-values, then each
// sub-table with a header of its own, a blank line between tables.
// newline separates lines; the text ends with one. Package fix inserts it
// into an existing config.toml.
func RenderTOMLTable(path []string, o Object, newline string) []byte {
	var b strings.Builder
	writeTable(&b, path, o, newline)
	return []byte(b.String())
}

// TOMLValue writes a value on one line: a scalar, an array, or an inline
// table for an object.
func TOMLValue(v any) string {
	var b strings.Builder
	writeTOMLValue(&b, v)
	return b.String()
}

// TOMLKey writes a key bare when TOML allows it, else as a basic string.
func TOMLKey(k string) string { return tomlKey(k) }

// writeTable writes the table at path: a header, then its non-table
// members as key = value lines, then its sub-tables, each with a header of
// its own. An empty table keeps its header, so that it still exists.
func writeTable(b *strings.Builder, path []string, o Object, nl string) {
	keys := make([]string, len(path))
	for i, k := range path {
		keys[i] = tomlKey(k)
	}
	var tables []Member
	header := len(o) == 0
	for _, m := range o {
		if sub, ok := m.Value.(Object); ok {
			tables = append(tables, Member{m.Key, sub})
		} else {
			header = true
		}
	}
	// A table that holds only tables is defined by their headers.
	if header {
		b.WriteString("[" + strings.Join(keys, ".") + "]" + nl)
	}
	for _, m := range o {
		if _, ok := m.Value.(Object); ok {
			continue
		}
		b.WriteString(tomlKey(m.Key) + " = ")
		writeTOMLValue(b, m.Value)
		b.WriteString(nl)
	}
	for i, t := range tables {
		if header || i > 0 {
			b.WriteString(nl)
		}
		writeTable(b, append(path[:len(path):len(path)], t.Key), t.Value.(Object), nl)
	}
}

// writeTOMLValue writes a scalar, an array or (inside an array) an inline
// table.
func writeTOMLValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(tomlString(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case json.Number:
		b.WriteString(v.String())
	case []any:
		b.WriteString("[")
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeTOMLValue(b, x)
		}
		b.WriteString("]")
	case []string:
		b.WriteString("[")
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tomlString(x))
		}
		b.WriteString("]")
	case Object:
		b.WriteString("{")
		for i, m := range v {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + tomlKey(m.Key) + " = ")
			writeTOMLValue(b, m.Value)
		}
		if len(v) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("}")
	default:
		// null has no TOML spelling; ToEntry never writes one for Codex.
		b.WriteString(`""`)
	}
}

// tomlKey writes k bare when TOML allows it, else as a basic string.
func tomlKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0 {
		return k
	}
	return tomlString(k)
}

// tomlString writes s as a TOML basic string. Control characters are
// escaped (TOML forbids them raw). TOML text must be valid UTF-8, so a
// byte that is not becomes U+FFFD; the readers never give one (JSON and
// TOML sources are UTF-8 already).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlHasComments reports whether a TOML document (already parsed without
// errors) has a comment: a # outside every string.
func tomlHasComments(src []byte) bool {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			return true
		case '"', '\'':
			if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
				// A multi-line string, up to its closing triple (a run
				// of up to five quotes ends it).
				for i += 3; i < len(src); i++ {
					if c == '"' && src[i] == '\\' {
						i++
						continue
					}
					if src[i] == c && i+2 < len(src) && src[i+1] == c && src[i+2] == c {
						for i += 2; i+1 < len(src) && src[i+1] == c; i++ {
						}
						break
					}
				}
				continue
			}
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if c == '"' && src[i] == '\\' {
					i++
				}
			}
		}
	}
	return false
}
