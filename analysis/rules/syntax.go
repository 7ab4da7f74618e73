package rules

import (
	"fmt"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Rule codes of the syntax checks. Codes are stable: users configure rules
// by them, docs/rules.md documents them and quick fixes dispatch on them.
const (
	CodeSyntaxError       = "syntax-error"
	CodeDuplicateKey      = "duplicate-key"
	CodeCommentInJSON     = "comment-in-strict-json"
	CodeTrailingCommaJSON = "trailing-comma-in-strict-json"
	CodeEmptyFile         = "empty-file"
	CodeTopLevelNotObject = "top-level-not-object"
	CodeBOMNotAllowed     = "bom-not-allowed"
)

// checkSyntax reports what keeps a tool from reading the file at all:
// syntax errors, JSONC extensions where a reader wants strict JSON, a byte
// order mark a reader rejects, an empty file, a top level that is not an
// object; and duplicate keys, of which every reader silently keeps the
// last.
func checkSyntax(in FileInput) []Diagnostic {
	f := in.Parsed
	var ds []Diagnostic
	for _, e := range f.Errors {
		ds = append(ds, Diagnostic{
			Span:     e.Span,
			Severity: SeverityError,
			Code:     CodeSyntaxError,
			Message:  e.Message + syntaxEffect(in, readersAll(in.Kind)),
			Data:     syntaxErrorData(e.Code),
		})
	}

	strict := readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.AcceptsComments() })
	if len(strict) > 0 {
		for _, c := range f.Comments {
			ds = append(ds, Diagnostic{
				Span:     c,
				Severity: SeverityError,
				Code:     CodeCommentInJSON,
				Message:  "comments are not allowed in strict JSON; " + strictEffect(in, strict),
				// The comment's text would be lost: not safe.
				Data: map[string]any{FixKey: Fix{Kind: FixRemoveText}},
			})
		}
	}
	// Gemini CLI reads comments but stops at a trailing comma.
	if noCommas := readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.AcceptsTrailingCommas() }); len(noCommas) > 0 {
		where := "in strict JSON"
		if len(strict) == 0 {
			where = "here (comments are, trailing commas are not)"
		}
		for _, c := range f.TrailingCommas {
			ds = append(ds, Diagnostic{
				Span:     c,
				Severity: SeverityError,
				Code:     CodeTrailingCommaJSON,
				Message:  "trailing commas are not allowed " + where + "; " + strictEffect(in, noCommas),
				Data:     map[string]any{FixKey: Fix{Kind: FixRemoveText, Safe: true}},
			})
		}
	}

	if f.BOM {
		if rejecting := readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.BOM.Value }); len(rejecting) > 0 {
			ds = append(ds, Diagnostic{
				Span:     span.New(0, 3),
				Severity: SeverityError,
				Code:     CodeBOMNotAllowed,
				Message: fmt.Sprintf("the file starts with a byte order mark (U+FEFF): %s; save it as UTF-8 without BOM",
					effectList(in, rejecting, "")),
			})
		}
	}

	switch {
	case f.Root == nil && len(f.Errors) == 0:
		ds = append(ds, emptyFile(in))
	case f.Root != nil && f.Root.Kind != jsonc.Object && f.Root.Kind != jsonc.Invalid:
		ds = append(ds, Diagnostic{
			Span:     f.Root.Span,
			Severity: SeverityError,
			Code:     CodeTopLevelNotObject,
			Message:  fmt.Sprintf("the top level must be an object, not %s%s", verdict.DescribeKind(f.Root.Kind), syntaxEffect(in, readersAll(in.Kind))),
		})
	}

	if f.Root != nil {
		ds = append(ds, duplicateKeys(in.index, f.Root)...)
	}
	return ds
}

func emptyFile(in FileInput) Diagnostic {
	end := len(in.Content)
	start := 0
	if in.Parsed.BOM {
		start = 3
	}
	return Diagnostic{
		Span:     span.New(start, end),
		Severity: SeverityError,
		Code:     CodeEmptyFile,
		Message:  "the file is empty (it must hold a JSON object)" + syntaxEffect(in, readersAll(in.Kind)),
	}
}

