package rules

import (
	"fmt"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Rule codes of the schema checks. Codes are stable: users configure rules
// by them, docs/rules.md documents them and quick fixes dispatch on them.
const (
	CodeUnknownServerType  = "unknown-server-type"
	CodeInvalidFieldValue  = "invalid-field-value"
	CodeMissingField       = "missing-field"
	CodeUnknownKey         = "unknown-key"
	CodeKeyIgnoredByTool   = "key-ignored-by-tool"
	CodeServerNotObject    = "server-not-object"
	CodeServerMapNotObject = "server-map-not-object"
	CodeMissingServerMap   = "missing-server-map"
)

// schemaValidation is the one check of the schema rules: each entry is
// validated once per reader, against the branch the reader picks, and the
// readers' verdicts are reconciled into one finding per problem spot;
// which rule a finding belongs to falls out of that one pass.
var schemaValidation = fileCheck(checkSchema)

// schemaRules are the rules of schema.go, in documentation order.
var schemaRules = []Rule{
	{CodeUnknownServerType, SeverityError, "A server's type is not one the tool knows (types are case-sensitive); the tool skips the server.", schemaValidation},
	{CodeInvalidFieldValue, SeverityError, "A server field has the wrong type or a value the tool rejects (e.g. args as a string, an empty command, a zero timeout).", schemaValidation},
	{CodeMissingField, SeverityError, "A field the tool needs is missing from a server (command for a local server, url for a remote one, type where it is required).", schemaValidation},
	{CodeUnknownKey, SeverityWarning, "A key no tool reading the file knows; every tool drops it silently (often a misspelling).", schemaValidation},
	{CodeKeyIgnoredByTool, SeverityInformation, "A key one tool reading the file uses and another ignores (e.g. tools in .mcp.json: Copilot CLI only).", schemaValidation},
	{CodeServerNotObject, SeverityError, "A server definition that is not an object; the tool skips it.", schemaValidation},
	{CodeServerMapNotObject, SeverityError, "The map of servers (mcpServers, mcp, servers) is not an object; the tool rejects the file.", schemaValidation},
	{CodeMissingServerMap, SeverityWarning, "A file without the key that holds its servers, where a tool refuses such a file.", schemaValidation},
}

// The schema codes are generic: they come from a JSON Schema, not from
// knowledge of a particular mistake. When a semantic rule reports on the
// same span (say "use environment, not env" on the key where this file
// would say "unknown key"), it explains the problem better and the generic
// finding is dropped by dropGenericDuplicates. server-not-object and
// server-map-not-object stay specific: nothing can say more about them.
func init() {
	for _, c := range []string{
		CodeUnknownServerType, CodeInvalidFieldValue, CodeMissingField,
		CodeUnknownKey, CodeKeyIgnoredByTool, CodeMissingServerMap,
	} {
		genericCodes[c] = true
	}
}

// checkSchema checks every server entry the way each tool that reads the
// file will read it, and reconciles the tools' verdicts into one finding
// per problem spot.
//
// Each entry is validated against the one schema branch its reader would
// pick for it (schemas.ServerDef), never against the union of branches:
// a failed union says nothing about which field is wrong. Only the server
// maps (and VS Code's inputs) are looked at, so the other settings that
// share a file with servers (~/.claude.json, opencode.json, Claude
// Desktop's preferences) are never flagged.
func checkSchema(in FileInput) []Diagnostic {
	c := newSchemaCheck(in, true)
	if c == nil {
		return nil
	}
	ds := c.fileDiagnostics()
	for _, s := range c.subjects {
		ds = append(ds, c.subjectDiagnostics(s)...)
	}
	return ds
}

// newSchemaCheck collects what each reader of in makes of the file: its
// server maps, and the subjects to judge (the server entries only when
// servers is set; analyzeByEntry judges those one by one). nil when there
// is nothing to check: the syntax checks report an empty or non-object
// file.
func newSchemaCheck(in FileInput, servers bool) *schemaCheck {
	f := in.Parsed
	if in.Kind == nil || f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
		return nil
	}
	if in.index == nil {
		in.index = &parseIndex{}
	}
	if in.Cache == nil {
		in.Cache = NewCache()
	}
	c := &schemaCheck{in: in, f: f, noServers: !servers}
	for i := range in.Kind.Readers {
		r := &in.Kind.Readers[i]
		if len(r.ServerMaps) == 0 || !schemaHasDialect(r.Dialect) {
			continue
		}
		c.reader(r)
	}
	return c
}

