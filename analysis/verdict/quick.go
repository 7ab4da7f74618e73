package verdict

import (
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// Almost every entry in a real file is valid, and proving that is all the
// work there is to do for it. The jsonschema library needs the entry
// decoded into maps and allocates as it validates (about 90 allocations
// and 10 µs per entry, half the time of a cold 1,000-server analysis), so
// valid entries are recognised here first, directly on the syntax tree and
// without allocating. Only an entry this check cannot prove valid goes
// through the library, whose errors then say what is wrong.
//
// The check is conservative: it understands the keywords the embedded
// schemas use, and answers "don't know" (ok == false) for anything else,
// so the library stays the single judge of invalid entries.
// TestSchemaQuick_AgreesWithValidator runs both on every schema test file.

// schemaQuickValid reports whether n is valid against s. ok is false when
// the schema or the value uses something this check does not handle.
func schemaQuickValid(s *jsonschema.Schema, n *jsonc.Node) (valid, ok bool) {
	q := quick{ok: true}
	valid = q.valid(s, n, 0)
	return valid, q.ok
}

type quick struct{ ok bool }

// unsupported gives up on the whole check.
func (q *quick) unsupported() bool {
	q.ok = false
	return false
}

// maxQuickDepth bounds the recursion; deeper values go to the library.
const maxQuickDepth = 32

func (q *quick) valid(s *jsonschema.Schema, n *jsonc.Node, depth int) bool {
	if !q.ok {
		return false
	}
	if depth > maxQuickDepth || n.Kind == jsonc.Invalid || !quickSupported(s) {
		return q.unsupported()
	}
	if s.Always != nil {
		return *s.Always
	}
	if s.Ref != nil && !q.valid(s.Ref, n, depth+1) {
		return false
	}
	if len(s.Types) > 0 && !q.typeOK(s.Types, n) {
		return false
	}
	if len(s.Constant) > 0 && !q.equal(n, s.Constant[0]) {
		return false
	}
	if len(s.Enum) > 0 && !q.inEnum(n, s.Enum) {
		return false
	}
	for _, sub := range s.AllOf {
		if !q.valid(sub, n, depth+1) {
			return false
		}
	}
	if s.If != nil {
		branch := s.Else
		if q.valid(s.If, n, depth+1) {
			branch = s.Then
		}
		if branch != nil && !q.valid(branch, n, depth+1) {
			return false
		}
	}
	switch n.Kind {
	case jsonc.Object:
		return q.object(s, n, depth)
	case jsonc.Array:
		return q.array(s, n, depth)
	case jsonc.String:
		return q.str(s, n.Str)
	case jsonc.Number:
		return q.number(s, n.Str)
	}
	return q.ok
}

// quickSupported reports whether s uses only keywords this check handles.
func quickSupported(s *jsonschema.Schema) bool {
	return s.RecursiveRef == nil && s.DynamicRef == nil && s.Not == nil &&
		len(s.AnyOf) == 0 && len(s.OneOf) == 0 &&
		s.MinProperties == -1 && s.MaxProperties == -1 && s.PropertyNames == nil &&
		len(s.PatternProperties) == 0 && len(s.Dependencies) == 0 && len(s.DependentSchemas) == 0 &&
		s.UnevaluatedProperties == nil && s.UnevaluatedItems == nil &&
		s.Items == nil && s.AdditionalItems == nil && len(s.PrefixItems) == 0 && s.Contains == nil &&
		!s.UniqueItems && s.MaxItems == -1 && s.MaxLength == -1 &&
		s.ContentEncoding == "" && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.MultipleOf == nil && s.ExclusiveMaximum == nil && len(s.Extensions) == 0
}

func (q *quick) typeOK(types []string, n *jsonc.Node) bool {
	for _, t := range types {
		switch t {
		case "object":
			if n.Kind == jsonc.Object {
				return true
			}
		case "array":
			if n.Kind == jsonc.Array {
				return true
			}
		case "string":
			if n.Kind == jsonc.String {
				return true
			}
		case "number":
			if n.Kind == jsonc.Number {
				return true
			}
		case "integer":
			if n.Kind == jsonc.Number {
				if strings.ContainsAny(n.Str, ".eE") {
					return q.unsupported() // 1.0 and 1e3 are integers too
				}
				return true
			}
		case "boolean":
			if n.Kind == jsonc.True || n.Kind == jsonc.False {
				return true
			}
		case "null":
			if n.Kind == jsonc.Null {
				return true
			}
		default:
			return q.unsupported()
		}
	}
	return false
}

// equal compares n with a schema value; only strings, booleans and null
// are handled (numbers compare by value, objects deeply: the library's).
func (q *quick) equal(n *jsonc.Node, v any) bool {
	switch v := v.(type) {
	case string:
		return n.Kind == jsonc.String && n.Str == v
	case bool:
		return (v && n.Kind == jsonc.True) || (!v && n.Kind == jsonc.False)
	case nil:
		return n.Kind == jsonc.Null
	}
	return q.unsupported()
}

func (q *quick) inEnum(n *jsonc.Node, vals []any) bool {
	for _, v := range vals {
		if q.equal(n, v) {
			return true
		}
	}
	return false
}

func (q *quick) object(s *jsonschema.Schema, n *jsonc.Node, depth int) bool {
	for _, k := range s.Required {
		if n.Get(k) == nil {
			return false
		}
	}
	for dep, need := range s.DependentRequired {
		if n.Get(dep) != nil {
			for _, k := range need {
				if n.Get(k) == nil {
					return false
				}
			}
		}
	}
	if len(n.Members()) > maxQuickMembers {
		return q.unsupported()
	}
	for i, m := range n.Members() {
		if shadowed(n, i) {
			continue // an earlier duplicate: the tools (and Decode) keep the last
		}
		if sub := s.Properties[m.Key.Str]; sub != nil {
			if !q.valid(sub, m.Value, depth+1) {
				return false
			}
			continue
		}
		switch ap := s.AdditionalProperties.(type) {
		case bool:
			if !ap {
				return false
			}
		case *jsonschema.Schema:
			if !q.valid(ap, m.Value, depth+1) {
				return false
			}
		}
	}
	return q.ok
}

// maxQuickMembers bounds the objects checked here: finding duplicate keys
// by scanning is quadratic, fine for the few keys of a server entry or its
// env; a larger object goes to the library.
const maxQuickMembers = 64

// shadowed reports whether a later member of n has the same key as member i.
func shadowed(n *jsonc.Node, i int) bool {
	k := n.Members()[i].Key.Str
	for _, m := range n.Members()[i+1:] {
		if m.Key.Str == k {
			return true
		}
	}
	return false
}

func (q *quick) array(s *jsonschema.Schema, n *jsonc.Node, depth int) bool {
	if s.MinItems != -1 && len(n.Elements()) < s.MinItems {
		return false
	}
	if s.Items2020 != nil {
		for _, e := range n.Elements() {
			if !q.valid(s.Items2020, e, depth+1) {
				return false
			}
		}
	}
	return q.ok
}

func (q *quick) str(s *jsonschema.Schema, v string) bool {
	if s.MinLength != -1 && utf8.RuneCountInString(v) < s.MinLength {
		return false
	}
	if s.Pattern != nil && !s.Pattern.MatchString(v) {
		return false
	}
	// format is an annotation in these schemas (schemas.newCompiler).
	return q.ok
}

func (q *quick) number(s *jsonschema.Schema, text string) bool {
	if s.Minimum == nil && s.ExclusiveMinimum == nil && s.Maximum == nil {
		return q.ok
	}
	v, ok := new(big.Rat).SetString(text)
	if !ok {
		return q.unsupported()
	}
	switch {
	case s.Minimum != nil && v.Cmp(s.Minimum) < 0,
		s.ExclusiveMinimum != nil && v.Cmp(s.ExclusiveMinimum) <= 0,
		s.Maximum != nil && v.Cmp(s.Maximum) > 0:
		return false
	}
	return q.ok
}
