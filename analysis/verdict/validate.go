package verdict

import (
	"cmp"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/quote"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Problem is one finding of one dialect's schema about one entry: a fact
// about the entry, not a diagnostic (the schema diagnostics reconcile the
// problems of every reader of a file into messages). Problems are cached
// by the entry's text, so they hold no pointer into a particular parse and
// their spans are relative to the start of the entry's value until the
// caller re-bases them.
type Problem struct {
	Code string
	// Span is where the finding goes. Unused when OnName is set.
	Span span.Span
	// OnName: the finding belongs on the entry's name (a field missing
	// from the entry itself), which lies outside the entry's text.
	OnName bool
	// Loc is the RFC 6901 pointer, relative to the entry, of the field the
	// problem is about: reconciliation matches readers' problems by it.
	Loc string
	// Field is Loc for people: "args", "env.API_KEY", "oauth.callbackPort".
	Field string
	// Detail is the tool-independent sentence, e.g. `"args" must be an
	// array, not a string`. It never quotes a value that may be a secret.
	Detail string
	// Known are the keys the schema allows where an unknown key was found,
	// for "did you mean" suggestions.
	Known []string
	// Needs is, for a field required only alongside another one
	// (dependentRequired), that other field.
	Needs string
	// Data is merged into a diagnostic's Data. Shared: read only.
	Data map[string]any
}

// schemaEntryResult is one dialect's verdict on one entry.
type schemaEntryResult struct {
	// def is the schema definition the entry was read as; "" when the
	// reader skips the entry whole (an unknown type).
	def      string
	problems []Problem
}

// schemaValidateEntry checks the entry n as dialect reads it. def names the
// schema definition to use; "" lets the entry's type decide. Spans in the
// result are absolute.
func schemaValidateEntry(dialect, def string, n *jsonc.Node) schemaEntryResult {
	if def == "" {
		d, ok := dispatchOf(n).Def(dialect)
		if !ok {
			typ := n.Get("type")
			if typ == nil { // ServerDef only fails on a type; be safe anyway
				return schemaEntryResult{}
			}
			return schemaEntryResult{problems: []Problem{schemaUnknownType(dialect, typ.Value, nil)}}
		}
		def = d
	}
	sch, err := schemas.Branch(dialect, def)
	if err != nil {
		// The schemas package's tests keep ServerDef and the $defs in
		// step, so this is a programming error; report nothing rather
		// than something wrong.
		return schemaEntryResult{}
	}
	res := schemaEntryResult{def: def}
	if valid, ok := schemaQuickValid(sch, n); ok && valid {
		return res
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(Decode(n)); !errors.As(err, &ve) {
		return res
	}
	for _, leaf := range schemaLeaves(ve) {
		res.problems = append(res.problems, schemaMapLeaf(dialect, sch, n, leaf)...)
	}
	// A type the branch does not allow (Claude Desktop has one transport)
	// means the tool skips the entry: that is the one thing to say.
	if i := slices.IndexFunc(res.problems, func(p Problem) bool { return p.Code == CodeUnknownServerType }); i >= 0 {
		return schemaEntryResult{problems: res.problems[i : i+1]}
	}
	slices.SortFunc(res.problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Loc, b.Loc), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Detail, b.Detail))
	})
	res.problems = slices.CompactFunc(res.problems, func(a, b Problem) bool {
		return a.Loc == b.Loc && a.Code == b.Code && a.Detail == b.Detail
	})
	return res
}

// DispatchOf is the part of the entry n (an object) that picks its schema
// shape for a dialect (schemas.Dispatch.Def), read from the tree.
func DispatchOf(n *jsonc.Node) schemas.Dispatch { return dispatchOf(n) }

// dispatchOf is the part of entry n that schemas.ServerDef looks at, read
// from the tree in one pass over its members (the last of a duplicated key
// counts, as in Decode) without decoding anything.
func dispatchOf(n *jsonc.Node) schemas.Dispatch {
	var d schemas.Dispatch
	for _, m := range n.Members() {
		if m.Key == nil {
			continue
		}
		switch m.Key.Str {
		case "type":
			d.HasType = true
			d.Type, d.TypeIsString = "", m.Value != nil && m.Value.Kind == jsonc.String
			if d.TypeIsString {
				d.Type = m.Value.Str
			}
		case "url":
			d.HasURL = true
		case "command":
			d.HasCommand = true
		case "httpUrl":
			d.HasHTTPURL = true
		case "settings":
			d.HasSettings = true
		case "serverUrl":
			d.HasServerURL = true
		}
	}
	return d
}

