package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Every tool has its own syntax for variables in a server entry, and
// expands it only in some fields (registry: tools[].interpolation). A
// reference in another tool's syntax is not an error to anyone: it is
// silently kept as literal text, so a header carries "${API_KEY}" instead
// of the key. These rules find such references, with spans inside the
// string, mapped back through JSON escapes ("\u0024{VAR}" is "${VAR}").

// semVarKind is a variable reference syntax.
type semVarKind uint8

const (
	varDollar        semVarKind = iota + 1 // ${VAR}: Claude Code, Copilot CLI
	varDollarDefault                       // ${VAR:-default}: Claude Code, Copilot CLI
	varBare                                // $VAR: Copilot CLI
	varDollarEnv                           // ${env:VAR}: VS Code, Cursor
	varInput                               // ${input:id}: VS Code
	varEditor                              // ${workspaceFolder}, ${userHome}, ${config:x}: VS Code's own
	varBraceEnv                            // {env:VAR}: OpenCode
	varBraceFile                           // {file:path}: OpenCode
)

// semFormKinds maps the registry's spellings of interpolation forms to kinds.
var semFormKinds = map[string]semVarKind{
	"${VAR}":             varDollar,
	"${VAR:-default}":    varDollarDefault,
	"$VAR":               varBare,
	"${env:VAR}":         varDollarEnv,
	"${env:NAME}":        varDollarEnv,
	"${input:id}":        varInput,
	"${workspaceFolder}": varEditor,
	"${userHome}":        varEditor,
	"{env:VAR}":          varBraceEnv,
	"{file:path}":        varBraceFile,
}

// semEditorVars are VS Code's predefined variables (Cursor reuses some). In
// Claude Code's or Copilot CLI's syntax they would name environment
// variables that are practically never set.
var semEditorVars = map[string]bool{
	"workspaceFolder": true, "workspaceFolderBasename": true, "workspaceRoot": true,
	"userHome": true, "cwd": true, "pathSeparator": true, "/": true, "execPath": true,
	"file": true, "fileBasename": true, "fileBasenameNoExtension": true, "fileDirname": true,
	"fileExtname": true, "fileWorkspaceFolder": true, "relativeFile": true,
	"relativeFileDirname": true, "lineNumber": true, "selectedText": true,
	"defaultBuildTask": true, "extensionInstallFolder": true,
}

// semVarRef is one variable reference in a decoded string.
type semVarRef struct {
	kind       semVarKind
	start, end int    // decoded byte offsets
	name       string // variable, input id, editor variable or file path
	def        string // the default of ${VAR:-default}
}

// String is the reference as messages show it. It is rebuilt from the
// name, never copied from the text: a default value may be a secret.
func (v semVarRef) String() string {
	switch v.kind {
	case varDollar, varEditor:
		return "${" + v.name + "}"
	case varDollarDefault:
		return "${" + v.name + ":-…}"
	case varBare:
		return "$" + v.name
	case varDollarEnv:
		return "${env:" + v.name + "}"
	case varInput:
		return "${input:" + v.name + "}"
	case varBraceEnv:
		return "{env:" + v.name + "}"
	case varBraceFile:
		return "{file:" + v.name + "}"
	}
	return ""
}

// envName is the environment variable a reference reads, "" if none.
func (v semVarRef) envName() string {
	switch v.kind {
	case varDollar, varDollarDefault, varBare, varDollarEnv, varBraceEnv:
		return v.name
	case varEditor:
		if v.name == "userHome" {
			return "HOME"
		}
	}
	return ""
}

