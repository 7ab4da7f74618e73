package fix

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// Fixes inside string values (variable references and literal secrets)
// and of whole servers.

// fixInterpolation rewrites a variable reference in another tool's syntax
// into the one every reader of the file expands ("${HOME}" -> "{env:HOME}"
// in OpenCode), or an undeclared ${input:id} into a declared one. Only the
// reference's own bytes change. Never safe when the reference has a
// default (${VAR:-x}) the new spelling cannot hold.
func fixInterpolation(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	repl := f.Value
	n := d.parsed().NodeAt(diag.Span.Start)
	if f.Kind != rules.FixReplaceReference || repl == "" || n == nil || n.Kind != jsonc.String || !n.Closed ||
		diag.Span.Start <= n.Span.Start || diag.Span.End >= n.Span.End || diag.Span.IsEmpty() {
		return nil
	}
	raw := d.text(diag.Span)
	if v := f.Variable; v != "" && !strings.Contains(raw, v) {
		return nil // the text there is no longer this reference
	}
	fx := Fix{
		Title:     "Rewrite the reference as " + repl,
		Preferred: true,
		Edits:     []Edit{d.edit(diag.Span.Start, diag.Span.End, escapeInString(repl))},
	}
	if strings.Contains(raw, ":-") && !strings.Contains(repl, ":-") {
		fx.Title += " (drops the default)"
		fx.lossy = true
	}
	return []Fix{fx}
}

// fixLiteralSecret replaces a literal secret with a reference to an
// environment variable, spelled for the file's readers, or removes a
// secret default from ${VAR:-default}. The title names the variable to
// set; the old value goes nowhere but the editor's undo history (it is in
// no title, message or log). Never safe: the user must set the variable
// first, or the server loses its credential.
func fixLiteralSecret(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	n, m, ok := d.valueAt(diag.Span)
	if !ok || n.Kind != jsonc.String || f.Kind != rules.FixSecretToVariable || m.Key.Str != f.Key {
		return nil
	}
	if pm := parentMember(n.Parent); pm == nil || pm.Key.Str != diag.Data.Field {
		return nil
	}
	v, repl := f.Variable, f.Value
	switch {
	case v == "":
		return nil
	case repl != "":
		if strings.Contains(repl, n.Str) || !strings.Contains(repl, v) {
			return nil // paranoia: the new text must not carry the old one
		}
		return []Fix{{
			Title:     fmt.Sprintf("Replace the secret with %s; set %s in your environment", quote(repl), v),
			Preferred: true,
			Edits:     []Edit{d.edit(n.Span.Start, n.Span.End, quote(repl))},
		}}
	}
	refs := interp.Scan(n.Str, interp.All)
	i := slices.IndexFunc(refs, func(r interp.Ref) bool { return r.Syntax == interp.DollarDefault && r.Name == v })
	if i < 0 {
		return nil
	}
	ref := refs[i]
	value := n.Str[:ref.Start] + "${" + v + "}" + n.Str[ref.End:]
	return []Fix{{
		Title:     fmt.Sprintf("Remove the secret default of ${%s}; set %s in your environment", v, v),
		Preferred: true,
		Edits:     []Edit{d.edit(n.Span.Start, n.Span.End, quote(value))},
	}}
}

// fixDuplicateServer removes a server that is an identical copy of the
// definition a tool uses from another file. Not safe: removing a server
// from a file changes what other tools (or other launch directories)
// read from it, which the user should look at.
func fixDuplicateServer(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	obj, i, ok := d.memberOfKey(diag.Span)
	if !ok || f.Kind != rules.FixRemoveMember || obj.Members()[i].Key.Str != f.Key {
		return nil
	}
	return []Fix{{
		Title:     fmt.Sprintf("Remove the duplicate server %s", quote(f.Key)),
		Preferred: true,
		Edits:     d.removeMember(obj, i),
	}}
}
