package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// testdataDir holds, per dialect, good/*.json (must validate) and
// bad/*.json, each with a bad/<name>.want file: "#" lines say why the file
// is wrong and where the fact comes from; every other line is
// "<keyword> <pointer>": a leaf error of that JSON Schema keyword (required,
// enum, additionalProperties, ...) must be reported at that RFC 6901
// instance location ("(root)" for the document itself). Pinning the keyword
// and the location, not just failure, keeps a bad file from passing for the
// wrong reason.
const testdataDir = "../testdata/schemas"

// serverDefs lists, per dialect, the $defs that describe one server entry.
// This is the contract with the analysis layer, which picks one of them per
// entry and validates with Branch. TestBranch_ServerDefs checks that every
// $defs name ending in "Server" is listed here, so a new branch cannot be
// added without updating the contract.
var serverDefs = map[string][]string{
	ClaudeCode:    {"stdioServer", "sseServer", "httpServer", "wsServer"},
	ClaudeDesktop: {"stdioServer"},
	CopilotCLI:    {"localServer", "remoteServer"},
	Cursor:        {"stdioServer", "remoteServer"},
	GeminiCLI:     {"stdioServer", "httpServer", "sseServer"},
	OpenCode:      {"localServer", "remoteServer", "enabledOverride"},
	VSCode:        {"stdioServer", "httpServer"},
	VSCodeDotMCP:  {"stdioServer", "httpServer"},
	CodexCLI:      {"stdioServer", "httpServer"},
	RooCode:       {"stdioServer", "sseServer", "httpServer"},
	Zed:           {"stdioServer", "httpServer", "extensionServer"},
	Kiro:          {"stdioServer", "remoteServer"},
	Windsurf:      {"stdioServer", "remoteServer"},
}

func TestDialects(t *testing.T) {
	want := []string{ClaudeCode, ClaudeDesktop, CodexCLI, CopilotCLI, Cursor, GeminiCLI, Kiro, OpenCode, RooCode, VSCode, VSCodeDotMCP, Windsurf, Zed}
	sort.Strings(want)
	if got := Dialects(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Dialects() = %v, want %v", got, want)
	}
}

func TestCompiled_EveryDialectCompilesOnce(t *testing.T) {
	for _, d := range Dialects() {
		s1, err := Compiled(d)
		if err != nil {
			t.Fatalf("Compiled(%q): %v", d, err)
		}
		s2, _ := Compiled(d)
		if s1 != s2 {
			t.Errorf("Compiled(%q) compiled twice: got two different schemas", d)
		}
		if s1.Draft != jsonschema.Draft2020 {
			t.Errorf("Compiled(%q) uses draft %v, want 2020-12", d, s1.Draft)
		}
	}
	if _, err := Compiled("nosuch-dialect"); err == nil {
		t.Error("Compiled(unknown dialect) succeeded")
	}
}

// TestSchemaIDs pins the $id and $schema of every file: editors and written-
// out copies key their caches on the $id, so it must not change by accident.
func TestSchemaIDs(t *testing.T) {
	seen := map[string]string{}
	for _, d := range Dialects() {
		doc := rawDoc(t, d)
		id, _ := doc["$id"].(string)
		if want := "https://mcp-lsp.dev/schemas/" + d + ".schema.json"; id != want {
			t.Errorf("%s: $id = %q, want %q", d, id, want)
		}
		if other, dup := seen[id]; dup {
			t.Errorf("%s: $id %q already used by %s", d, id, other)
		}
		seen[id] = d
		if s := doc["$schema"]; s != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %v, want draft 2020-12", d, s)
		}
	}
}

