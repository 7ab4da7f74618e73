package analysis

import (
	"fmt"
	"slices"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
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

// schemaRules are the rules of schema.go, in documentation order.
var schemaRules = []Rule{
	{CodeUnknownServerType, SeverityError, "A server's type is not one the tool knows (types are case-sensitive); the tool skips the server."},
	{CodeInvalidFieldValue, SeverityError, "A server field has the wrong type or a value the tool rejects (e.g. args as a string, an empty command, a zero timeout)."},
	{CodeMissingField, SeverityError, "A field the tool needs is missing from a server (command for a local server, url for a remote one, type where it is required)."},
	{CodeUnknownKey, SeverityWarning, "A key no tool reading the file knows; every tool drops it silently (often a misspelling)."},
	{CodeKeyIgnoredByTool, SeverityInformation, "A key one tool reading the file uses and another ignores (e.g. tools in .mcp.json: Copilot CLI only)."},
	{CodeServerNotObject, SeverityError, "A server definition that is not an object; the tool skips it."},
	{CodeServerMapNotObject, SeverityError, "The map of servers (mcpServers, mcp, servers) is not an object; the tool rejects the file."},
	{CodeMissingServerMap, SeverityWarning, "A file without the key that holds its servers, where a tool refuses such a file."},
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
	f := in.Parsed
	if in.Kind == nil || f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
		return nil // the syntax checks report an empty or non-object file
	}
	c := &schemaCheck{in: in, f: f, seen: map[*jsonc.Member]*schemaSubject{}}
	for i := range in.Kind.Readers {
		r := &in.Kind.Readers[i]
		if len(r.ServerMaps) == 0 || !schemaHasDialect(r.Dialect) {
			continue
		}
		c.reader(r)
	}
	var ds []Diagnostic
	ds = append(ds, c.missingMaps()...)
	ds = append(ds, c.badMaps()...)
	ds = append(ds, c.extra...)
	for _, s := range c.subjects {
		ds = append(ds, c.reconcile(s)...)
	}
	return ds
}

// schemaCheck is the state of one checkSchema run: the subjects (servers
// and inputs) in file order, each with every reader's verdict.
type schemaCheck struct {
	in       FileInput
	f        *jsonc.File
	subjects []*schemaSubject
	seen     map[*jsonc.Member]*schemaSubject
	// mapless are the readers that found none of their server maps.
	mapless []*registry.Reader
	// notObject are the server maps that are not objects, with their readers.
	notObject []*schemaBadMap
	// extra are findings made directly, outside reconciliation.
	extra []Diagnostic
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
}

// schemaVerdict is one reader's reading of a subject.
type schemaVerdict struct {
	reader *registry.Reader
	// read is false when the reader did not look inside the entry: it is
	// not an object, or its type is unknown to the reader (the entry is
	// skipped whole, so no field-level verdict applies).
	read     bool
	def      string
	problems []schemaProblem // spans absolute
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
		for _, s := range schemaServers(sm) {
			c.addServer(s, r)
		}
	}
	if r.Dialect == schemas.VSCode {
		c.inputs(r)
	}
}

// schemaServers is ServerMap.Servers in linear time: one server per
// name, the last definition, in file order. (Servers looks each name up
// with Node.Get, a backward scan, which is quadratic: 6 s for the 50,000
// servers of a 5 MB file.)
func schemaServers(sm *ServerMap) []*Server {
	if sm.Node == nil || sm.Node.Kind != jsonc.Object {
		return nil
	}
	out := make([]*Server, 0, len(sm.Node.Members))
	for _, m := range schemaLastMembers(sm.Node) {
		out = append(out, &Server{Name: m.Key.Str, Map: sm, Member: m})
	}
	return out
}

// schemaLastMembers returns the members of the object n that are the last
// with their key (the ones every tool reads), in file order.
func schemaLastMembers(n *jsonc.Node) []*jsonc.Member {
	last := make(map[string]int, len(n.Members))
	for i, m := range n.Members {
		if m.Key != nil {
			last[m.Key.Str] = i
		}
	}
	out := make([]*jsonc.Member, 0, len(last))
	for i, m := range n.Members {
		if m.Key != nil && last[m.Key.Str] == i {
			out = append(out, m)
		}
	}
	return out
}

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

