package analysis

import (
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// The schema verdict on an entry depends on nothing but the dialect, the
// schema definition asked for, and the entry's text: the same bytes decode
// to the same value in any file, at any offset (a JSON value is
// context-free, and entries holding a syntax error are never validated).
// Decoding and validating is most of the cost of analysing a large file,
// and an edit changes one entry, so the verdicts are memoised by text.
//
// This memo, and the per-entry memos of reconciled schema findings
// (schemaSubjectMemo) and of semantic findings (semantic_memo.go), are
// the only state in the analysis package, which is otherwise pure. They
// are acceptable because they are invisible: a hit returns exactly what
// the computation would (spans are stored relative to the entry and
// re-based by the caller, Data is copied), they do no I/O and start no
// goroutines, they are bounded in size, and a mutex makes each safe for
// the language server's concurrent workers. A per-snapshot cache passed
// in FileInput would be the cleaner home; these need no API change.

// schemaMemoGeneration is how many verdicts one generation holds. Two
// generations are kept (see schemaMemo), so at most twice this many
// entries are cached: enough for a few 1,000-server files read by two
// tools each, a few megabytes at most.
const schemaMemoGeneration = 4096

// schemaMemo is a two-generation cache: lookups hit the current
// generation or promote from the previous one; when the current one is
// full it becomes the previous one and the oldest is dropped whole. That
// keeps every recently used verdict (an approximation of LRU) with O(1)
// work and no per-entry bookkeeping.
type schemaMemo struct {
	mu       sync.Mutex
	cur, old map[schemaMemoKey]map[string]schemaEntryResult // (dialect, def) -> text -> verdict
	n        int                                            // entries in cur
}

type schemaMemoKey struct{ dialect, def string }

var schemaMemoCache = &schemaMemo{}

// schemaValidateMemo is schemaValidateEntry through the memo. text is the entry's
// source, n its node; the result's spans are relative to the entry's start.
func schemaValidateMemo(dialect, def string, text []byte, n *jsonc.Node) schemaEntryResult {
	k := schemaMemoKey{dialect, def}
	if r, ok := schemaMemoCache.get(k, text); ok {
		return r
	}
	r := schemaValidateRelative(dialect, def, n)
	schemaMemoCache.put(k, string(text), r)
	return r
}

// schemaValidateRelative is schemaValidateEntry with spans relative to
// the entry's start, as the memo keeps them.
func schemaValidateRelative(dialect, def string, n *jsonc.Node) schemaEntryResult {
	r := schemaValidateEntry(dialect, def, n)
	for i := range r.problems {
		p := &r.problems[i]
		p.span = span.New(p.span.Start-n.Span.Start, p.span.End-n.Span.Start)
	}
	return r
}

func (m *schemaMemo) get(k schemaMemoKey, text []byte) (schemaEntryResult, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// m[string(b)] does not copy b: the compiler recognises the pattern.
	if r, ok := m.cur[k][string(text)]; ok {
		return r, true
	}
	if r, ok := m.old[k][string(text)]; ok {
		m.insert(k, string(text), r)
		return r, true
	}
	return schemaEntryResult{}, false
}

func (m *schemaMemo) put(k schemaMemoKey, text string, r schemaEntryResult) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.insert(k, text, r)
}

// insert adds to the current generation, turning generations over when
// it is full. The caller holds m.mu.
func (m *schemaMemo) insert(k schemaMemoKey, text string, r schemaEntryResult) {
	if m.n >= schemaMemoGeneration {
		m.old, m.cur, m.n = m.cur, nil, 0
	}
	if m.cur == nil {
		m.cur = map[schemaMemoKey]map[string]schemaEntryResult{}
	}
	inner := m.cur[k]
	if inner == nil {
		inner = map[string]schemaEntryResult{}
		m.cur[k] = inner
	}
	if _, dup := inner[text]; !dup {
		m.n++
	}
	inner[text] = r
}
