package interp

import (
	"bytes"
	"strings"
)

// Placeholder is one {{...}} in a text, by byte offsets (Start at the
// first brace, End after the last) and its trimmed name.
type Placeholder struct {
	Start, End int
	Name       string
}

// Placeholders finds every {{...}} in src, in order. A "{{" without a
// closing "}}" on the same line is not one. It is what the template
// resolver and the rule for unresolved placeholders in tools' files both
// scan with.
func Placeholders(src []byte) []Placeholder {
	var out []Placeholder
	for i := 0; i+1 < len(src); {
		j := bytes.Index(src[i:], []byte("{{"))
		if j < 0 {
			break
		}
		start := i + j
		for start+2 < len(src) && src[start+2] == '{' {
			start++ // ${{{X}}}: the innermost pair is the placeholder
		}
		rest := src[start+2:]
		k := bytes.Index(rest, []byte("}}"))
		nl := bytes.IndexAny(rest, "\r\n\"")
		if k < 0 || (nl >= 0 && nl < k) {
			i = start + 2
			continue
		}
		name := strings.TrimSpace(string(rest[:k]))
		if name == "" || strings.ContainsAny(name, "{}") {
			i = start + 2
			continue
		}
		out = append(out, Placeholder{Start: start, End: start + 2 + k + 2, Name: name})
		i = start + 2 + k + 2
	}
	return out
}
