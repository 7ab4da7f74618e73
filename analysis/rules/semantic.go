package rules

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/quote"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Rule codes of the semantic checks: mistakes a JSON Schema cannot see
// because they depend on which tools read the file, on another field, on
// the text inside a string or on the user's machine. Codes are stable.
const (
	CodeMissingCommand       = "missing-command"
	CodeEmptyCommand         = "empty-command"
	CodeCommandForm          = "command-form"
	CodeMissingURL           = "missing-url"
	CodeMissingType          = verdict.CodeMissingType
	CodeTypeNotAccepted      = "type-not-accepted"
	CodeInvalidURL           = "invalid-url"
	CodeForeignKey           = "foreign-key"
	CodeWrongServerMapKey    = "wrong-server-map-key"
	CodeForeignInterpolation = "foreign-interpolation"
	CodeUndefinedInput       = "undefined-input"
	CodeMissingFileReference = "missing-file-reference"
	CodeLiteralSecret        = "literal-secret"
	CodeCommandNotFound      = "command-not-found"
	CodeReservedServerName   = "reserved-server-name"
	CodeInvalidServerName    = "invalid-server-name"
	CodeFileNotRead          = "file-not-read"
	CodeFileNotReadBy        = "file-not-read-by"
	CodeServersInSettings    = "servers-in-settings"
	CodeEmptyServerMap       = "empty-server-map"
	CodeSettingIgnoredHere   = "setting-ignored-here"
)

// Checks shared by a small family of rules: one walk over an entry's
// strings finds foreign syntax and undefined inputs alike; one pass over
// the registry's notRead facts says, per tool, which of the three applies.
var (
	interpolationCheck = entryCheck((*semantic).interpolationRules)
	notReadCheck       = semCheck((*semantic).notReadFiles)
)

// semanticRules are the rules beyond the schema, in documentation order.
// Where a rule's severity depends on who reads the file, the Rule holds
// the worst case and the summary says when it is milder.
var semanticRules = []Rule{
	{CodeMissingCommand, SeverityError, "A local (stdio) server without `command`; the tools skip it (OpenCode refuses the whole configuration).", entryCheck((*semantic).missingCommand)},
	{CodeEmptyCommand, SeverityError, "An empty `command`: Claude Code skips the server (\"Command cannot be empty\"); a warning where every reader accepts the entry but cannot start it.", entryCheck((*semantic).emptyCommand)},
	{CodeCommandForm, SeverityError, "`command` in another tool's form: OpenCode wants one array (program and arguments), the others a string plus `args`.", entryCheck((*semantic).commandForm)},
	{CodeMissingURL, SeverityError, "A remote server without `url`; the tools skip it (OpenCode refuses the whole configuration).", entryCheck((*semantic).missingURL)},
	{CodeMissingType, SeverityError, "A server without `type` where a tool needs it: Claude Code reads a url-only entry as stdio and skips it; OpenCode always requires `type`.", entryCheck((*semantic).missingTypeRule)},
	{CodeTypeNotAccepted, SeverityError, "A `type` value some reader does not know (another tool's spelling such as `local`, a different case, `ws` for Copilot CLI).", typeNotAcceptedCheck},
	{CodeInvalidURL, SeverityError, "A `url` a tool rejects (Copilot CLI parses it before expanding variables); a warning where the tools accept it but it is not an http(s) URL.", entryCheck((*semantic).invalidURL)},
	{CodeForeignKey, SeverityError, "A key spelled as in another tool's format (`env`/`environment`, `args` in OpenCode, `transport`, `serverUrl`): an error where a reader rejects it, else a warning (silently ignored).", entryCheck((*semantic).foreignKeys)},
	{CodeWrongServerMapKey, SeverityError, "The servers sit under another tool's top-level key (`servers`, `mcpServers`, `mcp`); a warning when the right key exists too, a hint for VS Code's deprecated `mcpServers`.", semCheck((*semantic).wrongMapKeys)},
	{CodeForeignInterpolation, SeverityWarning, "A variable reference in another tool's syntax (`${VAR}` in OpenCode, `{env:VAR}` in Claude Code, bare `${VAR}` in VS Code, any reference in the `.mcp.json` of a workspace folder, where VS Code expands none); the tool keeps it as literal text.", interpolationCheck},
	{CodeUndefinedInput, SeverityError, "`${input:id}` in a VS Code file whose `inputs` declares no such id; VS Code cannot start the server.", interpolationCheck},
	{CodeMissingFileReference, SeverityError, "`{file:path}` naming a file that does not exist; OpenCode refuses the whole configuration.", semCheck((*semantic).fileReferences)},
	{CodeLiteralSecret, SeverityWarning, "A literal token or key in `headers` or `env`/`environment` (never printed); reference an environment variable instead.", entryCheck((*semantic).literalSecrets)},
	{CodeCommandNotFound, SeverityWarning, "A `command` that is neither on PATH nor a file in the workspace (looked up without running anything).", &Check{machine: (*semantic).commandLookup}},
	{CodeReservedServerName, SeverityError, "A server name a tool reserves (`workspace` in Claude Code); that tool skips the server.", nameCheck((*semantic).reservedName)},
	{CodeInvalidServerName, SeverityError, "A server name with characters a tool rejects (Copilot CLI: control characters and `}`).", nameCheck((*semantic).invalidName)},
	{CodeFileNotRead, SeverityWarning, "Servers in a file the tool they were meant for does not read, and that no other known tool reads (`.claude/.mcp.json`, `.claude.json` outside the home directory).", notReadCheck},
	{CodeFileNotReadBy, SeverityInformation, "A tool users expect to read this file does not, or only when named on its command line (`.vscode/mcp.json` for Copilot CLI, a project `.copilot/mcp-config.json`).", notReadCheck},
	{CodeServersInSettings, SeverityWarning, "`mcpServers` in Claude Code's settings.json, which Claude Code silently ignores.", notReadCheck},
	{CodeEmptyServerMap, SeverityHint, "A file whose server map is empty: no tool loads anything from it.", semCheck((*semantic).emptyServerMap)},
	{CodeSettingIgnoredHere, SeverityWarning, "A setting a tool reads from another file only: Gemini CLI's `security.folderTrust.enabled` counts only in the user settings, so in a workspace or system file it does not turn folder trust off; VS Code reads `inputs` and `sandbox` from `.vscode/mcp.json`, not from `.mcp.json`.", semCheck((*semantic).settingsIgnoredHere)},
}

