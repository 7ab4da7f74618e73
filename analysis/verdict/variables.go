package verdict

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Variables lists the environment variables the values read, in the
// tool's own interpolation syntax, so hover can say "depends on
// $GITHUB_TOKEN": the fields of one entry (a Verdict's Variables) or of a
// merged definition (the effective view). References with a default are
// not listed. The scanner is package interp, the same the interpolation
// rules use.
func Variables(tool *registry.Tool, values []*jsonc.Node) []string {
	forms := interp.FormsOf(tool.Interpolation.Forms)
	if forms.Empty() {
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
			names, required := interp.EnvVars(n.Str, forms)
			for i, name := range names {
				if required[i] {
					seen[name] = true
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
	for _, v := range values {
		walk(v)
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
