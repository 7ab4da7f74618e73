package registry

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MatchGlob reports whether path matches the VS Code-style glob pattern.
//
// It implements the subset of VS Code's glob semantics (src/vs/base/common/
// glob.ts) that document selectors use, so that the extension's selector and
// the server agree on which files are MCP configuration:
//
//   - "/" separates segments in the pattern; in the path both "/" and "\"
//     do, as in VS Code on every platform.
//   - "**" as a whole segment matches any number of segments, including
//     none, so "**/.mcp.json" matches ".mcp.json", "/a/.mcp.json" and
//     `C:\a\.mcp.json`.
//   - "*" matches any run of characters within a segment, "?" one
//     character, "[a-z]" / "[!a-z]" (or "[^a-z]") one character of a class.
//   - "{a,b}" matches either alternative; alternatives may nest and may
//     contain "/".
//   - Dots are not special: "*" matches ".mcp.json".
//   - Matching is case-sensitive. [Registry.Match] folds case itself where
//     the file system does.
//
// A malformed pattern (unbalanced braces or brackets) matches nothing.
func MatchGlob(pattern, path string) bool {
	g, err := compileGlob(pattern)
	if err != nil {
		return false
	}
	_, ok := g.match(path, false)
	return ok
}

// glob is a compiled pattern: braces expanded into alternatives, each split
// into segments.
type glob struct {
	alts []globAlt
}

type globAlt struct {
	segs  []string
	lower []string // segs lower-cased, for case-insensitive file systems
	spec  specificity
}

// specificity orders matching globs: the one that pins down more of the
// path wins. "**/.claude/.mcp.json" (2 fixed segments) beats "**/.mcp.json"
// (1), so a file that both match gets the narrower kind.
type specificity struct {
	fixed   int // segments other than "**"
	literal int // bytes that are not wildcards
}

func (s specificity) less(t specificity) bool {
	if s.fixed != t.fixed {
		return s.fixed < t.fixed
	}
	return s.literal < t.literal
}

func compileGlob(pattern string) (*glob, error) {
	if pattern == "" {
		return nil, fmt.Errorf("empty glob")
	}
	expanded, err := expandBraces(pattern)
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	g := &glob{}
	for _, e := range expanded {
		segs := strings.Split(e, "/")
		a := globAlt{segs: segs, lower: make([]string, len(segs))}
		for i, s := range segs {
			if err := checkClasses(s); err != nil {
				return nil, fmt.Errorf("glob %q: %w", pattern, err)
			}
			a.lower[i] = strings.ToLower(s)
			if s == "**" {
				continue
			}
			a.spec.fixed++
			a.spec.literal += literalBytes(s)
		}
		g.alts = append(g.alts, a)
	}
	return g, nil
}

// match reports whether path matches and, if so, the specificity of the most
// specific alternative that matched.
func (g *glob) match(path string, fold bool) (specificity, bool) {
	if fold {
		path = strings.ToLower(path)
	}
	parts := splitPath(path)
	var best specificity
	found := false
	for i := range g.alts {
		a := &g.alts[i]
		segs := a.segs
		if fold {
			segs = a.lower
		}
		if matchSegments(segs, parts) && (!found || best.less(a.spec)) {
			best, found = a.spec, true
		}
	}
	return best, found
}

// splitPath splits at both separators. Empty segments are kept: "/a" is
// ["", "a"], and "**" can consume the empty root segment.
func splitPath(p string) []string {
	parts := make([]string, 0, strings.Count(p, "/")+strings.Count(p, `\`)+1)
	last := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '/' || p[i] == '\\' {
			parts = append(parts, p[last:i])
			last = i + 1
		}
	}
	return append(parts, p[last:])
}

func matchSegments(pat, path []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(path); i++ {
				if matchSegments(pat[1:], path[i:]) {
					return true
				}
			}
			return false
		}
		if len(path) == 0 || !matchSegment(pat[0], path[0]) {
			return false
		}
		pat, path = pat[1:], path[1:]
	}
	return len(path) == 0
}

// matchSegment matches one segment against "*", "?" and "[...]" with the
// usual single-star backtracking, advancing by whole runes.
func matchSegment(pat, s string) bool {
	px, sx := 0, 0
	starPx, starSx := -1, 0
	for px < len(pat) || sx < len(s) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				starPx, starSx = px, sx
				px++
				continue
			case '?':
				if sx < len(s) {
					_, w := utf8.DecodeRuneInString(s[sx:])
					px, sx = px+1, sx+w
					continue
				}
			case '[':
				if sx < len(s) {
					r, w := utf8.DecodeRuneInString(s[sx:])
					if ok, n := matchClass(pat[px:], r); ok {
						px, sx = px+n, sx+w
						continue
					}
				}
			default:
				if sx < len(s) && s[sx] == c {
					px, sx = px+1, sx+1
					continue
				}
			}
		}
		if starPx < 0 || starSx >= len(s) {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[starSx:])
		starSx += w
		px, sx = starPx+1, starSx
	}
	return true
}

// matchClass matches r against the class at the start of pat ("[...]") and
// returns the class's length in bytes.
func matchClass(pat string, r rune) (bool, int) {
	i := 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	matched := false
	for first := true; i < len(pat); first = false {
		if pat[i] == ']' && !first {
			return matched != negate, i + 1
		}
		lo, w := utf8.DecodeRuneInString(pat[i:])
		i += w
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			hi, w = utf8.DecodeRuneInString(pat[i+1:])
			i += 1 + w
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return false, len(pat) // unterminated: rejected by checkClasses
}

// literalBytes counts the bytes of seg outside "*", "?" and classes.
func literalBytes(seg string) int {
	n := 0
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '*', '?':
		case '[':
			_, w := matchClass(seg[i:], 0)
			i += w - 1
		default:
			n++
		}
	}
	return n
}

func checkClasses(seg string) error {
	for i := 0; i < len(seg); i++ {
		if seg[i] != '[' {
			continue
		}
		j := i + 1
		if j < len(seg) && (seg[j] == '!' || seg[j] == '^') {
			j++
		}
		if j < len(seg) && seg[j] == ']' {
			j++ // a leading ']' is a member
		}
		k := strings.IndexByte(seg[j:], ']')
		if k < 0 {
			return fmt.Errorf("unterminated character class")
		}
		i = j + k
	}
	return nil
}

// expandBraces rewrites "a{b,c{d,e}}f" into "abf", "acdf", "acef". Braces
// inside a character class are literal.
func expandBraces(p string) ([]string, error) {
	start, depth, inClass := -1, 0, false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '{':
			if depth == 0 {
				start = i
			}
			depth++
		case c == '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced '}'")
			}
			if depth > 0 {
				continue
			}
			var out []string
			for _, alt := range splitTopLevel(p[start+1 : i]) {
				more, err := expandBraces(p[:start] + alt + p[i+1:])
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
			return out, nil
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced '{'")
	}
	return []string{p}, nil
}

// splitTopLevel splits at commas that are not inside nested braces.
func splitTopLevel(s string) []string {
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[last:i])
				last = i + 1
			}
		}
	}
	return append(parts, s[last:])
}
