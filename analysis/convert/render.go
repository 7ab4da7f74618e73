package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Object is a JSON object that keeps its members in order. Converted
// entries are Objects so that the output follows a conventional key order
// (type, command, args, env, url, headers, ...) and keeps the source's
// order of servers, variables and headers.
type Object []Member

// Member is one key and value of an [Object].
type Member struct {
	Key   string
	Value any
}

// Get returns the value of key and whether it is present.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// set appends key, or replaces its value if present.
func (o *Object) set(key string, v any) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{key, v})
}

// RenderEntry renders a JSON value (as [ToEntry] returns it: [Object],
// []any, []string, string, bool, int, json.Number, nil; map[string]any
// is accepted with sorted keys) with one level of nesting per indent and
// newline between lines, so that a code action can insert a converted
// server into an existing file with that file's indentation ("  ", "\t")
// and line endings ("\r\n"). The first line is not indented and there is
// no final newline: to nest the value at some depth, replace each newline
// with newline plus the base indentation. Strings never contain a raw
// line break (JSON escapes them), so that replacement is safe. Empty
// objects and arrays render as {} and []. HTML characters are not
// escaped: the files are not HTML, and "&" or "<" in a URL should stay
// readable.
func RenderEntry(v any, indent, newline string) []byte {
	var b bytes.Buffer
	render(&b, v, indent, newline, 0)
	return b.Bytes()
}

func render(b *bytes.Buffer, v any, indent, nl string, depth int) {
	pad := func(d int) {
		b.WriteString(nl)
		for range d {
			b.WriteString(indent)
		}
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case json.Number:
		b.WriteString(v.String())
	case string:
		writeString(b, v)
	case []string:
		items := make([]any, len(v))
		for i, s := range v {
			items[i] = s
		}
		render(b, items, indent, nl, depth)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			render(b, e, indent, nl, depth+1)
		}
		pad(depth)
		b.WriteByte(']')
	case Object:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			writeString(b, m.Key)
			b.WriteString(": ")
			render(b, m.Value, indent, nl, depth+1)
		}
		pad(depth)
		b.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		o := make(Object, len(keys))
		for i, k := range keys {
			o[i] = Member{k, v[k]}
		}
		render(b, o, indent, nl, depth)
	default:
		// Only reachable through a programming error in this package:
		// every value it builds has one of the types above.
		panic(fmt.Sprintf("convert: cannot render %T", v))
	}
}

// writeString writes s as a JSON string without HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(tmp.Bytes(), []byte("\n")))
}

// Plain converts an ordered value to what the schema validator expects
// (encoding/json with UseNumber): maps, []any, json.Number. Rendered, its
// objects have their keys sorted (fix.Canonical).
func Plain(v any) any {
	switch v := v.(type) {
	case Object:
		m := make(map[string]any, len(v))
		for _, mm := range v {
			m[mm.Key] = Plain(mm.Value)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Plain(e)
		}
		return out
	case []string:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = e
		}
		return out
	case int:
		return json.Number(strconv.Itoa(v))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	}
	return v
}