// schemaLeaves returns the leaves of a validation error tree in a deterministic
// order. The root and the inner nodes only say "doesn't validate with".
func schemaLeaves(root *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	stack := []*jsonschema.ValidationError{root}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(e.Causes) == 0 {
			out = append(out, e)
		}
		stack = append(stack, e.Causes...)
	}
	slices.SortFunc(out, func(a, b *jsonschema.ValidationError) int {
		return cmp.Or(
			cmp.Compare(a.InstanceLocation, b.InstanceLocation),
			cmp.Compare(a.AbsoluteKeywordLocation, b.AbsoluteKeywordLocation),
			cmp.Compare(a.Message, b.Message))
	})
	return out
}

// schemaMapLeaf turns one leaf error into problems on exact tokens. It reads the
// failing keyword's schema instead of parsing the library's messages:
// additionalProperties and required errors sit on the parent object and
// name keys only in their (randomly ordered) text, so the keys are found
// by comparing the object's members with the schema's properties.
func schemaMapLeaf(dialect string, branch *jsonschema.Schema, entry *jsonc.Node, leaf *jsonschema.ValidationError) []Problem {
	ptr, err := schemas.InstancePointer(leaf.InstanceLocation)
	if err != nil {
		return nil
	}
	n := entry.Find(ptr)
	s, keyword, rest := schemaAt(branch, leaf.AbsoluteKeywordLocation)
	if n == nil || s == nil {
		return nil
	}
	switch keyword {
	case "additionalProperties":
		return schemaUnknownKeys(s, entry, n, ptr)
	case "required":
		var out []Problem
		for _, k := range s.Required {
			if n.Get(k) == nil {
				out = append(out, schemaMissing(s, entry, n, ptr, k, ""))
			}
		}
		return out
	case "dependentRequired":
		// rest is "<property>/<index>", both pointer-escaped.
		dep, idx, _ := strings.Cut(rest, "/")
		dep = schemaUnescapeToken(dep)
		i, _ := strconv.Atoi(idx)
		if need := s.DependentRequired[dep]; i < len(need) && n.Get(need[i]) == nil {
			p := schemaMissing(s, entry, n, ptr, need[i], fmt.Sprintf("%q needs it", dep))
			p.Needs = dep
			return []Problem{p}
		}
		return nil
	case "enum", "const":
		if ptr == "/type" && n.Parent == entry && schemaIsServerDef(dialect, branch) {
			return []Problem{schemaUnknownType(dialect, n, schemaAllowed(s))}
		}
	}
	return []Problem{schemaBadValue(s, keyword, entry, n, ptr)}
}

// schemaUnknownKeys reports each member of the object n that the schema s does
// not allow, on the member's key.
func schemaUnknownKeys(s *jsonschema.Schema, entry, n *jsonc.Node, ptr string) []Problem {
	known := schemaPropertyNames(s)
	var out []Problem
	// Earlier duplicates are skipped: they are reported as such.
	for _, m := range lastMembers(n) {
		k := m.Key.Str
		if s.Properties[k] != nil || schemaMatchesPattern(s, k) {
			continue
		}
		loc := ptr + "/" + EscapeToken(k)
		out = append(out, Problem{
			Code:  CodeUnknownKey,
			Span:  m.Key.Span,
			Loc:   loc,
			Field: schemaFieldName(entry, m.Value),
			Known: known,
			Data:  map[string]any{"key": k},
		})
	}
	return out
}

