package rules

import (
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
)

// Cache is what analysis remembers between calls: the verdicts on server
// entries (verdict.Cache) and, per entry, the reconciled schema findings,
// the semantic findings and the project rules' findings. Everything in it
// is keyed by content (the registry, the readers or the file's scope, the
// entry's bytes), so a hit returns exactly what
// the computation would: spans are stored relative to the entry and
// re-based, Data is shared (Diagnostic.Data is read-only). An edit changes one entry of a large file; the
// others' findings are re-based, not redone.
//
// The caller owns it: the language server's session keeps one for its
// lifetime, the CLI makes one per run, and FileInput.Cache passes it in.
// There is no state in the package itself. It is safe for concurrent use
// and bounded (two generations of verdict.MemoGeneration entries each, or of
// the largest server map analysed, whichever is larger).
//
// Entries near a syntax error bypass it: there the parser's error recovery
// depends on what precedes the entry, so the same bytes need not give the
// same tree.
type Cache struct {
	// Verdicts is shared with the effective engine, hover and code
	// actions (effective.Input.Verdicts).
	Verdicts *verdict.Cache
	subjects verdict.Memo[entryMemoKey, []Diagnostic]
	sem      verdict.Memo[entryMemoKey, *semMemoResult]
	proj     verdict.Memo[entryMemoKey, []Diagnostic] // checkProjectRules

	// files are the per-server findings of the files analysed, as a
	// whole (analyzeByEntry), by file and context.
	filesMu sync.Mutex
	files   map[fileMemoKey]*fileMemo
	clock   uint64 // analyses made, for evicting the least recent file
	// judged counts the servers analyzeByEntry judged (not from a file
	// memo), for tests.
	judged int
}

// Computed is the number of entries whose findings the memos computed so
// far (schema subjects, semantic and project rules, each counted): tests
// assert that an edit computes the edited entry's only.
func (c *Cache) Computed() int { return c.subjects.Puts() + c.sem.Puts() + c.proj.Puts() }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{Verdicts: verdict.NewCache()} }

// Reset empties the cache (cold-start measurements and tests).
func (c *Cache) Reset() {
	c.Verdicts.Reset()
	c.subjects.Reset()
	c.sem.Reset()
	c.proj.Reset()
	c.filesMu.Lock()
	c.files = nil
	c.filesMu.Unlock()
}

// fit makes room in every memo for a server map of n entries read by
// readers readers (verdict.Memo.Fit): a map larger than a generation
// would otherwise cycle through the memos and miss on every lookup, and
// the effective view would judge again what the analysis just judged.
func (c *Cache) fit(n, readers int) {
	c.Verdicts.Fit(n * max(readers, 1))
	c.subjects.Fit(n)
	c.sem.Fit(n)
	c.proj.Fit(n)
}

// memoGeneration is the size of one generation of the memos: a server map
// larger than that would only churn them.
const memoGeneration = verdict.MemoGeneration
