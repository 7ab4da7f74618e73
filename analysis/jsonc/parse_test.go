package jsonc

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestRecovery pins down error recovery: the exact errors (code, span and
// the text under it) and the tree that survives, rendered by shape.
func TestRecovery(t *testing.T) {
	tests := []struct {
		name, src, shape, errors string
	}{
		// Members and elements.
		{"missing comma", `{"a": 1 "b": 2}`, `{"a":1,"b":2}`,
			`missing-comma [8,11) "\"b\""`},
		{"missing comma in array", `[1 2]`, `[1,2]`,
			`missing-comma [3,4) "2"`},
		{"half-typed member", `{"mcpServers": {"x": {"type": }}}`, `{"mcpServers":{"x":{"type":?}}}`,
			`missing-value [30,31) "}"`},
		{"typing a new key", `{"a": 1 "b"`, `{"a":1,"b":?`,
			`missing-comma [8,11) "\"b\""
missing-colon [11,11) ""`},
		{"key without value", `{"a"}`, `{"a":?}`,
			`missing-colon [4,5) "}"`},
		{"key without value before next member", `{"a" "b": 1}`, `{"a":?,"b":1}`,
			`missing-colon [5,8) "\"b\""`},
		{"missing colon", `{"a" 1}`, `{"a":1}`,
			`missing-colon [5,6) "1"`},
		{"misspelt colon", `{"a" => 1}`, `{"a":1}`,
			`missing-colon [5,7) "=>"`},
		{"double colon", `{"a":: 1}`, `{"a":1}`,
			`unexpected-token [5,6) ":"`},
		{"missing key", `{: 1}`, `{"1":?}`,
			`unexpected-token [1,2) ":"`},
		{"value without key", `{"a": 1, {"x": 1} "y": 2}`, `{"a":1,"y":2}`,
			`unexpected-token [9,10) "{"`},
		{"stray number in object", `{"a": 1 2}`, `{"a":1,"2":?}`,
			`missing-comma [8,9) "2"`},
		{"double comma", `{"a":1,,"b":2}`, `{"a":1,"b":2}`,
			`unexpected-token [7,8) ","`},
		{"leading comma", `{,}`, `{}`,
			`unexpected-token [1,2) ","`},
		{"hole in array", `[1,,2]`, `[1,?,2]`,
			`missing-value [3,4) ","`},
		{"only a comma", `[,]`, `[?]`,
			`missing-value [1,2) ","`},

		// Brackets.
		{"unclosed object at EOF", `{"a": 1,`, `{"a":1`,
			`unclosed-object [8,8) ""`},
		{"unclosed nest at EOF", `{"a": {"b": [1, {"c": `, `{"a":{"b":[1,{"c":?`,
			`missing-value [21,21) ""`},
		{"unclosed empty array", `[`, `[`,
			`unclosed-array [1,1) ""`},
		{"array closed by object's brace", `{"a": [1, 2}`, `{"a":[1,2}`,
			`unclosed-array [11,12) "}"`},
		{"object closed by array's bracket", `[{"a": 1]`, `[{"a":1]`,
			`unclosed-object [8,9) "]"`},
		{"stray brace in array", `[1, 2}]`, `[1,2]`,
			`unexpected-token [5,6) "}"`},
		{"stray bracket in object", `{"a": "b"] }`, `{"a":"b"}`,
			`unexpected-token [9,10) "]"`},
		{"extra closing brace", `{"a": 1}}`, `{"a":1}`,
			`trailing-content [8,9) "}"`},

		// Tokens.
		{"unquoted keys", "{command: \"npx\",\n my_server$2: 1}", `{"command":"npx","my_server$2":1}`,
			`unquoted-key [1,8) "command"
unquoted-key [18,29) "my_server$2"`},
		{"single quotes", `{'a': 'b\'c'}`, `{"a":"b'c"}`,
			`single-quoted-string [1,4) "'a'"
single-quoted-string [6,12) "'b\\'c'"`},
		{"unterminated string ends at end of line", "{\"a\": \"abc\n, \"b\": 2}", `{"a":"abc,"b":2}`,
			`unterminated-string [6,10) "\"abc"`},
		{"unterminated string gives back commas and brackets", "{\"a\": [\"abc ],\n\"b\": 2}", `{"a":["abc],"b":2}`,
			`unterminated-string [7,11) "\"abc"`},
		{"unterminated string at EOF", `["abc`, `["abc`,
			`unterminated-string [1,5) "\"abc"
unclosed-array [5,5) ""`},
		{"garbage run", `{"a": 1 @@@ ### "b": 2}`, `{"a":1,"b":2}`,
			`unexpected-token [8,15) "@@@ ###"`},
		{"semicolon for comma", `{"a": 1; "b": 2}`, `{"a":1,"b":2}`,
			`unexpected-token [7,8) ";"`},
		{"garbage element", `[1, @#!, 2]`, `[1,?,2]`,
			`unexpected-token [4,7) "@#!"`},
		{"garbage value", `{"a": @, "b": 1}`, `{"a":?,"b":1}`,
			`unexpected-token [6,7) "@"`},
		{"NUL byte", "[1,\x00 2]", `[1,2]`,
			`unexpected-token [3,4) "\x00"`},
		{"bare words", "{\"a\": tru,\n\"b\": True,\n\"c\": undefined}", `{"a":!tru,"b":!True,"c":!undefined}`,
			`invalid-value [6,9) "tru"
invalid-value [16,20) "True"
invalid-value [27,36) "undefined"`},
		{"numbers", `[0, -0, 0e0, 1E+2, -1.5e-3, 01, 1., -, +1, .5, 1e, 1.5abc, 0x1F]`,
			`[0,-0,0e0,1E+2,-1.5e-3,01,1.,-,+1,.5,1e,1.5abc,0x1F]`,
			`invalid-number [28,30) "01"
invalid-number [32,34) "1."
invalid-number [36,37) "-"
invalid-number [39,41) "+1"
invalid-number [43,45) ".5"
invalid-number [47,49) "1e"
invalid-number [51,57) "1.5abc"
invalid-number [59,63) "0x1F"`},

		// Strings.
		{"invalid escape kept verbatim", `"C:\Users"`, `"C:\\Users"`,
			`invalid-escape [3,5) "\\U"`},
		{"short unicode escape", `"\u12G4"`, `"\\u12G4"`,
			`invalid-escape [1,5) "\\u12"`},
		{"escaped tab character", "\"a\\\tb\"", `"a\\\tb"`,
			`invalid-escape [2,4) "\\\t"`},
		{"control characters", "[\"a\tb\", \"\x00\x01\"]", `["a\tb","\x00\x01"]`,
			`control-character [3,4) "\t"
control-character [9,11) "\x00\x01"`},
		{"invalid UTF-8 in string", "\"a\xff\xfeb\"", `"a��b"`,
			`invalid-utf8 [2,4) "\xff\xfe"`},
		{"invalid UTF-8 in comment", "1 // \xff\n", `1`,
			`invalid-utf8 [5,6) "\xff"`},
		{"invalid UTF-8 between tokens", "[\xff\xfe]", `[]`,
			`invalid-utf8 [1,3) "\xff\xfe"`},

		// Comments, BOM, top level.
		{"unterminated comment", `{"a": 1} /* x`, `{"a":1}`,
			`unterminated-comment [9,11) "/*"`},
		{"comment-only unterminated", `/* x`, ``,
			`unterminated-comment [0,2) "/*"`},
		{"BOM", "\uFEFF{}", `{}`, ``},
		{"BOM later is junk", "{}\uFEFF", `{}`,
			`trailing-content [2,5) "\ufeff"`},
		{"two top-level values", `{} {}`, `{}`,
			`trailing-content [3,5) "{}"`},
		{"two scalars", `1 2 3`, `1`,
			`trailing-content [2,5) "2 3"`},
		{"stray closer at top level", `] {"a": 1}`, `{"a":1}`,
			`unexpected-token [0,1) "]"`},
		{"only a closer", `}`, ``,
			`unexpected-token [0,1) "}"`},

		// Positions are bytes: CRLF, tabs, non-ASCII before an error.
		{"CRLF", "{\r\n  \"a\": 1\r\n  \"b\": 2\r\n}\r\n", `{"a":1,"b":2}`,
			`missing-comma [15,18) "\"b\""`},
		{"tabs", "{\n\t\"a\":\t1,\n\t\"b\"\t2\n}", `{"a":1,"b":2}`,
			`missing-colon [16,17) "2"`},

		// One structural error per line: the rest of a line after a
		// mistake is suspect. Errors inside tokens are kept.
		{"missing quote", `{"s0": {command": "npx", "args": ["-y"]}}`, `{"s0":{"command":": ","npx":", ","args":": [","-y":"}}`,
			`unquoted-key [8,15) "command"`},
		{"second mistake on the line waits", `{"a": 1 "b": 2 "c": 3}`, `{"a":1,"b":2,"c":3}`,
			`missing-comma [8,11) "\"b\""`},
		{"token errors are kept", `{'a': 01, "b": "\x"}`, `{"a":01,"b":"\\x"}`,
			`single-quoted-string [1,4) "'a'"
invalid-number [6,8) "01"
invalid-escape [16,18) "\\x"`},
		{"non-ASCII", "{\"é日本😀\": 1 \"x\": 2}", `{"é日本😀":1,"x":2}`,
			`missing-comma [19,22) "\"x\""`},
		{"escaped non-ASCII", `["\u00e9\ud83d\ude00", "\ud800", "\udc00\ud800x"]`, `["é😀","�","��x"]`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse([]byte(tt.src))
			if got := shape(f); got != tt.shape {
				t.Errorf("tree: got %s, want %s", got, tt.shape)
			}
			want := tt.errors
			if want != "" {
				want += "\n"
			}
			if got := errorList(f); got != want {
				t.Errorf("errors: got\n%swant\n%s", got, want)
			}
			checkInvariants(t, []byte(tt.src), f)
		})
	}
}

