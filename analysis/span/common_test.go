package span

import (
	"math/rand/v2"
	"testing"
)

// naiveEnds is CommonEnds by definition, one byte at a time.
func naiveEnds(a, b []byte) (int, int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, s
}

func TestCommonEnds(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"", ""}, {"abc", "abc"}, {"abc", ""}, {"", "abc"}, {"abc", "abxc"},
		{"aaaa", "aa"}, {"aa", "aaaa"}, {"abcabc", "abc"}, {"x", "y"},
	} {
		gp, gs := CommonEnds([]byte(c.a), []byte(c.b))
		wp, ws := naiveEnds([]byte(c.a), []byte(c.b))
		if gp != wp || gs != ws {
			t.Errorf("CommonEnds(%q, %q) = %d, %d; want %d, %d", c.a, c.b, gp, gs, wp, ws)
		}
	}
	// Texts longer than the block, changed anywhere, including across a
	// block boundary and in repeated text where prefix and suffix overlap.
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		a := make([]byte, r.IntN(20000))
		for j := range a {
			a[j] = "ab\n"[r.IntN(3)]
			if i%2 == 0 {
				a[j] = 'a'
			}
		}
		at := 0
		if len(a) > 0 {
			at = r.IntN(len(a) + 1)
		}
		cut := min(len(a)-at, r.IntN(10))
		ins := make([]byte, r.IntN(10))
		for j := range ins {
			ins[j] = "abc"[r.IntN(3)]
		}
		b := append(append(append([]byte{}, a[:at]...), ins...), a[at+cut:]...)
		gp, gs := CommonEnds(a, b)
		wp, ws := naiveEnds(a, b)
		if gp != wp || gs != ws {
			t.Fatalf("edit %d at %d (cut %d, insert %q): CommonEnds = %d, %d; want %d, %d", i, at, cut, ins, gp, gs, wp, ws)
		}
	}
}
