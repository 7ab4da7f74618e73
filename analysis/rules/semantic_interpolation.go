package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Every tool has its own syntax for variables in a server entry, and
// expands it only in some fields (registry: tools[].interpolation). A
// reference in another tool's syntax is not an error to anyone: it is
// silently kept as literal text, so a header carries "${API_KEY}" instead
// of the key. These rules find such references, with spans inside the
// string, mapped back through JSON escapes ("\u0024{VAR}" is "${VAR}").

// semForms returns the syntaxes an interpolation (a tool's, or a reader's
// own: registry.Tool.InterpolationFor) expands and whether it expands them
// in field ("*": every string).
func semForms(in *registry.Interpolation, field string) (forms interp.Forms, inField bool) {
	if in == nil {
		return interp.Forms{}, false
	}
	inField = slices.Contains(in.Fields, "*") || slices.Contains(in.Fields, field)
	return interp.FormsOf(in.Forms), inField
}

// semEnvSpelling is how an interpolation writes a reference to
// environment variable name, "" when it has no syntax for it.
func semEnvSpelling(in *registry.Interpolation, name string) string {
	forms, _ := semForms(in, "")
	switch {
	case forms.Has(interp.Dollar):
		return "${" + name + "}"
	case forms.Has(interp.BraceEnv):
		return "{env:" + name + "}"
	case forms.Has(interp.DollarEnv):
		return "${env:" + name + "}"
	}
	return ""
}

// semShells are programs whose arguments are scripts: "$HOME" there is the
// shell's business, not the tool's.
var semShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "fish": true, "cmd": true, "cmd.exe": true, "powershell": true, "pwsh": true}

// interpolationRules checks every string of a server entry for variable
// references its readers do not expand, and for VS Code inputs that are
// not declared.
func (c *semantic) interpolationRules(e *semEntry) {
	shellScript := semShells[filepath.Base(semProgram(e.s))]
	for _, m := range e.s.Value().Members() {
		if m.Key == nil {
			continue
		}
		field := m.Key.Str
		if shellScript && (field == "args" || field == "command") {
			continue
		}
		semEachString(m.Value, func(n *jsonc.Node) {
			if e.isSecret(n) {
				return // a literal secret: nothing in it is printed
			}
			for _, v := range interp.ScanString(c.in.Content, n, interp.All) {
				if v.Syntax == interp.Bare && field != "env" && field != "environment" && field != "headers" {
					continue // in a path or an argument, "$X" is too often meant for a shell
				}
				c.reference(e, field, semMemberKey(e, n), n.Str, v)
			}
		})
	}
}

// reference judges one variable reference against every reader.
func (c *semantic) reference(e *semEntry, field, key, str string, v interp.Ref) {
	if _, ok := semKnownSecret(v.Name); ok {
		return // a credential glued into a reference: literal-secret's business, never quoted
	}
	var literal, expanding []*registry.Reader
	for _, r := range e.readers {
		forms, inField := semForms(c.interp(r), field)
		switch {
		case !inField:
			// Not expanded here at all: no tool's syntax is special, so
			// nothing is foreign either.
		case forms.Admits(v):
			expanding = append(expanding, r)
			if v.Syntax == interp.Input && r.Dialect == "vscode" {
				c.undefinedInput(e, r, field, v)
			}
		default:
			literal = append(literal, r)
		}
	}
	if len(literal) == 0 {
		return
	}
	does := plural(len(literal), "does not expand", "do not expand")
	if !slices.ContainsFunc(literal, func(r *registry.Reader) bool { return c.interp(r).Confidence.Certain() }) {
		does = "may not expand"
	}
	lead := fmt.Sprintf("%s %s %s", readerNames(c.in, literal), does, v)
	var note string
	if len(expanding) > 0 {
		note = readerNames(c.in, expanding) + " " + plural(len(expanding), "expands", "expand") + " it"
	} else if owners := c.syntaxOwners(v, literal); owners != "" {
		note = "that is the syntax of " + owners
	}
	data := semData(e.s.Name, literal, "field", field)
	if name := v.EnvName(); name != "" {
		data["variable"] = name
	}
	var fix string
	// A reader that expands nothing here (VS Code in .mcp.json) is
	// helped by no spelling: the fix is for the others.
	all := append(slices.Clone(literal), expanding...)
	capable, _ := c.expandersOf(all, field)
	// Readers that expand nothing here (VS Code in .mcp.json) are helped
	// by no spelling: with only those left literal, there is nothing to
	// rewrite.
	if litCapable, _ := c.expandersOf(literal, field); len(litCapable) == 0 {
		capable = nil
	}
	if repl := c.commonEnvSpelling(capable, v.EnvName()); repl != "" {
		fix = "write " + repl
		switch k := len(capable); {
		case k < len(all):
			fix += ", which " + readerNames(c.in, capable) + " " + plural(k, "expands", "expand")
		case k == 2:
			fix += ", which both expand"
		case k > 2:
			fix += ", which all of them expand"
		}
		// A default that the new spelling cannot hold would be lost.
		data[FixKey] = Fix{Kind: FixReplaceReference, Value: repl, Variable: v.Name, Safe: v.Default == "" || strings.Contains(repl, ":-")}
	}
	if fix == "" {
		fix = c.byNameFix(literal, field, key, str, v)
	}
	reason := "it stays literal text"
	if v.Syntax == interp.DollarEnv && slices.ContainsFunc(literal, func(r *registry.Reader) bool {
		forms, _ := semForms(c.interp(r), field)
		return forms.Has(interp.BraceEnv)
	}) {
		// OpenCode's /\{env:([^}]+)\}/ matches inside ${env:X}: the value
		// replaces the braces and the "$" stays in front of it.
		reason = fmt.Sprintf("only its {env:%s} part is replaced, which leaves a stray \"$\"", v.Name)
	}
	c.add(Diagnostic{
		Span:     v.Span,
		Severity: SeverityWarning,
		Code:     CodeForeignInterpolation,
		Message:  semMessage(lead, reason, note, fix),
		Data:     data,
	})
}