// addServer records r's verdict on the server s.
func (c *schemaCheck) addServer(s *Server, r *registry.Reader) {
	sub := c.subjectFor(s.Member, func() *schemaSubject {
		return &schemaSubject{noun: "server", name: s.Name, nameTok: s.Key().Span, value: s.Value()}
	})
	if sub == nil {
		return
	}
	sub.verdicts = append(sub.verdicts, c.judge(sub, string(r.Dialect), "", r))
}

// subjectFor returns the subject for member m, creating it with mk on first
// sight. It returns nil for a definition that holds a syntax error: the
// syntax error explains it, the value is probably being typed, and strict
// readers drop the whole file anyway.
func (c *schemaCheck) subjectFor(m *jsonc.Member, mk func() *schemaSubject) *schemaSubject {
	if s, ok := c.seen[m]; ok {
		return s
	}
	var s *schemaSubject
	if !c.hasSyntaxError(m.Value.Span) && m.Value.Kind != jsonc.Invalid {
		s = mk()
		c.subjects = append(c.subjects, s)
	}
	c.seen[m] = s
	return s
}

// judge validates sub as reader r reads it. def is the schema definition
// to use, or "" to let the entry's type decide (schemas.ServerDef).
func (c *schemaCheck) judge(sub *schemaSubject, dialect, def string, r *registry.Reader) *schemaVerdict {
	v := &schemaVerdict{reader: r}
	if sub.value.Kind != jsonc.Object {
		v.problems = []schemaProblem{{code: CodeServerNotObject, span: schemaWiden(sub.value),
			detail: "the definition must be an object, not " + schemaDescribeKind(sub.value.Kind)}}
		return v
	}
	start := sub.value.Span.Start
	// The parse's own source, which the spans index, is the entry's text.
	res := schemaValidateMemo(dialect, def, c.f.Src[start:sub.value.Span.End], sub.value)
	v.def = res.def
	v.read = res.def != ""
	v.problems = make([]schemaProblem, len(res.problems))
	for i, p := range res.problems {
		p.span = span.New(p.span.Start+start, p.span.End+start)
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
			Span:     schemaWiden(m.Value),
			Severity: SeverityError,
			Code:     CodeInvalidFieldValue,
			Message:  fmt.Sprintf(`"inputs" must be an array of input definitions, not %s; %s may not read it`, schemaDescribeKind(m.Value.Kind), toolName(c.in, r.Tool)),
			Data:     map[string]any{"field": "inputs", "tools": []string{string(r.Tool)}, "expected": []string{"array"}},
		})
		return
	}
	for i, e := range m.Value.Elements {
		if e.Kind == jsonc.Invalid || c.hasSyntaxError(e.Span) {
			continue
		}
		if e.Kind != jsonc.Object {
			field := fmt.Sprintf("inputs[%d]", i)
			c.extra = append(c.extra, Diagnostic{
				Span:     schemaWiden(e),
				Severity: SeverityError,
				Code:     CodeInvalidFieldValue,
				Message:  fmt.Sprintf(`%q must be an object, not %s; %s may not read it`, field, schemaDescribeKind(e.Kind), toolName(c.in, r.Tool)),
				Data:     map[string]any{"field": field, "tools": []string{string(r.Tool)}, "expected": []string{"object"}},
			})
			continue
		}
		sub := &schemaSubject{noun: "input", name: schemaInputID(e), nameTok: schemaInputNameSpan(e), value: e}
		c.subjects = append(c.subjects, sub)
		sub.verdicts = append(sub.verdicts, c.judge(sub, schemas.VSCode, "input", r))
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
func schemaHasDialect(d registry.DialectID) bool {
	return slices.Contains(schemaDialects(), string(d))
}

var schemaDialects = sync.OnceValue(schemas.Dialects)

// schemaWiden returns the span to flag for a bad value: the value itself, or,
// for a one-byte value (0, 1, a bare digit), the whole "key": value member
// or the enclosing array, because a one-character squiggle is too easy to
// miss.
func schemaWiden(n *jsonc.Node) span.Span {
	if n.Span.Len() >= 2 || n.Parent == nil {
		return n.Span
	}
	if m := n.Member(); m != nil {
		return m.Span
	}
	return n.Parent.Span
}
