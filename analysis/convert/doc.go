// Package convert translates MCP server declarations between the dialects
// of the tools that read them: Claude Code (.mcp.json), Claude Desktop,
// Copilot CLI (mcp-config.json), OpenCode (opencode.json "mcp"), VS Code
// (.vscode/mcp.json "servers") and Cursor.
//
// Every entry is read into one [Server] model, the union of what the
// dialects can say, and written from it: [FromEntry] and [ToEntry] for one
// entry, [ConvertFile] for a whole file, [RenderEntry] to print an entry
// with a file's own indentation and line endings.
//
// Nothing is dropped silently. Each conversion returns the [Loss]es:
// fields the target has no place for, and fields it would read
// differently. A server the target cannot hold at all (a remote server in
// Claude Desktop, WebSocket outside Claude Code) is an error instead, so
// an editor does not offer the action. Losses and errors name fields and
// variables, never values, which may be secrets.
//
// Variable references are translated per field, because each tool has its
// own syntax and expands it only in some fields (see the registry's
// tools[].interpolation): Claude Code ${VAR} and ${VAR:-default} in
// command, args, env, url and headers; Copilot CLI the same plus $VAR in
// env and headers only; OpenCode {env:VAR} and {file:path} everywhere;
// VS Code ${env:VAR}, ${input:id}, ${workspaceFolder}... everywhere;
// Cursor ${env:VAR}, ${userHome}, ${workspaceFolder},
// ${workspaceFolderBasename}, ${pathSeparator} and ${/} in command, args,
// env, url and headers; Roo Code ${env:VAR} and ${workspaceFolder}
// everywhere (an unset variable stays as text); Windsurf ${env:VAR} in
// command, args, env, url and headers; Kiro ${VAR} in env and headers;
// Claude Desktop and Zed none. Unset variables differ too:
// OpenCode's {env:X} and VS Code's ${env:X} give "", so they become
// ${X:-} in Claude Code, and a Claude Code ${X} written for them is
// reported (it would no longer keep the text and warn). A reference the
// target cannot express stays in the text in its usual spelling, and is
// reported; so is literal text the target would take for a reference.
//
// Decisions on defaults (see [ToEntry]): a timeout the source left to its
// tool's default is written out when the target has a per-server timeout
// with another default (OpenCode 5000 ms, Copilot CLI 30000 ms); Copilot
// CLI always gets "tools" (["*"] for all) and "args"; every remote server
// gets "type" where the target needs it to tell remote from local.
// OpenCode's "remote" is read as Streamable HTTP (OpenCode falls back to
// SSE by itself), and SSE written to OpenCode becomes "remote" with a
// loss.
//
// The package is pure: no I/O, no goroutines, no global mutable state.
package convert
