package interp

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

type found struct {
	syntax Syntax
	text   string
	name   string
	def    string
}

func scanAll(s string, f Forms) []found {
	var out []found
	for _, r := range Scan(s, f) {
		out = append(out, found{r.Syntax, s[r.Start:r.End], r.Name, r.Default})
	}
	return out
}

func TestScan_AllSyntaxes(t *testing.T) {
	cases := []struct {
		in   string
		want []found
	}{
		{"${HOME}/x", []found{{Dollar, "${HOME}", "HOME", ""}}},
		{"${API_KEY:-none}", []found{{DollarDefault, "${API_KEY:-none}", "API_KEY", "none"}}},
		{"${A:-}", []found{{DollarDefault, "${A:-}", "A", ""}}},
		// The tools take "${...}" up to the first "}": A with the default
		// "${B", then a literal "}".
		{"${A:-${B}}", []found{{DollarDefault, "${A:-${B}", "A", "${B"}}},
		{"$HOME/bin:$PATH", []found{{Bare, "$HOME", "HOME", ""}, {Bare, "$PATH", "PATH", ""}}},
		{"${env:TOKEN}", []found{{DollarEnv, "${env:TOKEN}", "TOKEN", ""}}},
		{"Bearer ${input:gh-token}", []found{{Input, "${input:gh-token}", "gh-token", ""}}},
		{"${workspaceFolder}/src", []found{{Predefined, "${workspaceFolder}", "workspaceFolder", ""}}},
		{"${config:python.path}", []found{{Predefined, "${config:python.path}", "config:python.path", ""}}},
		{"${/}", []found{{Predefined, "${/}", "/", ""}}},
		{"{env:TOKEN} {file:~/.key}", []found{{BraceEnv, "{env:TOKEN}", "TOKEN", ""}, {BraceFile, "{file:~/.key}", "~/.key", ""}}},
		// Non-ASCII around and inside references.
		{"é${ÄPFEL}ü ${X}😀", []found{{Dollar, "${X}", "X", ""}}},
		{"ключ={env:ПУТЬ}", []found{{BraceEnv, "{env:ПУТЬ}", "ПУТЬ", ""}}},
		// Unterminated references are text; scanning goes on after them.
		{"${unclosed", nil},
		{"${A {env:B}", []found{{BraceEnv, "{env:B}", "B", ""}}},
		// OpenCode's /\{env:([^}]+)\}/ runs to the first "}" too.
		{"{env:X ${Y}", []found{{BraceEnv, "{env:X ${Y}", "X ${Y", ""}}},
		// Not references.
		{"$1 $foo $Foo price: 5$ ${} {env:} {file:} ${env:} ${input:}", nil},
		{"$AKIAIOSFODNN7EXAMPLE", nil}, // a long word after "$" is text
		{"$HOMEx", nil},
	}
	for _, tc := range cases {
		if got := scanAll(tc.in, All); !slices.Equal(got, tc.want) {
			t.Errorf("Scan(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestScan_ToolForms: scanning with one tool's forms finds what that tool
// replaces, including a reference inside another tool's syntax.
func TestScan_ToolForms(t *testing.T) {
	claude := FormsOf([]string{"${VAR}", "${VAR:-default}"})
	opencode := FormsOf([]string{"{env:VAR}", "{file:path}"})
	vscode := FormsOf([]string{"${env:VAR}", "${input:id}", "${workspaceFolder}", "${userHome}", "${predefined}"})
	cursor := FormsOf([]string{"${env:NAME}", "${userHome}", "${workspaceFolder}", "${workspaceFolderBasename}", "${pathSeparator}", "${/}"})
	cases := []struct {
		in    string
		forms Forms
		want  []found
	}{
		// OpenCode's /\{env:([^}]+)\}/ matches inside ${env:X}.
		{"${env:API_KEY}", opencode, []found{{BraceEnv, "{env:API_KEY}", "API_KEY", ""}}},
		{"${API_KEY}", opencode, nil},
		{"$HOME ${workspaceFolder}", claude, []found{{Dollar, "${workspaceFolder}", "workspaceFolder", ""}}},
		{"${VAR} ${fileDirname} ${env:X}", vscode, []found{{Predefined, "${fileDirname}", "fileDirname", ""}, {DollarEnv, "${env:X}", "X", ""}}},
		{"${fileDirname} ${userHome}", cursor, []found{{Predefined, "${userHome}", "userHome", ""}}},
		{"${workspaceFolderBasename}${/}${file}", cursor, []found{{Predefined, "${workspaceFolderBasename}", "workspaceFolderBasename", ""}, {Predefined, "${/}", "/", ""}}},
		{"${A:-${B}}", claude, []found{{DollarDefault, "${A:-${B}", "A", "${B"}}},
	}
	for _, tc := range cases {
		if got := scanAll(tc.in, tc.forms); !slices.Equal(got, tc.want) {
			t.Errorf("Scan(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if !cursor.Admits(Ref{Syntax: Predefined, Name: "pathSeparator"}) || cursor.Admits(Ref{Syntax: Predefined, Name: "file"}) || !vscode.Admits(Ref{Syntax: Predefined, Name: "file"}) {
		t.Error("a tool admits the predefined variables its registry spellings name (all of them with ${predefined})")
	}
	if !claude.Has(DollarDefault) || !FormsOf([]string{"${VAR:-default}"}).Has(Dollar) {
		t.Error("${VAR} and ${VAR:-default} go together")
	}
	if !FormsOf(nil).Empty() || !FormsOf([]string{"unknown"}).Empty() {
		t.Error("no spellings: no forms")
	}
}

func TestRef_StringNeverShowsDefault(t *testing.T) {
	r := Scan("${TOKEN:-sk-live-123}", All)[0]
	if got := r.String(); got != "${TOKEN:-…}" {
		t.Errorf("String() = %q", got)
	}
}

func TestEnvVars(t *testing.T) {
	claude := FormsOf([]string{"${VAR}", "${VAR:-default}"})
	for _, c := range []struct {
		s     string
		forms Forms
		want  string
	}{
		{"Bearer ${TOKEN}", claude, "[TOKEN] [true]"},
		{"${HOST:-localhost}:${PORT}", claude, "[HOST PORT] [false true]"},
		{"${A:-x} ${A}", claude, "[A] [true]"},
		{"${A:-${B}}", claude, "[A] [false]"},
		{"{env:KEY} ${NOT_MINE}", FormsOf([]string{"{env:VAR}", "{file:path}"}), "[KEY] [true]"},
		{"$HOME/${X}", FormsOf([]string{"$VAR", "${VAR}"}), "[HOME X] [true true]"},
		{"${env:TOKEN} ${input:tok} ${userHome}", FormsOf([]string{"${env:VAR}", "${input:id}", "${userHome}"}), "[TOKEN HOME] [true true]"},
		{"no refs", claude, "[] []"},
	} {
		names, req := EnvVars(c.s, c.forms)
		if got := fmt.Sprint(names, req); got != c.want {
			t.Errorf("EnvVars(%q) = %s, want %s", c.s, got, c.want)
		}
	}
}

// TestScanString_SpansThroughEscapes: a reference's span covers the
// source bytes that decode to it, whatever escapes spell it.
func TestScanString_SpansThroughEscapes(t *testing.T) {
	cases := []struct{ src, want string }{
		{`{"a": "x ${VAR} y"}`, `${VAR}`},
		{`{"a": "x \u0024{VAR} y"}`, `\u0024{VAR}`},
		{`{"a": "\"q\" \u0024\u007bVAR\u007d"}`, `\u0024\u007bVAR\u007d`},
		{`{"a": "é😀\ud83d\ude00\n${VAR}"}`, `${VAR}`},
		{`{"a": "\x ${VAR}"}`, `${VAR}`}, // an invalid escape is kept verbatim
		{`{"a": "\u12 ${VAR}"}`, `${VAR}`},
		{"{\"a\": \"\xff ${VAR}\"}", `${VAR}`}, // invalid UTF-8 decodes to U+FFFD
		{`{"a": "\ud800 ${VAR}"}`, `${VAR}`},   // a lone surrogate too
		{`{"a": "${VAR} x`, `${VAR}`},          // an unterminated string
		{`{"a": '{env:VAR}\''}`, `{env:VAR}`},  // single quotes (a syntax error, still read)
		{"{\"a\": \"Bearer \\u0024{TOKEN}\"}\r\n", `\u0024{TOKEN}`},
	}
	for _, tc := range cases {
		f := jsonc.Parse([]byte(tc.src))
		n := f.Root.Members()[0].Value
		refs := ScanString([]byte(tc.src), n, All)
		if len(refs) != 1 {
			t.Errorf("%s: refs %v in %q", tc.src, refs, n.Str)
			continue
		}
		sp := refs[0].Span
		if got := tc.src[sp.Start:sp.End]; got != tc.want {
			t.Errorf("%s: span covers %q, want %q", tc.src, got, tc.want)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"${A:-${B}}", "$HOME {env:X} ${env:Y} ${input:z}", "\\u0024{X}", "é${X}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(`{"a": "` + s + `"}`)
		file := jsonc.Parse(src)
		if file.Root == nil || len(file.Root.Members()) == 0 || file.Root.Members()[0].Value.Kind != jsonc.String {
			return
		}
		n := file.Root.Members()[0].Value
		last := 0
		for _, r := range ScanString(src, n, All) {
			if r.Start < last || r.End <= r.Start || r.End > len(n.Str) {
				t.Fatalf("ref %+v out of order or bounds in %q", r, n.Str)
			}
			if r.Span.Start < n.Span.Start || r.Span.End > n.Span.End {
				t.Fatalf("span %v outside the string %v", r.Span, n.Span)
			}
			last = r.End
		}
	})
}