// TestDocumentation checks what hover and completion rely on: every
// property, every $defs entry and the root have a description; an enum's or
// const's values are named in the description (so the hover alone tells the
// user what to write); a default is stated in words ("Default: ...").
func TestDocumentation(t *testing.T) {
	for _, d := range Dialects() {
		doc := rawDoc(t, d)
		if desc(doc) == "" {
			t.Errorf("%s: root has no description", d)
		}
		defs, _ := doc["$defs"].(map[string]any)
		for name, def := range defs {
			if desc(def) == "" {
				t.Errorf("%s: $defs/%s has no description", d, name)
			}
		}
		walkSchemas(doc, "#", func(path string, s map[string]any) {
			props, _ := s["properties"].(map[string]any)
			for name, p := range props {
				ppath := path + "/properties/" + name
				text := desc(p)
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s: %s has no description", d, ppath)
					continue
				}
				pm, _ := p.(map[string]any)
				for _, v := range enumValues(pm) {
					if !strings.Contains(text, v) {
						t.Errorf("%s: %s: description does not name the allowed value %q", d, ppath, v)
					}
				}
				if _, ok := pm["default"]; ok && !strings.Contains(text, "Default") {
					t.Errorf("%s: %s has a default but its description does not say it", d, ppath)
				}
			}
		})
	}
}

// TestServerBranchesAreClosed checks the rule that every server shape says
// additionalProperties false, so editors flag keys a tool ignores; the
// analysis layer downgrades a key that another reader of the same file knows.
func TestServerBranchesAreClosed(t *testing.T) {
	for d, names := range serverDefs {
		defs, _ := rawDoc(t, d)["$defs"].(map[string]any)
		for _, n := range names {
			def, _ := defs[n].(map[string]any)
			if def["additionalProperties"] != false {
				t.Errorf("%s: $defs/%s: additionalProperties = %v, want false", d, n, def["additionalProperties"])
			}
		}
	}
}

// TestDefaultsAreValid validates every property's default against the
// property's own schema: a wrong default would be offered by completion.
func TestDefaultsAreValid(t *testing.T) {
	for _, d := range Dialects() {
		defs, _ := rawDoc(t, d)["$defs"].(map[string]any)
		for name := range defs {
			s, err := Branch(d, name)
			if err != nil {
				t.Fatal(err)
			}
			for pname, p := range s.Properties {
				if p.Default == nil {
					continue
				}
				if err := p.Validate(p.Default); err != nil {
					t.Errorf("%s: $defs/%s/properties/%s: default %v is invalid: %v", d, name, pname, p.Default, err)
				}
			}
		}
	}
}

func TestTestdata(t *testing.T) {
	for _, d := range Dialects() {
		good, _ := filepath.Glob(filepath.Join(testdataDir, d, "good", "*.json"))
		bad, _ := filepath.Glob(filepath.Join(testdataDir, d, "bad", "*.json"))
		if len(good) < 4 || len(bad) < 4 {
			t.Errorf("%s: %d good and %d bad files, want at least 4 of each", d, len(good), len(bad))
		}
		for _, f := range append(good, bad...) {
			rel, _ := filepath.Rel(filepath.Join(testdataDir, d), f)
			t.Run(d+"/"+filepath.ToSlash(rel), func(t *testing.T) {
				checkFile(t, d, filepath.ToSlash(rel))
			})
		}
	}
}

func TestBranch_ServerDefs(t *testing.T) {
	for _, d := range Dialects() {
		names, ok := serverDefs[d]
		if !ok {
			t.Errorf("%s: no entry in serverDefs", d)
			continue
		}
		for _, n := range names {
			s, err := Branch(d, n)
			if err != nil {
				t.Errorf("Branch(%q, %q): %v", d, n, err)
				continue
			}
			if len(s.Properties) == 0 {
				t.Errorf("Branch(%q, %q) has no properties", d, n)
			}
		}
		defs, _ := rawDoc(t, d)["$defs"].(map[string]any)
		for n := range defs {
			if strings.HasSuffix(n, "Server") && !contains(names, n) {
				t.Errorf("%s: $defs/%s looks like a server branch but is not in serverDefs", d, n)
			}
		}
	}
	if _, err := Branch(ClaudeCode, "localServer"); err == nil {
		t.Error("Branch with an unknown definition succeeded")
	}
	if _, err := Branch("nosuch-dialect", "stdioServer"); err == nil {
		t.Error("Branch with an unknown dialect succeeded")
	}
}