// fileDiagnostics are the findings on the file rather than on one server:
// missing server maps, maps that are not objects, VS Code's inputs.
func (c *schemaCheck) fileDiagnostics() []Diagnostic {
	var ds []Diagnostic
	ds = append(ds, c.missingMaps()...)
	ds = append(ds, c.badMaps()...)
	return append(ds, c.extra...)
}

// schemaCheck is the state of one checkSchema run: the subjects (servers
// and inputs) in file order, each with every reader's verdict.
type schemaCheck struct {
	in       FileInput
	f        *jsonc.File
	subjects []*schemaSubject
	// mapless are the readers that found none of their server maps.
	mapless []*registry.Reader
	// notObject are the server maps that are not objects, with their readers.
	notObject []*schemaBadMap
	// extra are findings made directly, outside reconciliation.
	extra []Diagnostic
	// servers holds the server subjects of each server map, by node, in
	// file order (nil for an entry that holds a syntax error): readers of
	// one file usually share their map, and its entries are one subject
	// each, judged by every reader.
	servers map[*jsonc.Node][]*schemaSubject
	// memoCtx caches the subject memo's context per reader set.
	memoCtx map[uint64]string
	// noServers: the server entries are not subjects of this check (see
	// newSchemaCheck).
	noServers bool
	// reuse says subjectStored may judge each subject in scratch, which
	// the next subject reuses (judgeServers).
	reuse bool
	// typeRule says type-not-accepted judges every server subject too,
	// with the same readers, and its findings are merged with these
	// before the generic duplicates are dropped (judgeServers): an unknown
	// type it reports on is not built (unknownTypeReported).
	typeRule bool
	scratch  struct {
		verdicts []schemaVerdict
		list     []*schemaVerdict
	}
	// common is the last answer of commonTypes, with the dialects it is
	// for.
	common struct {
		dialects []registry.DialectID
		types    []string
	}
}

// schemaBadMap is a server map that is not an object, with its readers.
type schemaBadMap struct {
	sm      *ServerMap
	readers []*registry.Reader
}

// schemaSubject is one thing validated on its own: a server entry, or
// one input of VS Code's inputs array.
type schemaSubject struct {
	noun     string           // "server" or "input", for messages
	name     string           // the server's name or the input's id
	nameTok  span.Span        // where whole-entry findings go (the name key)
	value    *jsonc.Node      // the definition
	verdicts []*schemaVerdict // one per reader, in reader order
	// member is a server's member. Its verdicts are made when it is
	// reconciled, one per reader in readers (see subjectDiagnostics).
	member  *jsonc.Member
	readers []*registry.Reader
}

// schemaVerdict is one reader's reading of a subject.
type schemaVerdict struct {
	reader *registry.Reader
	// read is false when the reader did not look inside the entry: it is
	// not an object, or its type is unknown to the reader (the entry is
	// skipped whole, so no field-level verdict applies).
	read     bool
	def      string
	problems []verdict.Problem // spans absolute
}

// reader collects what one reader makes of the file.
func (c *schemaCheck) reader(r *registry.Reader) {
	maps := FindServerMaps(c.f, r)
	if len(maps) == 0 {
		c.mapless = append(c.mapless, r)
	}
	for _, sm := range maps {
		if sm.Node.Kind != jsonc.Object {
			c.addBadMap(sm, r)
			continue
		}
		if c.noServers {
			continue
		}
		for _, sub := range c.serverSubjects(sm) {
			if sub != nil {
				sub.readers = append(sub.readers, r)
			}
		}
	}
	if r.Dialect == schemas.VSCode {
		c.inputs(r)
	}
}

// schemaLastMembers returns the members of the object n that are the last
// with their key (the ones every tool reads), in file order.
func schemaLastMembers(n *jsonc.Node) []*jsonc.Member { return lastMembers(n) }

// addBadMap records that the server map sm, read by r, is not an object.
func (c *schemaCheck) addBadMap(sm *ServerMap, r *registry.Reader) {
	if sm.Node.Kind == jsonc.Invalid {
		return // a syntax error, reported as such
	}
	for _, b := range c.notObject {
		if b.sm.Node == sm.Node {
			b.readers = append(b.readers, r)
			return
		}
	}
	c.notObject = append(c.notObject, &schemaBadMap{sm: sm, readers: []*registry.Reader{r}})
}

