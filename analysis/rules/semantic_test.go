package rules

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// semOpt adjusts the input of a semantic-rule test.
type semOpt func(*FileInput)

// withResolver injects a fake resolver.
func withResolver(r Resolver) semOpt { return func(in *FileInput) { in.Resolver = r } }

// withTools restricts the user's tools.
func withTools(ids ...registry.ToolID) semOpt {
	return func(in *FileInput) { in.Config.Tools = ids }
}

// semantics runs only the semantic rules on content, as the file at path
// (relative paths are under /work/proj; "~/" is the fake home /home/u),
// with the kind the registry matches for it. Schema and syntax rules are
// left out so each test sees exactly what these rules say.
func semantics(t *testing.T, path, content string, opts ...semOpt) []Diagnostic {
	t.Helper()
	reg := registry.Default()
	switch {
	case strings.HasPrefix(path, "~/"):
		path = "/home/u/" + path[2:]
	case !strings.HasPrefix(path, "/"):
		path = "/work/proj/" + path
	}
	in := FileInput{Path: filepath.FromSlash(path), Content: []byte(content), Kind: kindFor(t, path), Registry: reg}
	for _, o := range opts {
		o(&in)
	}
	in.Parsed = jsonc.Parse(in.Content)
	in.Kind = restrictReaders(in.Kind, &in.Config)
	ds := checkSemantics(in)
	SortDiagnostics(ds)
	for _, d := range ds {
		if _, ok := RuleByCode(d.Code); !ok {
			t.Errorf("diagnostic with an unlisted code %q", d.Code)
		}
	}
	return ds
}

// kindFor is the kind the registry matches for an absolute path, with the
// fake home /home/u.
func kindFor(t *testing.T, path string) *registry.FileKind {
	t.Helper()
	kind, ok := registry.Default().Match(path, registry.Env{Home: "/home/u", GOOS: "linux"})
	if !ok {
		t.Fatalf("the registry does not know %s", path)
	}
	return kind
}

// only keeps the diagnostics with code.
func only(ds []Diagnostic, code string) []Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d Diagnostic) bool { return d.Code != code })
}

// spanOf returns the span of the n-th (0-based) occurrence of sub in s.
func spanOf(t *testing.T, s, sub string, n int) span.Span {
	t.Helper()
	at := 0
	for i := 0; ; i++ {
		j := strings.Index(s[at:], sub)
		if j < 0 {
			t.Fatalf("%q: occurrence %d not found", sub, n)
		}
		if i == n {
			return span.New(at+j, at+j+len(sub))
		}
		at += j + len(sub)
	}
}

// wantOne asserts that ds holds exactly one diagnostic with code, with the
// given span, severity and message, and returns it.
func wantOne(t *testing.T, ds []Diagnostic, code string, sp span.Span, sev Severity, msg string) Diagnostic {
	t.Helper()
	got := only(ds, code)
	if len(got) != 1 {
		t.Fatalf("want one %s, got %d:\n%s", code, len(got), dump(ds))
	}
	d := got[0]
	if d.Span != sp {
		t.Errorf("%s: span %v, want %v", code, d.Span, sp)
	}
	if d.Severity != sev {
		t.Errorf("%s: severity %v, want %v", code, d.Severity, sev)
	}
	if d.Message != msg {
		t.Errorf("%s: message\n got: %s\nwant: %s", code, d.Message, msg)
	}
	return d
}

// wantNone asserts that no diagnostic has code.
func wantNone(t *testing.T, ds []Diagnostic, code string) {
	t.Helper()
	if got := only(ds, code); len(got) > 0 {
		t.Errorf("want no %s, got:\n%s", code, dump(got))
	}
}

// wantData asserts d.Data[key] == want (compared as JSON).
func wantData(t *testing.T, d Diagnostic, key string, want any) {
	t.Helper()
	g, _ := json.Marshal(d.Data[key])
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s: Data[%q] = %s, want %s", d.Code, key, g, w)
	}
}

func dump(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		data, _ := json.Marshal(d.Data)
		fmt.Fprintf(&b, "  %v %v %s: %s %s\n", d.Span, d.Severity, d.Code, d.Message, data)
	}
	return b.String()
}

// fakeResolver knows a fixed set of programs and files.
type fakeResolver struct {
	programs map[string]bool // keyed by command as written, or dir+"|"+command
	files    map[string]bool
}

func (f fakeResolver) LookPath(command, dir string) bool {
	return f.programs[command] || f.programs[dir+"|"+command]
}

func (f fakeResolver) FileExists(path string) bool { return f.files[filepath.ToSlash(path)] }
