// Package verdict decides, once, what one tool does with one MCP server
// entry: which schema branch it reads the entry as, whether it loads the
// entry (perhaps without some keys), skips it, or refuses its whole
// configuration because of it, and why.
//
// It is the only place that decides a reader's treatment of an entry. The
// schema diagnostics and the semantic rules (package analysis), the
// effective configuration (analysis/effective), hover, code actions and the
// CLI all read a Verdict, so they cannot disagree. What each reader does
// with an invalid entry, an unknown key and a duplicate name is data in
// the registry (registry.Reader.Effects), each fact with its confidence and
// source; this package applies it.
//
// A Verdict depends on nothing but the registry, the reader (tool, dialect,
// effects), the server's name and the bytes of its definition, so verdicts
// are cached by that content in a Cache the caller owns (the language
// server's session, or one per CLI run).
package verdict

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Outcome is what one reader does with one server entry.
type Outcome string

const (
	// Loads: the entry loads as written.
	Loads Outcome = "loads"
	// LoadsIgnoringKeys: the entry loads; keys the reader does not know
	// are dropped.
	LoadsIgnoringKeys Outcome = "loads-ignoring-keys"
	// LoadsStrippingKeys: the entry loads after the reader's schema strips
	// the keys it does not know (OpenCode): an "env" in an OpenCode local
	// entry starts the server without those variables.
	LoadsStrippingKeys Outcome = "loads-stripping-keys"
	// SkipsEntry: the reader skips this entry; its other servers load.
	SkipsEntry Outcome = "skips-entry"
	// RefusesFile: the reader refuses its whole configuration because of
	// this entry and loads none of it.
	RefusesFile Outcome = "refuses-file"
	// MayNotLoad: the entry is invalid for the reader, and what the reader
	// does then is neither documented nor observed.
	MayNotLoad Outcome = "may-not-load"
)

// Loaded reports whether the reader loads the entry (with or without all
// its keys).
func (o Outcome) Loaded() bool {
	return o == Loads || o == LoadsIgnoringKeys || o == LoadsStrippingKeys
}

// severity orders outcomes from harmless to worst, so that the worst
// reason decides.
func (o Outcome) severity() int {
	switch o {
	case LoadsIgnoringKeys, LoadsStrippingKeys:
		return 1
	case MayNotLoad:
		return 2
	case SkipsEntry:
		return 3
	case RefusesFile:
		return 4
	}
	return 0
}

// Transport is what the schema branch a reader picks means.
type Transport string

const (
	TransportUnknown Transport = ""
	Stdio            Transport = "stdio"    // a local process
	Remote           Transport = "remote"   // an endpoint (http, sse, ws)
	Override         Transport = "override" // OpenCode's {"enabled": ...}
)

// TransportOf says what a schema branch (schemas.ServerDef) means.
func TransportOf(def string) Transport {
	switch def {
	case "stdioServer", "localServer":
		return Stdio
	case "remoteServer", "httpServer", "sseServer", "wsServer":
		return Remote
	case "enabledOverride":
		return Override
	}
	return TransportUnknown
}

// Reason is one thing that makes a reader treat an entry as it does: a
// fact with a stable code and a place, not a diagnostic.
type Reason struct {
	// Code is stable: the schema rule codes (unknown-key,
	// invalid-field-value, ...) and reserved-server-name,
	// invalid-server-name, invalid-url.
	Code string
	// Span is relative to the start of the entry's value; when OnName is
	// set the reason belongs on the server's name instead.
	Span   span.Span
	OnName bool
	// Field is the field concerned ("args", "env.KEY"), "" for the entry.
	Field string
	// Detail is a sentence for people; it never quotes a secret.
	Detail string
	// Outcome is what this reason alone makes the reader do.
	Outcome Outcome
}