// schemaMissing reports the required key k of the object n. A key missing from
// the entry itself goes on the entry's name; one missing from a nested
// object goes on that object's key (or on the object, in an array).
func schemaMissing(s *jsonschema.Schema, entry, n *jsonc.Node, ptr, k, why string) Problem {
	p := Problem{Code: CodeMissingField, Loc: ptr + "/" + EscapeToken(k)}
	switch {
	case n == entry:
		p.OnName = true
		p.Field = k
	case n.Member() != nil:
		p.Span = n.Member().Key.Span
		p.Field = schemaFieldName(entry, n) + "." + k
	default:
		p.Span = n.Span
		p.Field = schemaFieldName(entry, n) + "." + k
	}
	p.Detail = fmt.Sprintf("%q is missing", p.Field)
	p.Data = map[string]any{"field": p.Field}
	if sub := s.Properties[k]; k == "type" && sub != nil {
		if vals := schemaAllowed(sub); len(vals) > 0 {
			p.Detail += fmt.Sprintf(" (use %q)", vals[0])
			p.Data = map[string]any{"field": p.Field, "validValues": vals}
		}
	}
	if k == "enabled" && n == entry && s.Properties["type"] == nil {
		// OpenCode's {"enabled": ...} form: chosen because the entry has
		// no type, command or url, so it is more likely a server whose
		// definition is missing than a switch without its value.
		why = `an entry without "type", "command" or "url" can only turn a server from another config file on or off`
	}
	if why != "" {
		p.Detail += " (" + why + ")"
	}
	return p
}

// schemaBadValue reports a value that fails keyword of schema s.
func schemaBadValue(s *jsonschema.Schema, keyword string, entry, n *jsonc.Node, ptr string) Problem {
	field := schemaFieldName(entry, n)
	p := Problem{Code: CodeInvalidFieldValue, Span: Widen(n), Loc: ptr, Field: field}
	q := strconv.Quote(field)
	data := map[string]any{"field": field}
	switch keyword {
	case "type":
		p.Detail = fmt.Sprintf("%s must be %s, not %s", q, schemaDescribeTypes(s), DescribeKind(n.Kind))
		if slices.Contains(s.Types, "integer") && n.Kind == jsonc.Number {
			p.Detail = q + " must be a whole number"
		}
		data["expected"] = slices.Clone(s.Types)
	case "enum", "const":
		vals := schemaAllowed(s)
		p.Detail = fmt.Sprintf("%s must be %s", q, schemaOneOf(vals))
		if shown, ok := schemaShowValue(n, ptr); ok {
			p.Detail += ", not " + shown
		}
		if len(vals) > 0 {
			data["validValues"] = vals
		}
	case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
		p.Detail = q + " must be " + schemaDescribeRange(s)
	case "minLength":
		p.Detail = q + " must not be empty"
		if s.MinLength > 1 {
			p.Detail = fmt.Sprintf("%s must be at least %d characters long", q, s.MinLength)
		}
	case "maxLength":
		p.Detail = fmt.Sprintf("%s must be at most %d characters long", q, s.MaxLength)
	case "minItems":
		p.Detail = q + " must not be empty"
		if s.MinItems > 1 {
			p.Detail = fmt.Sprintf("%s must have at least %d elements", q, s.MinItems)
		}
	case "maxItems":
		p.Detail = fmt.Sprintf("%s must have at most %d elements", q, s.MaxItems)
	case "pattern":
		p.Detail = q + " " + schemaDescribePattern(s)
	case "format":
		p.Detail = fmt.Sprintf("%s is not a valid %s", q, s.Format)
	case "not":
		// A field of the other transport (Codex CLI: "url is not
		// supported for stdio"), or one the tool refuses outright.
		p.Detail = q + " is not supported for this kind of server"
	default:
		p.Detail = q + " has a value the tool does not accept"
	}
	p.Data = data
	return p
}

// schemaUnknownType reports a server type the dialect does not know, on the
// type's value. allowedHere overrides the dialect's list of types.
func schemaUnknownType(dialect string, v *jsonc.Node, allowedHere []string) Problem {
	vals := allowedHere
	var data map[string]any
	if vals == nil {
		if f := factsOf(dialect); f != nil {
			// The same for every entry of the dialect (a 1,000-server
			// file read by a tool that does not know its type has a
			// thousand of these), and read-only: shared.
			data = f.unknownTypeData
		}
		vals = TypeValues(dialect)
	}
	if data == nil {
		data = map[string]any{"field": "type", "validValues": vals}
	}
	p := Problem{Code: CodeUnknownServerType, Span: Widen(v), Loc: "/type", Field: "type", Data: data}
	if v.Kind == jsonc.String {
		p.Detail = "unknown type " + quote.String(v.Str)
		if len(v.Str) > 40 {
			p.Detail = "unknown type" // not a type: do not echo it
		}
		// The suggestion, and the fix, are the rule's (rules.Fix).
	} else {
		p.Detail = fmt.Sprintf(`"type" must be a string, not %s`, DescribeKind(v.Kind))
	}
	return p
}

