package toml

import (
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// at returns the member at the dotted path (segments separated by '/',
// so that names may hold dots), failing the test if there is none.
func at(t *testing.T, f *jsonc.File, path string) *jsonc.Member {
	t.Helper()
	n := f.Root
	var m *jsonc.Member
	for _, seg := range strings.Split(path, "/") {
		if n == nil || n.Kind != jsonc.Object {
			t.Fatalf("%s: %q is not inside an object", path, seg)
		}
		if m = n.Get(seg); m == nil {
			t.Fatalf("%s: no member %q", path, seg)
		}
		n = m.Value
	}
	return m
}

func text(src []byte, n *jsonc.Node) string { return string(src[n.Span.Start:n.Span.End]) }

func parse(t *testing.T, src string) (*jsonc.File, []byte) {
	t.Helper()
	b := []byte(src)
	f := Parse(b)
	checkTree(t, b, f)
	return f, b
}

const nyzhiConfig = `# Nyzhi project config
[provider]
default = "anthropic"

[mcp.servers.filesystem]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
env = { NODE_ENV = "production" }

[mcp.servers."my server"]
url = "https://mcp.example.com"
headers = { Authorization = "Bearer ..." }

[mcp.servers.'ключ-😀']
command = '''C:\bin\srv'''
`

func TestSpans(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		src := strings.ReplaceAll(nyzhiConfig, "\n", eol)
		f, b := parse(t, src)
		if len(f.Errors) > 0 {
			t.Fatalf("eol %q: errors %v", eol, f.Errors)
		}
		for _, c := range []struct{ path, key, value string }{
			{"provider/default", "default", `"anthropic"`},
			// A table header names the table: its key is the last segment.
			{"mcp/servers/filesystem", "filesystem", "[mcp.servers.filesystem]" + eol +
				`command = "npx"` + eol +
				`args = ["-y", "@modelcontextprotocol/server-filesystem", "."]` + eol +
				`env = { NODE_ENV = "production" }`},
			{"mcp/servers/filesystem/command", "command", `"npx"`},
			{"mcp/servers/filesystem/args", "args", `["-y", "@modelcontextprotocol/server-filesystem", "."]`},
			{"mcp/servers/filesystem/env", "env", `{ NODE_ENV = "production" }`},
			{"mcp/servers/filesystem/env/NODE_ENV", "NODE_ENV", `"production"`},
			// Quoted segments include their quotes, as JSON keys do.
			{"mcp/servers/my server", `"my server"`, `[mcp.servers."my server"]` + eol +
				`url = "https://mcp.example.com"` + eol +
				`headers = { Authorization = "Bearer ..." }`},
			{"mcp/servers/my server/url", "url", `"https://mcp.example.com"`},
			{"mcp/servers/ключ-😀", `'ключ-😀'`, `[mcp.servers.'ключ-😀']` + eol + `command = '''C:\bin\srv'''`},
			{"mcp/servers/ключ-😀/command", "command", `'''C:\bin\srv'''`},
		} {
			m := at(t, f, c.path)
			if got := text(b, m.Key); got != c.key {
				t.Errorf("eol %q: %s: key spans %q, want %q", eol, c.path, got, c.key)
			}
			if got := text(b, m.Value); got != c.value {
				t.Errorf("eol %q: %s: value spans %q, want %q", eol, c.path, got, c.value)
			}
		}
		// The implicit tables made by the headers span their parts.
		if got := text(b, at(t, f, "mcp").Key); got != "mcp" {
			t.Errorf("mcp key spans %q", got)
		}
		if got := at(t, f, "mcp/servers/ключ-😀/command").Value.Str; got != `C:\bin\srv` {
			t.Errorf("literal string = %q", got)
		}
		if got := at(t, f, "mcp/servers/filesystem/args").Value.Elements()[1].Str; got != "@modelcontextprotocol/server-filesystem" {
			t.Errorf("args[1] = %q", got)
		}
		if m := at(t, f, "mcp/servers/filesystem/command"); m.Colon < 0 || b[m.Colon] != '=' {
			t.Errorf("Colon = %d, want the offset of '='", m.Colon)
		}
	}
}