// checkSemantics runs the rules beyond the schema. Each rule looks at a
// server once and asks every reader of the file what it makes of it, so a
// message can say what each tool does ("Claude Code skips server "fs" ...
// (GitHub Copilot CLI accepts it)"). A server every reader accepts as
// meant gets nothing.
func checkSemantics(in FileInput) []Diagnostic {
	c := newSemantic(in)
	for _, k := range semChecks {
		k.sem(c)
	}
	for _, g := range c.groups {
		k, memo := c.memoKey(g)
		ms := c.in.index.lastMembers(g.sm.Node)
		c.in.Cache.fit(len(ms), len(g.readers))
		for _, m := range ms {
			c.server(m, g, k, memo)
		}
	}
	return c.ds
}

// newSemantic prepares a checkSemantics run: the file's server maps with
// their readers.
func newSemantic(in FileInput) *semantic {
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	if in.Parsed == nil {
		in.Parsed = jsonc.Parse(in.Content)
	}
	if in.index == nil {
		in.index = &parseIndex{}
	}
	if in.Cache == nil {
		in.Cache = NewCache()
	}
	c := &semantic{in: in, f: in.Parsed}
	c.groups = c.serverMaps()
	return c
}

// semantic is the state of one checkSemantics run.
type semantic struct {
	in FileInput
	f  *jsonc.File
	ds []Diagnostic
	// groups are the file's server maps with their readers (serverMaps).
	groups []*semMap
	// mapKeys caches registryMapKeys.
	mapKeys []string
	// stored are the findings of the last server (server), as the memo
	// keeps them (spans relative to the member, Data the memo's own),
	// before those of the machine's rules; nil when the memo was not used.
	stored []Diagnostic
	// commonTypes are commonType's answers in this pass.
	commonTypes map[commonTypeKey]string
	// spare is an entry done with (server), for newSemEntry to reuse: a
	// semEntry is a few hundred bytes, made for every server of a file's
	// first analysis.
	spare *semEntry
}

func (c *semantic) add(d Diagnostic) { c.ds = append(c.ds, d) }

// semMap is one server map with every reader that reads it: .mcp.json's
// "mcpServers" is read by Claude Code and Copilot CLI alike.
type semMap struct {
	sm      *ServerMap
	readers []*registry.Reader
}

