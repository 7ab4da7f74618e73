package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/quote"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
)

// Reconciliation turns the readers' verdicts on one entry into one
// diagnostic per problem spot, saying what each tool does:
//
//   - A problem some readers report is an error: what each of them does
//     with the invalid entry is the registry's fact (Reader.Effects,
//     applied by verdict.InvalidEntry: Claude Code and Copilot CLI skip
//     it, OpenCode refuses the whole configuration, the others "may not
//     load" it); the readers that read the same field without complaint
//     are named as accepting it.
//   - An unknown key is a warning only when no reader uses it: every tool
//     drops unknown keys silently (verified for Claude Code 2.1, Copilot
//     CLI 1.0, OpenCode 1.18). A key one reader uses and another ignores
//     (tools in .mcp.json) is an information note.
//   - A reader that skips the entry whole (an unknown type) gives no
//     verdict on its fields: it neither accepts nor rejects them.
//   - A reader that ignores a key (or rejects its value) gives no verdict
//     on what is inside it.

// schemaGroup is one problem spot on one subject, with the readers
// reporting it.
type schemaGroup struct {
	code      string
	span      span.Span
	onName    bool
	loc       string
	reporters []*schemaVerdict
	problems  []verdict.Problem // parallel to reporters
}

// reconcile returns the diagnostics for one subject.
func (c *schemaCheck) reconcile(sub *schemaSubject) []Diagnostic {
	var groups []*schemaGroup
	find := func(p verdict.Problem) *schemaGroup {
		for _, g := range groups {
			if g.code == p.Code && g.loc == p.Loc && g.onName == p.OnName && (p.OnName || g.span == p.Span) {
				return g
			}
		}
		g := &schemaGroup{code: p.Code, span: p.Span, onName: p.OnName, loc: p.Loc}
		groups = append(groups, g)
		return g
	}
	for _, v := range sub.verdicts {
		for _, p := range v.problems {
			if o, ok := verdict.MissingField(v.reader); ok && o == verdict.Loads && p.Code == CodeMissingField {
				// Completed by another layer before the tool validates
				// (a Codex CLI project file): judged as merged, by the
				// cross-file check.
				continue
			}
			g := find(p)
			g.reporters = append(g.reporters, v)
			g.problems = append(g.problems, p)
		}
	}
	var ds []Diagnostic
	var missing []*schemaGroup
	for _, g := range groups {
		switch g.code {
		case CodeMissingField:
			missing = append(missing, g)
		case CodeUnknownKey:
			ds = append(ds, c.unknownKey(sub, g))
		case CodeUnknownServerType:
			if !c.unknownTypeReported(sub, g) {
				ds = append(ds, c.unknownType(sub, g))
			}
		default:
			ds = append(ds, c.rejected(sub, g))
		}
	}
	return append(ds, c.missingFields(sub, missing)...)
}

// rejected reports a value some readers reject (a wrong type, an empty
// command, a definition that is not an object).
func (c *schemaCheck) rejected(sub *schemaSubject, g *schemaGroup) Diagnostic {
	msg := c.verdicts(sub, g)
	if acc := c.knowing(sub, g); len(acc) > 0 {
		msg += " (" + c.tools(acc) + " " + plural(len(acc), "accepts", "accept") + " it)"
	}
	return Diagnostic{
		Span:     g.span,
		Severity: schemaSeverity(g),
		Code:     g.code,
		Message:  msg,
		Data:     c.withLoadedBy(g, c.data(sub, g.reporters, g.problems[0].Data)),
	}
}

