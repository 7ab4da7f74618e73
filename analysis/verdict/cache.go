package verdict

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Cache holds verdicts by content: the registry, the reader (tool,
// dialect, effects), the server's name and the definition's bytes. The
// same bytes read by the same reader give the same verdict in any file and
// at any offset (spans are relative to the definition), so an edit of one
// entry of a large file re-judges that entry only, and hover, the
// effective view and the diagnostics of one snapshot share the work.
//
// The language server's session owns one Cache for its lifetime; the CLI
// makes one per run. It is safe for concurrent use and bounded (two
// generations of MemoGeneration entries, or of the largest file, Fit).
type Cache struct {
	verdicts Memo[cacheKey, *Verdict]
	derived  derivedMemo
	// judged counts the verdicts computed (cache misses): tests assert
	// that an unchanged entry is not judged again.
	judged atomic.Int64
}

// Fit makes room for n verdicts in one generation (Memo.Fit): the
// analysis of a file calls it with the file's entries times readers.
func (c *Cache) Fit(n int) {
	c.verdicts.Fit(n)
	c.derived.fit(n)
}

// Judged is the number of verdicts computed through the cache so far.
func (c *Cache) Judged() int64 { return c.judged.Load() }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{} }

// Reset empties the cache (cold-start measurements and tests).
func (c *Cache) Reset() {
	c.verdicts.Reset()
	c.derived.reset()
}

// Len is the number of verdicts in the current generation.
func (c *Cache) Len() int { return c.verdicts.Len() }

// cacheKey is everything outside the definition's bytes a verdict depends
// on. The registry pointer keeps the registry alive while cached, so it
// cannot be confused with a later one at the same address; Effects is a
// pointer into it.
type cacheKey struct {
	reg     *registry.Registry
	tool    registry.ToolID
	dialect registry.DialectID
	effects *registry.Effects
	name    string
	merged  bool
}

// AppendReaderKey appends to a memo key what a reader's verdicts depend on
// besides the entry: its tool, dialect and entry effects. Memos of
// findings derived from verdicts (package analysis) key on it.
func AppendReaderKey(b []byte, r *registry.Reader) []byte {
	b = AppendKeyString(AppendKeyString(b, string(r.Tool)), string(r.Dialect))
	if r.Effects != nil {
		b = AppendKeyString(b, string(r.Effects.InvalidEntry.Effect))
		b = AppendKeyString(b, string(r.Effects.UnknownKey.Effect))
	}
	return b
}

// AppendKeyString appends s to a memo key, length first, so that no two
// lists of strings give the same key.
func AppendKeyString(b []byte, s string) []byte {
	return append(append(strconv.AppendInt(b, int64(len(s)), 10), ':'), s...)
}

// Derivations is the number of Derived answers computed so far (misses):
// tests assert that an unchanged entry's are not computed again.
func (c *Cache) Derivations() int {
	c.derived.mu.Lock()
	defer c.derived.mu.Unlock()
	return c.derived.puts
}

// Derived returns compute's answer for key, computed once while the cache
// keeps it: facts another package derives from cached verdicts and their
// entries alone (the effective engine's merged fields of a server defined
// once, keyed by its *Verdict and the layer), reused across snapshots like
// the verdicts. compute must depend on nothing but key, and what it
// returns is shared: read-only. A key holding a *Verdict keeps that
// verdict alive, so a later one cannot take its address. Bounded like the
// verdicts (two generations). A nil Cache computes every time.
func (c *Cache) Derived(key any, compute func() any) any {
	if c == nil {
		return compute()
	}
	if v, ok := c.derived.get(key); ok {
		return v
	}
	v := compute()
	c.derived.put(key, v)
	return v
}

// derivedMemo is Memo's two generations for comparable keys.
type derivedMemo struct {
	mu       sync.Mutex
	cur, old map[any]any
	gen      int
	puts     int // results computed, for tests
}

func (m *derivedMemo) fit(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gen = max(m.gen, 2*n)
}

func (m *derivedMemo) get(k any) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.cur[k]; ok {
		return v, true
	}
	if v, ok := m.old[k]; ok {
		m.insert(k, v)
		return v, true
	}
	return nil, false
}

func (m *derivedMemo) put(k, v any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.puts++
	m.insert(k, v)
}

func (m *derivedMemo) insert(k, v any) {
	if len(m.cur) >= max(MemoGeneration, m.gen) {
		m.old, m.cur = m.cur, nil
	}
	if m.cur == nil {
		m.cur = map[any]any{}
	}
	m.cur[k] = v
}

func (m *derivedMemo) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur, m.old = nil, nil
}