// semMemberKey is the key of the string n inside a table of the entry
// ("Authorization" in http_headers), "" for a top-level field's value or
// an array element.
func semMemberKey(e *semEntry, n *jsonc.Node) string {
	if n.Parent == nil || n.Parent == e.s.Value() {
		return ""
	}
	if m := n.Member(); m != nil {
		return m.Key.Str
	}
	return ""
}

// byNameFix is, for readers that take variables only by name (registry
// interpolation.byName: Codex CLI's env_vars, bearer_token_env_var,
// env_http_headers), what to write instead of the reference; "" when no
// such field stands in for this one.
func (c *semantic) byNameFix(readers []*registry.Reader, field, key, str string, v interp.Ref) string {
	name := v.EnvName()
	if name == "" {
		return ""
	}
	for _, r := range readers {
		t := c.tool(r)
		for _, nv := range c.interp(r).ByName {
			where, sub, _ := strings.Cut(nv.Replaces, ".")
			if where != field || sub != "" && !strings.EqualFold(sub, key) {
				continue
			}
			if nv.Prefix != "" {
				rest, ok := strings.CutPrefix(str, nv.Prefix)
				if refs := interp.Scan(rest, interp.All); !ok || len(refs) != 1 || !strings.HasPrefix(rest, "$") || !strings.HasSuffix(rest, "}") {
					continue
				}
			}
			w := strings.NewReplacer("{var}", name, "{key}", key).Replace(nv.Write)
			return fmt.Sprintf("%s takes variables only by name: write %s", t.Name, w)
		}
	}
	return ""
}

// syntaxOwners names the tools (other than the readers') whose syntax v's
// kind is, for "that is the syntax of OpenCode".
func (c *semantic) syntaxOwners(v interp.Ref, readers []*registry.Reader) string {
	var names []string
	for _, t := range c.in.Registry.Tools() {
		if slices.ContainsFunc(readers, func(r *registry.Reader) bool { return r.Tool == t.ID }) {
			continue
		}
		if forms, _ := semForms(&t.Interpolation, ""); forms.Admits(v) {
			names = append(names, t.Name)
		}
	}
	return JoinAnd(names)
}

// commonEnvSpelling is a reference to environment variable name that every
// reader expands, "" when there is none (or no variable).
func (c *semantic) commonEnvSpelling(readers []*registry.Reader, name string) string {
	if name == "" {
		return ""
	}
	for _, r := range readers {
		cand := semEnvSpelling(c.interp(r), name)
		if cand == "" {
			continue
		}
		refs := interp.Scan(cand, interp.All)
		ok := len(refs) == 1 && !slices.ContainsFunc(readers, func(o *registry.Reader) bool {
			forms, _ := semForms(c.interp(o), "")
			return !forms.Has(refs[0].Syntax)
		})
		if ok {
			return cand
		}
	}
	return ""
}