// duplicateKeys flags every member whose key appears again later in the
// same object. JSON.parse (Node: Claude Code, Copilot CLI) and jsonc-parser
// (OpenCode, VS Code) keep the last one, so the earlier ones are ignored
// without a word; the related information points at the one that counts.
// The walk is iterative: nesting depth is bounded by the parser, but a
// wide tree must not cost a deep recursion either.
func duplicateKeys(keys *parseIndex, root *jsonc.Node) []Diagnostic {
	var ds []Diagnostic
	stack := []*jsonc.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case jsonc.Object:
			last := keys.lastByKey(n)
			for _, m := range n.Members {
				if m.Key != nil && last != nil && last[m.Key.Str] != m {
					winner := last[m.Key.Str]
					ds = append(ds, Diagnostic{
						Span:     m.Key.Span,
						Severity: SeverityWarning,
						Code:     CodeDuplicateKey,
						Message:  fmt.Sprintf("duplicate key %q: this one is ignored, the last one counts (JSON parsers keep the last)", m.Key.Str),
						Related:  []Related{{Span: winner.Key.Span, Message: fmt.Sprintf("the definition of %q that is used", m.Key.Str)}},
						Tags:     []Tag{TagUnnecessary},
						// The ignored value may be the one the user meant: not safe.
						Data: map[string]any{"key": m.Key.Str, FixKey: Fix{Kind: FixRemoveMember, Key: m.Key.Str}},
					})
				}
				if m.Value != nil {
					stack = append(stack, m.Value)
				}
			}
		case jsonc.Array:
			stack = append(stack, n.Elements...)
		}
	}
	return ds
}

func readersAll(k *registry.FileKind) []*registry.Reader {
	return readersWhere(k, func(*registry.Reader) bool { return true })
}

func readersWhere(k *registry.FileKind, keep func(*registry.Reader) bool) []*registry.Reader {
	if k == nil {
		return nil
	}
	var out []*registry.Reader
	for i := range k.Readers {
		if keep(&k.Readers[i]) {
			out = append(out, &k.Readers[i])
		}
	}
	return out
}

// syntaxEffect is the tail of a syntax message that says what the tools
// do with the broken file, e.g. ": Claude Code drops the whole file".
func syntaxEffect(in FileInput, readers []*registry.Reader) string {
	if len(readers) == 0 {
		return ""
	}
	return "; " + effectList(in, readers, "")
}

// strictEffect says what JSONC costs in this file, e.g. "Claude Code and
// Copilot CLI drop the whole file".
func strictEffect(in FileInput, strict []*registry.Reader) string {
	return effectList(in, strict, "")
}

// effectList says per reader what a parse failure does, grouping readers
// with the same effect: "Claude Code and Copilot CLI drop the whole file".
// prefix goes before the verb ("cannot parse it and").
func effectList(in FileInput, readers []*registry.Reader, prefix string) string {
	type group struct {
		effect registry.SyntaxEffect
		tools  []string
	}
	var groups []*group
	for _, r := range readers {
		var g *group
		for _, x := range groups {
			if x.effect == r.SyntaxError.Effect {
				g = x
			}
		}
		if g == nil {
			g = &group{effect: r.SyntaxError.Effect}
			groups = append(groups, g)
		}
		g.tools = append(g.tools, toolName(in, r.Tool))
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		verb := effectPhrase(g.effect, len(g.tools) > 1)
		if prefix != "" {
			verb = prefix + " " + verb
		}
		parts[i] = joinAnd(g.tools) + " " + verb
	}
	return joinAnd(parts)
}

// effectPhrase is the verb phrase for an effect, in the plural when
// several tools share it.
func effectPhrase(e registry.SyntaxEffect, many bool) string {
	one, more := "may not read the file", "may not read the file"
	switch e {
	case registry.DropsFile:
		one, more = "drops the whole file", "drop the whole file"
	case registry.RefusesConfig:
		one, more = "refuses the whole configuration", "refuse the whole configuration"
	case registry.StopsTool:
		one, more = "stops at start-up and starts no server", "stop at start-up and start no server"
	case registry.OverwritesFile:
		one, more = "may overwrite the file and lose its servers", "may overwrite the file and lose its servers"
	case registry.Partial:
		one, more = "ignores what it cannot parse", "ignore what they cannot parse"
	}
	if many {
		return more
	}
	return one
}

func toolName(in FileInput, id registry.ToolID) string {
	if t, ok := in.Registry.Tool(id); ok {
		return t.Name
	}
	return string(id)
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// syntaxErrorData is a syntax error's Data: the parser's code, and the fix
// of the one error whose repair is certain enough to offer, a missing
// comma (the fixer checks that the comma mends the file).
func syntaxErrorData(code string) map[string]any {
	d := map[string]any{"syntax": code}
	if code == jsonc.CodeMissingComma {
		d[FixKey] = Fix{Kind: FixInsertText, Value: ","}
	}
	return d
}
