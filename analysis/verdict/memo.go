package verdict

import (
	"sync"
)

// MemoGeneration is how many results one generation of a Memo holds at
// least. Two generations are kept, so at least twice this many entries are
// cached: enough for a few 1,000-server files read by two tools each, a
// few megabytes at most. A larger file grows the generation (Memo.Fit).
const MemoGeneration = 4096

// Memo maps (key, entry text) to what was computed from them, in two
// generations: lookups hit the current generation or
// promote from the previous one; a full current generation becomes the
// previous one and the oldest is dropped whole.
//
// A generation is one flat map: keys that hold a server's name (the
// verdicts') would otherwise each own a map of one entry. The texts are
// interned (texts): the memos all key on the same entries' texts, each
// reader's verdicts, the findings and the project rules, which would
// otherwise keep one copy each of every entry.
type Memo[K comparable, V any] struct {
	mu       sync.Mutex
	cur, old map[memoKey[K]]V
	n        int // entries in cur
	gen      int // size of a generation, 0 for MemoGeneration (Fit)
	puts     int // results stored: computed after a miss, for tests
}

// memoKey is a Memo's key with the entry's text.
type memoKey[K comparable] struct {
	k    K
	text string
}

// lookupKey is the key of (k, text) for a lookup only: its text is text's
// bytes, not a copy, and must not be kept.
func lookupKey[K comparable](k K, text []byte) memoKey[K] {
	return memoKey[K]{k, view(text)}
}

// Fit grows the generations so that n entries (one file's, say) fit in
// one with as much again to spare: the entries of a file analysed as a
// whole are then all found on its next analysis, and by the effective
// view in between, however large the file. Without it a map larger than a
// generation cycles through the memo and every lookup misses. A
// generation never shrinks: the memo is bounded by the largest file the
// session has seen (at most the file size cap), not by a constant.
func (m *Memo[K, V]) Fit(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen = max(m.gen, 2*n)
	texts.fit(2 * n)
}

func (m *Memo[K, V]) Get(k K, text []byte) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	lk := lookupKey(k, text)
	if r, ok := m.cur[lk]; ok {
		return r, true
	}
	if r, ok := m.old[lk]; ok {
		m.insert(k, text, r)
		return r, true
	}
	var zero V
	return zero, false
}

func (m *Memo[K, V]) Put(k K, text []byte, r V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.puts++
	m.insert(k, text, r)
}

// Puts is the number of results stored so far (Put): tests count what an
// edit computed again.
func (m *Memo[K, V]) Puts() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.puts
}

// insert adds to the current generation, turning generations over when it
// is full. The caller holds m.mu.
func (m *Memo[K, V]) insert(k K, text []byte, r V) {
	if m.n >= max(MemoGeneration, m.gen) {
		m.old, m.cur, m.n = m.cur, nil, 0
	}
	if m.cur == nil {
		// Sized for what Fit announced: a 1,000-server file's verdicts
		// would otherwise grow the map a dozen times over, rehashing every
		// key of every text each time.
		m.cur = make(map[memoKey[K]]V, m.gen/2)
	}
	// The interned copy, never the caller's memory. One probe: a key
	// already present (two goroutines computed the same result) is
	// overwritten, key and all, so the count is the map's length rather
	// than a lookup first; every insert follows a missed lookup, so the
	// key is new but for that race.
	m.cur[memoKey[K]{k, texts.intern(text)}] = r
	m.n = len(m.cur)
}

// texts interns the texts of every Memo. unique.Make would do, but it
// costs microseconds per new string (a weak handle and a cleanup each),
// a third of the analysis of a 20,000-server file; this is a map lookup.
var texts interner

// interner maps a text to its one copy, in two generations like a Memo
// (sized as the largest one): a text it has dropped is copied afresh, and
// the memos that hold the old copy keep it.
type interner struct {
	mu       sync.Mutex
	cur, old map[string]string
	gen      int
}

func (t *interner) fit(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen = max(t.gen, n)
}

// intern returns the copy of text, made now if there is none.
func (t *interner) intern(text []byte) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.cur[string(text)]; ok {
		return s
	}
	s, ok := t.old[string(text)]
	if !ok {
		s = string(text)
	}
	if len(t.cur) >= max(MemoGeneration, t.gen) {
		t.old, t.cur = t.cur, nil
	}
	if t.cur == nil {
		t.cur = make(map[string]string, t.gen/2)
	}
	t.cur[s] = s
	return s
}

// Reset empties the memo (cold-start measurements and tests).
func (m *Memo[K, V]) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur, m.old, m.n = nil, nil, 0
}

// Len is the number of entries in the current generation.
func (m *Memo[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}