func TestMessages(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"a": 1 "b": 2}`, "expected ',' or '}' after object member"},
		{`[1 2]`, "expected ',' or ']' after array element"},
		{`{"a" 1}`, "expected ':' after property name"},
		{`{"a": }`, "expected a value"},
		{`{"a": 1`, "unclosed object: expected '}'"},
		{`[1`, "unclosed array: expected ']'"},
		{`"abc`, "unterminated string"},
		{`/*`, "unterminated comment: missing */"},
		{`{a: 1}`, "property name a must be in double quotes"},
		{`'a'`, "strings must use double quotes"},
		{`{"a": 1 @ }`, "expected property name or '}', found character '@'"},
		{`[1, ;;]`, `expected a value or ']', found characters ";;"`},
		{`True`, "invalid value True: JSON literals are lower case (true)"},
		{`npx`, "invalid value npx: expected a string (in double quotes), number, true, false or null"},
		{`01`, "invalid number 01: leading zeros are not allowed"},
		{`1.`, "invalid number 1.: expected a digit at the end"},
		{`"\q"`, `invalid escape \q in string`},
		{`{} x`, "unexpected content after the top-level value"},
	}
	for _, tt := range tests {
		f := Parse([]byte(tt.src))
		if len(f.Errors) != 1 || f.Errors[0].Message != tt.want {
			t.Errorf("Parse(%q) errors = %+v, want one with message %q", tt.src, f.Errors, tt.want)
		}
	}
}