// Verdict is what one reader does with one server entry.
type Verdict struct {
	Tool    registry.ToolID
	Dialect registry.DialectID
	// Def is the schema branch the reader reads the entry as
	// (schemas.ServerDef): "stdioServer", "localServer", ...; "" when the
	// entry is not an object, its type is one the reader does not know, or
	// mcp-lsp has no schema for the dialect (then Modelled is false).
	Def       string
	Transport Transport
	// Modelled is false for a dialect mcp-lsp has no schema for (Nyzhi's
	// TOML): the entry is taken to load as written.
	Modelled bool
	// Outcome is the worst outcome of the reasons, Loads without any.
	Outcome Outcome
	// Reasons are in the order found: schema problems first (by field),
	// then the name, then the url.
	Reasons []Reason
	// Problems are the schema's findings, for the schema diagnostics
	// (spans relative to the entry's value, like Reasons).
	Problems []Problem
	// Program is the program the reader would start ("" for a remote
	// entry, or when the command is not a string).
	Program string

	// derived are Cache.Derived's answers about this verdict.
	derivedMu sync.Mutex
	derived   []derivedAnswer
}

// VariablesOf lists the environment variables the entry value (the one
// this verdict is about) reads in the syntax of in, from the
// keys the reader keeps (an "env" OpenCode strips reads nothing), without
// those with a default. It is computed on demand, not with the verdict:
// scanning every string of every entry is a large part of judging a big
// file, and only hover and the effective view ask.
func (v *Verdict) VariablesOf(in *registry.Interpolation, value *jsonc.Node) []string {
	if value == nil || value.Kind != jsonc.Object {
		return nil
	}
	var kept []*jsonc.Node
	for _, m := range lastMembers(value) {
		if !v.Ignores(m.Key.Str) {
			kept = append(kept, m.Value)
		}
	}
	return Variables(in, kept)
}

// Why is the first reason with the verdict's outcome, for a short
// explanation ("args" must be an array, not a string); "" when the entry
// loads as written.
func (v *Verdict) Why() *Reason {
	for i := range v.Reasons {
		if v.Reasons[i].Outcome == v.Outcome {
			return &v.Reasons[i]
		}
	}
	return nil
}

// Ignores reports whether the reader drops the entry's top-level key (an
// unknown key it ignores or strips, and loads the entry without).
func (v *Verdict) Ignores(key string) bool {
	if v == nil {
		return false
	}
	return slices.ContainsFunc(v.Reasons, func(r Reason) bool {
		return r.Code == CodeUnknownKey && r.Field == key && r.Outcome.Loaded()
	})
}

// Has reports whether one of the verdict's reasons has the code.
func (v *Verdict) Has(code string) bool {
	return slices.ContainsFunc(v.Reasons, func(r Reason) bool { return r.Code == code })
}

// Entry is one server entry: its name and definition. Text is the
// definition's source (Value's bytes), the cache key; Value must hold no
// syntax error (callers do not judge an entry being typed).
type Entry struct {
	Name  string
	Value *jsonc.Node
	Text  []byte
	// Merged: the entry is a server as merged from every layer (the
	// effective engine's, for a tool that validates after merging), so
	// nothing can supply a missing field any more: the reader's
	// missingField effect does not apply.
	Merged bool
}

// Of returns what reader r (of a file kind in reg) does with e, through the
// cache c (nil: computed without caching). The result is shared: read only.
// It is OfAll with one reader: one way of looking up, waiting for another
// caller's judging (a flight) and storing.
func Of(c *Cache, reg *registry.Registry, r *registry.Reader, e Entry) *Verdict {
	var out [1]*Verdict
	OfAll(c, reg, []*registry.Reader{r}, e, out[:])
	return out[0]
}