// serverMaps returns the file's server maps that are objects, in the
// order readers name them, each with its readers.
func (c *semantic) serverMaps() []*semMap {
	if c.in.Kind == nil || c.f.Root == nil || c.f.Root.Kind != jsonc.Object {
		return nil
	}
	var out []*semMap
	for i := range c.in.Kind.Readers {
		r := &c.in.Kind.Readers[i]
		if !verdict.Modelled(r.Dialect) {
			// A dialect mcp-lsp has no schema for (Nyzhi's TOML): its
			// entry rules are unknown, so no rule speaks for it.
			continue
		}
	maps:
		for _, sm := range FindServerMaps(c.f, r) {
			if sm.Node.Kind != jsonc.Object {
				continue // server-map-not-object (schema rules)
			}
			for _, g := range out {
				if g.sm.Node == sm.Node {
					g.readers = append(g.readers, r)
					continue maps
				}
			}
			out = append(out, &semMap{sm: sm, readers: []*registry.Reader{r}})
		}
	}
	return out
}

// syntaxErrorIn reports whether a syntax error starts within sp (errors
// are sorted by start).
func (c *semantic) syntaxErrorIn(sp span.Span) bool {
	errs := c.f.Errors
	i, _ := slices.BinarySearchFunc(errs, sp.Start, func(e jsonc.SyntaxError, start int) int { return e.Span.Start - start })
	return i < len(errs) && errs[i].Span.Start < sp.End
}

// serverRules runs every per-server rule on e.
func (c *semantic) serverRules(e *semEntry) {
	c.entryRules(e)
	if e.obj == nil || c.in.Resolver == nil {
		return
	}
	var starters []*registry.Reader
	for i, r := range e.readers {
		if semTransportOf(e.defs[i]) == semStdio {
			starters = append(starters, r)
		}
	}
	c.machineRules(e.s, starters, e.has("cwd"))
}

// machineRules runs the per-server rules that look at the user's machine.
func (c *semantic) machineRules(s *Server, starters []*registry.Reader, hasCwd bool) {
	for _, k := range machineChecks {
		k.machine(c, s, starters, hasCwd)
	}
}

// entryRules runs the per-server rules that depend on nothing but the
// entry's text, its readers and the file's VS Code inputs (see
// semantic_memo.go): every one but the machine's. Only the name rules
// judge an entry that is not an object or is being typed (obj nil): of
// the rest, the schema and syntax rules say what there is to say.
func (c *semantic) entryRules(e *semEntry) {
	for _, k := range entryChecks {
		if e.obj != nil || k.anyValue {
			k.entry(c, e)
		}
	}
}

// semEntry is one server as each of its readers reads it.
type semEntry struct {
	s       *Server
	readers []*registry.Reader
	// obj is the definition; nil when it is not an object or its "type"
	// is still being typed.
	obj *jsonc.Node
	// dispatch is what picks obj's schema shape (schemas.Dispatch), read
	// once from the tree: the rules ask each reader what the entry would
	// be with another type spelling without decoding it into a map.
	dispatch schemas.Dispatch
	// verdicts are the readers' verdicts on the entry (verdict.Of), in
	// reader order; nil when obj is.
	verdicts []*verdict.Verdict
	// defs is the schema shape each reader picks (the verdict's Def); ""
	// when the reader does not know the entry's type.
	defs []string
	// secret holds the string nodes of the entry that are literal
	// secrets (secrets): no rule quotes anything from them; asked once
	// secretDone is set (nil when there are none).
	secret     map[*jsonc.Node]bool
	secretDone bool
	// views is defs, except that a reader that does not know the type is
	// given the shape of the type it means in that reader's spelling
	// ("stdio" read as OpenCode's "local"). The rules about keys and the
	// command's form use it: OpenCode refuses a Claude-shaped entry for its
	// type, and the user needs to hear of each problem.
	views []string
	// names is what the readers make of the server's name (nameRule);
	// nil until asked.
	names *semNames
	// namesStore holds names, allocated with the entry.
	namesStore semNames
	// server, verdictsStore and defsStore hold s, verdicts and defs and
	// views for the common entry (semantic.server, at most four readers),
	// allocated with the entry.
	server        Server
	verdictsStore [4]*verdict.Verdict
	defsStore     [8]string
}