// TestTree checks everything Parse records for a valid JSONC document.
func TestTree(t *testing.T) {
	src := "// head\n{\"a\": [1, \"x\\ty\", true, false, null,], /* mid */ \"b\": {},}\n"
	want := `object [8,66)
  member [9,45) colon=12
    string [9,12) "a"
    array [14,45)
      number [15,16) "1"
      string [18,24) "x\ty"
      true [26,30)
      false [32,37)
      null [39,43)
  member [57,64) colon=60
    string [57,60) "b"
    object [62,64)
comment [0,7) "// head"
comment [47,56) "/* mid */"
trailing-comma [43,44)
trailing-comma [64,65)
`
	f := Parse([]byte(src))
	if got := dump(f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestEmptyDocuments(t *testing.T) {
	for _, src := range []string{"", " \r\n\t", "// c\n/* d */", "\uFEFF", "\uFEFF // c"} {
		f := Parse([]byte(src))
		if f.Root != nil || len(f.Errors) > 0 {
			t.Errorf("Parse(%q) = root %v, errors %v; want neither", src, f.Root, f.Errors)
		}
	}
	if f := Parse([]byte("// c\n/* d */")); len(f.Comments) != 2 {
		t.Errorf("comments = %v, want 2", f.Comments)
	}
}

func TestTopLevelScalars(t *testing.T) {
	for src, want := range map[string]Kind{"42": Number, `"s"`: String, "null": Null, "true": True, "false": False, " -1.5e3 ": Number} {
		f := Parse([]byte(src))
		if f.Root == nil || f.Root.Kind != want || len(f.Errors) > 0 {
			t.Errorf("Parse(%q) = %v, %v; want a %s", src, f.Root, f.Errors, want)
		}
	}
}

// TestDeepNesting feeds 100,000 levels: the parser must not overflow its
// stack, must stay fast, and must report the depth once.
func TestDeepNesting(t *testing.T) {
	const n = 100_000
	tests := []struct {
		name, src, errors string
	}{
		{"arrays", strings.Repeat("[", n),
			"too-deep [1000,1001) \"[\"\nunclosed-array [100000,100000) \"\"\n"},
		{"balanced arrays", strings.Repeat("[", n) + strings.Repeat("]", n),
			"too-deep [1000,1001) \"[\"\n"},
		{"objects", strings.Repeat(`{"a":`, n),
			"too-deep [5000,5001) \"{\"\nunclosed-object [500000,500000) \"\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			f := Parse([]byte(tt.src))
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if got := errorList(f); got != tt.errors {
				t.Errorf("errors: got\n%swant\n%s", got, tt.errors)
			}
			checkInvariants(t, []byte(tt.src), f)
		})
	}
}

// TestLargeFile parses a 5 MB valid document of realistic entries (long
// paths and keys, as real configs have).
func TestLargeFile(t *testing.T) {
	const size = 5 << 20
	src := make([]byte, 0, size+1024)
	src = append(src, "{\n  \"mcpServers\": {"...)
	servers := 0
	for ; len(src) < size; servers++ {
		if servers > 0 {
			src = append(src, ',')
		}
		src = append(src, "\n    \"server-"...)
		src = strconv.AppendInt(src, int64(servers), 10)
		src = append(src, `": {
      "command": "/usr/local/lib/node_modules/.bin/mcp-server-filesystem",
      "args": ["--root", "/home/user/projects/some-fairly-long-project-name", "--read-only"],
      "env": {"API_KEY": "sk-0123456789abcdef0123456789abcdef0123456789abcdef", "LOG_LEVEL": "debug"}
    }`...)
	}
	src = append(src, "\n  }\n}\n"...)

	f := Parse(src)
	if len(f.Errors) > 0 {
		t.Fatalf("errors: %v", f.Errors[0])
	}
	last := f.Root.Find("/mcpServers/server-" + strconv.Itoa(servers-1) + "/env/LOG_LEVEL")
	if got := len(f.Root.Get("mcpServers").Value.Members()); got != servers || last == nil || last.Str != "debug" {
		t.Fatalf("got %d servers, want %d; last value %v", got, servers, last)
	}
}

func TestParseDoesNotModifyInput(t *testing.T) {
	src := []byte("\uFEFF{\"a\\n\": [1, 'x', \"\xff\"] // c\n")
	orig := bytes.Clone(src)
	f := Parse(src)
	if !bytes.Equal(src, orig) || !f.BOM {
		t.Fatalf("input modified or BOM missed")
	}
	if &f.Src[0] != &src[0] {
		t.Fatalf("File.Src is not the input")
	}
}

func TestTooManyErrors(t *testing.T) {
	src := "[" + strings.Repeat("1\n", 3*MaxErrors) + "1]" // a missing comma per line
	f := Parse([]byte(src))
	if len(f.Errors) != MaxErrors+1 || f.Errors[MaxErrors].Code != CodeTooManyErrors {
		t.Fatalf("got %d errors, the last %+v; want %d, the last too-many-errors", len(f.Errors), f.Errors[len(f.Errors)-1], MaxErrors+1)
	}
	if got := len(f.Root.Elements()); got != 3*MaxErrors+1 {
		t.Errorf("got %d elements, want all %d", got, 3*MaxErrors+1)
	}
}

// No string of a tree shares memory with the document, so that keeping
// one (a memo keeps server names) does not keep the whole document alive;
// a short string repeated is shared within the tree.
func TestStringsOwnTheirMemory(t *testing.T) {
	src := []byte("{\"mcpServers\": {\"a\": {\"command\": \"npx\", \"args\": [\"-y\", \"-y\", 12, \"a\\u00e9\"]},\n" +
		" \"b\": {\"command\": \"/usr/local/bin/some-long-command-name\", url: 'x', \"n\": -1.5e3}}}")
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	hi := lo + uintptr(len(src))
	for _, f := range []*File{Parse(src), Skim(src, [][]string{{"mcpServers"}})} {
		strs := 0
		var walk func(n *Node)
		walk = func(n *Node) {
			if n == nil {
				return
			}
			if n.Str != "" {
				strs++
				if p := uintptr(unsafe.Pointer(unsafe.StringData(n.Str))); p >= lo && p < hi {
					t.Errorf("%s %q shares the document's memory", n.Kind, n.Str)
				}
			}
			for _, m := range n.Members() {
				walk(m.Key)
				walk(m.Value)
			}
			for _, e := range n.Elements() {
				walk(e)
			}
		}
		walk(f.Root)
		if strs != 16 {
			t.Errorf("walked %d strings, want 16", strs)
		}
		args := f.Root.Lookup("mcpServers", "a", "args")
		if args == nil || len(args.Elements()) < 2 || unsafe.StringData(args.Elements()[0].Str) != unsafe.StringData(args.Elements()[1].Str) {
			t.Error(`the two adjacent "-y" are separate copies, want one shared`)
		}
	}
}

// Keeping a key of a parsed document keeps the key, not the document.
func TestKeptStringKeepsNotTheDocument(t *testing.T) {
	live := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	before := live()
	key := func() string {
		src := []byte(`{"server": "` + strings.Repeat("x", 4<<20) + `"}`)
		return Parse(src).Root.Members()[0].Key.Str
	}()
	if grown := live() - before; grown > 1<<20 {
		t.Errorf("keeping the key %q keeps %d KB", key, grown>>10)
	}
	runtime.KeepAlive(key)
}
