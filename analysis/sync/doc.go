// Package sync writes one MCP server into every tool's file: the engine
// behind `mcp-lsp sync`, `mcp-lsp enable` and `disable`, and the code
// actions built on them.
//
// A sync reads the servers of one source (a tool's file, or an
// extension's mcp.json template with {{root}}, {{runtime.python}} and
// --var values, see [Resolve] and [AutoResolve]), converts each into the
// dialect of every target through package convert (losses reported, a
// server a target cannot hold refused with the reason), and computes each
// target's new content with package fix's value edits, which keep
// comments, formatting, key order, line endings and every unrelated key.
//
// What sync wrote is kept in [Records] (see [RecordsFile]): the source,
// target, tool, server and the hash of the entry written. With them a
// later sync updates its own entries, removes the entries whose server
// left the source, and tells an entry changed by hand (drift) or a
// server of the same name it never wrote (a clash) from its own, leaving
// both alone unless forced.
//
// Everything here is pure: the caller reads the files, resolves the
// variables (the Python is looked up, never run) and writes the results
// atomically; a language server turns a [TargetPlan] into a workspace
// edit with [TargetPlan.Edit].
package sync