// newSemEntry reads server as each reader does, through the readers' verdicts.
// A definition that holds a syntax error is being typed: only its name is
// judged, since verdicts on half a value mislead.
//
// cached says the verdicts may come from and go to the session's cache
// (not for a map larger than a memo generation, see checkSemantics).
func (c *semantic) newSemEntry(server Server, readers []*registry.Reader, typing, cached bool) *semEntry {
	e := c.spare
	if e != nil {
		c.spare = nil
		*e = semEntry{server: server, readers: readers}
	} else {
		e = &semEntry{server: server, readers: readers}
	}
	e.s = &e.server
	s := e.s
	v := s.Value()
	if typing || v == nil || v.Kind != jsonc.Object {
		return e
	}
	if t := s.Field("type"); t != nil && t.Value.Kind == jsonc.Invalid {
		return e // "type": being typed; any verdict would be a guess
	}
	e.obj, e.dispatch = v, verdict.DispatchOf(v)
	var names []string
	if n := len(readers); n <= len(e.verdictsStore) {
		e.verdicts, names = e.verdictsStore[:n:n], e.defsStore[:2*n:2*n]
	} else {
		e.verdicts = make([]*verdict.Verdict, n)
		names = make([]string, 2*n) // one allocation for both
	}
	e.defs, e.views = names[:len(readers):len(readers)], names[len(readers):]
	typ := e.dispatch.Type // "" when not a string
	for i, r := range readers {
		e.verdicts[i] = c.in.verdictOf(r, s.Name, v, cached)
		if def := e.verdicts[i].Def; def != "" {
			e.defs[i], e.views[i] = def, def
		} else if sp := semTypeSpellings[string(r.Dialect)][semTypeClass(typ)]; len(sp) > 0 {
			e.views[i], _ = e.withType(sp[0]).Def(string(r.Dialect))
		}
	}
	return e
}

// withType is the entry's dispatch had its "type" been the string typ.
func (e *semEntry) withType(typ string) schemas.Dispatch {
	d := e.dispatch
	d.HasType, d.Type, d.TypeIsString = true, typ, true
	return d
}

// reason returns reader i's reason with code on field ("" for any), nil
// if its verdict has none.
func (e *semEntry) reason(i int, code, field string) *verdict.Reason {
	if e.verdicts == nil {
		return nil
	}
	for j := range e.verdicts[i].Reasons {
		if r := &e.verdicts[i].Reasons[j]; r.Code == code && (field == "" || r.Field == field) {
			return r
		}
	}
	return nil
}

// has reports whether the definition has key.
func (e *semEntry) has(key string) bool {
	return e.member(key) != nil
}

// member is the definition's last member named key, nil when it has
// none.
func (e *semEntry) member(key string) *jsonc.Member {
	if e.obj == nil {
		return nil
	}
	ms := e.obj.Members()
	for i := len(ms) - 1; i >= 0; i-- {
		if m := ms[i]; m.Key != nil && m.Key.Str == key {
			return m
		}
	}
	return nil
}

// semTransport is what a schema shape means for the rules (the verdict's
// Transport).
type semTransport = verdict.Transport

const (
	semStdio    = verdict.Stdio
	semRemote   = verdict.Remote
	semOverride = verdict.Override
)

func semTransportOf(def string) semTransport { return verdict.TransportOf(def) }

// semOutcome is what one reader does with something a rule looks at.
type semOutcome uint8

const (
	outAccepted semOutcome = iota
	// ignored: the tool drops a key or keeps text literal; the server
	// still loads, but not as written.
	outIgnored
	// skipped: the tool skips this server; the others load.
	outSkipped
	// refused: the tool refuses its whole configuration (OpenCode).
	outRefused
	// mayNotLoad: the entry is invalid for the tool, and what the tool
	// then does is not known (registry effect "unknown").
	outMayNotLoad
)

// semOutcomeOf is a verdict outcome as the rules count it.
func semOutcomeOf(o verdict.Outcome) semOutcome {
	switch o {
	case verdict.LoadsIgnoringKeys, verdict.LoadsStrippingKeys:
		return outIgnored
	case verdict.SkipsEntry:
		return outSkipped
	case verdict.RefusesFile:
		return outRefused
	case verdict.MayNotLoad:
		return outMayNotLoad
	}
	return outAccepted
}

// semVerdict is one reader's outcome.
type semVerdict struct {
	r *registry.Reader
	o semOutcome
}

type semVerdicts []semVerdict

// readers returns the readers with one of the outcomes os.
func (vs semVerdicts) readers(os ...semOutcome) []*registry.Reader {
	var out []*registry.Reader
	for _, v := range vs {
		for _, o := range os {
			if v.o == o {
				out = append(out, v.r)
				break
			}
		}
	}
	return out
}

// any reports whether a reader has one of the outcomes os (readers,
// without making the list).
func (vs semVerdicts) any(os ...semOutcome) bool {
	for _, v := range vs {
		if slices.Contains(os, v.o) {
			return true
		}
	}
	return false
}

