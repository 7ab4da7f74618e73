// Package toml reads TOML configuration files (Nyzhi's .nyzhi/config.toml
// and ~/.config/nyzhi/config.toml) into the document model of package
// jsonc, so that everything built on that tree (the effective-configuration
// engine, cross-file diagnostics, hover, definitions, symbols) works on them
// unchanged.
//
// # The tree
//
// A TOML document is a table. Tables become Objects, whether written as a
// [header], by dotted keys (a.b = 1) or inline ({ a = 1 }); arrays and
// arrays of tables ([[header]]) become Arrays. Strings are Strings with
// their decoded value in Str; booleans are True and False; integers and
// floats are Numbers whose Str is the value in JSON number syntax (1_000
// and 0x3e8 both read "1000"), except inf and nan, which keep their TOML
// spelling because JSON has none; dates and times are Strings holding the
// text as written.
//
// Every key is a String node spanning the key's own segment: in
// [mcp.servers.fs] the key of server fs is the bytes "fs" (a quoted segment
// includes its quotes, as a JSON key does). A table named by several
// headers or dotted keys has the segment that defined it: the one of its own
// [header] if it has one, else the first one that named it. A table's value
// spans everything that belongs to it: its header, its key-values and its
// sub-tables. TOML lets a table's parts be spread over the file
// ([a] ... [b] ... [a.c]), so such spans can overlap; members are ordered by
// where they end, which keeps jsonc's lookups (File.NodeAt) on the innermost
// node in the common case where parts are not interleaved.
//
// TOML forbids what JSON only discourages: a key or table defined twice is a
// syntax error here (code CodeRedefinition), and the later definition is
// left out of the tree, so no duplicate member ever appears. Comments are not
// recorded in File.Comments, which lists JSONC comments that strict JSON
// readers reject; TOML readers all accept theirs.
//
// # Errors
//
// Parse never fails and never panics: like jsonc.Parse it records syntax
// errors with precise byte spans and keeps what it can. The TOML grammar is
// checked by github.com/pelletier/go-toml/v2's unstable parser, which stops
// at the first error of a document; Parse then resumes at the next line that
// looks like the start of a key-value or a table header, so one mistake
// costs the expression it is in, not the rest of the file. A key-value
// whose value is broken keeps its key, with an Invalid value, so that a
// server being typed stays visible. Key-values after a broken table header
// are parsed but left out of the tree: attributing them to the previous
// table would be wrong.
//
// Why go-toml: it is maintained, fuzzed continuously (OSS-Fuzz), passes the
// toml-test suite, and its unstable parser exposes the byte range of every
// key segment and scalar, which no other Go TOML library does
// (BurntSushi/toml reports line and column for keys and errors only). The
// container spans it does not give (arrays, the end of inline tables) are
// recovered here from the text, which the parser has already validated. Its
// decoder checks what the parser leaves to it (duplicate keys, table
// redefinitions, date validity); this package applies the same rules itself,
// so that each error has the span of the offending key, and the tests check
// both agree.
package toml