// unknownType reports a server type some readers do not know, with the
// type that works for every reader when there is one.
func (c *schemaCheck) unknownType(sub *schemaSubject, g *schemaGroup) Diagnostic {
	msg := c.verdicts(sub, g)
	p := g.problems[0]
	valid, _ := p.Data["validValues"].([]string)
	acc := c.knowing(sub, g)
	var notes []string
	if len(acc) > 0 {
		notes = append(notes, c.tools(acc)+" "+plural(len(acc), "accepts", "accept")+" it")
	}
	if len(sub.verdicts) > 1 {
		valid = c.commonTypes(sub)
	}
	typ := sub.value.Get("type")
	suggestion := ""
	if typ != nil && typ.Value.Kind == jsonc.String {
		suggestion = verdict.SuggestValue(typ.Value.Str, valid)
	}
	multi := len(sub.verdicts) > 1
	switch {
	case suggestion != "" && multi:
		notes = append(notes, fmt.Sprintf("%q works in %s", suggestion, schemaBoth(len(sub.verdicts))))
	case suggestion != "":
		notes = append(notes, fmt.Sprintf("use %q; valid: %s", suggestion, quoteList(valid)))
	case len(valid) > 0 && multi:
		notes = append(notes, fmt.Sprintf("types that work in %s: %s", schemaBoth(len(sub.verdicts)), quoteList(valid)))
	case len(valid) > 0:
		notes = append(notes, "valid: "+quoteList(valid))
	}
	if len(notes) > 0 {
		msg += " (" + strings.Join(notes, "; ") + ")"
	}
	extra := map[string]any{"field": "type", "validValues": valid}
	if suggestion != "" {
		// A guess from the spelling: not safe.
		extra[FixKey] = Fix{Kind: FixReplaceValue, Key: "type", Value: suggestion}
	}
	return Diagnostic{Span: g.span, Severity: schemaSeverity(g), Code: g.code, Message: msg, Data: c.withLoadedBy(g, c.data(sub, g.reporters, extra))}
}

// unknownTypeReported says whether type-not-accepted reports on g's span
// of a server subject beside this check (typeRule): a generic finding on
// a specific one's span is dropped (dropGenericDuplicates, blockOrder),
// so g's is not built. The rule's own decision (typeNotAcceptedOn) on the
// verdicts it reads, the same as the subject's.
func (c *schemaCheck) unknownTypeReported(sub *schemaSubject, g *schemaGroup) bool {
	if !c.typeRule || sub.member == nil || g.onName || len(sub.verdicts) != len(sub.readers) {
		return false
	}
	m := typeNotAcceptedOn(sub.value, sub.readers, func(i int) string { return sub.verdicts[i].def })
	return m != nil && m.Value.Span == g.span
}

// commonTypes are the types every reader of the subject knows, in the
// first reader's order. They depend on the readers' dialects alone, and
// the servers of a map share their readers: the last answer is kept
// (schemaCheck.common) and shared, read-only, by the findings' Data.
func (c *schemaCheck) commonTypes(sub *schemaSubject) []string {
	if len(c.common.dialects) == len(sub.verdicts) && len(sub.verdicts) > 0 {
		same := true
		for i, v := range sub.verdicts {
			same = same && c.common.dialects[i] == v.reader.Dialect
		}
		if same {
			return c.common.types
		}
	}
	common := commonTypesOf(sub)
	c.common.dialects = c.common.dialects[:0]
	for _, v := range sub.verdicts {
		c.common.dialects = append(c.common.dialects, v.reader.Dialect)
	}
	c.common.types = common
	return common
}

// commonTypesOf is commonTypes, computed.
func commonTypesOf(sub *schemaSubject) []string {
	var common []string
	for i, v := range sub.verdicts {
		types := verdict.TypeValues(string(v.reader.Dialect))
		if i == 0 {
			common = slices.Clone(types)
			continue
		}
		common = slices.DeleteFunc(common, func(t string) bool { return !slices.Contains(types, t) })
	}
	return common
}

// unknownKey reports a key some readers do not know: a warning when no
// reader uses it, a note naming who does otherwise.
func (c *schemaCheck) unknownKey(sub *schemaSubject, g *schemaGroup) Diagnostic {
	p := g.problems[0]
	key, _ := p.Data["key"].(string)
	where := c.label(sub)
	if parent := schemaParentField(p.Field); parent != "" {
		where = fmt.Sprintf("%q of %s", parent, where)
	}
	users := c.knowing(sub, g)
	if len(users) > 0 {
		msg := fmt.Sprintf("%s %s %q in %s", c.tools(g.reporters), plural(len(g.reporters), "ignores", "ignore"), key, where)
		if v := g.reporters[0]; len(g.reporters) == 1 && p.Loc == "/"+verdict.EscapeToken(key) {
			if shape := verdict.ShapeWithKey(string(v.reader.Dialect), v.def, key); shape != "" {
				msg += fmt.Sprintf(", which it reads as %s", schemaShapeNoun(v.def))
			}
		}
		msg += fmt.Sprintf(" (%s %s it)", c.tools(users), plural(len(users), "uses", "use"))
		return Diagnostic{
			Span: g.span, Severity: SeverityInformation, Code: CodeKeyIgnoredByTool, Message: msg,
			Data: c.data(sub, g.reporters, map[string]any{"key": key, "field": p.Field, "usedBy": c.toolIDs(users)}),
		}
	}
	msg := fmt.Sprintf("unknown key %q in %s: %s %s it", key, where, c.tools(g.reporters), plural(len(g.reporters), "ignores", "ignore"))
	extra := map[string]any{"key": key, "field": p.Field}
	if s := c.suggestKeyFor(sub, g, key); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
		// A guess from the spelling: not safe.
		extra[FixKey] = Fix{Kind: FixRenameKey, Key: key, Value: s}
	} else if note := c.otherShapes(g, key); note != "" {
		msg += " (" + note + ")"
	}
	return Diagnostic{Span: g.span, Severity: SeverityWarning, Code: CodeUnknownKey, Message: msg, Data: c.data(sub, g.reporters, extra)}
}

