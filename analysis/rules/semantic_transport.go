package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Transport rules: does each reader see a server it can start or reach?
// The reader's view of an entry is the shape schemas.ServerDef picks for
// it, so these rules and the schema rules always agree on what a tool
// takes an entry for; they report causes the schema cannot name (a url
// read as stdio, a type spelled for another tool, a URL Copilot CLI
// parses before expanding variables).

// The transport rules. A reader that does not know the entry's type skips
// it whole (type-not-accepted says so), so the field rules only ask the
// readers that know it.

// missingCommand reports a local server without "command", except to the
// readers missing-type already blames for the entry.
func (c *semantic) missingCommand(e *semEntry) {
	_, skippedForType := c.missingType(e)
	c.missingField(e, "command", semStdio, skippedForType, CodeMissingCommand,
		`a local server needs "command", the program to start`)
}

// missingURL reports a remote server without "url".
func (c *semantic) missingURL(e *semEntry) {
	c.missingField(e, "url", semRemote, nil, CodeMissingURL, `a remote server needs "url"`)
}

// missingTypeRule reports an entry without "type" that a reader cannot
// read without one (missingType).
func (c *semantic) missingTypeRule(e *semEntry) {
	if d, _ := c.missingType(e); d != nil {
		c.add(*d)
	}
}

// semTypeSpellings are the spellings of each transport per dialect, the
// preferred one first. Case matters to every tool ("HTTP" is skipped:
// verified with Claude Code 2.1.197 and Copilot CLI 1.0.102).
var semTypeSpellings = map[string]map[string][]string{
	schemas.ClaudeCode: {"stdio": {"stdio"}, "http": {"http", "streamable-http"}, "sse": {"sse"}, "ws": {"ws"}},
	schemas.CopilotCLI: {"stdio": {"stdio", "local"}, "http": {"http", "streamable-http"}, "sse": {"sse"}},
	schemas.OpenCode:   {"stdio": {"local"}, "http": {"remote"}, "sse": {"remote"}},
	schemas.VSCode:     {"stdio": {"stdio"}, "http": {"http"}, "sse": {"sse"}},
	schemas.Cursor:     {"stdio": {"stdio"}, "http": {"http", "streamable-http"}, "sse": {"sse"}},
	schemas.RooCode:    {"stdio": {"stdio"}, "http": {"streamable-http"}, "sse": {"sse"}},
}

// semTypeClass is the transport a type spelling means in any tool, "" if it
// means none.
func semTypeClass(v string) string {
	switch strings.ToLower(v) {
	case "stdio", "local":
		return "stdio"
	case "http", "streamable-http", "streamablehttp", "streamable_http", "remote":
		return "http"
	case "sse":
		return "sse"
	case "ws", "websocket":
		return "ws"
	}
	return ""
}