// severity follows the project's principle: an error when a reader skips
// the server or refuses the configuration, a warning when one only
// ignores something; ok is false when every reader accepts it.
func (vs semVerdicts) severity() (s Severity, ok bool) {
	if vs.any(outSkipped, outRefused, outMayNotLoad) {
		return SeverityError, true
	}
	if vs.any(outIgnored) {
		return SeverityWarning, true
	}
	return 0, false
}

// semRejects is what a reader's tool does with a server entry it cannot
// read: the registry's fact (Reader.Effects.InvalidEntry), as the verdict
// applies it. Claude Code and Copilot CLI skip the entry, OpenCode refuses
// the whole configuration (verified); for the others it is not known.
func semRejects(r *registry.Reader) semOutcome { return semOutcomeOf(verdict.InvalidEntry(r)) }

// semOnUnknownKey is what a reader's tool does with a key it does not know
// (Reader.Effects.UnknownKey): every verified tool drops it (OpenCode's
// schema strips it) and loads the entry.
func semOnUnknownKey(r *registry.Reader) semOutcome { return semOutcomeOf(verdict.UnknownKey(r)) }

// blame says what the readers that do not take something as written do
// with it, one clause per outcome: `Claude Code skips server "fs"`,
// `OpenCode refuses the whole configuration because of server "fs"` (the
// schema rules' wording),
// `Claude Code and GitHub Copilot CLI ignore "environment"`. what is the
// object of "ignore".
func (c *semantic) blame(server string, vs semVerdicts, what string) string {
	var parts []string
	if rs := vs.readers(outSkipped); len(rs) > 0 {
		parts = append(parts, readerNames(c.in, rs)+" "+plural(len(rs), "skips", "skip")+" server "+quote.String(server))
	}
	if rs := vs.readers(outRefused); len(rs) > 0 {
		parts = append(parts, readerNames(c.in, rs)+" "+plural(len(rs), "refuses", "refuse")+" the whole configuration because of server "+quote.String(server))
	}
	if rs := vs.readers(outMayNotLoad); len(rs) > 0 {
		parts = append(parts, readerNames(c.in, rs)+" may not load server "+quote.String(server))
	}
	if rs := vs.readers(outIgnored); len(rs) > 0 {
		parts = append(parts, readerNames(c.in, rs)+" "+plural(len(rs), "ignores", "ignore")+" "+what)
	}
	return JoinAnd(parts)
}

// acceptors is the "GitHub Copilot CLI accepts it" note, or "".
func (c *semantic) acceptors(vs semVerdicts) string {
	rs := vs.readers(outAccepted)
	if len(rs) == 0 {
		return ""
	}
	return readerNames(c.in, rs) + " " + plural(len(rs), "accepts", "accept") + " it"
}

// semMessage builds the message shape every rule uses:
// `<lead>: <reason> (<note>; <fix>)`, or `<lead>: <reason>; <fix>` when
// there is no note.
func semMessage(lead, reason, note, fix string) string {
	msg := lead
	if reason != "" {
		msg += ": " + reason
	}
	switch {
	case note != "" && fix != "":
		msg += " (" + note + "; " + fix + ")"
	case note != "":
		msg += " (" + note + ")"
	case fix != "":
		msg += "; " + fix
	}
	return msg
}

// semWorksIn is the "works in both" of a suggestion valid for every reader.
func semWorksIn(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return " works in both"
	}
	return " works in all of them"
}

// semData builds a diagnostic's Data. It holds what a quick fix needs and
// never a value from the file other than names, keys and type spellings.
func semData(server string, rs []*registry.Reader, kv ...any) map[string]any {
	d := map[string]any{}
	if server != "" {
		d["server"] = server
	}
	if len(rs) > 0 {
		d["tools"] = readerIDs(rs)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			continue
		}
		d[kv[i].(string)] = kv[i+1]
	}
	return d
}

// semQuote quotes a key or name for a message, escaping control
// characters so a message never carries them raw.
func semQuote(s string) string { return quote.String(s) }

// tool returns the registry's facts about a reader's tool.
func (c *semantic) tool(r *registry.Reader) *registry.Tool {
	t, _ := c.in.Registry.Tool(r.Tool)
	return t
}

// interp is how r's tool expands variables in this file: the reader's own
// interpolation, else the tool's; nil for an unknown tool.
func (c *semantic) interp(r *registry.Reader) *registry.Interpolation {
	if t := c.tool(r); t != nil {
		return t.InterpolationFor(r)
	}
	return nil
}
