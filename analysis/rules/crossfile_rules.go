package rules

// Rule codes of the cross-file checks. The checks themselves live in
// package effective, which computes what each tool really loads; the codes
// are here so that every rule is listed (and documented) in one place.
const (
	CodeShadowedServer     = "shadowed-server"
	CodeDuplicateServer    = "duplicate-server"
	CodeOverridesServer    = "overrides-server"
	CodeMergedTransport    = "merged-remote-keeps-command"
	CodeFallbackIgnored    = "fallback-file-ignored"
	CodeMergedInvalid      = "merged-server-invalid"
	CodeServerStartedTwice = "server-started-twice"
	CodeSyncDrift          = "sync-drift"
)

// crossFileCheck: the cross-file rules need every file a tool reads, so
// package effective reports them (effective.CrossFile).
var crossFileCheck = reportedIn("analysis/effective: CrossFile")

// crossFileRules are the rules of package effective.
var crossFileRules = []Rule{
	{CodeShadowedServer, SeverityWarning, "A server defined in several files a tool reads, with a different definition: the tool uses another one than this.", crossFileCheck},
	{CodeDuplicateServer, SeverityHint, "An identical copy of a server that a tool reads from another, winning file, where every tool that reads this copy reads the winning one too: this copy can be removed.", crossFileCheck},
	{CodeServerStartedTwice, SeverityWarning, "The same server under two names in what one tool reads (the same command, arguments and environment, or the same URL and headers): the tool starts it twice, and every tool of it appears twice.", crossFileCheck},
	{CodeOverridesServer, SeverityHint, "The definition a tool uses, listing the definitions of the same name it overrides.", crossFileCheck},
	{CodeMergedTransport, SeverityWarning, "OpenCode deep-merges a remote entry over a local one (or the reverse): the merged server keeps fields of both.", crossFileCheck},
	{CodeMergedInvalid, SeverityError, "A server that a tool validating after the merge refuses as merged from its layers: Codex CLI merges its config.toml files field by field and stops when the result has neither `command` nor `url`, or both (also when they come from two files).", crossFileCheck},
	{CodeSyncDrift, SeverityWarning, "An entry `mcp-lsp sync` wrote (recorded in `.mcp-lsp/sync.json`), in a JSON file or as a `[mcp_servers.<name>]` table of Codex CLI's `config.toml`, that was changed by hand since (reordered keys, formatting and comments are not changes): the next sync leaves it alone and reports drift. The quick fix \"Update from <source>\" writes the source's version again; hover shows both.", reportedIn("analysis/sync: DriftFindings")},
	{CodeFallbackIgnored, SeverityInformation, "A file a tool reads only when another is absent, while that other file exists: Copilot CLI ignores `.github/mcp.json` whenever the git root has a `.mcp.json`; Kilo Code ignores `.cursor/mcp.json` and `.mcp.json` while `.kilocode/mcp.json` exists, and `.mcp.json` while `.cursor/mcp.json` does. Reported at the top of the ignored file, naming the one that wins.", crossFileCheck},
}