// OfAll sets out[i] to Of(c, reg, rs[i], e) for every reader of rs (out
// is as long as rs). The schema check asks for every reader's verdict on
// each server at once; asked one reader at a time, a file's first
// analysis hashed each entry's text, took the cache's two locks and made
// a flight once per reader, and those locks are what the file's rules,
// its project rules and the workspace's effective view contend for on
// the two cores. Here the entry is hashed once, looked up and stored
// under one lock each, and the verdicts it judges share one allocation.
// Which reader's verdict is being judged elsewhere is waited for as in
// Of, so nothing is judged twice.
func OfAll(c *Cache, reg *registry.Registry, rs []*registry.Reader, e Entry, out []*Verdict) {
	if reg == nil {
		reg = registry.Default()
	}
	if c == nil {
		for i, r := range rs {
			out[i] = judge(reg, r, e)
		}
		return
	}
	h := c.verdicts.hashOf(e.Text, e.Name)
	// A file kind has a few readers: their keys, and below what becomes
	// of each, live on the stack.
	var ksStore [8]readerKey
	ks := ksStore[:0]
	if len(rs) > len(ksStore) {
		ks = make([]readerKey, 0, len(rs))
	}
	ks = ks[:len(rs)]
	for i, r := range rs {
		ks[i] = readerKey{reg: reg, effects: r.Effects, tool: r.Tool, dialect: r.Dialect, merged: e.Merged}
	}
	if c.verdicts.getAll(h, ks, e.Name, e.Text, out) {
		return
	}
	var howStore [8]uint8
	var flightsStore [8]*flight
	how, flights := howStore[:0], flightsStore[:0]
	if len(rs) > len(howStore) {
		how, flights = make([]uint8, 0, len(rs)), make([]*flight, 0, len(rs))
	}
	how, flights = how[:len(rs)], flights[:len(rs)]
	text := view(e.Text)
	c.flightMu.Lock()
	// A flight may have landed between the lookup and the lock.
	c.verdicts.getAll(h, ks, e.Name, e.Text, out)
	mine := 0
	var slab []flight // this call's flights, one allocation for the entry
	for i := range rs {
		if out[i] != nil {
			continue
		}
		fk := flightKey{h, ks[i]}
		if f, ok := c.flights[fk]; ok {
			if f.name != e.Name || f.text != text {
				how[i] = judgeAlone
				mine++
				continue
			}
			how[i], flights[i] = judgeWait, f
			continue
		}
		if slab == nil {
			slab = make([]flight, 0, len(rs)-i)
		}
		slab = append(slab, flight{name: e.Name, text: text})
		f := &slab[len(slab)-1]
		f.done.Add(1)
		if c.flights == nil {
			c.flights = map[flightKey]*flight{}
		}
		c.flights[fk] = f
		how[i], flights[i] = judgeOwn, f
		mine++
	}
	c.flightMu.Unlock()
	if mine > 0 {
		judgeMine(c, reg, rs, e, h, ks, how, flights, out, mine)
	}
	for i, f := range flights {
		if how[i] != judgeWait {
			continue
		}
		f.done.Wait()
		if out[i] = f.v; out[i] == nil {
			out[i] = judge(reg, rs[i], e)
		}
	}
}

// How OfAll gets a reader's verdict that the cache does not hold yet.
const (
	judgeOwn   = iota + 1 // judged here, under a flight of this call's
	judgeWait             // being judged by another caller: its flight is waited for
	judgeAlone            // judged here without a flight: another entry with the same hash is in flight (as Of)
)

// judgeMine judges OfAll's readers of its own (judgeOwn, judgeAlone) into
// one allocation, stores them under one lock and lands its flights, even
// if judging panics (the flights' waiters then judge for themselves).
func judgeMine(c *Cache, reg *registry.Registry, rs []*registry.Reader, e Entry, h uint64, ks []readerKey, how []uint8, flights []*flight, out []*Verdict, n int) {
	defer func() {
		c.flightMu.Lock()
		for i := range flights {
			if how[i] == judgeOwn {
				delete(c.flights, flightKey{h, ks[i]})
			}
		}
		c.flightMu.Unlock()
		for i, f := range flights {
			if how[i] == judgeOwn {
				f.done.Done()
			}
		}
	}()
	slab := make([]Verdict, n)
	j := 0
	for i, r := range rs {
		if how[i] != judgeOwn && how[i] != judgeAlone {
			continue
		}
		v := &slab[j]
		j++
		judgeInto(v, reg, r, e)
		out[i] = v
		if how[i] == judgeOwn {
			flights[i].v = v
		}
	}
	c.judged.Add(int64(n))
	c.verdicts.putAll(h, ks, e.Name, e.Text, out, how)
}