// serverSubjects returns the subjects of the servers in the map sm, one
// per name (the last definition), in file order, creating them on first
// sight; nil stands for a definition that holds a syntax error: the
// syntax error explains it, the value is probably being typed, and strict
// readers drop the whole file anyway. A reader's verdict on a subject is
// made when the subject is reconciled.
func (c *schemaCheck) serverSubjects(sm *ServerMap) []*schemaSubject {
	if subs, ok := c.servers[sm.Node]; ok {
		return subs
	}
	ms := c.in.index.lastMembers(sm.Node)
	subs := make([]*schemaSubject, len(ms))
	// One allocation for all the subjects, one for their reader lists.
	slab := make([]schemaSubject, len(ms))
	nr := len(c.in.Kind.Readers)
	readers := make([]*registry.Reader, len(ms)*nr)
	c.in.Cache.fit(len(ms), nr)
	for i, m := range ms {
		if c.hasSyntaxError(m.Value.Span) || m.Value.Kind == jsonc.Invalid {
			continue
		}
		slab[i] = schemaSubject{noun: "server", name: m.Key.Str, nameTok: m.Key.Span, value: m.Value, member: m,
			readers: readers[i*nr : i*nr : (i+1)*nr]}
		subs[i] = &slab[i]
		c.subjects = append(c.subjects, subs[i])
	}
	if c.servers == nil {
		c.servers = map[*jsonc.Node][]*schemaSubject{}
	}
	c.servers[sm.Node] = subs
	return subs
}

// subjectDiagnostics judges sub as each of its readers reads it and
// reconciles the verdicts, through the cache (Cache) where it can.
func (c *schemaCheck) subjectDiagnostics(sub *schemaSubject) []Diagnostic {
	ds, _ := c.subjectStored(sub)
	return ds
}

// subjectStored is subjectDiagnostics, also returning the findings as the
// memo keeps them (spans relative to the member, Data the memo's own);
// nil when the memo is not used.
func (c *schemaCheck) subjectStored(sub *schemaSubject) (_, stored []Diagnostic) {
	if sub.member == nil {
		return c.reconcile(sub), nil // an input, judged already
	}
	k, memo := c.subjectMemoKey(sub)
	memo = memo && memoSafe(c.f, c.in.index, sub.member)
	at := sub.member.Span.Start
	text := c.f.Src[at:sub.member.Span.End]
	if memo {
		if ds, ok := c.in.Cache.subjects.Get(k, text); ok {
			out := make([]Diagnostic, len(ds))
			for i, d := range ds {
				out[i] = rebase(d, at)
			}
			return out, storedOrEmpty(ds)
		}
	}
	// One allocation for the readers' verdicts, one for the list; none
	// when the check judges one server after the other (judgeServers):
	// nothing the reconciliation makes holds them, and the next server
	// reuses them.
	var vs []schemaVerdict
	if c.reuse && len(sub.verdicts) == 0 {
		vs = slices.Grow(c.scratch.verdicts[:0], len(sub.readers))[:len(sub.readers)]
		clear(vs)
		sub.verdicts = slices.Grow(c.scratch.list[:0], len(sub.readers))
		c.scratch.verdicts, c.scratch.list = vs, sub.verdicts
	} else {
		vs = make([]schemaVerdict, len(sub.readers))
		sub.verdicts = slices.Grow(sub.verdicts, len(sub.readers))
	}
	var judgedStore [4]*verdict.Verdict
	judged := judgedStore[:0]
	if len(sub.readers) > len(judgedStore) {
		judged = make([]*verdict.Verdict, 0, len(sub.readers))
	}
	judged = judged[:len(sub.readers)]
	c.in.verdictsOf(sub.readers, sub.name, sub.value, judged)
	for i, r := range sub.readers {
		vd := judged[i]
		vs[i] = c.verdictFrom(r, vd.Def, vd.Problems, sub.value.Span.Start)
		sub.verdicts = append(sub.verdicts, &vs[i])
	}
	ds := c.reconcile(sub)
	if memo {
		stored = memoDiagnostics(ds, at)
		c.in.Cache.subjects.Put(k, text, stored)
		stored = storedOrEmpty(stored)
	}
	return ds, stored
}

// subjectMemoKey is the Cache.subjects key of a server subject. ok is
// false when it cannot be memoised: a reader that reads it twice (through
// two server-map paths), or readers not from the file's kind.
func (c *schemaCheck) subjectMemoKey(sub *schemaSubject) (k entryMemoKey, ok bool) {
	var set uint64
	for _, r := range sub.readers {
		i := -1
		for j := range c.in.Kind.Readers {
			if &c.in.Kind.Readers[j] == r {
				i = j
				break
			}
		}
		if i < 0 || i >= 64 || set&(1<<i) != 0 {
			return k, false
		}
		set |= 1 << i
	}
	ctx, ok := c.memoCtx[set]
	if !ok {
		var b []byte
		for _, r := range sub.readers {
			b = appendReaderKey(b, r)
		}
		if c.typeRule {
			b = append(b, "|typeRule"...) // findings without those it drops
		}
		ctx = string(b)
		if c.memoCtx == nil {
			c.memoCtx = map[uint64]string{}
		}
		c.memoCtx[set] = ctx
	}
	return entryMemoKey{reg: c.in.Registry, ctx: ctx}, true
}

