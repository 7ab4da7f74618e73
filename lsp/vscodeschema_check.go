package lsp

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// What VS Code's own MCP schema reports, and what its completion offers,
// computed the way VS Code computes them: a port of the validator of
// vscode-json-languageservice (as bundled in VS Code 1.139's
// json-language-features server) for the keywords VS Code's MCP schema
// uses. The port matters where the schema has a choice: a server is
// oneOf a stdio and a remote shape, and VS Code reports the problems of
// the alternative that matches best (a "type" value picks the
// alternative first; otherwise the one with no problems, then the one
// whose enums and property values match most), and completes from it.
// vscodeschema.go decides with the result which of mcp-lsp's findings and
// completion items would duplicate VS Code's.

//go:embed vscode-mcp-schema.json
var vscodeMCPSchemaJSON []byte

// vsSchema is the part of JSON Schema VS Code's MCP schema uses.
type vsSchema struct {
	Type                 vsTypes              `json:"type"`
	Enum                 []any                `json:"enum"`
	Properties           map[string]*vsSchema `json:"properties"`
	AdditionalProperties *vsSchema            `json:"additionalProperties"`
	Required             []string             `json:"required"`
	Items                *vsSchema            `json:"items"`
	OneOf                []*vsSchema          `json:"oneOf"`
	AnyOf                []*vsSchema          `json:"anyOf"`
	Pattern              string               `json:"pattern"`
	Format               string               `json:"format"`
	MinLength            *int                 `json:"minLength"`
	MinProperties        *int                 `json:"minProperties"`
	Comment              string               `json:"$comment"`

	// never is the schema false (additionalProperties: false).
	never   bool
	pattern *regexp.Regexp
}

// vsTypes is "type": one name or a list of them.
type vsTypes []string

func (t *vsTypes) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		return json.Unmarshal(b, (*[]string)(t))
	}
	var one string
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*t = vsTypes{one}
	return nil
}

func (s *vsSchema) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "false":
		s.never = true
		return nil
	case "true":
		return nil
	}
	type plain vsSchema
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // a keyword the port does not know must not be ignored
	if err := dec.Decode((*plain)(s)); err != nil {
		return err
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return err
		}
		s.pattern = re
	}
	return nil
}

// vscodeMCPSchema is VS Code's MCP schema, decoded once.
var vscodeMCPSchema = sync.OnceValue(func() *vsSchema {
	var s vsSchema
	if err := json.Unmarshal(vscodeMCPSchemaJSON, &s); err != nil {
		panic(fmt.Sprintf("vscode-mcp-schema.json: %v", err))
	}
	return &s
})

// vsProblem is one problem VS Code's schema reports: on node (a value, or
// the key of a property that is not allowed).
type vsProblem struct {
	node *jsonc.Node
	at   vsProblemAt
	// missing is the required property missing (at vsOnMissing).
	missing string
	msg     string
}

// vsProblemAt is where VS Code shows a problem.
type vsProblemAt uint8

const (
	vsOnValue   vsProblemAt = iota // on the value node
	vsOnKey                        // on the key of a property that is not allowed
	vsOnMissing                    // a required property missing, on the object
)

// vsMatch is a schema that node matched (for completion).
type vsMatch struct {
	node   *jsonc.Node
	schema *vsSchema
}

// vsResult is vscode-json-languageservice's ValidationResult.
type vsResult struct {
	problems                                                       []vsProblem
	propertiesMatches, propertiesValueMatches, primaryValueMatches int
	enumValueMatch                                                 bool
	enumValues                                                     []any
}

func (r *vsResult) merge(o *vsResult) {
	r.problems = append(r.problems, o.problems...)
	r.propertiesMatches += o.propertiesMatches
	r.propertiesValueMatches += o.propertiesValueMatches
}

func (r *vsResult) mergeEnumValues(o *vsResult) {
	if !r.enumValueMatch && !o.enumValueMatch && r.enumValues != nil && o.enumValues != nil {
		r.enumValues = append(slices.Clip(r.enumValues), o.enumValues...)
	}
}

func (r *vsResult) mergePropertyMatch(o *vsResult) {
	r.problems = append(r.problems, o.problems...)
	r.propertiesMatches++
	if o.enumValueMatch || (len(o.problems) == 0 && o.propertiesMatches > 0) {
		r.propertiesValueMatches++
	}
	if o.enumValueMatch && len(o.enumValues) == 1 {
		r.primaryValueMatches++
	}
}

// compare is >0 when r matches better than o.
func (r *vsResult) compare(o *vsResult) int {
	if rp, op := len(r.problems) > 0, len(o.problems) > 0; rp != op {
		if rp {
			return -1
		}
		return 1
	}
	if r.enumValueMatch != o.enumValueMatch {
		if o.enumValueMatch {
			return -1
		}
		return 1
	}
	if r.primaryValueMatches != o.primaryValueMatches {
		return r.primaryValueMatches - o.primaryValueMatches
	}
	if r.propertiesValueMatches != o.propertiesValueMatches {
		return r.propertiesValueMatches - o.propertiesValueMatches
	}
	return r.propertiesMatches - o.propertiesMatches
}