func TestDottedKeysAndInlineTables(t *testing.T) {
	f, b := parse(t, `mcp.servers.fs.command = "npx"
mcp.servers.fs.args = [
  "-y",   # the package
  "fs",
]
mcp.servers.web = { url = "https://x", headers.Authorization = "t" }
`)
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	fs := at(t, f, "mcp/servers/fs")
	if text(b, fs.Key) != "fs" || text(b, fs.Value) != `command = "npx"
mcp.servers.fs.args = [
  "-y",   # the package
  "fs",
]` {
		t.Errorf("fs: key %q value %q (a dotted table spans from its first key to its last value)", text(b, fs.Key), text(b, fs.Value))
	}
	if got := text(b, at(t, f, "mcp/servers/fs/args").Value); got != "[\n  \"-y\",   # the package\n  \"fs\",\n]" {
		t.Errorf("args spans %q", got)
	}
	if got := text(b, at(t, f, "mcp/servers/web/headers/Authorization").Key); got != "Authorization" {
		t.Errorf("dotted key inside an inline table spans %q", got)
	}
}

func TestHeaderDefinesImplicitTable(t *testing.T) {
	// [a.b] names a; [a] then defines it: its key is [a]'s segment.
	f, b := parse(t, "[mcp.servers.fs.env]\nA = \"1\"\n[mcp.servers.fs]\ncommand = \"x\"\n")
	fs := at(t, f, "mcp/servers/fs")
	if fs.Key.Span.Start != strings.LastIndex(string(b), "fs]") {
		t.Errorf("fs key at %d, want the [mcp.servers.fs] header's segment", fs.Key.Span.Start)
	}
	if got := text(b, fs.Value); got != string(b[:len(b)-1]) {
		t.Errorf("fs spans %q, want its sub-table and its own section", got)
	}
}

func TestArrayOfTables(t *testing.T) {
	f, b := parse(t, "[[servers]]\nname = \"a\"\n\n[[servers]]\nname = \"b\"\n[servers.env]\nX = \"1\"\n")
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	arr := at(t, f, "servers").Value
	if arr.Kind != jsonc.Array || len(arr.Elements()) != 2 {
		t.Fatalf("servers = %s with %d elements", arr.Kind, len(arr.Elements()))
	}
	if got := text(b, arr.Elements()[1]); got != "[[servers]]\nname = \"b\"\n[servers.env]\nX = \"1\"" {
		t.Errorf("second element spans %q (a sub-table header goes to the last element)", got)
	}
}