// semScanVars finds the variable references in s, in order. A bare $VAR is
// taken only in upper case (the convention for environment variables),
// so "$1", "$ref" or a "$" inside a password are left alone.
func semScanVars(s string) []semVarRef {
	var out []semVarRef
	for i := 0; i < len(s); {
		switch {
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
			end := ClosingBrace(s, i+2)
			if end < 0 {
				return out
			}
			if v, ok := semClassifyDollar(s[i+2 : end]); ok {
				v.start, v.end = i, end+1
				out = append(out, v)
				i = end + 1
				continue
			}
			i += 2
		case s[i] == '$' && i+1 < len(s) && semEnvStart(s[i+1]):
			j := i + 1
			for j < len(s) && semEnvChar(s[j]) {
				j++
			}
			if name := s[i+1 : j]; semBareVarName(name) && (j == len(s) || !urlAlpha(s[j])) {
				out = append(out, semVarRef{kind: varBare, start: i, end: j, name: name})
			}
			i = j
		case s[i] == '{' && (strings.HasPrefix(s[i:], "{env:") || strings.HasPrefix(s[i:], "{file:")):
			// OpenCode's regexps: /\{env:([^}]+)\}/, /\{file:([^}]+)\}/.
			end := strings.IndexByte(s[i:], '}')
			colon := strings.IndexByte(s[i:], ':')
			if end < 0 || end == colon+1 {
				i++
				continue
			}
			kind := varBraceEnv
			if s[i+1] == 'f' {
				kind = varBraceFile
			}
			out = append(out, semVarRef{kind: kind, start: i, end: i + end + 1, name: s[i+colon+1 : i+end]})
			i += end + 1
		default:
			i++
		}
	}
	return out
}

// ClosingBrace returns the index of the '}' closing a "${" whose content
// starts at i, counting nested "${...}" (${A:-${B}}), or -1. Quick fixes
// that rewrite a reference use it too, so both find the same extent.
func ClosingBrace(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch {
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
			depth++
			i++
		case s[i] == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

func semClassifyDollar(inner string) (semVarRef, bool) {
	if name, ok := strings.CutPrefix(inner, "env:"); ok && name != "" {
		return semVarRef{kind: varDollarEnv, name: name}, true
	}
	if id, ok := strings.CutPrefix(inner, "input:"); ok && id != "" {
		return semVarRef{kind: varInput, name: id}, true
	}
	n := semIdentLen(inner)
	switch {
	case n > 0 && n == len(inner) && semEditorVars[inner]:
		return semVarRef{kind: varEditor, name: inner}, true
	case n > 0 && n == len(inner):
		return semVarRef{kind: varDollar, name: inner}, true
	case n > 0 && strings.HasPrefix(inner[n:], ":-"):
		return semVarRef{kind: varDollarDefault, name: inner[:n], def: inner[n+2:]}, true
	case inner == "/":
		return semVarRef{kind: varEditor, name: inner}, true
	}
	for _, p := range []string{"config:", "command:", "workspaceFolder:", "workspaceFolderBasename:"} {
		if strings.HasPrefix(inner, p) && len(inner) > len(p) {
			return semVarRef{kind: varEditor, name: inner}, true
		}
	}
	return semVarRef{}, false
}

// semIdentLen is the length of the identifier ([A-Za-z_][A-Za-z0-9_]*) at the
// start of s.
func semIdentLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || urlAlpha(s[i]) || i > 0 && urlDigit(s[i])) {
		i++
	}
	return i
}

// semBareVarName reports whether the upper-case run after a bare "$" is
// shaped like an environment variable name (HOME, GITHUB_TOKEN) rather
// than a stretch of a password or key ("$AKIA..."): words joined by "_",
// or one short word.
func semBareVarName(name string) bool {
	return len(name) <= 40 && (strings.Contains(strings.Trim(name, "_"), "_") || len(name) <= 12)
}

func semEnvStart(c byte) bool { return c == '_' || 'A' <= c && c <= 'Z' }
func semEnvChar(c byte) bool  { return semEnvStart(c) || urlDigit(c) }

// semToolForms returns the kinds a tool expands and whether it expands them
// in field ("*": every string).
func semToolForms(t *registry.Tool, field string) (kinds []semVarKind, inField bool) {
	if t == nil {
		return nil, false
	}
	for _, f := range t.Interpolation.Forms {
		if k, ok := semFormKinds[f]; ok {
			kinds = append(kinds, k)
		}
	}
	inField = slices.Contains(t.Interpolation.Fields, "*") || slices.Contains(t.Interpolation.Fields, field)
	return kinds, inField
}