// otherShapes explains an entry-level key that a reader knows, but only
// for another kind of server: "GitHub Copilot CLI reads it only in a local
// server".
func (c *schemaCheck) otherShapes(g *schemaGroup, key string) string {
	if g.loc != "/"+verdict.EscapeToken(key) {
		return ""
	}
	var notes []string
	for _, v := range g.reporters {
		if shape := verdict.ShapeWithKey(string(v.reader.Dialect), v.def, key); shape != "" {
			note := fmt.Sprintf("%s reads it only in %s", toolName(c.in, v.reader.Tool), schemaShapeNoun(shape))
			if len(g.reporters) == 1 {
				note = "it is read only in " + schemaShapeNoun(shape)
			}
			notes = append(notes, note)
		}
	}
	return strings.Join(notes, "; ")
}

// suggestKeyFor proposes a key that some reader knows in place of key: a
// known synonym, else the nearest by edit distance. A key already in the
// object is never proposed.
func (c *schemaCheck) suggestKeyFor(sub *schemaSubject, g *schemaGroup, key string) string {
	var cands []string
	for _, p := range g.problems {
		cands = append(cands, p.Known...)
	}
	entryLevel := g.loc == "/"+verdict.EscapeToken(key)
	if entryLevel && sub.noun == "server" {
		for _, v := range sub.verdicts {
			cands = append(cands, verdict.ServerKeys(string(v.reader.Dialect))...)
		}
	}
	obj := sub.value
	if !entryLevel {
		obj = sub.value.Find(g.loc[:strings.LastIndexByte(g.loc, '/')])
	}
	cands = slices.DeleteFunc(cands, func(k string) bool { return obj != nil && obj.Get(k) != nil })
	return verdict.SuggestKey(key, cands)
}

// missingFields reports the fields missing from a subject: one diagnostic
// per spot and set of reporting readers, naming every missing field.
func (c *schemaCheck) missingFields(sub *schemaSubject, groups []*schemaGroup) []Diagnostic {
	type bucket struct {
		at        *schemaGroup
		reporters []*schemaVerdict
		groups    []*schemaGroup
	}
	var buckets []*bucket
	for _, g := range groups {
		var b *bucket
		for _, x := range buckets {
			if x.at.onName == g.onName && x.at.span == g.span && slices.Equal(x.reporters, g.reporters) {
				b = x
			}
		}
		if b == nil {
			b = &bucket{at: g, reporters: g.reporters}
			buckets = append(buckets, b)
		}
		b.groups = append(b.groups, g)
	}
	var ds []Diagnostic
	for _, b := range buckets {
		var fields, details []string
		plain, dependent := true, false
		var extra map[string]any
		for _, g := range b.groups {
			p := g.problems[0]
			fields = append(fields, p.Field)
			details = append(details, p.Detail)
			plain = plain && p.Detail == fmt.Sprintf("%q is missing", p.Field)
			dependent = dependent || p.Needs != ""
			if extra == nil {
				extra = p.Data
			}
		}
		detail := strings.Join(details, "; ")
		if plain && len(fields) > 1 {
			detail = quoteAnd(fields) + " are missing"
		}
		at := b.at
		// What each reader does with an entry missing a field: its
		// missingField effect where the registry gives one (Roo Code
		// skips a url without type alone), else its invalid-entry effect.
		var outcomes []verdict.Outcome
		if slices.ContainsFunc(b.reporters, func(v *schemaVerdict) bool { _, ok := verdict.MissingField(v.reader); return ok }) {
			for _, v := range b.reporters {
				o := verdict.InvalidEntry(v.reader)
				if mo, ok := verdict.MissingField(v.reader); ok {
					o = mo
				}
				outcomes = append(outcomes, o)
			}
		}
		msg := c.verdictPhrase(sub, b.reporters, outcomes) + ": " + detail
		// A reader that does not report a field needed only with another
		// one may just not know that other one: it accepts nothing.
		if acc := c.knowing(sub, &schemaGroup{loc: at.loc, reporters: b.reporters}); len(acc) > 0 && !dependent {
			msg += " (" + c.tools(acc) + " " + plural(len(acc), "accepts", "accept") + " it)"
		}
		sp := at.span
		if at.onName {
			sp = sub.nameTok
		}
		data := c.data(sub, b.reporters, extra)
		data["fields"] = fields
		sev := SeverityWarning
		for _, v := range b.reporters {
			if verdict.InvalidEntry(v.reader) != verdict.Loads {
				sev = SeverityError
			}
		}
		ds = append(ds, Diagnostic{Span: sp, Severity: sev, Code: CodeMissingField, Message: msg, Data: data})
	}
	return ds
}

