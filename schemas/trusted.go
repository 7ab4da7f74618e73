package schemas

import (
	"bytes"
	"reflect"
	"strings"
	"unsafe"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Compiling a schema with the jsonschema library first validates the whole
// document against the JSON Schema meta-schema (Compiler.validateSchema,
// called from resource.fillSubschemas): about 50 ms of CPU for our
// thirteen schemas, three quarters of compiling them, paid on the path
// from opening the first file to its diagnostics. Our schemas are
// embedded and fixed, so that answer cannot change at run time:
// TestEmbeddedSchemasAreValid validates every one of them against the
// meta-schema, and the server compiles them without asking again.
//
// The library has no switch for it. It validates a resource against its
// draft's meta-schema (an unexported field of Draft) and takes the draft
// from "$schema". So the trusted compile names a meta-schema of our own in
// "$schema", trustedMeta: it declares the same vocabularies as draft
// 2020-12's and has no "$schema" itself, so its draft is the compiler's,
// trustedDraft, a copy of Draft2020 without a meta-schema. Everything else
// (keywords, vocabularies, format as an annotation) compiles exactly as
// with draft 2020-12: TestTrustedCompileIsTheSame compares the compiled
// trees field by field. Should a new version of the library rename the
// field, trustedDraft is nil and the schemas compile the validating way.

// draft2020URL is the "$schema" every embedded schema declares
// (TestSchemaIDs).
const draft2020URL = "https://json-schema.org/draft/2020-12/schema"

// trustedMetaURL names trustedMeta. Like the schemas' $ids, it is a name,
// never fetched.
const trustedMetaURL = idPrefix + "trusted-2020-12"

// trustedMeta declares draft 2020-12's vocabularies (those of the
// library's copy of the 2020-12 meta-schema), so that the compiled schemas
// treat every keyword as that meta-schema makes them: "format", in
// particular, stays an annotation.
const trustedMeta = `{
  "$id": "` + trustedMetaURL + `",
  "$vocabulary": {
    "https://json-schema.org/draft/2020-12/vocab/core": true,
    "https://json-schema.org/draft/2020-12/vocab/applicator": true,
    "https://json-schema.org/draft/2020-12/vocab/unevaluated": true,
    "https://json-schema.org/draft/2020-12/vocab/validation": true,
    "https://json-schema.org/draft/2020-12/vocab/meta-data": true,
    "https://json-schema.org/draft/2020-12/vocab/format-annotation": true,
    "https://json-schema.org/draft/2020-12/vocab/content": true
  }
}`

// trustedDraft is jsonschema.Draft2020 without its meta-schema, nil if the
// library's Draft has no field "meta" of type *Schema.
var trustedDraft = func() *jsonschema.Draft {
	d := *jsonschema.Draft2020
	f := reflect.ValueOf(&d).Elem().FieldByName("meta")
	if !f.IsValid() || f.Type() != reflect.TypeOf((*jsonschema.Schema)(nil)) {
		return nil
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetZero()
	return &d
}()

// trustedCompiler returns a compiler that compiles raw, the embedded
// schema at url, without validating it against the meta-schema, and the
// text to add as its resource; ok is false when that is not possible (the
// library changed, or raw does not declare draft 2020-12), and the caller
// compiles the validating way.
func trustedCompiler(raw []byte) (c *jsonschema.Compiler, text []byte, ok bool) {
	if trustedDraft == nil {
		return nil, nil, false
	}
	from := []byte(`"$schema": "` + draft2020URL + `"`)
	if bytes.Count(raw, from) != 1 {
		return nil, nil, false
	}
	text = bytes.Replace(raw, from, []byte(`"$schema": "`+trustedMetaURL+`"`), 1)
	c = newCompiler()
	c.Draft = trustedDraft
	if err := c.AddResource(trustedMetaURL, strings.NewReader(trustedMeta)); err != nil {
		return nil, nil, false
	}
	return c, text, true
}

// restoreDraft sets the Draft of every schema reachable from roots back to
// jsonschema.Draft2020: the field is information for users of the
// compiled schemas (validation reads the draft the compiler kept
// privately), and it is the draft the schemas are written in.
func restoreDraft(roots ...*jsonschema.Schema) {
	seen := map[*jsonschema.Schema]bool{}
	var visit func(s *jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		s.Draft = jsonschema.Draft2020
		for _, c := range Subschemas(s) {
			visit(c)
		}
	}
	for _, r := range roots {
		visit(r)
	}
}