// fromProblems makes a reader's schema verdict from its problems, spans
// relative to start.
func (c *schemaCheck) fromProblems(r *registry.Reader, def string, ps []verdict.Problem, start int) *schemaVerdict {
	v := c.verdictFrom(r, def, ps, start)
	return &v
}

// verdictFrom is fromProblems, by value.
func (c *schemaCheck) verdictFrom(r *registry.Reader, def string, ps []verdict.Problem, start int) schemaVerdict {
	v := schemaVerdict{reader: r, def: def, read: def != ""}
	if len(ps) == 0 {
		return v
	}
	v.problems = make([]verdict.Problem, len(ps))
	for i, p := range ps {
		if !p.OnName {
			p.Span = span.New(p.Span.Start+start, p.Span.End+start)
		}
		v.problems[i] = p
	}
	return v
}

// inputs checks VS Code's inputs array: each element against #/$defs/input.
func (c *schemaCheck) inputs(r *registry.Reader) {
	m := c.f.Root.Get("inputs")
	if m == nil || m.Value.Kind == jsonc.Invalid || c.hasSyntaxError(m.Value.Span) {
		return
	}
	if m.Value.Kind != jsonc.Array {
		c.extra = append(c.extra, Diagnostic{
			Span:     verdict.Widen(m.Value),
			Severity: SeverityError,
			Code:     CodeInvalidFieldValue,
			Message:  fmt.Sprintf(`"inputs" must be an array of input definitions, not %s; %s may not read it`, verdict.DescribeKind(m.Value.Kind), toolName(c.in, r.Tool)),
			Data:     map[string]any{"field": "inputs", "tools": []string{string(r.Tool)}, "expected": []string{"array"}},
		})
		return
	}
	for i, e := range m.Value.Elements() {
		if e.Kind == jsonc.Invalid || c.hasSyntaxError(e.Span) {
			continue
		}
		if e.Kind != jsonc.Object {
			field := fmt.Sprintf("inputs[%d]", i)
			c.extra = append(c.extra, Diagnostic{
				Span:     verdict.Widen(e),
				Severity: SeverityError,
				Code:     CodeInvalidFieldValue,
				Message:  fmt.Sprintf(`%q must be an object, not %s; %s may not read it`, field, verdict.DescribeKind(e.Kind), toolName(c.in, r.Tool)),
				Data:     map[string]any{"field": field, "tools": []string{string(r.Tool)}, "expected": []string{"object"}},
			})
			continue
		}
		sub := &schemaSubject{noun: "input", name: schemaInputID(e), nameTok: schemaInputNameSpan(e), value: e}
		c.subjects = append(c.subjects, sub)
		def, ps := verdict.Validate(schemas.VSCode, "input", e)
		sub.verdicts = append(sub.verdicts, c.fromProblems(r, def, ps, e.Span.Start))
	}
}

// schemaInputID is an input's id, for messages ("" when it has none).
func schemaInputID(e *jsonc.Node) string {
	if e.Kind == jsonc.Object {
		if id := e.Get("id"); id != nil && id.Value.Kind == jsonc.String {
			return id.Value.Str
		}
	}
	return ""
}

// schemaInputNameSpan is where whole-input findings go: the id's value,
// which names the input as a key names a server; else the element itself.
func schemaInputNameSpan(e *jsonc.Node) span.Span {
	if e.Kind == jsonc.Object {
		if id := e.Get("id"); id != nil && id.Value.Kind == jsonc.String {
			return id.Value.Span
		}
	}
	return e.Span
}

// hasSyntaxError reports whether a syntax error lies within s. Errors are
// sorted by start, so this is a binary search.
func (c *schemaCheck) hasSyntaxError(s span.Span) bool {
	errs := c.f.Errors
	i, _ := slices.BinarySearchFunc(errs, s.Start, func(e jsonc.SyntaxError, start int) int {
		return e.Span.Start - start
	})
	return i < len(errs) && errs[i].Span.Start < s.End
}

// schemaHasDialect reports whether mcp-lsp has a schema for the dialect (Claude
// Code's settings.json dialect, for one, declares no servers).
func schemaHasDialect(d registry.DialectID) bool { return verdict.Modelled(d) }