// verdicts phrases what the reporters of g do and why, one clause per
// distinct detail: `Claude Code skips server "fs": "args" must be an array`.
func (c *schemaCheck) verdicts(sub *schemaSubject, g *schemaGroup) string {
	var clauses []string
	done := make([]bool, len(g.problems))
	for i, p := range g.problems {
		if done[i] {
			continue
		}
		var who []*schemaVerdict
		var outcomes []verdict.Outcome
		for j := i; j < len(g.problems); j++ {
			if !done[j] && g.problems[j].Detail == p.Detail {
				done[j] = true
				who = append(who, g.reporters[j])
				outcomes = append(outcomes, verdict.ProblemOutcome(g.reporters[j].reader, g.problems[j]))
			}
		}
		clauses = append(clauses, c.verdictPhrase(sub, who, outcomes)+": "+p.Detail)
	}
	return strings.Join(clauses, "; ")
}

// withLoadedBy adds to the data of an error the tools among its
// reporters that load the entry all the same ("loadedBy"): VS Code drops
// an args that is not an array from the workspace folder's .mcp.json and
// starts the server, where Claude Code skips it. Those tools are in
// "tools" (the value concerns them) but not blamed for the entry.
func (c *schemaCheck) withLoadedBy(g *schemaGroup, d map[string]any) map[string]any {
	if schemaSeverity(g) != SeverityError {
		return d
	}
	var loads []*schemaVerdict
	for i, v := range g.reporters {
		if o := verdict.ProblemOutcome(v.reader, g.problems[i]); o == verdict.Loads || o == verdict.LoadsIgnoringKeys {
			loads = append(loads, v)
		}
	}
	if len(loads) > 0 {
		d["loadedBy"] = c.toolIDs(loads)
	}
	return d
}

// schemaSeverity is an error when a reporter of g does not load the entry
// because of it, a warning when every reporter loads it, with the value as
// written (Gemini CLI only warns about schema problems) or without it
// (Zed drops an invalid env).
func schemaSeverity(g *schemaGroup) Severity {
	for i, v := range g.reporters {
		if o := verdict.ProblemOutcome(v.reader, g.problems[i]); o != verdict.Loads && o != verdict.LoadsIgnoringKeys {
			return SeverityError
		}
	}
	return SeverityWarning
}