// TestBranch_SharedWithRoot checks that a branch is the very schema the
// whole-file schema uses, so per-entry and whole-file validation agree.
func TestBranch_SharedWithRoot(t *testing.T) {
	root, err := Compiled(OpenCode)
	if err != nil {
		t.Fatal(err)
	}
	server := root.Properties["mcp"].AdditionalProperties.(*jsonschema.Schema).Ref
	want, _ := Branch(OpenCode, "server")
	if server != want {
		t.Fatalf("root's mcp entries use %v, Branch(opencode, server) = %v", server, want)
	}
}

// TestBranch_PerEntryValidation shows the intended use: the entry alone is
// validated against the branch its type selects, and each error is located
// relative to the entry and names the field.
func TestBranch_PerEntryValidation(t *testing.T) {
	s, err := Branch(ClaudeCode, "httpServer")
	if err != nil {
		t.Fatal(err)
	}
	entry := decode(t, `{"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"X-Key": 1}, "cwd": "/srv"}`)
	got := locations(leaves(s.Validate(entry)))
	want := []string{"", "/headers/X-Key"} // "" = additionalProperties "cwd", reported on the entry
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("leaf error locations = %q, want %q", got, want)
	}
}

func TestInstancePointer(t *testing.T) {
	// Real locations from the library, for keys that need escaping.
	s, err := Compiled(CopilotCLI)
	if err != nil {
		t.Fatal(err)
	}
	inst := decode(t, `{"mcpServers": {"my server/a~b": {"command": 1}, "x}": {"command": "npx"}}}`)
	got := locations(leaves(s.Validate(inst)))
	want := []string{"/mcpServers/my server~1a~0b/command", "/mcpServers/x}"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("locations = %q, want %q", got, want)
	}
	if p, err := InstancePointer(""); p != "" || err != nil {
		t.Errorf(`InstancePointer("") = %q, %v`, p, err)
	}
	if _, err := InstancePointer("/mcpServers/%zz"); err == nil {
		t.Error("InstancePointer accepted a malformed escape")
	}
}

func TestPropertyDoc(t *testing.T) {
	tests := []struct {
		dialect, def, prop string
		contains           string
	}{
		{ClaudeCode, "", "mcpServers", "project-scope"}, // through the root's $ref
		{ClaudeCode, "httpServer", "headersHelper", "10 s"},
		{CopilotCLI, "localServer", "timeout", "30000"},
		{CopilotCLI, "remoteServer", "tools", `["*"]`},
		{OpenCode, "localServer", "timeout", "5000"},
		{OpenCode, "remoteServer", "oauth", "false"},
		{VSCode, "", "mcpServers", "Deprecated"},
		{VSCode, "promptStringInput", "password", "Default: false"},
		{Cursor, "remoteServer", "auth", "OAuth"},
		{ClaudeDesktop, "stdioServer", "command", "npx"},
	}
	for _, tt := range tests {
		got, ok := PropertyDoc(tt.dialect, tt.def, tt.prop)
		if !ok || !strings.Contains(got, tt.contains) {
			t.Errorf("PropertyDoc(%q, %q, %q) = %q, %v; want text containing %q", tt.dialect, tt.def, tt.prop, got, ok, tt.contains)
		}
	}
	for _, tt := range [][3]string{
		{ClaudeCode, "stdioServer", "cwd"},
		{ClaudeCode, "nosuchdef", "command"},
		{"nosuch-dialect", "", "mcpServers"},
	} {
		if got, ok := PropertyDoc(tt[0], tt[1], tt[2]); ok {
			t.Errorf("PropertyDoc(%q, %q, %q) = %q, true; want false", tt[0], tt[1], tt[2], got)
		}
	}
	if s, _ := Compiled(VSCode); !s.Properties["mcpServers"].Deprecated {
		t.Error("vscode mcpServers is not marked deprecated")
	}
}

