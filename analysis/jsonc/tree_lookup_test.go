package jsonc

import "testing"

func TestLookup(t *testing.T) {
	f := Parse([]byte(`{"a": {"b": [1], "b": {"c": "ü"}}, "s": "x"}`))
	if n := f.Root.Lookup("a", "b", "c"); n == nil || n.Str != "ü" {
		t.Errorf("a.b.c = %v, want the last b's c", n)
	}
	if n := f.Root.Lookup(); n != f.Root {
		t.Errorf("empty path = %v, want the root", n)
	}
	for _, path := range [][]string{{"missing"}, {"s", "x"}, {"a", "b", "c", "d"}} {
		if n := f.Root.Lookup(path...); n != nil {
			t.Errorf("%v = %v, want nil", path, n)
		}
	}
	var none *Node
	if n := none.Lookup("a"); n != nil {
		t.Errorf("nil.Lookup = %v, want nil", n)
	}
}
