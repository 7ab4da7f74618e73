package analysis

import (
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

type schemaMemoKey struct{ dialect, def string }

var schemaMemoCache = &entryMemo[schemaMemoKey, schemaEntryResult]{}

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