// undefinedInput reports ${input:id} whose id VS Code's "inputs" does
// not declare: VS Code cannot resolve it, so it does not start the server.
func (c *semantic) undefinedInput(e *semEntry, r *registry.Reader, field string, v interp.Ref) {
	ids := c.inputIDs()
	if slices.Contains(ids, v.Name) {
		return
	}
	fix := fmt.Sprintf(`add an input with "id": %q`, v.Name)
	data := semData(e.s.Name, []*registry.Reader{r}, "field", field, "variable", v.Name)
	// "github_token" for "github-token", "Token" for "token".
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	for _, id := range ids {
		if norm(id) == norm(v.Name) {
			fix = fmt.Sprintf("did you mean ${input:%s}?", id)
			// A guess from a similar id: not safe.
			data[FixKey] = Fix{Kind: FixReplaceReference, Value: "${input:" + id + "}", Variable: v.Name}
			break
		}
	}
	c.add(Diagnostic{
		Span:     v.Span,
		Severity: SeverityError,
		Code:     CodeUndefinedInput,
		Message: semMessage(fmt.Sprintf("%s cannot start server %s", toolName(c.in, r.Tool), semQuote(e.s.Name)),
			fmt.Sprintf(`%s is not declared in "inputs"`, v), "", fix),
		Data: data,
	})
}

// inputIDs are the ids VS Code's top-level "inputs" declares.
func (c *semantic) inputIDs() []string {
	in := c.f.Root.Get("inputs")
	if in == nil || in.Value.Kind != jsonc.Array {
		return nil
	}
	var ids []string
	for _, el := range in.Value.Elements() {
		if el.Kind == jsonc.Object {
			if m := el.Get("id"); m != nil && m.Value.Kind == jsonc.String {
				ids = append(ids, m.Value.Str)
			}
		}
	}
	return ids
}

// fileReferences checks OpenCode's {file:path} references. OpenCode
// substitutes them in the raw text before parsing, so every string of the
// file counts, not only server entries; a missing file makes it refuse
// the whole configuration ("bad file reference: ... does not exist",
// anomalyco/opencode packages/opencode/src/config/variable.ts).
func (c *semantic) fileReferences() {
	if c.in.Resolver == nil || c.in.Kind == nil || c.f.Root == nil {
		return
	}
	var readers []*registry.Reader
	for i := range c.in.Kind.Readers {
		r := &c.in.Kind.Readers[i]
		if in := c.interp(r); in != nil && in.BeforeParse && slices.Contains(in.Forms, "{file:path}") {
			readers = append(readers, r)
		}
	}
	if len(readers) == 0 {
		return
	}
	semWalkStrings(c.f.Root, func(n *jsonc.Node) {
		for _, v := range interp.ScanString(c.in.Content, n, interp.NewForms(interp.BraceFile)) {
			path, ok := c.resolveFileRef(v.Name)
			if !ok || c.in.Resolver.FileExists(path) {
				continue
			}
			c.add(Diagnostic{
				Span:     v.Span,
				Severity: SeverityError,
				Code:     CodeMissingFileReference,
				Message: fmt.Sprintf("%s %s the whole configuration: %s names a file that does not exist (\"bad file reference\")",
					readerNames(c.in, readers), plural(len(readers), "refuses", "refuse"), v),
				Data: semData("", readers, "path", v.Name),
			})
		}
	})
}

// resolveFileRef turns a {file:} path into what the Resolver checks: "~/"
// paths and absolute paths as they are, others relative to the directory
// of the configuration file (as OpenCode resolves them).
func (c *semantic) resolveFileRef(p string) (string, bool) {
	switch {
	case strings.HasPrefix(p, "~/"), filepath.IsAbs(p), semWindowsAbs(p):
		return p, true
	case c.in.Path == "":
		return "", false
	}
	return filepath.Join(filepath.Dir(c.in.Path), p), true
}

func semWindowsAbs(p string) bool {
	return len(p) >= 3 && urlAlpha(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// semEachString calls fn for every string value in n: n itself, array
// elements and object values, at any depth (object keys excluded).
func semEachString(n *jsonc.Node, fn func(*jsonc.Node)) {
	switch n.Kind {
	case jsonc.String:
		fn(n)
	case jsonc.Array:
		for _, el := range n.Elements() {
			semEachString(el, fn)
		}
	case jsonc.Object:
		for _, m := range n.Members() {
			semEachString(m.Value, fn)
		}
	}
}

// semWalkStrings is eachString including object keys: what a tool that
// substitutes in the raw text sees.
func semWalkStrings(n *jsonc.Node, fn func(*jsonc.Node)) {
	stack := []*jsonc.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case jsonc.String:
			fn(n)
		case jsonc.Array:
			stack = append(stack, n.Elements()...)
		case jsonc.Object:
			for _, m := range n.Members() {
				stack = append(stack, m.Key, m.Value)
			}
		}
	}
}
