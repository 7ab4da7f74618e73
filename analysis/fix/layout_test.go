package fix

import (
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

func TestDetectLayout(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Layout
	}{
		{"empty", "", DefaultLayout},
		{"one line", `{"a": 1}`, DefaultLayout},
		{"two spaces", "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n", Layout{"  ", "\n"}},
		{"four spaces", "{\n    \"a\": {\n        \"b\": 1\n    }\n}\n", Layout{"    ", "\n"}},
		{"three spaces", "{\n   \"a\": 1,\n   \"b\": {\n      \"c\": 2\n   }\n}", Layout{"   ", "\n"}},
		{"tabs", "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}\n", Layout{"\t", "\n"}},
		{"crlf", "{\r\n  \"a\": 1\r\n}\r\n", Layout{"  ", "\r\n"}},
		{"lone cr", "{\r  \"a\": 1\r}\r", Layout{"  ", "\r"}},
		{"first break decides", "{\r\n  \"a\": 1\n}\n", Layout{"  ", "\r\n"}},
		{"a deep jump does not win", "{\n  \"a\": [\n          1,\n          2\n  ],\n  \"b\": {\n    \"c\": 1\n  }\n}", Layout{"  ", "\n"}},
	} {
		if got := DetectLayout([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: DetectLayout = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"npx -y server", []string{"npx", "-y", "server"}, true},
		{"  spaced\tout  ", []string{"spaced", "out"}, true},
		{`run 'My Documents' "a \"b\"" c\ d`, []string{"run", "My Documents", `a "b"`, "c d"}, true},
		{`C:\tools\server.exe --root C:\src`, []string{`C:\tools\server.exe`, "--root", `C:\src`}, true},
		{`"C:\Program Files\x.exe"`, []string{`C:\Program Files\x.exe`}, true},
		{`echo $HOME ${X}`, []string{"echo", "$HOME", "${X}"}, true},
		{`a''b ""`, []string{"ab", ""}, true},
		{`unterminated "quote`, nil, false},
		{`unterminated 'quote`, nil, false},
		{"", nil, true},
	} {
		got, ok := SplitCommand(tc.in)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func doc(content string) *Document {
	return &Document{Path: "/p/x.json", Content: []byte(content)}
}

// apply applies edits of a test and fails on error.
func apply(t *testing.T, content string, edits []Edit) string {
	t.Helper()
	sortEdits(edits)
	out, err := Apply([]byte(content), edits)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return string(out)
}

// firstObject is the object holding the member named key, anywhere.
func objectWithKey(t *testing.T, d *Document, key string) (*jsonc.Node, int) {
	t.Helper()
	var found *jsonc.Node
	idx := -1
	var walk func(n *jsonc.Node)
	walk = func(n *jsonc.Node) {
		if n == nil || found != nil {
			return
		}
		for i, m := range n.Members() {
			if m.Key.Str == key {
				found, idx = n, i
				return
			}
			walk(m.Value)
		}
		for _, e := range n.Elements() {
			walk(e)
		}
	}
	walk(d.parsed().Root)
	if found == nil {
		t.Fatalf("no key %q", key)
	}
	return found, idx
}

func TestRemoveMember(t *testing.T) {
	for _, tc := range []struct {
		name, in, key, want string
	}{
		{"own line", "{\n  \"a\": 1,\n  \"b\": 2\n}", "a", "{\n  \"b\": 2\n}"},
		{"last takes the comma before", "{\n  \"a\": 1,\n  \"b\": 2\n}", "b", "{\n  \"a\": 1\n}"},
		{"only member", "{\n  \"a\": 1\n}", "a", "{\n}"},
		{"inline first", `{"a": 1, "b": 2}`, "a", `{"b": 2}`},
		{"inline last", `{"a": 1, "b": 2}`, "b", `{"a": 1}`},
		{"inline only", `{"a": 1}`, "a", `{}`},
		{"trailing comma kept as the file's style", "{\n  \"a\": 1,\n  \"b\": 2,\n}", "b", "{\n  \"a\": 1,\n}"},
		{"comment after the comma stays", "{\n  \"a\": 1, // note\n  \"b\": 2\n}", "a", "{\n  // note\n  \"b\": 2\n}"},
		{"comment above stays", "{\n  // about b\n  \"a\": 1,\n  \"b\": 2\n}", "a", "{\n  // about b\n  \"b\": 2\n}"},
		{"comment between value and comma", "{\n  \"a\": 1 /* x */,\n  \"b\": 2\n}", "a", "{\n  \"b\": 2\n}"},
		{"last with a comment before it", "{\"a\": 1, /* x */ \"b\": 2}", "b", "{\"a\": 1 /* x */ }"},
		{"multi-line value", "{\n  \"a\": {\n    \"x\": 1\n  },\n  \"b\": 2\n}", "a", "{\n  \"b\": 2\n}"},
		{"crlf", "{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}", "a", "{\r\n  \"b\": 2\r\n}"},
	} {
		d := doc(tc.in)
		obj, i := objectWithKey(t, d, tc.key)
		if got := apply(t, tc.in, d.removeMember(obj, i)); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestAppendMembers(t *testing.T) {
	m := []newMember{{key: "n", value: map[string]any{"command": "x"}}}
	for _, tc := range []struct {
		name, in, key, want string
	}{
		{"empty inline", `{"m": {}}`, "m", "{\"m\": {\n  \"n\": {\n    \"command\": \"x\"\n  }\n}}"},
		{"empty multi-line", "{\n  \"m\": {\n  }\n}", "m", "{\n  \"m\": {\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}"},
		{"empty with a comment", "{\n  \"m\": {\n    // none yet\n  }\n}", "m", "{\n  \"m\": {\n    // none yet\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}"},
		{"after the last", "{\n  \"m\": {\n    \"a\": 1\n  }\n}", "m", "{\n  \"m\": {\n    \"a\": 1,\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}"},
		{"after a trailing comma", "{\n  \"m\": {\n    \"a\": 1,\n  }\n}", "m", "{\n  \"m\": {\n    \"a\": 1,\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}"},
		{"a line comment stays with its member", "{\n  \"m\": {\n    \"a\": 1 // one\n  }\n}", "m", "{\n  \"m\": {\n    \"a\": 1, // one\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}"},
		{"inline object stays inline", `{"m": {"a": 1}}`, "m", `{"m": {"a": 1, "n": {"command": "x"}}}`},
		{"closing brace on the last line", "{\n  \"m\": {\n    \"a\": 1}\n}", "m", "{\n  \"m\": {\n    \"a\": 1,\n    \"n\": {\n      \"command\": \"x\"\n    }}\n}"},
		{"tabs and crlf", "{\r\n\t\"m\": {\r\n\t\t\"a\": 1\r\n\t}\r\n}", "m", "{\r\n\t\"m\": {\r\n\t\t\"a\": 1,\r\n\t\t\"n\": {\r\n\t\t\t\"command\": \"x\"\r\n\t\t}\r\n\t}\r\n}"},
	} {
		d := doc(tc.in)
		obj, i := objectWithKey(t, d, tc.key)
		edits, ok := d.appendMembers(obj.Members()[i].Value, m)
		if !ok {
			t.Fatalf("%s: not inserted", tc.name)
		}
		if got := apply(t, tc.in, edits); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestMinimalEdit(t *testing.T) {
	for _, tc := range []struct{ old, new string }{
		{"abc", "abc"}, {"abc", "abXc"}, {"", "x"}, {"x", ""}, {"aaa", "aa"}, {"{}", "{\n  \"a\": 1\n}"},
	} {
		e := minimalEdit("p", []byte(tc.old), []byte(tc.new))
		if got := apply(t, tc.old, []Edit{e}); got != tc.new {
			t.Errorf("minimalEdit(%q, %q) applies to %q", tc.old, tc.new, got)
		}
	}
}

func TestOverlaps(t *testing.T) {
	e := func(s, en int) Edit { return Edit{Path: "p", Span: spanOf(s, en)} }
	for _, tc := range []struct {
		a, b Edit
		want bool
	}{
		{e(0, 2), e(1, 3), true},
		{e(0, 2), e(2, 4), false},
		{e(1, 1), e(1, 1), false}, // two insertions at one offset: ordered
		{e(0, 2), e(1, 1), true},  // an insertion inside a replacement
		{e(0, 2), e(2, 2), false}, // at its edge
		{e(0, 2), Edit{Path: "q", Span: spanOf(0, 2)}, false},
	} {
		if got := overlaps(tc.a, tc.b); got != tc.want {
			t.Errorf("overlaps(%v, %v) = %v", tc.a.Span, tc.b.Span, got)
		}
	}
}