// schemaShowValue quotes a rejected value for a message, if that is safe: short
// strings and numbers outside the maps that carry secrets (env,
// environment, headers) and outside OAuth settings.
func schemaShowValue(n *jsonc.Node, ptr string) (string, bool) {
	first, _, _ := strings.Cut(strings.TrimPrefix(ptr, "/"), "/")
	switch first {
	case "env", "environment", "headers", "oauth", "auth":
		return "", false
	}
	switch n.Kind {
	case jsonc.String:
		if len(n.Str) <= 40 && !strings.ContainsFunc(n.Str, func(r rune) bool { return r < ' ' }) {
			return strconv.Quote(n.Str), true
		}
	case jsonc.Number:
		return n.Str, true
	case jsonc.True, jsonc.False, jsonc.Null:
		return n.Kind.String(), true
	}
	return "", false
}

// schemaFieldName renders n's place inside entry for people: keys joined by
// dots, array indexes in brackets ("args[0]", "env.API_KEY").
func schemaFieldName(entry, n *jsonc.Node) string {
	var parts []string
	for c := n; c != nil && c != entry; c = c.Parent {
		if m := c.Member(); m != nil {
			parts = append(parts, m.Key.Str)
		} else if c.Parent != nil && c.Parent.Kind == jsonc.Array {
			parts = append(parts, "["+strconv.Itoa(slices.Index(c.Parent.Elements(), c))+"]")
		}
	}
	slices.Reverse(parts)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// schemaDescribeTypes names the JSON types schema s accepts: "an array of
// strings", "a string, a number or null".
func schemaDescribeTypes(s *jsonschema.Schema) string {
	words := make([]string, len(s.Types))
	for i, t := range s.Types {
		switch t {
		case "array":
			words[i] = "an array"
			if it := s.Items2020; it != nil && len(it.Types) == 1 && it.Types[0] == "string" {
				words[i] = "an array of strings"
			}
		case "object":
			words[i] = "an object"
		case "integer":
			words[i] = "an integer"
		case "null":
			words[i] = "null"
		default:
			words[i] = "a " + t
		}
	}
	return schemaJoinOr(words)
}

// schemaDescribeRange says which numbers schema s accepts.
func schemaDescribeRange(s *jsonschema.Schema) string {
	integer := slices.Contains(s.Types, "integer")
	var parts []string
	switch {
	case integer && (schemaRatIs(s.Minimum, 1) || schemaRatIs(s.ExclusiveMinimum, 0)) && s.Maximum == nil:
		return "a positive integer"
	case s.Minimum != nil:
		parts = append(parts, "at least "+s.Minimum.RatString())
	case s.ExclusiveMinimum != nil:
		parts = append(parts, "greater than "+s.ExclusiveMinimum.RatString())
	}
	switch {
	case s.Maximum != nil:
		parts = append(parts, "at most "+s.Maximum.RatString())
	case s.ExclusiveMaximum != nil:
		parts = append(parts, "less than "+s.ExclusiveMaximum.RatString())
	}
	if len(parts) == 2 && s.Minimum != nil && s.Maximum != nil {
		return fmt.Sprintf("between %s and %s", s.Minimum.RatString(), s.Maximum.RatString())
	}
	return strings.Join(parts, " and ")
}

func schemaRatIs(r *big.Rat, n int64) bool { return r != nil && r.Cmp(big.NewRat(n, 1)) == 0 }

// schemaPatterns phrases the few patterns of the schemas for people; any
// other pattern gets a plain sentence.
var schemaPatterns = map[string]string{
	"^https://":                       "must start with https://",
	`^(?:https?://|unix:|pipe:|\$\{)`: "must start with http://, https://, unix: or pipe: (or a variable such as ${input:id})",
}

func schemaDescribePattern(s *jsonschema.Schema) string {
	if s.Pattern != nil {
		if d, ok := schemaPatterns[s.Pattern.String()]; ok {
			return d
		}
	}
	return "does not have the form the tool expects"
}

// schemaAllowed returns the values an enum or const schema accepts, as strings.
func schemaAllowed(s *jsonschema.Schema) []string {
	vals := s.Enum
	if len(vals) == 0 && len(s.Constant) > 0 {
		vals = s.Constant[:1]
	}
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

// schemaOneOf renders allowed values: `"auto" or "never"`, `false`.
func schemaOneOf(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
		if v == "true" || v == "false" || v == "null" {
			q[i] = v
		}
	}
	if len(q) > 1 {
		return "one of " + strings.Join(q, ", ")
	}
	return schemaJoinOr(q)
}

func schemaJoinOr(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func schemaPropertyNames(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func schemaMatchesPattern(s *jsonschema.Schema, k string) bool {
	for re := range s.PatternProperties {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

// RFC 6901 token escaping.
var (
	schemaTokenEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	schemaTokenUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func EscapeToken(s string) string         { return schemaTokenEscaper.Replace(s) }
func schemaUnescapeToken(s string) string { return schemaTokenUnescaper.Replace(s) }

// schemaAt finds the schema whose keyword failed at abs, an
// AbsoluteKeywordLocation such as ".../$defs/stdioServer/properties/args/type"
// or ".../$defs/remoteServer/dependentRequired/oauthScopes/0". It returns
// that schema, the keyword ("type", "dependentRequired") and what follows
// the keyword. Locations are looked up in an index of every schema
// reachable from the branch, longest prefix first, so a property named
// like a keyword ("type") is not mistaken for one.
func schemaAt(branch *jsonschema.Schema, abs string) (s *jsonschema.Schema, keyword, rest string) {
	idx := schemaIndex(branch)
	for i := strings.LastIndexByte(abs, '/'); i > 0; i = strings.LastIndexByte(abs[:i], '/') {
		if s, ok := idx[abs[:i]]; ok {
			keyword, rest, _ = strings.Cut(abs[i+1:], "/")
			return s, keyword, rest
		}
	}
	return nil, "", ""
}

// schemaIndexes caches, per branch, its reachable schemas by Location. Schemas
// are compiled once and never freed, so the cache is bounded by the
// number of branches.
var schemaIndexes struct {
	sync.Mutex
	m map[*jsonschema.Schema]map[string]*jsonschema.Schema
}

func schemaIndex(branch *jsonschema.Schema) map[string]*jsonschema.Schema {
	schemaIndexes.Lock()
	defer schemaIndexes.Unlock()
	if idx, ok := schemaIndexes.m[branch]; ok {
		return idx
	}
	idx := map[string]*jsonschema.Schema{}
	var visit func(s *jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if s == nil || idx[s.Location] != nil {
			return
		}
		idx[s.Location] = s
		for _, c := range schemas.Subschemas(s) {
			visit(c)
		}
	}
	visit(branch)
	if schemaIndexes.m == nil {
		schemaIndexes.m = map[*jsonschema.Schema]map[string]*jsonschema.Schema{}
	}
	schemaIndexes.m[branch] = idx
	return idx
}

// schemaServerDefs are, per dialect, the $defs that describe one server entry:
// the shapes schemas.ServerDef chooses from (schemas' tests pin the list).
var schemaServerDefs = map[string][]string{
	schemas.ClaudeCode:    {"stdioServer", "sseServer", "httpServer", "wsServer"},
	schemas.ClaudeDesktop: {"stdioServer"},
	schemas.CopilotCLI:    {"localServer", "remoteServer"},
	schemas.Cursor:        {"stdioServer", "remoteServer"},
	schemas.OpenCode:      {"localServer", "remoteServer", "enabledOverride"},
	schemas.VSCode:        {"stdioServer", "httpServer"},
	schemas.CodexCLI:      {"stdioServer", "httpServer"},
}

// schemaIsServerDef reports whether branch is one of dialect's server shapes
// (and not, say, VS Code's input definition).
func schemaIsServerDef(dialect string, branch *jsonschema.Schema) bool {
	for _, def := range schemaServerDefs[dialect] {
		if s, err := schemas.Branch(dialect, def); err == nil && s == branch {
			return true
		}
	}
	return false
}

// schemaDialectFacts are what messages need to know about a dialect's schema:
// its server types and the keys of each server shape.
type schemaDialectFacts struct {
	types []string            // valid values of a server's type
	keys  map[string][]string // server shape -> its keys
	// unknownTypeData is the Data of an unknown type's problem
	// (schemaUnknownType), the same for every entry: read-only.
	unknownTypeData map[string]any
}

// schemaFacts are each dialect's facts, computed on first use one dialect
// at a time: the first analysis of a .mcp.json waits for its readers'
// schemas only, not for every dialect's.
var schemaFacts = func() map[string]func() *schemaDialectFacts {
	out := map[string]func() *schemaDialectFacts{}
	for d, defs := range schemaServerDefs {
		out[d] = sync.OnceValue(func() *schemaDialectFacts { return dialectFacts(d, defs) })
	}
	return out
}()

func dialectFacts(d string, defs []string) *schemaDialectFacts {
	df := &schemaDialectFacts{keys: map[string][]string{}}
	for _, def := range defs {
		s, err := schemas.Branch(d, def)
		if err != nil {
			continue
		}
		df.keys[def] = schemaPropertyNames(s)
		if t := s.Properties["type"]; t != nil {
			for _, v := range schemaAllowed(t) {
				if !slices.Contains(df.types, v) {
					df.types = append(df.types, v)
				}
			}
		}
	}
	// The dispatcher's own list is in the file's order, which is the
	// order the docs present the types in; prefer it when present.
	if s, err := schemas.Branch(d, "server"); err == nil && s.Properties["type"] != nil {
		df.types = schemaAllowed(s.Properties["type"])
	}
	df.unknownTypeData = map[string]any{"field": "type", "validValues": df.types}
	return df
}

// factsOf returns dialect's facts, nil for a dialect without server
// shapes listed in schemaServerDefs.
func factsOf(dialect string) *schemaDialectFacts {
	if f, ok := schemaFacts[dialect]; ok {
		return f()
	}
	return nil
}

// TypeValues lists the server types dialect knows, in its schema's order.
func TypeValues(dialect string) []string {
	if f := factsOf(dialect); f != nil {
		return f.types
	}
	return nil
}

// ServerKeys lists every key of any server shape of dialect.
func ServerKeys(dialect string) []string {
	var out []string
	if f := factsOf(dialect); f != nil {
		for _, keys := range f.keys {
			out = append(out, keys...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ShapeWithKey returns a server shape of dialect, other than def, that
// has key: "url" belongs to a remote shape when the entry was read as a
// stdio one.
func ShapeWithKey(dialect, def, key string) string {
	f := factsOf(dialect)
	if f == nil {
		return ""
	}
	for _, d := range schemaServerDefs[dialect] {
		if d != def && slices.Contains(f.keys[d], key) {
			return d
		}
	}
	return ""
}

// Validate checks n against dialect's schema definition def ("" lets the
// entry's type decide) and returns the definition used ("" when the
// type is unknown) and the problems, spans relative to n's start. It is
// for what is not a server entry (VS Code's inputs); entries go through
// Of.
func Validate(dialect, def string, n *jsonc.Node) (string, []Problem) {
	res := schemaValidateEntry(dialect, def, n)
	for i := range res.problems {
		if p := &res.problems[i]; !p.OnName {
			p.Span = rel(p.Span, n)
		}
	}
	return res.def, res.problems
}

// CommandIsArray reports whether dialect's server shape def takes its
// "command" as one array holding the program and its arguments
// (OpenCode's local servers), rather than a string with "args" beside
// it: the schema's fact, for the rules about the command's form.
func CommandIsArray(dialect, def string) bool {
	s, err := schemas.Branch(dialect, def)
	if err != nil || s == nil {
		return false
	}
	p := s.Properties["command"]
	for p != nil && p.Ref != nil && len(p.Types) == 0 {
		p = p.Ref
	}
	return p != nil && slices.Contains(p.Types, "array") && !slices.Contains(p.Types, "string")
}

// prepared are the dialects Prepare compiles: those of the readers of a
// .mcp.json (TestPrepareCoversTheMCPJSONReaders).
var prepared = []string{schemas.ClaudeCode, schemas.CopilotCLI, schemas.VSCodeDotMCP, schemas.RooCode}

// Prepare compiles the schemas, and what the messages need to know of
// them, that the first analysis of a .mcp.json (the most common file to
// open) would otherwise pay for on its way to the diagnostics: those of
// its readers, Claude Code, Copilot CLI, VS Code and Kilo Code. The
// language server calls it in the background as it starts, before any
// file arrives. Every other dialect compiles on first use (about 1 ms of
// CPU each since the schemas are trusted, schemas/trusted.go), and is not
// kept in memory by a server that never needs it.
func Prepare() {
	for _, d := range prepared {
		if _, err := schemas.Compiled(d); err == nil {
			factsOf(d)
		}
	}
}