func TestValues(t *testing.T) {
	f, _ := parse(t, `i = 1_000
h = 0xDEAD_beef
o = 0o755
bin = 0b11
neg = -17
pos = +3
fl = 6.626e-34
fu = 224_617.445_991
inf = +inf
nan = -nan
yes = true
no = false
date = 1979-05-27
dt = 1979-05-27 07:32:00Z
s = "tab\there \u00e9 \"q\""
ml = """
first \
   second"""
`)
	if len(f.Errors) > 0 {
		t.Fatal(f.Errors)
	}
	for key, want := range map[string]string{
		"i": "1000", "h": "3735928559", "o": "493", "bin": "3", "neg": "-17", "pos": "3",
		"fl": "6.626e-34", "fu": "224617.445991", "inf": "inf", "nan": "-nan",
		"date": "1979-05-27", "dt": "1979-05-27 07:32:00Z",
		"s": "tab\there é \"q\"", "ml": "first second",
	} {
		if got := at(t, f, key).Value.Str; got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	for key, kind := range map[string]jsonc.Kind{"i": jsonc.Number, "fl": jsonc.Number, "yes": jsonc.True, "no": jsonc.False, "date": jsonc.String} {
		if got := at(t, f, key).Value.Kind; got != kind {
			t.Errorf("%s: kind %s, want %s", key, got, kind)
		}
	}
}

func TestEmptyAndBOM(t *testing.T) {
	for _, src := range []string{"", "\n\n", "# only a comment\n", "\uFEFF", "\uFEFFa = 1\n"} {
		f, _ := parse(t, src)
		if len(f.Errors) > 0 {
			t.Errorf("%q: errors %v", src, f.Errors)
		}
		if f.BOM != strings.HasPrefix(src, "\uFEFF") {
			t.Errorf("%q: BOM = %v", src, f.BOM)
		}
		if len(f.Comments) > 0 {
			t.Errorf("%q: TOML comments must not be reported as JSONC comments", src)
		}
	}
}

// TestErrors pins the span and code of each kind of error, and what
// recovery keeps.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		code, at  string // the error's code and the text it spans
		keep      []string
		drop      []string
	}{
		{
			name: "unterminated string keeps the key",
			src:  "[mcp.servers.fs]\ncommand = \"npx\nurl = \"u\"\n",
			code: CodeSyntax, at: `"npx`, // go-toml points at the line break
			keep: []string{"mcp/servers/fs/command", "mcp/servers/fs/url"},
		},
		{
			name: "missing comma in a multi-line array: one error, rest read",
			src:  "[s]\nargs = [\n  \"a\" \"b\",\n  \"c\",\n  [1, 2],\n]\nurl = \"u\"\n",
			code: CodeSyntax, at: `"`,
			keep: []string{"s/args", "s/url"},
		},
		{
			name: "junk after a value keeps the value",
			src:  "a = 1 b = 2\nc = 3\n",
			code: CodeSyntax, at: "b",
			keep: []string{"a", "c"}, drop: []string{"b"},
		},
		{
			name: "a header being typed detaches what follows",
			src:  "[mcp.servers.a]\ncommand = \"x\"\n[mcp.servers.\nurl = \"u\"\n[mcp.servers.b]\nurl = \"v\"\n",
			code: CodeSyntax, at: "\n",
			keep: []string{"mcp/servers/a/command", "mcp/servers/b/url"}, drop: []string{"mcp/servers/a/url"},
		},
		{
			name: "unterminated string, CRLF",
			src:  "[s]\r\ncommand = 'npx  \r\nurl = \"u\"\r\n",
			code: CodeSyntax, at: `'npx`,
			keep: []string{"s/command", "s/url"},
		},
		{
			name: "missing value",
			src:  "[s]\ncommand =\nurl = \"u\"\n",
			code: CodeSyntax, at: "\n",
			keep: []string{"s/command", "s/url"},
		},
		{
			name: "duplicate key",
			src:  "[s]\nurl = \"a\"\nurl = \"b\"\n",
			code: CodeRedefinition, at: "url",
		},
		{
			name: "table defined twice",
			src:  "[mcp.servers.fs]\ncommand = \"a\"\n[mcp.servers.fs]\nurl = \"b\"\n",
			code: CodeRedefinition, at: "fs",
			keep: []string{"mcp/servers/fs/command"}, drop: []string{"mcp/servers/fs/url"},
		},
		{
			name: "quoted table name defined twice",
			src:  "[mcp.servers.\"my server\"]\n[mcp.servers.\"my server\"]\n",
			code: CodeRedefinition, at: `"my server"`,
		},
		{
			name: "inline tables are closed",
			src:  "fs = { command = \"a\" }\nfs.args = []\n",
			code: CodeRedefinition, at: "fs",
		},
		{
			name: "header for a table made by dotted keys",
			src:  "[mcp]\nservers.fs.command = \"a\"\n[mcp.servers.fs]\n",
			code: CodeRedefinition, at: "fs",
		},
		{
			name: "integer out of range",
			src:  "timeout = 9223372036854775808\n",
			code: CodeInvalidValue, at: "9223372036854775808",
		},
		{
			name: "date that does not exist",
			src:  "d = 2026-02-30\n",
			code: CodeInvalidValue, at: "2026-02-30",
		},
		{
			name: "error at the end of input",
			src:  "a = [1,",
			code: CodeSyntax, at: ",",
			keep: []string{"a"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, b := parse(t, c.src)
			if len(f.Errors) != 1 {
				t.Fatalf("errors = %v, want exactly one", f.Errors)
			}
			e := f.Errors[0]
			if e.Code != c.code || string(b[e.Span.Start:e.Span.End]) != c.at {
				t.Errorf("error %s at %q (%s), want %s at %q", e.Code, b[e.Span.Start:e.Span.End], e.Message, c.code, c.at)
			}
			for _, p := range c.keep {
				at(t, f, p)
			}
			for _, p := range c.drop {
				n := f.Root
				for _, seg := range strings.Split(p, "/") {
					if m := n.Get(seg); m != nil {
						n = m.Value
					} else {
						n = nil
						break
					}
				}
				if n != nil {
					t.Errorf("%s should not be in the tree", p)
				}
			}
		})
	}
}

