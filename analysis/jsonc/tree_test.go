package jsonc

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestNodeAt marks cursor positions with '|' and names the node expected
// there by its pointer, plus "key" if it is a key.
func TestNodeAt(t *testing.T) {
	tests := []struct {
		src  string // with one '|' marking the offset
		want string // pointer of the expected node, "key " prefix for keys, "nil" for none
	}{
		{`|{"a": 1}`, ""},
		{`{"a": 1}|`, ""},
		{`{|"a": 1}`, "key /a"},
		{`{"a|": 1}`, "key /a"},
		{`{"a"|: 1}`, "key /a"}, // just after the key is still on it
		{`{"a":| 1}`, ""},       // between colon and value: the object
		{`{"a": |1}`, "/a"},
		{`{"a": 1|}`, "/a"},
		{`{"a": [1, |{"b": null}]}`, "/a/1"},
		{`{"a": [1, {"b": nu|ll}]}`, "/a/1/b"},
		{`{"a": 1,"b"|:2}`, "key /b"},
		{`[1,|2]`, "/1"},
		{`[1|,2]`, "/0"},
		{`[[1]|,[2]]`, "/0"},
		{`[[1],|[2]]`, "/1"},
		{`{"x": {"type": | }}`, "/x"},
		{`{"x": {"type": |}}`, "/x/type"}, // the missing value, for completion
		{`{"a" |"b": 1}`, "key /b"},       // the key beats the missing value of "a" there
		{`{"a" "b|": 1}`, "key /b"},
		{`{"a": {"b":|`, "/a/b"},     // missing value at EOF
		{`{"a": {"b": |`, "/a"},      // past it: the unclosed object
		{`{"a": {"b": 1,   |`, "/a"}, // an unclosed object extends to EOF
		{`  |  1`, "nil"},
		{`|`, "nil"},
	}
	for _, tt := range tests {
		offset := strings.Index(tt.src, "|")
		src := strings.Replace(tt.src, "|", "", 1)
		f := Parse([]byte(src))
		n := f.NodeAt(offset)
		got := "nil"
		if n != nil {
			got = n.Pointer()
			if m := n.Member(); m != nil && m.Key == n {
				got = "key " + got
			}
		}
		if got != tt.want {
			t.Errorf("NodeAt in %s = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestGetLastDuplicateWins(t *testing.T) {
	f := Parse([]byte(`{"a": 1, "b": 2, "a": 3}`))
	if m := f.Root.Get("a"); m == nil || m.Value.Str != "3" {
		t.Errorf(`Get("a") = %v, want the member with 3`, m)
	}
	if m := f.Root.Get("c"); m != nil {
		t.Errorf(`Get("c") = %v, want nil`, m)
	}
	var nilNode *Node
	if nilNode.Get("a") != nil || f.Root.Find("/a/x") != nil {
		t.Errorf("Get on nil or Find through a scalar found something")
	}
}

func TestPathPointerFind(t *testing.T) {
	src := `{"mcpServers": {"a/b~c": {"args": ["-y", "pkg"]}, "": [0, {"x": true}]}}`
	f := Parse([]byte(src))
	tests := []struct {
		pointer string
		path    []string
		want    string // the node's source text
	}{
		{"", nil, src},
		{"/mcpServers/a~1b~0c/args/1", []string{"mcpServers", "a/b~c", "args", "1"}, `"pkg"`},
		{"/mcpServers//1/x", []string{"mcpServers", "", "1", "x"}, "true"},
	}
	for _, tt := range tests {
		n := f.Root.Find(tt.pointer)
		if n == nil {
			t.Errorf("Find(%q) = nil", tt.pointer)
			continue
		}
		if got := src[n.Span.Start:n.Span.End]; got != tt.want {
			t.Errorf("Find(%q) = %s, want %s", tt.pointer, got, tt.want)
		}
		if got := n.Path(); !slices.Equal(got, tt.path) {
			t.Errorf("Path() = %q, want %q", got, tt.path)
		}
		if got := n.Pointer(); got != tt.pointer {
			t.Errorf("Pointer() = %q, want %q", got, tt.pointer)
		}
	}
	for _, bad := range []string{"mcpServers", "/nope", "/mcpServers/a~1b~0c/args/01", "/mcpServers/a~1b~0c/args/2", "/mcpServers/a~1b~0c/args/-1"} {
		if n := f.Root.Find(bad); n != nil {
			t.Errorf("Find(%q) = %v, want nil", bad, n)
		}
	}
	// A key has the path of its member.
	key := f.Root.Get("mcpServers").Value.Members()[0].Key
	if got := key.Pointer(); got != "/mcpServers/a~1b~0c" {
		t.Errorf("key Pointer() = %q", got)
	}
}

func TestKindString(t *testing.T) {
	if Object.String() != "object" || Invalid.String() != "invalid" || Kind(99).String() != "Kind(99)" {
		t.Errorf("Kind.String is wrong")
	}
}

// TestKeysUnique: the parser records that a large object's keys are
// unique, and never claims it for one with a duplicate.
func TestKeysUnique(t *testing.T) {
	object := func(n int, dup bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			key := i
			if dup && i == n-1 {
				key = 3
			}
			fmt.Fprintf(&b, `"k%d": {"a": 1, "a": 2}`, key)
		}
		b.WriteString("}")
		return b.String()
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{object(uniqueKeysMin+1, false), true},
		{object(1000, false), true},
		{object(1000, true), false},
		{object(uniqueKeysMin, false), false}, // small: not checked
	} {
		f := Parse([]byte(c.text))
		if got := f.Root.KeysUnique(); got != c.want {
			t.Errorf("%d members: KeysUnique = %v, want %v", len(f.Root.Members()), got, c.want)
		}
		if f.Root.Members()[0].Value.KeysUnique() {
			t.Errorf("a two-member object with a duplicate key is reported unique")
		}
	}
	// Large objects in one file, checked one after the other with the
	// same table, each on its own keys.
	f := Parse([]byte(`[` + object(40, false) + `,` + object(20, true) + `,` + object(2000, false) + `,` + object(17, false) + `]`))
	for i, want := range []bool{true, false, true, true} {
		if got := f.Root.Elements()[i].KeysUnique(); got != want {
			t.Errorf("object %d of the array: KeysUnique = %v, want %v", i, got, want)
		}
	}
}

// TestKeysRepeat: the parser says whether any object of the file repeats
// a key, however deep, in objects small and large.
func TestKeysRepeat(t *testing.T) {
	for text, want := range map[string]bool{
		`{"a": {"b": 1, "c": 2}, "d": [{"e": 1, "f": 2}]}`: false,
		`{"a": [{"e": 1, "e": 2}]}`:                        true,
		`{"a": 1, "b": 2, "a": 3}`:                         true,
		`{"a": 1 "a": 2}`:                                  true, // a syntax error does not hide it
		`[]`:                                               false,
	} {
		repeat, known := Parse([]byte(text)).KeysRepeat()
		if !known || repeat != want {
			t.Errorf("%s: KeysRepeat = %v, %v; want %v, true", text, repeat, known, want)
		}
	}
	if _, known := (&File{}).KeysRepeat(); known {
		t.Error("a tree the parser did not make claims its keys were checked")
	}
}

func TestHashFollowsTheBytes(t *testing.T) {
	a := Parse([]byte(`{"x": {"command": "é"}, "y": {"command": "é"}, "z": {"command": "e"}}`))
	b := Parse([]byte("\r\n  {\"y\": {\"command\": \"é\"}}"))
	x := a.Root.Members()[0].Value
	y := a.Root.Members()[1].Value
	z := a.Root.Members()[2].Value
	yb := b.Root.Members()[0].Value
	if a.Hash(x) != a.Hash(y) || a.Hash(y) != b.Hash(yb) {
		t.Errorf("same bytes, different hashes")
	}
	if a.Hash(x) == a.Hash(z) {
		t.Errorf("different bytes, same hash")
	}
	if a.Hash(x) == a.Hash(a.Root) || a.Hash(nil) != 0 {
		t.Errorf("root or nil")
	}
}

// TestNodeSize pins the size of a Node: a 1,000-server file has about
// 27,000 of them, and every garbage collection scans them all, so a field
// added without thought costs every keystroke.
func TestNodeSize(t *testing.T) {
	if got := unsafe.Sizeof(Node{}); got != 56 {
		t.Errorf("unsafe.Sizeof(Node{}) = %d, want 56", got)
	}
}