// Modelled reports whether mcp-lsp has a schema for the dialect, and so
// gives verdicts on its entries.
func Modelled(d registry.DialectID) bool {
	return slices.Contains(dialects(), string(d))
}

var dialects = sync.OnceValue(schemas.Dialects)

// ServerDef is the schema branch dialect reads the decoded entry as, the
// one place outside validation that asks the schemas (the semantic rules
// ask what an entry would be with another type spelling).
func ServerDef(dialect string, entry map[string]any) (string, bool) {
	return schemas.ServerDef(dialect, entry)
}

// urlWithoutType is why Claude Code skips a url-only entry, in its words
// ("Skipped — MCP server "x" has a "url" but no "type"; add "type": "http"
// (or "sse" / "ws") to this entry", 2.1.328, verified).
const urlWithoutType = `it has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry`

// urlCheckedAsWritten are the dialects that parse a server's url with the
// WHATWG URL parser before expanding variables and skip the entry when it
// fails ("url: Invalid url", Copilot CLI 1.0.102, verified: a variable in
// the host passes, one in the port does not). Claude Code expands first
// and OpenCode accepts any string (both verified).
var urlCheckedAsWritten = map[registry.DialectID]bool{schemas.CopilotCLI: true}

func judge(reg *registry.Registry, r *registry.Reader, e Entry) *Verdict {
	v := new(Verdict)
	judgeInto(v, reg, r, e)
	return v
}

// judgeInto is judge, into the zero Verdict v.
func judgeInto(v *Verdict, reg *registry.Registry, r *registry.Reader, e Entry) {
	v.Tool, v.Dialect, v.Outcome = r.Tool, r.Dialect, Loads
	if !Modelled(r.Dialect) {
		return
	}
	v.Modelled = true
	n := e.Value
	invalid := effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.InvalidEntry.Effect })
	unknownKey := effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.UnknownKey.Effect })
	if n.Kind != jsonc.Object {
		p := Problem{Code: CodeServerNotObject, Span: rel(Widen(n), n),
			Detail: "the definition must be an object, not " + DescribeKind(n.Kind)}
		v.Problems = []Problem{p}
		v.add(Reason{Code: p.Code, Span: p.Span, Detail: p.Detail, Outcome: invalid})
	} else {
		res := schemaValidateEntry(string(r.Dialect), "", n)
		v.Def = res.def
		v.Transport = TransportOf(res.def)
		v.Problems = res.problems
		if v.Transport == Stdio && n.Get("type") == nil && n.Get("url") != nil && n.Get("command") == nil {
			// The reader takes an entry without type for a local process
			// (Claude Code), so a url-only entry is skipped: the missing
			// type is the cause, said first and in the tool's words
			// (Claude Code 2.1.328, verified).
			v.add(Reason{Code: CodeMissingType, OnName: true, Field: "type", Detail: urlWithoutType, Outcome: invalid})
		}
		for i := range v.Problems {
			p := &v.Problems[i]
			if !p.OnName {
				p.Span = rel(p.Span, n)
			}
			o := invalid
			switch {
			case p.Code == CodeUnknownKey:
				o = unknownKey
			default:
				if mo, ok := MissingField(r); ok && p.Code == CodeMissingField && !e.Merged {
					o = mo
					break
				}
				if fo, ok := fieldOutcome(r, p.Field); ok {
					o = fo
				}
			}
			v.add(Reason{Code: p.Code, Span: p.Span, OnName: p.OnName, Field: p.Field, Detail: p.Detail, Outcome: o})
		}
		if c := n.Get("command"); c != nil && c.Value.Kind == jsonc.String && v.Transport == Stdio {
			v.Program = c.Value.Str
		} else if c != nil && c.Value.Kind == jsonc.Array && v.Transport == Stdio && len(c.Value.Elements()) > 0 && c.Value.Elements()[0].Kind == jsonc.String {
			v.Program = c.Value.Elements()[0].Str
		}
		if u := n.Get("url"); u != nil && u.Value.Kind == jsonc.String && v.Transport == Remote && urlCheckedAsWritten[r.Dialect] {
			if _, ok := ParseURL(u.Value.Str); !ok {
				v.add(Reason{Code: CodeInvalidURL, Span: rel(u.Value.Span, n), Field: "url",
					Detail: `the url is not a valid URL as written ("url: Invalid url")`, Outcome: invalid})
			}
		}
	}
	for _, reason := range NameReasons(reg, r, e.Name) {
		v.add(reason)
	}
}

