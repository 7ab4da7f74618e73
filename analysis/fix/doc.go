// Package fix computes the edits behind mcp-lsp's code actions: quick
// fixes for the rules' diagnostics, "fix all" of the safe ones, and the
// conversion of a server or a whole file into another tool's format.
//
// Everything here is protocol-neutral and pure: inputs are file contents,
// their parse and the diagnostics of package analysis; outputs are byte
// span edits ([Edit]) and file creations ([Create]). The language server
// turns them into LSP workspace edits in one place (its Mapper converts
// byte offsets to UTF-16 positions); nothing here knows about lines or
// UTF-16.
//
// Edits are minimal: they replace only the bytes they must, so comments,
// formatting and line endings elsewhere survive, and inserted JSON takes
// the indentation and line breaks of the file it goes into (see
// [Layout]).
//
// Fixes dispatch on a diagnostic's stable Code and read its Data
// ([Diagnostic], [Data]), but never trust either blindly: each fix checks
// the parse tree at the diagnostic's span, so a stale diagnostic (the file
// changed since it was published) yields no fix rather than a wrong edit.
//
// Secrets: a fix that moves a literal secret into an environment
// reference names the variable in its title and nowhere the value; the
// value is only overwritten. Titles, and everything else this package
// returns except the edits' own text, contain names, keys and type
// spellings, never values from the file.
package fix
