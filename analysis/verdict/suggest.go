package verdict

import (
	"slices"
	"strings"
)

// Suggestions for a mistyped server type or key. They are only offered
// when they are very likely right: a quick fix applies them blindly.

// schemaTypeFamilies groups the spellings of one transport across tools, most
// common first: a "local" server is a "stdio" one for Claude Code, an
// "http" server is a "remote" one for OpenCode.
var schemaTypeFamilies = [][]string{
	{"stdio", "local"},
	{"http", "remote", "streamable-http", "streamableHttp", "streamable_http"},
	{"sse", "remote"},
	{"ws", "websocket"},
}

// SuggestValue proposes the value of valid that means what v means: the
// same spelling in another case, the same transport under another name,
// or a near spelling. "" when nothing fits.
func SuggestValue(v string, valid []string) string {
	for _, s := range valid {
		if strings.EqualFold(s, v) {
			return s
		}
	}
	for _, fam := range schemaTypeFamilies {
		if !slices.ContainsFunc(fam, func(f string) bool { return strings.EqualFold(f, v) }) {
			continue
		}
		for _, f := range fam {
			if slices.Contains(valid, f) {
				return f
			}
		}
	}
	return schemaNearest(v, valid)
}

// schemaKeySynonyms are keys people write for a key that exists under another
// name: "transport" for "type" (pixellab-code/pixellab-mcp#5), "env" for
// OpenCode's "environment" and back.
var schemaKeySynonyms = map[string][]string{
	"transport":   {"type"},
	"cmd":         {"command"},
	"arguments":   {"args"},
	"argv":        {"args"},
	"env":         {"environment"},
	"environment": {"env"},
	"envVars":     {"env", "environment"},
	"endpoint":    {"url"},
	"serverUrl":   {"url"},
	"httpUrl":     {"url"},
	"uri":         {"url"},
	"disabled":    {"enabled"},
}

// SuggestKey proposes a key of cands in place of key.
func SuggestKey(key string, cands []string) string {
	for _, s := range schemaKeySynonyms[key] {
		if slices.Contains(cands, s) {
			return s
		}
	}
	return schemaNearest(key, cands)
}

// schemaNearest returns the candidate closest to s by edit distance (ignoring
// case), if it is close enough to be a typo: at most two edits, and
// fewer than a third of the word. Ties go to the first in sorted order.
func schemaNearest(s string, cands []string) string {
	best, bestD := "", 3
	sorted := slices.Clone(cands)
	slices.Sort(sorted)
	for _, c := range slices.Compact(sorted) {
		if c == s {
			continue
		}
		d := schemaEditDistance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD && d*3 <= max(len(s), len(c)) {
			best, bestD = c, d
		}
	}
	return best
}

// schemaEditDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent bytes ("tpye").
func schemaEditDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
