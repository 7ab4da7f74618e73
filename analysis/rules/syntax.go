package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"

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

// syntaxRules are the rules of this file: what keeps a tool from reading
// the file at all (syntax errors, JSONC extensions where a reader wants
// strict JSON, a byte order mark a reader rejects, an empty file, a top
// level that is not an object), and duplicate keys.
var syntaxRules = []Rule{
	{CodeSyntaxError, SeverityError, "The file is not valid JSON(C); the tools cannot parse it.", fileCheck(syntaxErrors)},
	{CodeCommentInJSON, SeverityError, "A comment in a file that a tool reads as strict JSON.", fileCheck(commentsInStrictJSON)},
	{CodeTrailingCommaJSON, SeverityError, "A trailing comma in a file that a tool reads as strict JSON, or as JSON with comments but without trailing commas (Gemini CLI stops with exit code 52).", fileCheck(trailingCommas)},
	{CodeBOMNotAllowed, SeverityError, "A byte-order mark in a file that a tool parses without stripping it.", fileCheck(bomNotAllowed)},
	{CodeEmptyFile, SeverityError, "The file holds no JSON value.", fileCheck(emptyFile)},
	{CodeTopLevelNotObject, SeverityError, "The top level of the file is not an object.", fileCheck(topLevelNotObject)},
	{CodeDuplicateKey, SeverityWarning, "A key repeated in one object: JSON readers keep only the last; for a repeated server name each reader's registry effect applies (an error where a tool refuses the file).", fileCheck(duplicateKeys)},
}

// syntaxErrors reports each parse error, with what the readers do with a
// file they cannot parse.
func syntaxErrors(in FileInput) []Diagnostic {
	var ds []Diagnostic
	for _, e := range in.Parsed.Errors {
		ds = append(ds, Diagnostic{
			Span:     e.Span,
			Severity: SeverityError,
			Code:     CodeSyntaxError,
			Message:  e.Message + syntaxEffect(in, readersAll(in.Kind)),
			Data:     syntaxErrorData(e.Code),
		})
	}
	return ds
}

// strictReaders are the readers that want strict JSON (no comments).
func strictReaders(in FileInput) []*registry.Reader {
	return readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.AcceptsComments() })
}

// commentsInStrictJSON reports each comment where a reader wants strict JSON.
func commentsInStrictJSON(in FileInput) []Diagnostic {
	strict := strictReaders(in)
	if len(strict) == 0 {
		return nil
	}
	var ds []Diagnostic
	for _, c := range in.Parsed.Comments {
		ds = append(ds, Diagnostic{
			Span:     c,
			Severity: SeverityError,
			Code:     CodeCommentInJSON,
			Message:  "comments are not allowed in strict JSON; " + strictEffect(in, strict),
			// The comment's text would be lost: not safe.
			Data: map[string]any{FixKey: Fix{Kind: FixRemoveText}},
		})
	}
	return ds
}

// trailingCommas reports each trailing comma where a reader rejects it
// (Gemini CLI reads comments but stops at a trailing comma).
func trailingCommas(in FileInput) []Diagnostic {
	noCommas := readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.AcceptsTrailingCommas() })
	if len(noCommas) == 0 {
		return nil
	}
	where := "in strict JSON"
	if len(strictReaders(in)) == 0 {
		where = "here (comments are, trailing commas are not)"
	}
	var ds []Diagnostic
	for _, c := range in.Parsed.TrailingCommas {
		ds = append(ds, Diagnostic{
			Span:     c,
			Severity: SeverityError,
			Code:     CodeTrailingCommaJSON,
			Message:  "trailing commas are not allowed " + where + "; " + strictEffect(in, noCommas),
			Data:     map[string]any{FixKey: Fix{Kind: FixRemoveText, Safe: true}},
		})
	}
	return ds
}

// bomNotAllowed reports a byte order mark some reader does not strip.
func bomNotAllowed(in FileInput) []Diagnostic {
	if !in.Parsed.BOM {
		return nil
	}
	rejecting := readersWhere(in.Kind, func(r *registry.Reader) bool { return !r.BOM.Value })
	if len(rejecting) == 0 {
		return nil
	}
	return []Diagnostic{{
		Span:     span.New(0, 3),
		Severity: SeverityError,
		Code:     CodeBOMNotAllowed,
		Message: fmt.Sprintf("the file starts with a byte order mark (U+FEFF): %s; save it as UTF-8 without BOM",
			effectList(in, rejecting, "")),
	}}
}

// topLevelNotObject reports a top-level value that is not an object.
func topLevelNotObject(in FileInput) []Diagnostic {
	f := in.Parsed
	if f.Root == nil || f.Root.Kind == jsonc.Object || f.Root.Kind == jsonc.Invalid {
		return nil
	}
	return []Diagnostic{{
		Span:     f.Root.Span,
		Severity: SeverityError,
		Code:     CodeTopLevelNotObject,
		Message:  fmt.Sprintf("the top level must be an object, not %s%s", verdict.DescribeKind(f.Root.Kind), syntaxEffect(in, readersAll(in.Kind))),
	}}
}

// emptyFile reports a file that holds no value (and no syntax error,
// which would say more).
func emptyFile(in FileInput) []Diagnostic {
	if in.Parsed.Root != nil || len(in.Parsed.Errors) > 0 {
		return nil
	}
	end := len(in.Content)
	start := 0
	if in.Parsed.BOM {
		start = 3
	}
	return []Diagnostic{{
		Span:     span.New(start, end),
		Severity: SeverityError,
		Code:     CodeEmptyFile,
		Message:  "the file is empty (it must hold a JSON object)" + syntaxEffect(in, readersAll(in.Kind)),
	}}
}

