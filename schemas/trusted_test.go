package schemas

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestEmbeddedSchemasAreValid is the meta-schema validation the server
// skips (trusted.go): every embedded schema is valid JSON Schema 2020-12,
// checked against the library's copy of the meta-schema, and compiles the
// library's own, validating way.
func TestEmbeddedSchemasAreValid(t *testing.T) {
	meta, err := jsonschema.Compile(draft2020URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Dialects() {
		var doc any
		dec := json.NewDecoder(strings.NewReader(string(Raw(d))))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if err := meta.Validate(doc); err != nil {
			t.Errorf("%s is not a valid 2020-12 schema: %#v", d, err)
		}
		if _, _, err := compile(d, validated); err != nil {
			t.Errorf("%s: validating compile: %v", d, err)
		}
	}
	// The check can fail: a schema that breaks the meta-schema.
	if err := meta.Validate(map[string]any{"type": json.Number("1")}); err == nil {
		t.Fatal(`the meta-schema accepted {"type": 1}`)
	}
}

// TestTrustedCompileIsTheSame compares, for every dialect, the schemas the
// server compiles without the meta-schema (trusted) with those the
// library compiles after validating: every schema reachable from the root
// and from each $defs entry, field by field, including the unexported
// ones that decide validation (the vocabularies, whether "format" is
// asserted).
func TestTrustedCompileIsTheSame(t *testing.T) {
	if trustedDraft == nil {
		t.Fatal("trustedDraft is nil: the library's Draft has no meta field any more, and the schemas compile the slow way")
	}
	for _, d := range Dialects() {
		if _, _, ok := trustedCompiler(Raw(d)); !ok {
			t.Errorf("%s cannot be compiled the trusted way", d)
			continue
		}
		tRoot, tDefs, err := compile(d, trusted)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		vRoot, vDefs, err := compile(d, validated)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if got, want := dumpSchemas(tRoot), dumpSchemas(vRoot); got != want {
			t.Errorf("%s: the trusted root differs:\n%s", d, firstDiff(got, want))
		}
		if len(tDefs) != len(vDefs) {
			t.Fatalf("%s: %d $defs trusted, %d validated", d, len(tDefs), len(vDefs))
		}
		for def, v := range vDefs {
			if got, want := dumpSchemas(tDefs[def]), dumpSchemas(v); got != want {
				t.Errorf("%s: $defs/%s differs:\n%s", d, def, firstDiff(got, want))
			}
		}
	}
	// The comparison can fail: "format" asserted is a difference.
	s := map[string]any{"$schema": draft2020URL, "format": "uri"}
	a, b := compileDoc(t, s, false), compileDoc(t, s, true)
	if dumpSchemas(a) == dumpSchemas(b) {
		t.Fatal("dumpSchemas does not see whether format is asserted")
	}
}

func compileDoc(t *testing.T, doc map[string]any, assertFormat bool) *jsonschema.Schema {
	t.Helper()
	b, _ := json.Marshal(doc)
	c := newCompiler()
	c.AssertFormat = assertFormat
	if err := c.AddResource("https://mcp-lsp.dev/schemas/t.json", strings.NewReader(string(b))); err != nil {
		t.Fatal(err)
	}
	return c.MustCompile("https://mcp-lsp.dev/schemas/t.json")
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("trusted:   %s\nvalidated: %s", g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines trusted, %d validated", len(g), len(w))
}

// dumpSchemas renders every schema reachable from root, one per line by
// Location, with all its fields: schemas by their Location, maps sorted,
// functions by whether they are set, the meta-schema by its vocabularies.
func dumpSchemas(root *jsonschema.Schema) string {
	seen := map[*jsonschema.Schema]bool{}
	var lines []string
	var visit func(s *jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		lines = append(lines, s.Location+" "+dumpValue(reflect.ValueOf(s).Elem(), 0))
		for _, c := range Subschemas(s) {
			visit(c)
		}
	}
	visit(root)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

var (
	schemaType = reflect.TypeOf((*jsonschema.Schema)(nil))
	ratType    = reflect.TypeOf((*big.Rat)(nil))
	regexpType = reflect.TypeOf((*regexp.Regexp)(nil))
	draftType  = reflect.TypeOf((*jsonschema.Draft)(nil))
)

// dumpValue renders v; depth 0 is the schema itself, whose fields are
// rendered; a schema further down is named by its Location, except the
// meta-schema (field meta), rendered by its vocabularies.
func dumpValue(v reflect.Value, depth int) string {
	switch {
	case v.Type() == schemaType:
		if v.IsNil() {
			return "nil"
		}
		return "→" + v.Elem().FieldByName("Location").String()
	case v.Type() == ratType:
		if v.IsNil() {
			return "nil"
		}
		return (*big.Rat)(v.UnsafePointer()).RatString()
	case v.Type() == regexpType:
		if v.IsNil() {
			return "nil"
		}
		return (*regexp.Regexp)(v.UnsafePointer()).String()
	case v.Type() == draftType:
		if v.IsNil() {
			return "nil"
		}
		return (*jsonschema.Draft)(v.UnsafePointer()).String()
	}
	switch v.Kind() {
	case reflect.Struct:
		var b strings.Builder
		b.WriteString("{")
		for i := range v.NumField() {
			f := v.Type().Field(i)
			fv := v.Field(i)
			b.WriteString(" " + f.Name + ":")
			if f.Name == "meta" && depth == 0 {
				if fv.IsNil() {
					b.WriteString("nil")
				} else {
					// From a map: in no particular order.
					vocab := fv.Elem().FieldByName("vocab")
					urls := make([]string, vocab.Len())
					for i := range urls {
						urls[i] = vocab.Index(i).String()
					}
					sort.Strings(urls)
					fmt.Fprintf(&b, "%q", urls)
				}
				continue
			}
			b.WriteString(dumpValue(fv, depth+1))
		}
		return b.String() + " }"
	case reflect.Func:
		return fmt.Sprint(!v.IsNil())
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		return "&" + dumpValue(v.Elem(), depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return dumpValue(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return "nil"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = dumpValue(v.Index(i), depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		if v.IsNil() {
			return "nil"
		}
		var parts []string
		for it := v.MapRange(); it.Next(); {
			parts = append(parts, dumpValue(it.Key(), depth+1)+"="+dumpValue(it.Value(), depth+1))
		}
		sort.Strings(parts)
		return "map[" + strings.Join(parts, ", ") + "]"
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	case reflect.Bool:
		return fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int64, reflect.Int32:
		return fmt.Sprint(v.Int())
	case reflect.Float64:
		return fmt.Sprint(v.Float())
	}
	return v.Kind().String()
}
