package rules

import (
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/quote"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The words every rule's messages share: one helper each, for the schema
// and the semantic rules alike.

// plural picks the singular or plural form for n subjects.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteList quotes and joins values: "local", "remote".
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote.String(s)
	}
	return strings.Join(q, ", ")
}

// quoteAnd quotes and joins with "and": "command" and "url".
func quoteAnd(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote.String(s)
	}
	return JoinAnd(q)
}

// readerNames names readers' tools: "Claude Code and GitHub Copilot CLI".
func readerNames(in FileInput, rs []*registry.Reader) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = toolName(in, r.Tool)
	}
	return JoinAnd(names)
}

// readerIDs lists readers' tool ids, for Data.
func readerIDs(rs []*registry.Reader) []string {
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = string(r.Tool)
	}
	return ids
}