// duplicateKeys flags every member whose key appears again later in the
// same object; the related information points at the one that counts.
// What a reader does with it is the registry's: of a repeated server name,
// its duplicateName effect (verdict.DuplicateName); of any other key, its
// JSON parser's, which keeps the last (JSON.parse in Claude Code and
// Copilot CLI, jsonc-parser in OpenCode and VS Code). A TOML reader never
// gets here: TOML forbids a key defined twice, and the parser reports it
// as a syntax error. The walk is iterative: nesting depth is bounded by
// the parser, but a wide tree must not cost a deep recursion either.
func duplicateKeys(in FileInput) []Diagnostic {
	if in.Parsed.Root == nil {
		return nil
	}
	if repeat, known := in.Parsed.KeysRepeat(); known && !repeat {
		return nil // the parser compared every object's keys
	}
	var ds []Diagnostic
	var mapReaders map[*jsonc.Node][]*registry.Reader // built at the first duplicate
	stack := []*jsonc.Node{in.Parsed.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case jsonc.Object:
			last := in.index.lastByKey(n)
			for _, m := range n.Members() {
				if m.Key != nil && last != nil && last[m.Key.Str] != m {
					if mapReaders == nil {
						mapReaders = serverMapReaders(in)
					}
					ds = append(ds, duplicateKey(in, m, last[m.Key.Str], mapReaders[n]))
				}
				if m.Value != nil {
					stack = append(stack, m.Value)
				}
			}
		case jsonc.Array:
			stack = append(stack, n.Elements()...)
		}
	}
	return ds
}

// serverMapReaders maps each server map object of the file to its readers.
func serverMapReaders(in FileInput) map[*jsonc.Node][]*registry.Reader {
	out := map[*jsonc.Node][]*registry.Reader{}
	for _, r := range readersAll(in.Kind) {
		for _, sm := range FindServerMaps(in.Parsed, r) {
			if !slices.Contains(out[sm.Node], r) {
				out[sm.Node] = append(out[sm.Node], r)
			}
		}
	}
	return out
}

// duplicateKey is the finding on m, a member whose key the member winner
// repeats later. readers are the readers of the server map m is in (none:
// m is not a server): what each does with a repeated name is its
// registry effect, said per reader unless every one keeps the last.
func duplicateKey(in FileInput, m, winner *jsonc.Member, readers []*registry.Reader) Diagnostic {
	key := m.Key.Str
	d := Diagnostic{
		Span:     m.Key.Span,
		Severity: SeverityWarning,
		Code:     CodeDuplicateKey,
		Message:  fmt.Sprintf("duplicate key %q: this one is ignored, the last one counts (JSON parsers keep the last)", key),
		Related:  []Related{{Span: winner.Key.Span, Message: fmt.Sprintf("the definition of %q that is used", key)}},
		Tags:     []Tag{TagUnnecessary},
		// The ignored value may be the one the user meant: not safe.
		Data: map[string]any{"key": key, FixKey: Fix{Kind: FixRemoveMember, Key: key}},
	}
	var keepLast []*registry.Reader
	byOutcome := map[verdict.Outcome][]*registry.Reader{}
	for _, r := range readers {
		if o, lastWins := verdict.DuplicateName(r); lastWins {
			keepLast = append(keepLast, r)
		} else {
			byOutcome[o] = append(byOutcome[o], r)
		}
	}
	if len(byOutcome) == 0 {
		return d // every reader keeps the last, as the JSON parsers do
	}
	var clauses []string
	if rs := byOutcome[verdict.RefusesFile]; len(rs) > 0 {
		clauses = append(clauses, readerNames(in, rs)+" "+plural(len(rs), "refuses", "refuse")+" the whole configuration")
		d.Severity = SeverityError
	}
	if rs := byOutcome[verdict.SkipsEntry]; len(rs) > 0 {
		clauses = append(clauses, readerNames(in, rs)+" "+plural(len(rs), "skips", "skip")+" the server")
		d.Severity = SeverityError
	}
	if len(keepLast) > 0 {
		clauses = append(clauses, readerNames(in, keepLast)+" "+plural(len(keepLast), "keeps", "keep")+" the last one")
	}
	var unknown []*registry.Reader
	for o, rs := range byOutcome {
		if o != verdict.RefusesFile && o != verdict.SkipsEntry {
			unknown = append(unknown, rs...)
		}
	}
	if len(unknown) > 0 {
		slices.SortStableFunc(unknown, func(a, b *registry.Reader) int { return slices.Index(readers, a) - slices.Index(readers, b) })
		clauses = append(clauses, "which one "+readerNames(in, unknown)+" "+plural(len(unknown), "uses", "use")+" is not known")
	}
	d.Message = fmt.Sprintf("server %q is defined twice: %s", key, strings.Join(clauses, "; "))
	d.Data["readers"] = readerIDs(slices.Concat(byOutcome[verdict.RefusesFile], byOutcome[verdict.SkipsEntry], unknown))
	if d.Severity == SeverityError {
		d.Tags = nil // this copy is not merely unnecessary: the file fails
	}
	return d
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
		parts[i] = JoinAnd(g.tools) + " " + verb
	}
	return JoinAnd(parts)
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

// JoinAnd joins words the way every message does: "Claude Code, Codex CLI
// and OpenCode".
func JoinAnd(items []string) string {
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