// NameReasons are what reader r holds against a server name, from its
// tool's serverNames rules in the registry: a reserved name is skipped
// (Claude Code, "workspace"); a name with a forbidden character is an
// invalid entry (Copilot CLI: control characters and "}"). The semantic
// rules ask this even for an entry being typed, whose value has no
// verdict yet.
func NameReasons(reg *registry.Registry, r *registry.Reader, name string) []Reason {
	t, ok := reg.Tool(r.Tool)
	if !ok {
		return nil
	}
	var out []Reason
	if slices.Contains(t.ServerNames.Reserved, name) {
		// "names the tool skips": skipped whatever the reader does with
		// an invalid entry.
		out = append(out, Reason{Code: CodeReservedServerName, OnName: true, Detail: "the name is reserved", Outcome: SkipsEntry})
	}
	// A match first: it allocates nothing, and names are nearly always
	// fine.
	if forbiddenIn(t.ServerNames.Forbidden, name) {
		out = append(out, Reason{Code: CodeInvalidServerName, OnName: true, Detail: "the name contains characters the tool rejects", Outcome: InvalidEntry(r)})
	}
	return out
}

// add records a reason; the worst outcome decides.
func (v *Verdict) add(r Reason) {
	v.Reasons = append(v.Reasons, r)
	if r.Outcome.severity() > v.Outcome.severity() {
		v.Outcome = r.Outcome
	}
}

// rel makes an absolute span relative to the start of n.
func rel(s span.Span, n *jsonc.Node) span.Span {
	return span.New(s.Start-n.Span.Start, s.End-n.Span.Start)
}

// effectOutcome turns one of the reader's registry effects into the
// outcome for the entry.
func effectOutcome(r *registry.Reader, pick func(*registry.Effects) registry.EntryEffect) Outcome {
	if r.Effects == nil {
		return MayNotLoad
	}
	switch pick(r.Effects) {
	case registry.IgnoresKey:
		return LoadsIgnoringKeys
	case registry.StripsKey:
		return LoadsStrippingKeys
	case registry.SkipsEntry:
		return SkipsEntry
	case registry.RefusesWholeConfig:
		return RefusesFile
	case registry.LoadsEntry:
		return Loads
	}
	return MayNotLoad
}

// fieldOutcome is the reader's effect for an invalid value of field (its
// top-level key), where the registry gives one apart from InvalidEntry:
// Gemini CLI uses invalid values as written, but "args" as a string
// crashes it.
func fieldOutcome(r *registry.Reader, field string) (Outcome, bool) {
	if r.Effects == nil || len(r.Effects.ByField) == 0 || field == "" {
		return "", false
	}
	top, _, _ := strings.Cut(field, ".")
	f, ok := r.Effects.ByField[top]
	if !ok {
		return "", false
	}
	return effectOutcome(r, func(*registry.Effects) registry.EntryEffect { return f.Effect }), true
}

