package verdict

import (
	"fmt"
	"sync"
	"testing"
)

// A collision of the memo's hashes never returns another entry's verdict:
// with every entry hashed alike, each (reader, name, text) still gets its
// own verdict, each is judged once, and all stay cached.
func TestCacheHashCollisionNeverSharesAVerdict(t *testing.T) {
	c := NewCache()
	c.verdicts.hash = func([]byte, string) uint64 { return 42 }
	claude := reader(t, "mcp-json", "claude-code")
	copilot := reader(t, "mcp-json", "copilot-cli")
	type judged struct {
		r          string
		name, text string
		want       Outcome
	}
	cases := []judged{
		{"claude", "workspace", `{"command": "x"}`, SkipsEntry},
		{"claude", "other", `{"command": "x"}`, Loads},
		{"copilot", "workspace", `{"command": "x"}`, Loads},
		{"claude", "other", `{"command": 1}`, ""},
		{"claude", "other", `{"url": "https://example.com"}`, ""},
	}
	first := map[int]*Verdict{}
	for round := range 2 {
		for i, k := range cases {
			r := claude
			if k.r == "copilot" {
				r = copilot
			}
			v := judgeText(t, c, r, k.name, k.text)
			if k.want != "" && v.Outcome != k.want {
				t.Errorf("%s %q %s: outcome %s, want %s", k.r, k.name, k.text, v.Outcome, k.want)
			}
			if round == 0 {
				for j, w := range first {
					if w == v {
						t.Errorf("%s %q %s got the verdict of case %d", k.r, k.name, k.text, j)
					}
				}
				first[i] = v
			} else if first[i] != v {
				t.Errorf("%s %q %s: judged again on the second round", k.r, k.name, k.text)
			}
		}
	}
	if got := c.Judged(); got != int64(len(cases)) {
		t.Errorf("%d verdicts judged, want %d", got, len(cases))
	}
	if got := c.Len(); got != len(cases) {
		t.Errorf("%d verdicts cached, want %d", got, len(cases))
	}
	if v := judgeText(t, c, claude, "other", `{"command": 1}`); v.Outcome == Loads {
		t.Errorf("an invalid entry colliding with a valid one loads")
	}
}

// The verdict memo holds two generations at most, finds the previous
// one's verdicts (and moves them to the current one), and verifies their
// text and name under colliding hashes there too.
func TestVerdictMemoGenerations(t *testing.T) {
	var m verdictMemo
	m.hash = func(text []byte, _ string) uint64 { return uint64(len(text) % 8) }
	k := readerKey{tool: "claude-code", dialect: "claude-code"}
	text := func(i int) []byte { return []byte(fmt.Sprintf(`{"command": "x%d"}`, i)) }
	verdicts := map[int]*Verdict{}
	total := 3*MemoGeneration + 7
	for i := range total {
		v := &Verdict{}
		verdicts[i] = v
		m.put(m.hashOf(text(i), "s"), k, "s", text(i), v)
	}
	slots := func(t map[uint64]*verdictSlot) (n int) {
		for _, s := range t {
			for ; s != nil; s = s.next {
				n += len(s.verdicts)
			}
		}
		return n
	}
	if got := slots(m.cur) + slots(m.old); got > 2*MemoGeneration {
		t.Errorf("memo holds %d verdicts, bound is %d", got, 2*MemoGeneration)
	}
	if m.Len() != slots(m.cur) {
		t.Errorf("Len = %d, current generation holds %d", m.Len(), slots(m.cur))
	}
	last := total - 1
	if v, ok := m.get(m.hashOf(text(last), "s"), k, "s", text(last)); !ok || v != verdicts[last] {
		t.Error("the most recent verdict is not found")
	}
	// The oldest of the previous generation: found, and kept on.
	old := total - MemoGeneration - 7
	if v, ok := m.get(m.hashOf(text(old), "s"), k, "s", text(old)); !ok || v != verdicts[old] {
		t.Fatalf("a verdict of the previous generation is lost or wrong")
	}
	if s := findSlot(m.cur, m.hashOf(text(old), "s"), string(text(old)), "s"); s == nil {
		t.Error("a verdict found in the previous generation is not moved to the current one")
	}
	for _, miss := range []struct {
		name string
		k    readerKey
	}{{"other", k}, {"s", readerKey{tool: "vscode", dialect: "vscode"}}, {"s", readerKey{tool: "claude-code", dialect: "claude-code", merged: true}}} {
		if _, ok := m.get(m.hashOf(text(last), miss.name), miss.k, miss.name, text(last)); ok {
			t.Errorf("a verdict found for name %q, %+v", miss.name, miss.k)
		}
	}
	if _, ok := m.get(m.hashOf(text(0), "s"), k, "s", text(0)); ok {
		t.Error("a verdict two generations old is still found")
	}
}

// TestConcurrentCollidingEntriesKeepTheirVerdicts judges entries whose
// hashes all collide from several goroutines at once: a flight in
// progress for one entry must never hand its verdict to another with the
// same hash (flights are found by hash, then compared by name and text).
func TestConcurrentCollidingEntriesKeepTheirVerdicts(t *testing.T) {
	claude := reader(t, "mcp-json", "claude-code")
	texts := []struct {
		name, text string
		want       Outcome
	}{
		{"workspace", `{"command": "x"}`, SkipsEntry},
		{"other", `{"command": "x"}`, Loads},
		{"other", `{"command": 1}`, SkipsEntry},
		{"other", `{"url": "https://example.com"}`, SkipsEntry},
	}
	for round := range 20 {
		c := NewCache()
		c.verdicts.hash = func([]byte, string) uint64 { return 42 }
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range texts {
					k := texts[(i+g)%len(texts)]
					if v := judgeText(t, c, claude, k.name, k.text); v.Outcome != k.want {
						errs <- fmt.Sprintf("round %d: %q %s: outcome %s, want %s", round, k.name, k.text, v.Outcome, k.want)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}

// get is getAll for one reader: the verdict of rk on the entry (name,
// text), hashed as h.
func (m *verdictMemo) get(h uint64, rk readerKey, name string, text []byte) (*Verdict, bool) {
	var out [1]*Verdict
	ok := m.getAll(h, []readerKey{rk}, name, text, out[:])
	return out[0], ok
}

// put is putAll for one reader: v stored as rk's verdict on the entry
// (name, text), hashed as h.
func (m *verdictMemo) put(h uint64, rk readerKey, name string, text []byte, v *Verdict) {
	m.putAll(h, []readerKey{rk}, name, text, []*Verdict{v}, []uint8{judgeOwn})
}
