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
	verdicts verdictMemo
	// derivations counts the Derived answers computed.
	derivations atomic.Int64
	// judged counts the verdicts computed (cache misses): tests assert
	// that an unchanged entry is not judged again.
	judged atomic.Int64

	// flights are the verdicts being judged: a file's rules, its
	// project rules and the workspace's effective view run on both cores
	// and may miss on the same entry at once; the second waits for the
	// first's verdict instead of judging it again.
	flightMu sync.Mutex
	flights  map[flightKey]*flight
}

// flightKey finds a verdict being judged: the hash of the entry's text
// and name (verdictMemo.hashOf) and the reader. The flight holds the
// name and the text, compared on a hit: a key is a few words to hash,
// not a copy of the entry's text for every verdict of a first analysis.
type flightKey struct {
	h uint64
	k readerKey
}

// flight is one verdict being judged; v is set before done is marked
// (nil if judging panicked: a waiter then judges for itself). text is a
// view of the judging caller's bytes (view), compared only while the
// flight is in Cache.flights, when the caller still holds them.
type flight struct {
	name, text string
	done       sync.WaitGroup
	v          *Verdict
}

// Fit makes room for n verdicts in one generation (Memo.Fit): the
// analysis of a file calls it with the file's entries times readers.
func (c *Cache) Fit(n int) { c.verdicts.Fit(n) }

// Judged is the number of verdicts computed through the cache so far.
func (c *Cache) Judged() int64 { return c.judged.Load() }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{} }

// Reset empties the cache (cold-start measurements and tests).
func (c *Cache) Reset() { c.verdicts.Reset() }

// Len is the number of verdicts in the current generation.
func (c *Cache) Len() int { return c.verdicts.Len() }

// readerKey is everything outside the entry a verdict depends on: the
// registry and the reader (tool, dialect, effects), and whether the entry
// is merged (Entry.Merged); the entry is its name and definition's bytes.
// The registry pointer keeps the registry alive while cached, so it
// cannot be confused with a later one at the same address; Effects is a
// pointer into it.
type readerKey struct {
	reg     *registry.Registry
	effects *registry.Effects
	tool    registry.ToolID
	dialect registry.DialectID
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
func (c *Cache) Derivations() int64 { return c.derivations.Load() }

// Derived returns compute's answer for (v, key), computed once while v is
// cached: facts another package derives from a cached verdict and its
// entry alone (the effective engine's merged fields of a server defined
// once, keyed by the layer), reused across snapshots like the verdicts.
// compute must depend on nothing but v's entry and key, and what it
// returns is shared: read-only. The answers live on the verdict, so they
// go with it, and a lookup locks that verdict alone. A nil Cache
// computes every time.
func (c *Cache) Derived(v *Verdict, key any, compute func() any) any {
	if c == nil || v == nil {
		return compute()
	}
	v.derivedMu.Lock()
	for _, d := range v.derived {
		if d.key == key {
			v.derivedMu.Unlock()
			return d.value
		}
	}
	v.derivedMu.Unlock()
	value := compute()
	c.derivations.Add(1)
	v.derivedMu.Lock()
	v.derived = append(v.derived, derivedAnswer{key, value})
	v.derivedMu.Unlock()
	return value
}

// derivedAnswer is one answer of Cache.Derived kept on its verdict.
type derivedAnswer struct {
	key, value any
}