// typeNotAccepted reports a "type" some reader does not know, with the
// spelling that works for every reader when there is one: Claude Code
// skips "local" (verified), Copilot CLI skips "ws" (verified), OpenCode
// refuses "stdio" (verified).
func (c *semantic) typeNotAccepted(e *semEntry) {
	m := typeNotAcceptedOn(e.obj, e.readers, func(i int) string { return e.defs[i] })
	if m == nil {
		return
	}
	v := m.Value.Str
	var vsStore [8]semVerdict // on the stack for a file kind's few readers
	vs := semVerdicts(vsStore[:0])
	for i, r := range e.readers {
		vs = append(vs, semVerdict{r, typeOutcome(r, e.defs[i])})
	}
	sev, _ := vs.severity()
	repl := c.commonType(e, semTypeClass(v))
	data := semData(e.s.Name, vs.readers(outSkipped, outRefused, outMayNotLoad), "field", "type", "value", v)
	var fix string
	switch {
	case repl != "" && strings.EqualFold(repl, v):
		fix = "types are case-sensitive: " + semQuote(repl) + semWorksIn(len(e.readers))
	case repl != "" && len(e.readers) > 1:
		fix = semQuote(repl) + semWorksIn(len(e.readers))
	case repl != "":
		fix = "use " + semQuote(repl)
	default:
		if rs := vs.readers(outSkipped, outRefused, outMayNotLoad); len(rs) == 1 {
			known := semKnownTypes(string(rs[0].Dialect))
			if len(known) == 0 {
				known = verdict.TypeValues(string(rs[0].Dialect)) // its schema's list
			}
			if len(known) > 0 {
				fix = fmt.Sprintf("%s knows %s", toolName(c.in, rs[0].Tool), quoteList(known))
			}
		}
	}
	if repl != "" {
		data[FixKey] = Fix{Kind: FixReplaceValue, Key: "type", Value: repl, Safe: true}
	}
	c.add(Diagnostic{
		Span:     m.Value.Span,
		Severity: sev,
		Code:     CodeTypeNotAccepted,
		Message:  semMessage(c.blame(e.s.Name, vs, ""), "unknown type "+semQuote(v), c.acceptors(vs), fix),
		Data:     data,
	})
}

// typeNotAcceptedCheck is type-not-accepted's check. The schema check asks
// whether it runs (schemaCheck.typeRule).
var typeNotAcceptedCheck = entryCheck((*semantic).typeNotAccepted)

// typeNotAcceptedOn is type-not-accepted's decision on the definition obj
// (an object the entry rules judge; nil for none) whose readers pick the
// schema shapes def(i), "" for a reader that does not know its type: the
// "type" member it reports on, nil when it reports nothing. A "type" that
// is absent is missing-type's; one that is not a string, the schema's.
// The schema check asks it too: its unknown-server-type on the same span
// is a generic duplicate, dropped (dropGenericDuplicates), so it is not
// built (schemaCheck.unknownTypeReported).
func typeNotAcceptedOn(obj *jsonc.Node, readers []*registry.Reader, def func(i int) string) *jsonc.Member {
	if obj == nil || obj.Kind != jsonc.Object {
		return nil
	}
	m := obj.Get("type")
	if m == nil || m.Value.Kind != jsonc.String {
		return nil
	}
	for i, r := range readers {
		if typeOutcome(r, def(i)) != outAccepted {
			return m
		}
	}
	return nil
}

// typeOutcome is what reader r does with an entry for which it picks the
// schema shape def: it accepts it, or, not knowing the type (def ""),
// does what it does with an entry it cannot read.
func typeOutcome(r *registry.Reader, def string) semOutcome {
	if def != "" {
		return outAccepted
	}
	return semRejects(r)
}