func TestRaw(t *testing.T) {
	b := Raw(OpenCode)
	if !json.Valid(b) {
		t.Fatal("Raw(opencode) is not valid JSON")
	}
	b[0] = 'X'
	if Raw(OpenCode)[0] != '{' {
		t.Fatal("Raw returned shared bytes: a caller's change leaked into the next call")
	}
	if Raw("nosuch-dialect") != nil {
		t.Fatal("Raw(unknown dialect) != nil")
	}
}

// TestLoadURLRefused checks that a schema can never make the server reach
// the network or the disk: any $ref outside the schema being compiled, be it
// http(s), file, or another dialect's (embedded but separate) $id, fails to
// compile. That every dialect compiles with this loader also proves the
// schemas are self-contained.
func TestLoadURLRefused(t *testing.T) {
	for _, ref := range []string{
		"https://json.schemastore.org/claude-code-settings.json",
		"http://127.0.0.1:1/schema.json",
		"file:///etc/passwd",
		"other.schema.json",
		schemaURL(CopilotCLI) + "#/$defs/localServer",
	} {
		c := newCompiler()
		const url = "https://mcp-lsp.dev/schemas/test.schema.json"
		doc := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "` + ref + `"}`
		if err := c.AddResource(url, strings.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile(url)
		if !errors.Is(err, errRefused) {
			t.Errorf("$ref %q: Compile error = %v, want errRefused", ref, err)
		}
	}
}

// TestConcurrentUse runs first use, Branch and Validate from many goroutines;
// with -race it checks the sync.Once guarding the (not thread-safe) compiler
// and that compiled schemas are safe to share.
func TestConcurrentUse(t *testing.T) {
	inst := decode(t, `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "x"]}}}`)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, d := range Dialects() {
				if _, err := Compiled(d); err != nil {
					t.Error(err)
				}
				PropertyDoc(d, "stdioServer", "command")
			}
			s, err := Branch(ClaudeCode, "stdioServer")
			if err != nil {
				t.Error(err)
				return
			}
			if err := s.Validate(decode(t, `{"command": "npx"}`)); err != nil {
				t.Error(err)
			}
			root, _ := Compiled(ClaudeCode)
			if err := root.Validate(inst); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

// checkFile validates testdata/schemas/<dialect>/<rel> against the
// dialect's whole-file schema: a good/ file must produce no error, a bad/
// file must produce leaf errors at every location its .want file lists.
func checkFile(t *testing.T, dialect, rel string) {
	t.Helper()
	validateFile(t, dialect, "", rel)
}

// validateFile is checkFile against the $defs entry def ("" = the root).
func validateFile(t *testing.T, dialect, def, rel string) {
	t.Helper()
	path := filepath.Join(testdataDir, dialect, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s *jsonschema.Schema
	if def == "" {
		s, err = Compiled(dialect)
	} else {
		s, err = Branch(dialect, def)
	}
	if err != nil {
		t.Fatal(err)
	}
	verr := s.Validate(decode(t, string(data)))
	switch {
	case strings.HasPrefix(rel, "good/"):
		if verr != nil {
			t.Fatalf("%s should be valid:\n%s", rel, describe(leaves(verr)))
		}
	case strings.HasPrefix(rel, "bad/"):
		note, want := readWant(t, strings.TrimSuffix(path, ".json")+".want")
		if verr == nil {
			t.Fatalf("%s should be invalid (%s)", rel, note)
		}
		got := leaves(verr)
		var keys []string
		for _, e := range got {
			keys = append(keys, errorKey(e))
		}
		for _, w := range want {
			if !contains(keys, w) {
				t.Errorf("%s: no %q error (%s); errors:\n%s", rel, w, note, describe(got))
			}
		}
	default:
		t.Fatalf("%s is neither under good/ nor bad/", rel)
	}
}

// readWant parses a .want file: its note (the "#" lines) and the expected
// errors, as errorKey strings. Both must be present.
func readWant(t *testing.T, path string) (note string, want []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("every bad file needs a .want file saying why it is bad: %v", err)
	}
	var notes []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			notes = append(notes, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		// Split at the first space only: a pointer may contain spaces.
		kw, loc, ok := strings.Cut(line, " ")
		if loc == "(root)" {
			loc = ""
		}
		if !ok || (loc != "" && !strings.HasPrefix(loc, "/")) {
			t.Fatalf("%s: bad line %q (want \"# note\" or \"<keyword> </pointer or (root)>\")", path, line)
		}
		want = append(want, kw+" "+loc)
	}
	if len(notes) == 0 || len(want) == 0 {
		t.Fatalf("%s: needs a # note and at least one expected error", path)
	}
	return strings.Join(notes, " "), want
}

// errorKey identifies a leaf error as "<keyword> <RFC 6901 location>", the
// form of the lines of a .want file. The keyword is the last segment of the
// keyword location, except for dependentRequired, whose location ends in
// ".../dependentRequired/<property>/<index>".
func errorKey(e *jsonschema.ValidationError) string {
	segs := strings.Split(e.KeywordLocation, "/")
	kw := segs[len(segs)-1]
	if n := len(segs); n >= 3 && segs[n-3] == "dependentRequired" {
		kw = "dependentRequired"
	}
	loc, err := InstancePointer(e.InstanceLocation)
	if err != nil {
		loc = e.InstanceLocation
	}
	return kw + " " + loc
}

// decode decodes JSON the way the library expects (UseNumber, interface{}).
func decode(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// leaves flattens a validation error tree to its leaves, sorted by location
// then message: the root and inner nodes only say "doesn't validate", and the
// library's order is not deterministic.
func leaves(err error) []*jsonschema.ValidationError {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Slice(out, func(i, j int) bool {
		if out[i].InstanceLocation != out[j].InstanceLocation {
			return out[i].InstanceLocation < out[j].InstanceLocation
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// locations returns the distinct instance locations of errs as RFC 6901
// pointers, in order.
func locations(errs []*jsonschema.ValidationError) []string {
	var out []string
	for _, e := range errs {
		p, err := InstancePointer(e.InstanceLocation)
		if err != nil {
			p = e.InstanceLocation
		}
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

func describe(errs []*jsonschema.ValidationError) string {
	var b bytes.Buffer
	for _, e := range errs {
		b.WriteString("  at " + quoteLoc(e.InstanceLocation) + ": " + e.Message + " [" + e.KeywordLocation + "]\n")
	}
	return b.String()
}

func quoteLoc(loc string) string {
	if loc == "" {
		return "(root)"
	}
	return loc
}

// rawDoc returns the dialect's schema decoded into maps.
func rawDoc(t *testing.T, dialect string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(Raw(dialect), &doc); err != nil {
		t.Fatalf("%s: %v", dialect, err)
	}
	return doc
}

// walkSchemas calls fn for every subschema of s that documents an instance.
// It does not descend into "if" and "not": those are conditions of the
// dispatchers (e.g. {"properties": {"type": {"const": "sse"}}}) and describe
// nothing a user would hover.
func walkSchemas(s any, path string, fn func(path string, s map[string]any)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(path, m)
	for _, kw := range []string{"properties", "$defs", "patternProperties", "dependentSchemas"} {
		if sub, ok := m[kw].(map[string]any); ok {
			for name, v := range sub {
				walkSchemas(v, path+"/"+kw+"/"+name, fn)
			}
		}
	}
	for _, kw := range []string{"additionalProperties", "items", "propertyNames", "contains", "then", "else"} {
		walkSchemas(m[kw], path+"/"+kw, fn)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		if list, ok := m[kw].([]any); ok {
			for i, v := range list {
				walkSchemas(v, path+"/"+kw+"/"+strconv.Itoa(i), fn)
			}
		}
	}
}

func desc(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["description"].(string)
	return s
}

// enumValues returns the string values a property allows through enum or
// const.
func enumValues(p map[string]any) []string {
	var out []string
	if list, ok := p["enum"].([]any); ok {
		for _, v := range list {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	if s, ok := p["const"].(string); ok {
		out = append(out, s)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
