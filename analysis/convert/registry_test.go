package convert

import (
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// registryExceptions are the fields where the converters knowingly differ
// from the registry, with the reason in dialect.go.
var registryExceptions = map[Dialect][]string{
	"cursor": {"oauth"}, // auth.CLIENT_ID "${env:NAME}" in Cursor guides
}

// TestInterpolationMatchesRegistry keeps the converters' table of expanded
// fields and default timeouts in step with the registry, the project's
// record of what each tool does.
func TestInterpolationMatchesRegistry(t *testing.T) {
	reg := registry.Default()
	for _, id := range Dialects() {
		d := dialects[id]
		rd, ok := reg.Dialect(registry.DialectID(id))
		if !ok {
			t.Errorf("%s: not a registry dialect", id)
			continue
		}
		tool, ok := reg.Tool(rd.Tool)
		if !ok {
			t.Fatalf("%s: no tool %s", id, rd.Tool)
		}
		want := slices.Clone(tool.Interpolation.Fields)
		want = append(want, registryExceptions[id]...)
		got := slices.Clone(d.fields)
		slices.Sort(want)
		slices.Sort(got)
		if len(tool.Interpolation.Forms) == 0 {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: expanded fields %v, registry (with exceptions) %v", id, got, want)
		}
		if (len(tool.Interpolation.Forms) == 0) != (d.syntax == noSyntax) {
			t.Errorf("%s: registry forms %v, converter syntax %d", id, tool.Interpolation.Forms, d.syntax)
		}
		wantMs := 0
		for _, to := range tool.Timeouts {
			if to.Field == "timeout" || id == schemas.CodexCLI && to.Field == "tool_timeout_sec" {
				wantMs = to.DefaultMs
			}
		}
		if d.defaultTimeout != wantMs {
			t.Errorf("%s: default timeout %d, registry %d", id, d.defaultTimeout, wantMs)
		}
	}
}

// TestSyntaxForms checks that each scanner reads every form the registry
// lists for its tool, spelled with sample names, as one whole reference of
// the right kind.
func TestSyntaxForms(t *testing.T) {
	samples := map[string]struct {
		text string
		kind RefKind
	}{
		"${VAR}":                     {"${VAR}", EnvRef},
		"${VAR:-default}":            {"${VAR:-d}", EnvRef},
		"$VAR":                       {"$VAR", EnvRef},
		"${env:VAR}":                 {"${env:VAR}", EnvRef},
		"${env:NAME}":                {"${env:NAME}", EnvRef},
		"${input:id}":                {"${input:id}", InputRef},
		"${workspaceFolder}":         {"${workspaceFolder}", EditorRef},
		"${userHome}":                {"${userHome}", EditorRef},
		"${workspaceFolderBasename}": {"${workspaceFolderBasename}", EditorRef},
		"${pathSeparator}":           {"${pathSeparator}", EditorRef},
		"${/}":                       {"${/}", EditorRef},
		"${predefined}":              {"${fileDirname}", EditorRef},
		"{env:VAR}":                  {"{env:VAR}", EnvRef},
		"{file:path}":                {"{file:path}", FileRef},
	}
	reg := registry.Default()
	for _, id := range Dialects() {
		d := dialects[id]
		rd, _ := reg.Dialect(registry.DialectID(id))
		tool, _ := reg.Tool(rd.Tool)
		for _, form := range tool.Interpolation.Forms {
			sample, ok := samples[form]
			if !ok {
				t.Errorf("%s: no sample for the registry form %s", id, form)
				continue
			}
			toks := d.syntax.scan(sample.text)
			if len(toks) != 1 || toks[0].start != 0 || toks[0].end != len(sample.text) || toks[0].ref.Kind != sample.kind {
				t.Errorf("%s: %s scans as %+v", id, sample.text, toks)
			}
		}
	}
}

// TestFormsMatchRegistry: each converter reads and writes exactly the
// syntaxes the registry lists for its tool (read by package interp, as
// the diagnostics read them).
func TestFormsMatchRegistry(t *testing.T) {
	reg := registry.Default()
	for _, id := range Dialects() {
		d := dialects[id]
		rd, _ := reg.Dialect(registry.DialectID(id))
		tool, _ := reg.Tool(rd.Tool)
		want := interp.FormsOf(tool.Interpolation.Forms)
		for s := interp.Dollar; s <= interp.BraceFile; s++ {
			if d.syntax.forms().Has(s) != want.Has(s) {
				t.Errorf("%s: syntax %d: converter %v, registry %v", id, s, d.syntax.forms().Has(s), want.Has(s))
			}
		}
	}
}