// semKnownTypes lists a dialect's type spellings, for a message.
func semKnownTypes(dialect string) []string {
	var out []string
	for _, class := range []string{"stdio", "http", "sse", "ws"} {
		for _, s := range semTypeSpellings[dialect][class] {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// commonType returns the spelling of transport class that every reader of
// e accepts for the same transport, or "". It depends on the readers, the
// class and what picks the entry's shape (its dispatch), which the
// servers of a large file share: answers are kept for the pass
// (semantic.commonTypes).
func (c *semantic) commonType(e *semEntry, class string) string {
	if class == "" {
		return ""
	}
	k := commonTypeKey{class: class, dispatch: e.dispatch, n: len(e.readers)}
	if len(e.readers) > 0 {
		k.first = &e.readers[0]
	}
	if repl, ok := c.commonTypes[k]; ok {
		return repl
	}
	repl := c.commonTypeOf(e, class)
	if c.commonTypes == nil {
		c.commonTypes = map[commonTypeKey]string{}
	}
	c.commonTypes[k] = repl
	return repl
}

// commonTypeKey is what commonType's answer depends on: the class, the
// entry's dispatch and its readers (a slice of the pass's, the same
// backing array for every server of a map).
type commonTypeKey struct {
	class    string
	dispatch schemas.Dispatch
	first    **registry.Reader
	n        int
}

// commonTypeOf is commonType, computed.
func (c *semantic) commonTypeOf(e *semEntry, class string) string {
	for _, r := range e.readers {
		for _, cand := range semTypeSpellings[string(r.Dialect)][class] {
			if c.everyReaderTakes(e, cand, class) {
				return cand
			}
		}
	}
	return ""
}

// everyReaderTakes reports whether every reader would read e with type
// cand as a server of transport class.
func (c *semantic) everyReaderTakes(e *semEntry, cand, class string) bool {
	d := e.withType(cand)
	want := semRemote
	if class == "stdio" {
		want = semStdio
	}
	for _, r := range e.readers {
		def, ok := d.Def(string(r.Dialect))
		if !ok || semTransportOf(def) != want {
			return false
		}
	}
	return true
}

// missingType is the finding on an entry without "type" that a reader
// cannot read without one, and those readers (nil, nil: none). Claude Code takes an entry
// without type for stdio even when it has a url, so a url-only entry is
// skipped ("has a "url" but no "type"", verified, Claude Code 2.1.328),
// while Copilot CLI reads it as http (verified, 1.0.102). OpenCode
// requires type in every entry (verified, 1.18.33).
func (c *semantic) missingType(e *semEntry) (*Diagnostic, []*registry.Reader) {
	if e.has("type") {
		return nil, nil
	}
	hasURL, hasCommand := e.has("url"), e.has("command")
	var vs semVerdicts
	var repl string
	for i, r := range e.readers {
		o := outAccepted
		// The reader's verdict decides; its dialect says which reason
		// stands for a missing type and how the type is spelled.
		switch string(r.Dialect) {
		case schemas.ClaudeCode:
			if reason := e.reason(i, CodeMissingType, ""); reason != nil {
				o, repl = semOutcomeOf(reason.Outcome), semRemoteType(e)
			}
		case schemas.OpenCode:
			if reason := e.reason(i, verdict.CodeMissingField, "type"); reason != nil && (hasCommand || hasURL) {
				o, repl = semOutcomeOf(reason.Outcome), "remote"
				if hasCommand {
					repl = "local"
				}
			}
		case schemas.RooCode:
			// Roo Code and Kilo Code skip a url without type alone
			// (validateServerConfig); a command needs none.
			if reason := e.reason(i, verdict.CodeMissingField, "type"); reason != nil && hasURL && !hasCommand {
				o = semOutcomeOf(reason.Outcome)
				if repl == "" {
					repl = semRemoteType(e)
				}
			}
		}
		vs = append(vs, semVerdict{r, o})
	}
	sev, ok := vs.severity()
	if !ok {
		return nil, nil
	}
	blamed := vs.readers(outSkipped, outRefused, outMayNotLoad)
	// The spelling every reader takes: Claude Code's "http" is no type
	// to Kilo Code reading the same .mcp.json, "streamable-http" is.
	if blamed[0].Dialect != schemas.OpenCode {
		if cand := c.commonType(e, semTypeClass(repl)); cand != "" {
			repl = cand
		}
	}
	// Claude Code's own words (2.1.328: `MCP server "x" has a "url" but no
	// "type"; add "type": "http" (or "sse" / "ws") to this entry`).
	reason := `it has a "url" but no "type"`
	if blamed[0].Dialect == schemas.OpenCode {
		reason = `"type" is required ("local" or "remote")`
	}
	fix := fmt.Sprintf(`add "type": %q`, repl)
	if e.has("transport") {
		fix = fmt.Sprintf(`rename "transport" to "type" (with the value %q)`, repl)
	}
	return &Diagnostic{
		Span:     e.s.Key().Span,
		Severity: sev,
		Code:     CodeMissingType,
		Message:  semMessage(c.blame(e.s.Name, vs, ""), reason, c.acceptors(vs), fix),
		Data:     semData(e.s.Name, blamed, "field", "type", FixKey, Fix{Kind: FixAddMember, Key: "type", Value: repl, Safe: true}),
	}, blamed
}

// semRemoteType guesses the remote type a url-only entry means: "sse" for an
// endpoint path ending in /sse (the common convention), else "http".
func semRemoteType(e *semEntry) string {
	var u string
	if m := e.member("url"); m != nil {
		u, _ = verdict.Decode(m.Value).(string)
	}
	u, _, _ = strings.Cut(u, "?")
	if strings.HasSuffix(strings.TrimRight(u, "/"), "/sse") {
		return "sse"
	}
	return "http"
}

// missingField reports a field an entry needs for the transport each
// reader reads it as: "command" for stdio, "url" for remote. Readers in
// exclude already reported the entry for another cause.
func (c *semantic) missingField(e *semEntry, field string, t semTransport, exclude []*registry.Reader, code, reason string) {
	if e.has(field) {
		return
	}
	var vsStore [8]semVerdict // on the stack for a file kind's few readers
	vs := semVerdicts(vsStore[:0])
	for i, r := range e.readers {
		o := outAccepted
		if semTransportOf(e.defs[i]) == t && !slices.Contains(exclude, r) && !c.readsAlias(r, e, field) {
			o = semRejects(r)
			if mo, ok := verdict.MissingField(r); ok {
				o = semOutcomeOf(mo)
			}
		}
		if e.defs[i] != "" {
			vs = append(vs, semVerdict{r, o})
		}
	}
	sev, ok := vs.severity()
	if !ok {
		return
	}
	if alias := c.aliasOf(e, field); alias != "" {
		reason += fmt.Sprintf(" (%q is not read: the key is %q)", alias, field)
	}
	c.add(Diagnostic{
		Span:     e.s.Key().Span,
		Severity: sev,
		Code:     code,
		Message:  semMessage(c.blame(e.s.Name, vs, ""), reason, c.acceptors(vs), ""),
		Data:     semData(e.s.Name, vs.readers(outSkipped, outRefused, outMayNotLoad), "field", field),
	})
}

// readsAlias reports whether reader r takes the url from another key that
// e has: Windsurf reads it from "serverUrl", Gemini CLI from "httpUrl".
func (c *semantic) readsAlias(r *registry.Reader, e *semEntry, field string) bool {
	if field != "url" {
		return false
	}
	for _, k := range semForeignKeyOrder {
		if fk := semForeignKeys[k]; fk.replacement == field && slices.Contains(fk.knownBy, string(r.Dialect)) && e.has(k) {
			return true
		}
	}
	return false
}

// aliasOf returns a key of e that no reader knows and that other tools
// spell field with ("serverUrl" for "url").
func (c *semantic) aliasOf(e *semEntry, field string) string {
	for _, k := range semForeignKeyOrder {
		if fk := semForeignKeys[k]; fk.replacement == field && e.has(k) && !slices.ContainsFunc(e.readers, func(r *registry.Reader) bool {
			return slices.Contains(fk.knownBy, string(r.Dialect))
		}) && (len(fk.knownBy) == 0 || k == "serverUrl") {
			return k
		}
	}
	return ""
}

// commandForm reports a command written in another tool's form. OpenCode
// takes the program and its arguments as one array (a string is refused:
// "Expected array", verified with 1.18.33); every other tool takes a
// string plus "args" (an array is skipped: "command: expected string").
func (c *semantic) commandForm(e *semEntry) {
	m := e.s.Field("command")
	if m == nil || m.Value.Kind != jsonc.String && m.Value.Kind != jsonc.Array {
		return
	}
	isArray := m.Value.Kind == jsonc.Array
	var vs semVerdicts
	for i, r := range e.readers {
		if semTransportOf(e.views[i]) != semStdio {
			continue
		}
		o := outAccepted
		if wantsArray := verdict.CommandIsArray(string(r.Dialect), e.views[i]); wantsArray != isArray {
			o = semRejects(r)
		}
		vs = append(vs, semVerdict{r, o})
	}
	sev, ok := vs.severity()
	if !ok {
		return
	}
	reason := `"command" must be a string, the program alone ("command: expected string")`
	fix := `put the first element in "command" and the rest in "args"`
	expected := "string"
	if !isArray {
		expected = "array"
		reason = `"command" must be one array holding the program and its arguments ("Expected array")`
		switch {
		case e.has("args"):
			fix = `merge "command" and "args" into one array`
		case strings.ContainsAny(strings.TrimSpace(m.Value.Str), " \t"):
			fix = "split it into an array of words"
		case !semHasSecret(m.Value.Str):
			fix = fmt.Sprintf("write [%q]", m.Value.Str)
		}
	}
	c.add(Diagnostic{
		Span:     m.Value.Span,
		Severity: sev,
		Code:     CodeCommandForm,
		Message:  semMessage(c.blame(e.s.Name, vs, ""), reason, c.acceptors(vs), fix),
		Data: semData(e.s.Name, vs.readers(outSkipped, outRefused, outMayNotLoad), "field", "command", "expected", expected,
			FixKey, Fix{Kind: FixReshapeCommand, Key: "command", Value: expected, Safe: true}),
	})
}

// emptyCommand reports an empty command. Claude Code skips the server
// ("Command cannot be empty", verified with 2.1.197); Copilot CLI loads an
// empty string and OpenCode an empty array (verified), but neither can
// start anything, so where no reader skips it the finding is a warning.
func (c *semantic) emptyCommand(e *semEntry) {
	m := e.s.Field("command")
	if m == nil {
		return
	}
	var vs semVerdicts
	for i, r := range e.readers {
		if semTransportOf(e.views[i]) != semStdio || !semEmptyProgram(m.Value, verdict.CommandIsArray(string(r.Dialect), e.views[i])) {
			continue
		}
		o := outAccepted
		if why := e.reason(i, verdict.CodeInvalidFieldValue, "command"); why != nil {
			o = semOutcomeOf(why.Outcome)
		}
		vs = append(vs, semVerdict{r, o})
	}
	if len(vs) == 0 {
		return
	}
	d := Diagnostic{Span: m.Value.Span, Code: CodeEmptyCommand, Data: semData(e.s.Name, vs.readers(outAccepted, outSkipped, outRefused, outMayNotLoad), "field", "command")}
	if sev, ok := vs.severity(); ok {
		// "tools" names who does not load it; the others are in the note.
		d.Data = semData(e.s.Name, vs.readers(outSkipped, outRefused, outMayNotLoad), "field", "command")
		d.Severity = sev
		note := ""
		if rs := vs.readers(outAccepted); len(rs) > 0 {
			note = readerNames(c.in, rs) + " " + plural(len(rs), "accepts", "accept") + " the entry but cannot start it"
		}
		// "Command cannot be empty" is Claude Code's own message: quoted
		// as its words only beside another tool's (VS Code leaves an
		// empty command out of the workspace folder's .mcp.json silently).
		why := "the command is empty"
		switch blamed := d.Data["tools"].([]string); {
		case slices.Equal(blamed, []string{"claude-code"}):
			why += ` ("Command cannot be empty")`
		case slices.Contains(blamed, "claude-code"):
			why += ` (Claude Code: "Command cannot be empty")`
		}
		d.Message = semMessage(c.blame(e.s.Name, vs, ""), why, note, "")
	} else {
		rs := vs.readers(outAccepted)
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("server %s has an empty command: %s %s the entry but cannot start it",
			semQuote(e.s.Name), readerNames(c.in, rs), plural(len(rs), "accepts", "accept"))
	}
	c.add(d)
}

// semEmptyProgram reports whether a command value names no program: "" (or
// blanks), or for OpenCode an empty array or one starting with "".
func semEmptyProgram(n *jsonc.Node, array bool) bool {
	switch {
	case !array && n.Kind == jsonc.String:
		return strings.TrimSpace(n.Str) == ""
	case array && n.Kind == jsonc.Array:
		return len(n.Elements()) == 0 || n.Elements()[0].Kind == jsonc.String && strings.TrimSpace(n.Elements()[0].Str) == ""
	}
	return false
}

// invalidURL reports a url a reader rejects, or one no reader can connect
// to. Copilot CLI validates the url as written, with the WHATWG parser,
// before expanding variables: "not a url" and "http://localhost:${PORT}"
// are skipped ("url: Invalid url"), verified with 1.0.102. Claude Code
// expands first and accepts any string; OpenCode accepts any string
// (both verified); VS Code also takes unix: and pipe: URLs.
func (c *semantic) invalidURL(e *semEntry) {
	m := e.s.Field("url")
	if m == nil || m.Value.Kind != jsonc.String {
		return
	}
	raw := m.Value.Str
	scheme, parses := verdict.ParseURL(raw)
	refs := interp.Scan(raw, interp.All)
	var vs semVerdicts
	var defs []string // parallel to vs
	for i, r := range e.readers {
		if semTransportOf(e.defs[i]) != semRemote {
			continue
		}
		o := outAccepted
		if why := e.reason(i, verdict.CodeInvalidURL, "url"); why != nil {
			o = semOutcomeOf(why.Outcome)
		}
		vs = append(vs, semVerdict{r, o})
		defs = append(defs, e.defs[i])
	}
	if len(vs) == 0 {
		return
	}
	if sev, ok := vs.severity(); ok {
		reason := `the url is not a valid URL as written ("url: Invalid url")`
		if len(refs) > 0 {
			reason += fmt.Sprintf(": it is checked before %s is expanded", refs[0])
		}
		c.add(Diagnostic{
			Span:     m.Value.Span,
			Severity: sev,
			Code:     CodeInvalidURL,
			Message:  semMessage(c.blame(e.s.Name, vs, ""), reason, c.acceptors(vs), ""),
			Data:     semData(e.s.Name, vs.readers(outSkipped, outRefused, outMayNotLoad), "field", "url"),
		})
		return
	}
	var cannot []*registry.Reader
	for i, v := range vs {
		if forms, in := semForms(c.interp(v.r), "url"); in && len(interp.Scan(raw, forms)) > 0 {
			continue // what the url becomes depends on the environment
		}
		if !parses || !slices.Contains(semURLSchemes(v.r, defs[i]), scheme) {
			cannot = append(cannot, v.r)
		}
	}
	if len(cannot) == 0 {
		return
	}
	msg := fmt.Sprintf("the url of server %s is not an http(s) URL: %s %s it but cannot connect",
		semQuote(e.s.Name), readerNames(c.in, cannot), plural(len(cannot), "accepts", "accept"))
	data := semData(e.s.Name, cannot, "field", "url")
	if !strings.Contains(raw, "://") {
		msg += ` (add "https://" or "http://")`
		// Whether the server speaks https or http is a guess.
		data[FixKey] = Fix{Kind: FixPrefixValue, Key: "url", Value: "https://"}
	}
	c.add(Diagnostic{Span: m.Value.Span, Severity: SeverityWarning, Code: CodeInvalidURL, Message: msg, Data: data})
}

// semURLSchemes are the URL schemes a reader connects to for a shape.
func semURLSchemes(r *registry.Reader, def string) []string {
	switch {
	case def == "wsServer":
		return []string{"ws", "wss"}
	case r.Dialect == schemas.VSCode:
		return []string{"http", "https", "unix", "pipe"}
	}
	return []string{"http", "https"}
}