// verdictPhrase says what the readers do with the subject, grouping
// readers with the same effect: `Claude Code and GitHub Copilot CLI skip
// server "fs"`, `OpenCode refuses the whole configuration because of
// server "fs"`. outcomes, parallel to vs, are the readers' outcomes for
// the problem; nil: their effect for an invalid entry.
func (c *schemaCheck) verdictPhrase(sub *schemaSubject, vs []*schemaVerdict, outcomes []verdict.Outcome) string {
	// The readers grouped by effect, in order of first appearance: a
	// list, not a map (a few readers, and one call per finding).
	type group struct {
		e   verdict.Outcome
		who []*schemaVerdict
	}
	var groups []group
outer:
	for i, v := range vs {
		e := verdict.InvalidEntry(v.reader)
		if outcomes != nil {
			e = outcomes[i]
		}
		for j := range groups {
			if groups[j].e == e {
				groups[j].who = append(groups[j].who, v)
				continue outer
			}
		}
		groups = append(groups, group{e, []*schemaVerdict{v}})
	}
	label := c.label(sub)
	parts := make([]string, len(groups))
	for i, g := range groups {
		who := g.who
		n := len(who)
		switch g.e {
		case verdict.SkipsEntry:
			parts[i] = c.tools(who) + " " + plural(n, "skips", "skip") + " " + label
		case verdict.LoadsIgnoringKeys:
			// A field whose invalid value the tool drops (Zed's fallible
			// env and timeout): the server loads without it.
			parts[i] = c.tools(who) + " " + plural(n, "drops", "drop") + " this value and " + plural(n, "loads", "load") + " " + label + " without it"
		case verdict.RefusesFile:
			parts[i] = c.tools(who) + " " + plural(n, "refuses", "refuse") + " the whole configuration because of " + label
		case verdict.Loads:
			if outcomes == nil {
				// A missing field: the tool says nothing and has nothing
				// to start (Gemini CLI 0.61.0 does not flag an entry
				// with neither command nor url).
				parts[i] = c.tools(who) + " " + plural(n, "takes", "take") + " " + label + " as written, with nothing to start"
			} else {
				parts[i] = c.tools(who) + " " + plural(n, "warns", "warn") + " about " + label + " and " + plural(n, "uses", "use") + " the value as written"
			}
		default:
			parts[i] = c.tools(who) + " may not load " + label
		}
	}
	return JoinAnd(parts)
}

// knowing lists the readers that read the place of g (they looked inside
// the entry and nothing above the place is ignored or rejected by them)
// and did not report g: for an unknown key, the readers that use it; for
// a bad value or a type, the readers that accept it.
func (c *schemaCheck) knowing(sub *schemaSubject, g *schemaGroup) []*schemaVerdict {
	var out []*schemaVerdict
	for _, v := range sub.verdicts {
		if !v.read || slices.Contains(g.reporters, v) {
			continue
		}
		// v ignores the key whose value g is about, or ignores or rejects
		// something above it: v has no opinion about g.
		blocked := slices.ContainsFunc(v.problems, func(p verdict.Problem) bool {
			return (p.Code == CodeUnknownKey && p.Loc == g.loc) ||
				(p.Code != CodeMissingField && schemaIsAncestor(p.Loc, g.loc))
		})
		if !blocked {
			out = append(out, v)
		}
	}
	return out
}

// schemaIsAncestor reports whether pointer a is a proper ancestor of pointer b.
func schemaIsAncestor(a, b string) bool {
	return len(b) > len(a) && strings.HasPrefix(b, a) && b[len(a)] == '/'
}

// data builds a diagnostic's Data: the subject, the tools concerned, and
// the problem's own fields. Values of fields are never included.
func (c *schemaCheck) data(sub *schemaSubject, vs []*schemaVerdict, extra map[string]any) map[string]any {
	d := map[string]any{sub.noun: sub.name, "tools": c.toolIDs(vs)}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

func (c *schemaCheck) label(sub *schemaSubject) string {
	if sub.noun == "input" && sub.name == "" {
		return "an input without an id"
	}
	return sub.noun + " " + quote.String(sub.name)
}

func (c *schemaCheck) tools(vs []*schemaVerdict) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = toolName(c.in, v.reader.Tool)
	}
	return JoinAnd(names)
}

func (c *schemaCheck) toolIDs(vs []*schemaVerdict) []string {
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = string(v.reader.Tool)
	}
	return ids
}

// schemaParentField is the part of a field path before its last key:
// "oauth" for "oauth.foo", "" for "foo".
func schemaParentField(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		return field[:i]
	}
	return ""
}

// schemaShapeNoun names a server shape for messages.
func schemaShapeNoun(def string) string {
	switch def {
	case "stdioServer":
		return "a stdio server"
	case "localServer":
		return "a local server"
	case "remoteServer":
		return "a remote server"
	case "httpServer":
		return "an http server"
	case "sseServer":
		return "an sse server"
	case "wsServer":
		return "a WebSocket server"
	case "enabledOverride":
		return `an {"enabled": …} override`
	}
	return "a server"
}

func schemaBoth(n int) string {
	if n == 2 {
		return "both"
	}
	return "all"
}
