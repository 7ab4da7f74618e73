// Package jsonc is the document model of mcp-lsp: a position-preserving,
// error-tolerant parser for JSON with comments and trailing commas (JSONC).
//
// Every feature (diagnostics, hover, completion, formatting) reads the tree
// built here, and most of the time it reads a file that is being typed and
// is therefore invalid. So Parse never gives up: a syntax error is recorded
// with a precise span and a stable code, and parsing resumes at the next
// token that makes sense, keeping the rest of the tree. Nodes carry byte
// offsets (package span), never lines or columns.
//
// Comments, trailing commas and a leading byte order mark are accepted
// without error but recorded in the File, because whether they are allowed
// depends on which tool reads the file: later rules flag them for strict
// JSON readers.
//
// Recovery aims at one error per mistake: parsing resumes as if the
// likeliest fix had been made, errors that follow from an earlier one are
// dropped, and a string missing its closing quote ends at the end of its
// line instead of swallowing the rest of the file. Content nested deeper
// than MaxDepth is skipped, so the tree can be walked recursively.
//
// ParseHuJSON builds the same tree with github.com/tailscale/hujson; the
// tests and the fuzz target check that the two agree on every document
// hujson accepts. The language server parses with Parse even when a file
// is valid: one code path for valid and invalid files, and it is about
// five times faster than hujson plus the conversion (2 ms against 10 ms
// for 1,000 servers, measured with BenchmarkParse), which decides whether
// an edit stays under the 5 ms budget. hujson stays the reference, and
// the tool for formatting and patching, where its round-tripping of
// comments and whitespace is what matters.
//
// Reparse gives Parse's result for a new version of a document from the
// old version's tree: when an edit changes only the inside of one object
// or array, it parses that value and copies the rest of the tree with
// shifted offsets (the language server's parse cache uses it on every
// full-text change).
//
// The package is pure: no I/O, no goroutines, no global mutable state. A
// File is immutable after Parse returns and safe for concurrent readers.
package jsonc
