package schemas

import "github.com/santhosh-tekuri/jsonschema/v5"

// Subschemas lists the schemas s holds directly, under every keyword of
// the library's Schema that takes one (nil entries included: callers skip
// them). Both walks of a compiled schema use it, the trusted compile's
// restoreDraft and analysis/verdict's index of a branch by location, so
// a keyword the library adds is added to both at once.
func Subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.DynamicRef, s.RecursiveRef, s.Not, s.If, s.Then, s.Else,
		s.Items2020, s.PropertyNames, s.Contains, s.UnevaluatedProperties, s.UnevaluatedItems, s.ContentSchema}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	for _, c := range s.Properties {
		out = append(out, c)
	}
	for _, c := range s.PatternProperties {
		out = append(out, c)
	}
	for _, c := range s.DependentSchemas {
		out = append(out, c)
	}
	for _, v := range s.Dependencies {
		if c, ok := v.(*jsonschema.Schema); ok {
			out = append(out, c)
		}
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch v := v.(type) {
		case *jsonschema.Schema:
			out = append(out, v)
		case []*jsonschema.Schema:
			out = append(out, v...)
		}
	}
	return out
}