func TestBrokenValueIsInvalid(t *testing.T) {
	f, b := parse(t, "[mcp.servers.fs]\ncommand = \"npx\n")
	v := at(t, f, "mcp/servers/fs/command").Value
	if v.Kind != jsonc.Invalid || text(b, v) != `"npx` {
		t.Errorf("command = %s %q, want an Invalid node over the broken text", v.Kind, text(b, v))
	}
}

// TestNodeAt checks that jsonc's lookups find the right node in a TOML
// tree, also when a table's parts are spread over the file.
func TestNodeAt(t *testing.T) {
	src := "[mcp.servers.a]\ncommand = \"x\"\n\n[provider]\ndefault = \"p\"\n\n[mcp.servers.b]\nurl = \"u\"\n"
	f, b := parse(t, src)
	for _, c := range []struct {
		needle string // the cursor is on the first byte of its first occurrence
		want   string // path of the member whose key or value is found
		isKey  bool
	}{
		{"a]", "mcp/servers/a", true},
		{"b]", "mcp/servers/b", true},
		{"command", "mcp/servers/a/command", true},
		{`"x"`, "mcp/servers/a/command", false},
		{"default", "provider/default", true},
		{`"u"`, "mcp/servers/b/url", false},
	} {
		off := strings.Index(src, c.needle)
		n := f.NodeAt(off)
		m := at(t, f, c.want)
		want := m.Value
		if c.isKey {
			want = m.Key
		}
		if n != want {
			got := "<nil>"
			if n != nil {
				got = n.Kind.String() + " " + text(b, n)
			}
			t.Errorf("NodeAt(%q) = %s, want %s", c.needle, got, c.want)
		}
	}
}

// TestAgreesWithGoTOML compares Parse with go-toml's decoder on documents
// written for the rules this package re-implements.
func TestAgreesWithGoTOML(t *testing.T) {
	for _, src := range []string{
		nyzhiConfig,
		"[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n",
		"[a]\nb.c = 1\n[a.b.d]\ne = 2\n",
		"[[a]]\n[[a.b]]\n[a.b.c]\n[[a]]\nx = 1\n",
		"a = []\n[[a]]\n",
		"[a]\n[[a]]\n",
		"[[a]]\n[a]\n",
		"a = [{ b = 1 }]\n[a.c]\n",
		"a = { b = 1 }\n[a.c]\n",
		"a.b = 1\n[a]\n",
		"a.b = 1\n[a.c]\nd = 1\n",
		"a = {b.c = 1, b.d = 2}\n",
		"a = {b = {c = 1}, b.d = 2}\n",
		"\"\" = 1\n'' = 2\n",
		"a = 0x7FFFFFFFFFFFFFFF\nb = -9223372036854775808\n",
		"a = 0b\n",
		"t = 24:00:00\n",
		"t = 23:59:60\n",
		"d = 1979-05-27T00:32:00.999999-07:00\n",
		"x = 1\r\ny = 2\r\n",
		"x = 1\ry = 2\n",
		"s = \"\x01\"\n",
		"s = \"\xff\"\n",
		"# \x7f\n",
		"a = {\n  b = 1,\n}\n",
	} {
		f, b := parse(t, src)
		checkOracle(t, b, f)
	}
}
