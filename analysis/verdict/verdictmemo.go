package verdict

import (
	"hash/maphash"
	"sync"
	"unsafe"
)

// verdictMemo is the Cache's table of verdicts. It holds what a Memo
// would, in two generations bounded the same way (MemoGeneration, or
// Fit), but a lookup costs a 64-bit hash of the entry's text and name
// and one probe of a map keyed by that hash, not the hash of a key of
// four strings and the text in a map of every (reader, entry): opening a
// large file makes a lookup and a store for each entry and reader, and
// with a Memo those cost more than judging the entries.
//
// A slot holds one (text, name): its text once for all the readers that
// judged it, and each reader's verdict. The hash only finds the slot; the
// text and the name are compared on every hit and the reader's key is
// compared in full, so a collision of hashes costs a longer chain, never
// another entry's verdict.
type verdictMemo struct {
	mu       sync.Mutex
	cur, old map[uint64]*verdictSlot
	n        int // verdicts in cur
	gen      int // size of a generation in verdicts, 0 for MemoGeneration (Fit)

	// hash, when set, replaces entryHash (tests force collisions).
	hash func(text []byte, name string) uint64
}

// verdictSlot is one entry's text and name and the verdicts of the
// readers that judged it; next is another (text, name) with the same
// hash.
type verdictSlot struct {
	text, name string
	verdicts   []readerVerdict
	next       *verdictSlot
	// inline holds the first verdicts: a file kind has two readers or
	// more (a .mcp.json in a workspace folder four: Claude Code, Copilot
	// CLI, VS Code, Kilo Code), and their verdicts come with the slot's
	// allocation.
	inline [4]readerVerdict
}

// readerVerdict is one reader's verdict in a slot.
type readerVerdict struct {
	k readerKey
	v *Verdict
}

// view is b's bytes as a string, not a copy: for comparisons only, never
// kept.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

var entrySeed = maphash.MakeSeed()

// entryHash is the slot hash of an entry's text and name.
func entryHash(text []byte, name string) uint64 {
	h := maphash.Bytes(entrySeed, text)
	return h ^ (maphash.String(entrySeed, name) * 0x9e3779b97f4a7c15)
}

func (m *verdictMemo) hashOf(text []byte, name string) uint64 {
	if m.hash != nil {
		return m.hash(text, name)
	}
	return entryHash(text, name)
}

// findSlot returns the slot of (text, name) hashed as h in t, nil if none.
func findSlot(t map[uint64]*verdictSlot, h uint64, text, name string) *verdictSlot {
	for s := t[h]; s != nil; s = s.next {
		if s.name == name && s.text == text {
			return s
		}
	}
	return nil
}

func (s *verdictSlot) get(rk readerKey) (*Verdict, bool) {
	for i := range s.verdicts {
		if s.verdicts[i].k == rk {
			return s.verdicts[i].v, true
		}
	}
	return nil, false
}

// Fit grows the generations so that n verdicts fit in one with as much
// again to spare (Memo.Fit).
func (m *verdictMemo) Fit(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen = max(m.gen, 2*n)
	texts.fit(2 * n)
}

// getAll sets out[i] to the verdict of ks[i] on the entry (name, text),
// hashed as h, for every out[i] still nil, under one lock; it reports
// whether every out[i] is then set.
func (m *verdictMemo) getAll(h uint64, ks []readerKey, name string, text []byte, out []*Verdict) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := view(text)
	cur := findSlot(m.cur, h, t, name)
	var old *verdictSlot
	all := true
	for i, rk := range ks {
		if out[i] != nil {
			continue
		}
		if cur != nil {
			if v, ok := cur.get(rk); ok {
				out[i] = v
				continue
			}
		}
		if old == nil {
			old = findSlot(m.old, h, t, name)
		}
		if old != nil {
			if v, ok := old.get(rk); ok {
				// The old slot's text is the memo's own: kept as is.
				m.insert(h, rk, old.text, true, name, v)
				out[i] = v
				cur = findSlot(m.cur, h, t, name)
				continue
			}
		}
		all = false
	}
	return all
}

// putAll stores out[i] as ks[i]'s verdict on the entry (name, text),
// hashed as h, for every i whose how is judgeOwn or judgeAlone, under one
// lock.
func (m *verdictMemo) putAll(h uint64, ks []readerKey, name string, text []byte, out []*Verdict, how []uint8) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := view(text)
	for i, rk := range ks {
		if how[i] == judgeOwn || how[i] == judgeAlone {
			m.insert(h, rk, t, false, name, out[i])
		}
	}
}

// insert adds to the current generation, turning generations over when it
// is full. text is the memo's own string when owned, else a view of the
// caller's bytes (view) that a new slot interns. A verdict already stored
// for the key (two goroutines computed it) is replaced. The caller holds
// m.mu.
func (m *verdictMemo) insert(h uint64, rk readerKey, text string, owned bool, name string, v *Verdict) {
	if m.n >= max(MemoGeneration, m.gen) {
		m.old, m.cur, m.n = m.cur, nil, 0
	}
	if m.cur == nil {
		// Sized for what Fit announced, in slots (one per entry, for
		// every reader: at least two readers per file kind).
		m.cur = make(map[uint64]*verdictSlot, m.gen/4)
	}
	s := findSlot(m.cur, h, text, name)
	if s == nil {
		if !owned {
			text = texts.intern(unsafe.Slice(unsafe.StringData(text), len(text))) // copied once
		}
		s = &verdictSlot{text: text, name: name, next: m.cur[h]}
		s.verdicts = s.inline[:0]
		m.cur[h] = s
	}
	for i := range s.verdicts {
		if s.verdicts[i].k == rk {
			s.verdicts[i].v = v
			return
		}
	}
	s.verdicts = append(s.verdicts, readerVerdict{rk, v})
	m.n++
}

// Reset empties the memo.
func (m *verdictMemo) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur, m.old, m.n = nil, nil, 0
}

// Len is the number of verdicts in the current generation.
func (m *verdictMemo) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}
