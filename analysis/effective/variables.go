package effective

import (
	"regexp"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Variable references per interpolation form, as the registry spells the
// forms. Only the name is captured; a default makes the reference optional.
var varPatterns = map[string]*regexp.Regexp{
	"${VAR}":          regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`),
	"${VAR:-default}": regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`),
	"$VAR":            regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`),
	"{env:VAR}":       regexp.MustCompile(`\{env:([^}]+)\}`),
	"${env:VAR}":      regexp.MustCompile(`\$\{env:([^}]+)\}`),
	"${env:NAME}":     regexp.MustCompile(`\$\{env:([^}]+)\}`),
}

// variables lists the environment variables the merged definition reads,
// in the tool's own interpolation syntax, so hover can say "depends on
// $GITHUB_TOKEN". References with a default are not listed.
func variables(tool *registry.Tool, fields []Field) []string {
	var pats []*regexp.Regexp
	for _, form := range tool.Interpolation.Forms {
		if re, ok := varPatterns[form]; ok && !slices.Contains(pats, re) {
			pats = append(pats, re)
		}
	}
	if len(pats) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var walk func(n *jsonc.Node)
	walk = func(n *jsonc.Node) {
		if n == nil {
			return
		}
		switch n.Kind {
		case jsonc.String:
			for _, re := range pats {
				for _, m := range re.FindAllStringSubmatch(n.Str, -1) {
					if len(m) > 2 && m[2] != "" {
						continue // has a default
					}
					seen[m[1]] = true
				}
			}
		case jsonc.Object:
			for _, m := range n.Members {
				walk(m.Value)
			}
		case jsonc.Array:
			for _, e := range n.Elements {
				walk(e)
			}
		}
	}
	for _, f := range fields {
		walk(f.Member.Value)
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