// vsCheck is what VS Code's schema says about one document: its problems
// and the schemas each node matched.
type vsCheck struct {
	problems []vsProblem
	matches  []vsMatch
}

// checkVSCodeSchema validates f as VS Code does a .vscode/mcp.json.
func checkVSCodeSchema(f *jsonc.File) *vsCheck {
	if f == nil || f.Root == nil {
		return &vsCheck{}
	}
	var res vsResult
	var matches []vsMatch
	vsValidate(f.Root, vscodeMCPSchema(), &res, &matches)
	return &vsCheck{problems: res.problems, matches: matches}
}

func vsTypeOf(n *jsonc.Node) string {
	switch n.Kind {
	case jsonc.Object:
		return "object"
	case jsonc.Array:
		return "array"
	case jsonc.String:
		return "string"
	case jsonc.Number:
		return "number"
	case jsonc.True, jsonc.False:
		return "boolean"
	case jsonc.Null:
		return "null"
	}
	return ""
}

// vsValidate is validate() of vscode-json-languageservice's parser.ts for
// the keywords of vsSchema.
func vsValidate(n *jsonc.Node, s *vsSchema, res *vsResult, matches *[]vsMatch) {
	if n == nil || n.Kind == jsonc.Invalid || s == nil {
		return // VS Code's parser has no node for a missing value
	}
	if s.never {
		res.problems = append(res.problems, vsProblem{node: n, msg: "matches a schema that is not allowed"})
		return
	}
	t := vsTypeOf(n)
	if len(s.Type) > 0 && !slices.Contains(s.Type, t) && !(t == "number" && slices.Contains(s.Type, "integer") && vsIsInteger(n)) {
		res.problems = append(res.problems, vsProblem{node: n, msg: "incorrect type"})
	}
	if len(s.AnyOf) > 0 {
		vsAlternatives(n, s.AnyOf, false, res, matches)
	}
	if len(s.OneOf) > 0 {
		vsAlternatives(n, s.OneOf, true, res, matches)
	}
	if s.Enum != nil {
		v := vsValue(n)
		ok := slices.ContainsFunc(s.Enum, func(e any) bool { return vsEqual(v, e) })
		res.enumValues, res.enumValueMatch = s.Enum, ok
		if !ok {
			res.problems = append(res.problems, vsProblem{node: n, msg: "value is not accepted"})
		}
	}
	switch n.Kind {
	case jsonc.Object:
		vsObject(n, s, res, matches)
	case jsonc.Array:
		if s.Items != nil {
			for _, e := range n.Elements() {
				var sub vsResult
				vsValidate(e, s.Items, &sub, matches)
				res.mergePropertyMatch(&sub)
			}
		}
	case jsonc.String:
		vsString(n, s, res)
	}
	*matches = append(*matches, vsMatch{node: n, schema: s})
}

// vsAlternatives is anyOf (maxOneMatch false) and oneOf (true): the
// problems of the best-matching alternative are VS Code's.
func vsAlternatives(n *jsonc.Node, alts []*vsSchema, maxOneMatch bool, res *vsResult, matches *[]vsMatch) {
	if d := vsDiscriminated(n, alts); d != nil {
		alts = d
	}
	type candidate struct {
		res     *vsResult
		matches []vsMatch
	}
	var best *candidate
	valid := 0
	for _, alt := range alts {
		c := &candidate{res: &vsResult{}}
		vsValidate(n, alt, c.res, &c.matches)
		if len(c.res.problems) == 0 {
			valid++
		}
		switch {
		case best == nil:
			best = c
		case !maxOneMatch && len(c.res.problems) == 0 && len(best.res.problems) == 0:
			best.matches = append(best.matches, c.matches...)
			best.res.propertiesMatches += c.res.propertiesMatches
			best.res.propertiesValueMatches += c.res.propertiesValueMatches
		default:
			switch cmp := c.res.compare(best.res); {
			case cmp > 0:
				best = c
			case cmp == 0:
				best.matches = append(best.matches, c.matches...)
				best.res.mergeEnumValues(c.res)
			}
		}
	}
	if valid > 1 && maxOneMatch {
		res.problems = append(res.problems, vsProblem{node: n, msg: "matches multiple schemas when only one must validate"})
	}
	if best != nil {
		res.merge(best.res)
		*matches = append(*matches, best.matches...)
	}
}