// semEnvSpelling is how a tool writes a reference to environment variable
// name, "" when it has no syntax for it.
func semEnvSpelling(t *registry.Tool, name string) string {
	kinds, _ := semToolForms(t, "")
	switch {
	case slices.Contains(kinds, varDollar):
		return "${" + name + "}"
	case slices.Contains(kinds, varBraceEnv):
		return "{env:" + name + "}"
	case slices.Contains(kinds, varDollarEnv):
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
	for _, m := range e.s.Value().Members {
		if m.Key == nil {
			continue
		}
		field := m.Key.Str
		if shellScript && (field == "args" || field == "command") {
			continue
		}
		semEachString(m.Value, func(n *jsonc.Node) {
			if c.secret[n] {
				return // a literal secret: nothing in it is printed
			}
			for _, v := range semScanVars(n.Str) {
				if v.kind == varBare && field != "env" && field != "environment" && field != "headers" {
					continue // in a path or an argument, "$X" is too often meant for a shell
				}
				c.reference(e, field, n, v)
			}
		})
	}
}

// reference judges one variable reference against every reader.
func (c *semantic) reference(e *semEntry, field string, n *jsonc.Node, v semVarRef) {
	if _, ok := semKnownSecret(v.name); ok {
		return // a credential glued into a reference: literal-secret's business, never quoted
	}
	var literal, expanding []*registry.Reader
	for _, r := range e.readers {
		kinds, inField := semToolForms(c.tool(r), field)
		switch {
		case !inField:
			// Not expanded here at all: no tool's syntax is special, so
			// nothing is foreign either.
		case slices.Contains(kinds, v.kind):
			expanding = append(expanding, r)
			if v.kind == varInput && r.Dialect == "vscode" {
				c.undefinedInput(e, r, field, n, v)
			}
		default:
			literal = append(literal, r)
		}
	}
	if len(literal) == 0 {
		return
	}
	does := semVerb(len(literal), "does not expand", "do not expand")
	if !slices.ContainsFunc(literal, func(r *registry.Reader) bool { return c.tool(r).Interpolation.Confidence.Certain() }) {
		does = "may not expand"
	}
	lead := fmt.Sprintf("%s %s %s", semReaderNames(c.in, literal), does, v)
	var note string
	if len(expanding) > 0 {
		note = semReaderNames(c.in, expanding) + " " + semVerb(len(expanding), "expands", "expand") + " it"
	} else if owners := c.syntaxOwners(v.kind, literal); owners != "" {
		note = "that is the syntax of " + owners
	}
	data := semData(e.s.Name, literal, "field", field)
	if name := v.envName(); name != "" {
		data["variable"] = name
	}
	var fix string
	if repl := c.commonEnvSpelling(append(slices.Clone(literal), expanding...), v.envName()); repl != "" {
		fix = "write " + repl
		switch k := len(literal) + len(expanding); {
		case k == 2:
			fix += ", which both expand"
		case k > 2:
			fix += ", which all of them expand"
		}
		data["replacement"] = repl
	}
	reason := "it stays literal text"
	if v.kind == varDollarEnv && slices.ContainsFunc(literal, func(r *registry.Reader) bool {
		kinds, _ := semToolForms(c.tool(r), field)
		return slices.Contains(kinds, varBraceEnv)
	}) {
		// OpenCode's /\{env:([^}]+)\}/ matches inside ${env:X}: the value
		// replaces the braces and the "$" stays in front of it.
		reason = fmt.Sprintf("only its {env:%s} part is replaced, which leaves a stray \"$\"", v.name)
	}
	c.add(Diagnostic{
		Span:     c.refSpan(n, v),
		Severity: SeverityWarning,
		Code:     CodeForeignInterpolation,
		Message:  semMessage(lead, reason, note, fix),
		Data:     data,
	})
}

// syntaxOwners names the tools (other than the readers') whose syntax v's
// kind is, for "that is the syntax of OpenCode".
func (c *semantic) syntaxOwners(k semVarKind, readers []*registry.Reader) string {
	var names []string
	for _, t := range c.in.Registry.Tools() {
		if slices.ContainsFunc(readers, func(r *registry.Reader) bool { return r.Tool == t.ID }) {
			continue
		}
		if kinds, _ := semToolForms(t, ""); slices.Contains(kinds, k) {
			names = append(names, t.Name)
		}
	}
	return joinAnd(names)
}

// commonEnvSpelling is a reference to environment variable name that every
// reader expands, "" when there is none (or no variable).
func (c *semantic) commonEnvSpelling(readers []*registry.Reader, name string) string {
	if name == "" {
		return ""
	}
	for _, r := range readers {
		cand := semEnvSpelling(c.tool(r), name)
		if cand == "" {
			continue
		}
		refs := semScanVars(cand)
		ok := len(refs) == 1 && !slices.ContainsFunc(readers, func(o *registry.Reader) bool {
			kinds, _ := semToolForms(c.tool(o), "")
			return !slices.Contains(kinds, refs[0].kind)
		})
		if ok {
			return cand
		}
	}
	return ""
}

// undefinedInput reports ${input:id} whose id VS Code's "inputs" does
// not declare: VS Code cannot resolve it, so it does not start the server.
func (c *semantic) undefinedInput(e *semEntry, r *registry.Reader, field string, n *jsonc.Node, v semVarRef) {
	ids := c.inputIDs()
	if slices.Contains(ids, v.name) {
		return
	}
	fix := fmt.Sprintf(`add an input with "id": %q`, v.name)
	data := semData(e.s.Name, []*registry.Reader{r}, "field", field, "variable", v.name)
	// "github_token" for "github-token", "Token" for "token".
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	for _, id := range ids {
		if norm(id) == norm(v.name) {
			fix = fmt.Sprintf("did you mean ${input:%s}?", id)
			data["replacement"] = "${input:" + id + "}"
			break
		}
	}
	c.add(Diagnostic{
		Span:     c.refSpan(n, v),
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
	for _, el := range in.Value.Elements {
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
		if t := c.tool(r); t != nil && t.Interpolation.BeforeParse && slices.Contains(t.Interpolation.Forms, "{file:path}") {
			readers = append(readers, r)
		}
	}
	if len(readers) == 0 {
		return
	}
	semWalkStrings(c.f.Root, func(n *jsonc.Node) {
		for _, v := range semScanVars(n.Str) {
			if v.kind != varBraceFile {
				continue
			}
			path, ok := c.resolveFileRef(v.name)
			if !ok || c.in.Resolver.FileExists(path) {
				continue
			}
			c.add(Diagnostic{
				Span:     c.refSpan(n, v),
				Severity: SeverityError,
				Code:     CodeMissingFileReference,
				Message: fmt.Sprintf("%s %s the whole configuration: %s names a file that does not exist (\"bad file reference\")",
					semReaderNames(c.in, readers), semVerb(len(readers), "refuses", "refuse"), v),
				Data: semData("", readers, "path", v.name),
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
		for _, el := range n.Elements {
			semEachString(el, fn)
		}
	case jsonc.Object:
		for _, m := range n.Members {
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
			stack = append(stack, n.Elements...)
		case jsonc.Object:
			for _, m := range n.Members {
				stack = append(stack, m.Key, m.Value)
			}
		}
	}
}

// refSpan is the source span of reference v inside string node n.
func (c *semantic) refSpan(n *jsonc.Node, v semVarRef) span.Span {
	return semStringSpan(c.in.Content, n, v.start, v.end)
}

// semStringSpan maps the decoded byte range [start, end) of string node n to
// the source bytes that produce it, through JSON escapes: in "\u0024{A}"
// the reference ${A} covers all eleven source bytes. The decoding mirrors
// the parser's (package jsonc: escapes as encoding/json, invalid escapes
// kept verbatim, invalid UTF-8 as U+FFFD per byte). When the source does
// not decode to n.Str (it should always), the whole string is returned.
func semStringSpan(src []byte, n *jsonc.Node, start, end int) span.Span {
	starts, ends, ok := semDecodeOffsets(src, n)
	if !ok || start < 0 || end > len(starts) || start >= end {
		return n.Span
	}
	return span.New(starts[start], ends[end-1])
}

// semDecodeOffsets returns, for each decoded byte of string node n, the
// source range of the sequence that produced it.
func semDecodeOffsets(src []byte, n *jsonc.Node) (starts, ends []int, ok bool) {
	if n.Span.End > len(src) || n.Span.Len() == 0 {
		return nil, nil, false
	}
	i, stop := n.Span.Start, n.Span.End
	quote := src[i]
	if quote != '"' && quote != '\'' {
		// An unquoted key: its text is its value.
		if string(src[i:stop]) != n.Str {
			return nil, nil, false
		}
		for j := i; j < stop; j++ {
			starts, ends = append(starts, j), append(ends, j+1)
		}
		return starts, ends, true
	}
	i++
	if n.Closed {
		stop--
	}
	emit := func(from, to, count int) {
		for range count {
			starts, ends = append(starts, from), append(ends, to)
		}
	}
	for i < stop {
		c := src[i]
		switch {
		case c == '\\':
			j, count := semEscapeLen(src, i, stop, quote)
			emit(i, j, count)
			i = j
		case c < utf8.RuneSelf:
			emit(i, i+1, 1)
			i++
		default:
			r, size := utf8.DecodeRune(src[i:stop])
			if r == utf8.RuneError && size == 1 {
				emit(i, i+1, utf8.RuneLen(utf8.RuneError))
			} else {
				emit(i, i+size, size)
			}
			i += size
		}
	}
	return starts, ends, len(starts) == len(n.Str)
}

// semEscapeLen returns the end of the escape sequence at src[i] == '\\' and
// how many decoded bytes it produces, as the jsonc lexer decodes it.
func semEscapeLen(src []byte, i, stop int, quote byte) (end, count int) {
	if i+1 >= stop || src[i+1] == '\n' || src[i+1] == '\r' {
		return i + 1, 1
	}
	switch c := src[i+1]; c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, 1
	case '\'':
		if quote == '\'' {
			return i + 2, 1
		}
	case 'u':
		r, n := semHex4(src[i+2 : stop])
		if n < 4 {
			return i + 2 + n, 2 + n // kept verbatim
		}
		j := i + 6
		if !utf16.IsSurrogate(r) {
			return j, utf8.RuneLen(r)
		}
		if j+1 < stop && src[j] == '\\' && src[j+1] == 'u' {
			if r2, n := semHex4(src[j+2 : stop]); n == 4 {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return j + 6, utf8.RuneLen(dec)
				}
			}
		}
		return j, utf8.RuneLen(utf8.RuneError)
	}
	// An invalid escape is kept verbatim: the backslash and the rune.
	r, size := utf8.DecodeRune(src[i+1 : stop])
	return i + 1 + size, 1 + utf8.RuneLen(r)
}

// semHex4 decodes up to four hex digits at the start of b.
func semHex4(b []byte) (rune, int) {
	var r rune
	for n := range 4 {
		if n == len(b) || !urlHex(b[n]) {
			return r, n
		}
		c := b[n]
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}

// EnvReferences returns the environment variables s reads in the given
// interpolation forms (the registry's spellings of one tool's forms), in
// order and without repeats; required is false for a reference with a
// default (${VAR:-x}), which does not depend on the variable. It is the
// one scanner of interpolation: rules, hover and the effective view agree
// on what a reference is.
func EnvReferences(s string, forms []string) (names []string, required []bool) {
	kinds := map[semVarKind]bool{}
	for _, f := range forms {
		if k, ok := semFormKinds[f]; ok {
			kinds[k] = true
		}
	}
	// A tool that writes ${VAR} also takes ${VAR:-default}, and vice versa.
	if kinds[varDollar] || kinds[varDollarDefault] {
		kinds[varDollar], kinds[varDollarDefault] = true, true
	}
	seen := map[string]int{}
	for _, v := range semScanVars(s) {
		if !kinds[v.kind] {
			continue
		}
		name := v.envName()
		if name == "" {
			continue
		}
		req := v.kind != varDollarDefault
		if i, ok := seen[name]; ok {
			required[i] = required[i] || req
			continue
		}
		seen[name] = len(names)
		names = append(names, name)
		required = append(required, req)
	}
	return names, required
}