// ProblemOutcome is what reader r does because of one schema problem of an
// entry: its effect for an unknown key, for an invalid value of that field,
// or for an invalid entry.
func ProblemOutcome(r *registry.Reader, p Problem) Outcome {
	if p.Code == CodeUnknownKey {
		return UnknownKey(r)
	}
	if o, ok := MissingField(r); ok && p.Code == CodeMissingField {
		return o
	}
	if o, ok := fieldOutcome(r, p.Field); ok {
		return o
	}
	return InvalidEntry(r)
}

// InvalidEntry is what reader r does with an entry it cannot read: the
// registry's fact as an outcome.
func InvalidEntry(r *registry.Reader) Outcome {
	return effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.InvalidEntry.Effect })
}

// MissingField is what reader r does with an entry whose fault is a
// missing required field, judged alone (not as merged), where the
// registry says (its missingField effect: a tool that merges layers
// before it validates); ok is false where it does not, and the field's
// or the entry's effect applies.
func MissingField(r *registry.Reader) (o Outcome, ok bool) {
	if r.Effects == nil || r.Effects.MissingField == nil {
		return "", false
	}
	return effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.MissingField.Effect }), true
}

// UnknownKey is what reader r does with a key it does not know.
func UnknownKey(r *registry.Reader) Outcome {
	return effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.UnknownKey.Effect })
}

// UnknownTopKey is what reader r does with a key it does not know at the
// top of its file, outside any server entry: the registry's unknownTopKey
// effect (OpenCode refuses the configuration), else the key is not read.
func UnknownTopKey(r *registry.Reader) Outcome {
	if r.Effects == nil || r.Effects.UnknownTopKey == nil {
		return LoadsIgnoringKeys
	}
	return effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.UnknownTopKey.Effect })
}

// DuplicateName is what reader r does with a server map that names one
// server twice: the registry's duplicateName effect. lastWins: the later
// member counts and the earlier one is ignored (the JSON parsers of the
// verified tools); otherwise o is what happens instead (Codex CLI refuses
// the whole configuration), MayNotLoad where it is not known.
func DuplicateName(r *registry.Reader) (o Outcome, lastWins bool) {
	if r.Effects != nil && r.Effects.DuplicateName.Effect == registry.LastWins {
		return Loads, true
	}
	return effectOutcome(r, func(x *registry.Effects) registry.EntryEffect { return x.DuplicateName.Effect }), false
}

// nameRegexps caches the compiled serverNames.forbidden patterns (the
// registry validates that they compile).
var nameRegexps sync.Map // pattern -> *regexp.Regexp

// nameClasses caches, for the forbidden patterns that are one character
// class ("[\x00-\x1f\x7f}]", Copilot CLI's), the class's ranges, or nil
// for another pattern.
var nameClasses sync.Map // pattern -> []rune (pairs lo, hi)

// forbiddenIn reports whether name contains what the pattern forbids.
// Every name of every file is checked for each reader, and the regexp
// package's matcher costs half a microsecond on a short name: a pattern
// that is one character class is matched here, rune by rune, instead.
func forbiddenIn(pattern, name string) bool {
	if pattern == "" {
		return false
	}
	class, ok := nameClasses.Load(pattern)
	if !ok {
		var ranges []rune
		if re, err := syntax.Parse(pattern, syntax.Perl); err == nil {
			if re = re.Simplify(); re.Op == syntax.OpCharClass {
				ranges = re.Rune
			} else if re.Op == syntax.OpLiteral && len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0 {
				ranges = []rune{re.Rune[0], re.Rune[0]}
			}
		}
		class, _ = nameClasses.LoadOrStore(pattern, ranges)
	}
	ranges := class.([]rune)
	if ranges == nil {
		re := nameRegexp(pattern)
		return re != nil && re.MatchString(name)
	}
	for _, c := range name {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= c && c <= ranges[i+1] {
				return true
			}
		}
	}
	return false
}

// NameRegexp is the compiled pattern of a tool's forbidden characters,
// nil when it has none.
func NameRegexp(pattern string) *regexp.Regexp { return nameRegexp(pattern) }

func nameRegexp(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	if re, ok := nameRegexps.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	nameRegexps.Store(pattern, re)
	return re
}