// vsDiscriminated is the alternatives an object's property picks, as
// VS Code 1.139 does before trying them all: when every alternative
// gives a property a const or enum (a server's "type"), the object's
// string value of that property selects the alternatives listing it.
// nil: try them all.
func vsDiscriminated(n *jsonc.Node, alts []*vsSchema) []*vsSchema {
	if len(alts) < 2 || n.Kind != jsonc.Object || len(n.Members()) == 0 {
		return nil
	}
	type values map[string][]int // JSON of an enum value -> alternatives
	byProp := map[string]values{}
	var order []string
	for i, alt := range alts {
		if alt.Properties == nil {
			return nil
		}
		keys := make([]string, 0, len(alt.Properties))
		for k := range alt.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := alt.Properties[k]
			if p.Enum == nil {
				continue
			}
			if byProp[k] == nil {
				byProp[k] = values{}
				order = append(order, k)
			}
			for _, e := range p.Enum {
				j, _ := json.Marshal(e)
				byProp[k][string(j)] = append(byProp[k][string(j)], i)
			}
		}
	}
	for _, k := range order {
		covered := map[int]bool{}
		for _, is := range byProp[k] {
			for _, i := range is {
				covered[i] = true
			}
		}
		if len(covered) != len(alts) {
			continue
		}
		// The first member of that name, as VS Code's find() does.
		i := slices.IndexFunc(n.Members(), func(m *jsonc.Member) bool { return m.Key.Str == k })
		if i < 0 || n.Members()[i].Value.Kind != jsonc.String {
			return nil
		}
		m := n.Members()[i]
		j, _ := json.Marshal(m.Value.Str)
		var out []*vsSchema
		for _, i := range byProp[k][string(j)] {
			out = append(out, alts[i])
		}
		return out // nil when the value is none of them
	}
	return nil
}

func vsObject(n *jsonc.Node, s *vsSchema, res *vsResult, matches *[]vsMatch) {
	values := map[string]*jsonc.Member{} // the last member of a key wins
	var unseen []string
	for _, m := range n.Members() {
		if _, dup := values[m.Key.Str]; !dup {
			unseen = append(unseen, m.Key.Str)
		}
		values[m.Key.Str] = m
	}
	for _, k := range s.Required {
		if m := values[k]; m == nil || m.Value.Kind == jsonc.Invalid {
			res.problems = append(res.problems, vsProblem{node: n, at: vsOnMissing, missing: k, msg: strconv.Quote(k) + " is missing"})
		}
	}
	seen := func(k string) { unseen = slices.DeleteFunc(unseen, func(u string) bool { return u == k }) }
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// property validates key k's value against p (a declared property's
	// schema, or additionalProperties for the keys none declares).
	property := func(k string, p *vsSchema) {
		seen(k)
		m := values[k]
		if m == nil || m.Value.Kind == jsonc.Invalid {
			return
		}
		if p.never {
			res.problems = append(res.problems, vsProblem{node: m.Key, at: vsOnKey, msg: "property " + k + " is not allowed"})
			return
		}
		var sub vsResult
		vsValidate(m.Value, p, &sub, matches)
		res.mergePropertyMatch(&sub)
	}
	for _, k := range keys {
		property(k, s.Properties[k])
	}
	if ap := s.AdditionalProperties; ap != nil {
		for _, k := range slices.Clone(unseen) {
			property(k, ap)
		}
	}
	if s.MinProperties != nil && len(n.Members()) < *s.MinProperties {
		res.problems = append(res.problems, vsProblem{node: n, msg: "too few properties"})
	}
}

var vsURIScheme = regexp.MustCompile(`^(([^:/?#]+?):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

func vsString(n *jsonc.Node, s *vsSchema, res *vsResult) {
	if s.MinLength != nil && utf8.RuneCountInString(n.Str) < *s.MinLength {
		res.problems = append(res.problems, vsProblem{node: n, msg: "string too short"})
	}
	if s.pattern != nil && !s.pattern.MatchString(n.Str) {
		res.problems = append(res.problems, vsProblem{node: n, msg: "string does not match the pattern"})
	}
	if s.Format == "uri" {
		if m := vsURIScheme.FindStringSubmatch(n.Str); n.Str == "" || m == nil || m[2] == "" {
			res.problems = append(res.problems, vsProblem{node: n, msg: "not a URI with a scheme"})
		}
	}
}

func vsIsInteger(n *jsonc.Node) bool {
	_, err := strconv.ParseInt(n.Str, 10, 64)
	return err == nil
}

// vsValue is the JSON value of a scalar node (nil for objects, arrays).
func vsValue(n *jsonc.Node) any {
	switch n.Kind {
	case jsonc.String:
		return n.Str
	case jsonc.Number:
		f, _ := strconv.ParseFloat(n.Str, 64)
		return f
	case jsonc.True:
		return true
	case jsonc.False:
		return false
	}
	return nil
}

func vsEqual(v, e any) bool {
	if n, ok := e.(json.Number); ok {
		e, _ = n.Float64()
	}
	return v == e
}
