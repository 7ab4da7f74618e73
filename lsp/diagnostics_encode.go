package lsp

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// appendPublishParams appends the JSON of p, byte for byte what
// go.lsp.dev/jsonrpc2 would send for it (segmentio/encoding's Marshal:
// struct field order, omitempty, HTML-escaped strings, sorted map keys).
//
// Why by hand: a 1,000-server file publishes about 1,300 diagnostics on
// every edit and a minified 20,000-server file about 27,000; the
// reflection encoder, followed by the library re-parsing the params it
// was handed, was the largest single cost of an edit. Values this encoder
// does not know (a rule's Fix in Data, a numeric code) go to the library
// encoder, so nothing can come out different; diagnostics_encode_test.go
// holds it to the library's bytes.
func appendPublishParams(b []byte, p publishParams) []byte {
	b = appendPublicationHead(b, p.URI, p.Version)
	if p.Diagnostics == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Diagnostics {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendDiagnostic(b, &p.Diagnostics[i])
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendDiagnostic(b []byte, d *protocol.Diagnostic) []byte {
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	return appendDiagnosticTail(b, d)
}

// appendDiagnosticTail appends what follows the range in d's JSON, up to
// and including its closing brace: the part an edit elsewhere in the file
// leaves as it was (diagnosticCache).
func appendDiagnosticTail(b []byte, d *protocol.Diagnostic) []byte {
	return appendDiagnosticRest(appendDiagnosticHead(b, d), d)
}

// appendDiagnosticHead appends the start of d's tail, before its
// message: its severity, code, code description and source, the same
// for every finding of a rule (diagnosticCache keeps each once).
func appendDiagnosticHead(b []byte, d *protocol.Diagnostic) []byte {
	if d.Severity != 0 {
		b = append(b, `,"severity":`...)
		b = appendJSONFloat(b, float64(d.Severity))
	}
	if !omittedInterface(d.Code) {
		b = append(b, `,"code":`...)
		b = appendJSONValue(b, d.Code)
	}
	if d.CodeDescription != nil {
		b = append(b, `,"codeDescription":{"href":`...)
		b = appendJSONString(b, string(d.CodeDescription.Href))
		b = append(b, '}')
	}
	if d.Source != "" {
		b = append(b, `,"source":`...)
		b = appendJSONString(b, d.Source)
	}
	return b
}

// appendDiagnosticRest appends the rest of d's tail, from its message on.
func appendDiagnosticRest(b []byte, d *protocol.Diagnostic) []byte {
	b = append(b, `,"message":`...)
	b = appendJSONString(b, d.Message)
	if len(d.Tags) > 0 {
		b = append(b, `,"tags":[`...)
		for i, t := range d.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONFloat(b, float64(t))
		}
		b = append(b, ']')
	}
	if len(d.RelatedInformation) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.RelatedInformation {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":{"uri":`...)
			b = appendJSONString(b, string(r.Location.URI))
			b = append(b, `,"range":`...)
			b = appendRange(b, r.Location.Range)
			b = append(b, `},"message":`...)
			b = appendJSONString(b, r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if !omittedInterface(d.Data) {
		b = append(b, `,"data":`...)
		b = appendJSONValue(b, d.Data)
	}
	return append(b, '}')
}

// omittedInterface reports whether omitempty drops an interface field
// holding v: segmentio/encoding drops it when the interface's data word
// is nil, that is nil itself or a nil map, pointer, channel or func.
func omittedInterface(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string, []string, []any:
		return false
	case map[string]any:
		return v == nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.Start.Character), 10)
	b = append(b, `},"end":{"line":`...)
	b = strconv.AppendUint(b, uint64(r.End.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(r.End.Character), 10)
	return append(b, `}}`...)
}

// appendJSONFloat writes the integers severities and tags are; any other
// number is the library's to spell.
func appendJSONFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return appendLibraryJSON(b, f)
}

// appendJSONValue writes the values rules put in Data and Code; anything
// else goes to the library encoder.
func appendJSONValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case string:
		return appendJSONString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case float64:
		return appendJSONFloat(b, v)
	case []string:
		if v == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, s)
		}
		return append(b, ']')
	case []any:
		if v == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONValue(b, e)
		}
		return append(b, ']')
	case map[string]any:
		if v == nil {
			return append(b, "null"...)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSONValue(b, v[k])
		}
		return append(b, '}')
	}
	return appendLibraryJSON(b, v)
}

// appendLibraryJSON is the library's encoding of v. A value it cannot
// encode is written as null, as no rule produces one.
func appendLibraryJSON(b []byte, v any) []byte {
	out, err := json.Append(b, v, json.EscapeHTML|json.SortMapKeys)
	if err != nil {
		return append(b, "null"...)
	}
	return out
}

const lowerHex = "0123456789abcdef"

// jsonPlain marks the bytes appendJSONString copies as they are: ASCII
// from the space to DEL but for \\ " < > &. One lookup per byte instead of
// seven comparisons: a minified 20,000-server file's first publication
// quotes 33,000 messages and links.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c <= 0x7f; c++ {
		t[c] = c != '\\' && c != '"' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString quotes s as segmentio/encoding does with EscapeHTML:
// \n \r \t \" \\ by name, other control characters and < > & as \u00XX,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	i := 0
	for j := 0; j < len(s); {
		c := s[j]
		if jsonPlain[c] {
			j++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[i:j]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xF])
			}
			j++
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[i:j]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[i:j]...)
			b = append(b, `\u202`...)
			b = append(b, lowerHex[r&0xF])
		default:
			j += size
			continue
		}
		j += size
		i = j
	}
	b = append(b, s[i:]...)
	return append(b, '"')
}
