package verdict

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Variables lists the environment variables the values read, in the
// syntax of in (the tool's interpolation in that file: Tool.InterpolationFor), so hover can say "depends on
// $GITHUB_TOKEN": the fields of one entry (a Verdict's Variables) or of a
// merged definition (the effective view). References with a default are
// not listed. The scanner is package interp, the same the interpolation
// rules use.
func Variables(in *registry.Interpolation, values []*jsonc.Node) []string {
	if in == nil {
		return nil
	}
	forms := interp.FormsOf(in.Forms)
	seen := map[string]bool{}
	// Variables taken by name (Codex CLI's env_vars, bearer_token_env_var,
	// env_http_headers): the field's strings are the names.
	for _, v := range values {
		if m := v.Member(); m != nil && slices.ContainsFunc(in.ByName, func(nv registry.NamedVariables) bool { return nv.Field == m.Key.Str }) {
			nameStrings(v, seen)
		}
	}
	if forms.Empty() {
		return sortedNames(seen)
	}
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
			for _, m := range n.Members() {
				walk(m.Value)
			}
		case jsonc.Array:
			for _, e := range n.Elements() {
				walk(e)
			}
		}
	}
	for _, v := range values {
		walk(v)
	}
	return sortedNames(seen)
}

func sortedNames(seen map[string]bool) []string {
	if len(seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// nameStrings adds the strings of n (a name, an array of names, a table
// whose values are names) to seen.
func nameStrings(n *jsonc.Node, seen map[string]bool) {
	switch {
	case n == nil:
	case n.Kind == jsonc.String && n.Str != "":
		seen[n.Str] = true
	case n.Kind == jsonc.Array:
		for _, e := range n.Elements() {
			nameStrings(e, seen)
		}
	case n.Kind == jsonc.Object:
		for _, m := range n.Members() {
			nameStrings(m.Value, seen)
		}
	}
}
