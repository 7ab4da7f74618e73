// Package registry is the single source of truth for which files declare MCP
// servers, which tools read each of them, and how each tool reads them.
//
// The facts live in registry.json, embedded in the binary and parsed once by
// [Default]. They are data rather than code because four consumers must agree
// on them byte for byte: the language server (which diagnostics apply to an
// open file), the check CLI, the converters, and the VS Code extension, whose
// document selector is generated from [Registry.SelectorGlobs] and whose tests
// use the same glob semantics as [MatchGlob]. A fact changed in one place is
// changed for all of them.
//
// Many facts about these tools are not documented. Every fact therefore
// carries a [Basis]: how sure we are ([Confidence]) and where it comes from,
// so that a diagnostic can say "Copilot CLI skips this file (verified)" or
// "Cursor may not accept comments here (unconfirmed)" and choose its
// severity accordingly. A choice made without a source is marked
// "unconfirmed" and its note says why that choice was made.
//
// # The data file
//
// registry.json is a JSON object; unknown fields are rejected at load, so a
// typo cannot silently drop a fact. JSON names are the Go field names in
// lower camel case. Its shape:
//
//	{
//	  "version": 1,
//	  "tools": [Tool],        // one per MCP client
//	  "dialects": [Dialect],  // how one tool interprets one family of files
//	  "kinds": [FileKind]     // one per file pattern, most specific wins
//	}
//
//	Basis (embedded wherever a fact is stated; flattened into the object):
//	  "confidence": "verified" | "confirmed" | "reported" | "inferred" | "unconfirmed"
//	  "source":     citation (URL, owner/repo#N, repository path, tool run);
//	                required for verified, confirmed and reported
//	  "note":       why, caveats, what a message should add
//
//	Fact<T> = Basis + "value": T
//
//	Tool:
//	  "id", "name"
//	  "docs":          the tool's own documentation page for its MCP
//	                   configuration (https), linked from hover; never
//	                   fetched
//	  "toolNames":     Basis + "pattern" ("{server}", "{tool}" placeholders),
//	                   "maxLength" (0 = none known)
//	  "interpolation": Basis + "forms" (token spellings, [] = none),
//	                   "fields" (server-entry keys expanded; "*" = every string),
//	                   "beforeParse" (substituted in raw text before parsing),
//	                   "unset" (what an unset variable becomes)
//	  "merge":         Fact<"replace-entry" | "deep-merge" | "none" | "unknown">
//	                   for the same server name in two layers
//	  "serverNames":   Basis + "safe" (RE2 regexp of names used verbatim),
//	                   "forbidden" (RE2 regexp of characters rejected),
//	                   "reserved" (names the tool skips)
//	  "timeouts":      [Basis + "name", "field" (per-server key),
//	                   "envVar", "defaultMs" (0 = unknown)]
//	  "profile":       Basis + "version" (the release the profile was
//	                   verified against, shown by hover and effective) +
//	                   "layers": [Layer], lowest precedence first;
//	                   absent when mcp-lsp does not model the tool's files
//
//	Layer: Basis +
//	  "id", "label"   ("user", "user scope")
//	  "files":        [{"path": template, "serverMaps": [[...]]}]; paths
//	                  as in FileKind.paths, plus {launchDir} and {gitRoot};
//	                  a later file wins; "{launchDir}" and "{gitRoot}" may
//	                  be server-map segments (~/.claude.json's projects
//	                  entries, keyed by the git root for Claude Code)
//	  "walk":         {"names", "boundary": "root" | "git-root",
//	                  "serverMaps"}: files in each directory from the
//	                  launch directory up, a closer one wins
//	  "gate":         "approval" | "trusted-folder", read from "gateFiles":
//	                  path templates, or {"path", "at": [JSON path of the
//	                  object holding the gate's keys, "{gitRoot}" and
//	                  "{launchDir}" allowed]}
//	  "gateTrust":    Basis + {"file", "key": [JSON path of a boolean; a
//	                  "{launchDirUpToGitRoot}" segment: any directory from
//	                  the launch directory up to the git root], "why"}:
//	                  until that boolean is true the gate stays
//	                  closed whatever the gate files say (Claude Code
//	                  2.1.328's hasTrustDialogAccepted); a rejection stands
//	  "fallbackFor":  earlier layers' ids: read only when none of them
//	                  found a file (the first that did is the one it
//	                  gives way to)
//	  "enabledKey":   the entry key whose false turns a server off in these
//	                  files ("enabled" in OpenCode's format); absent: none
//	  "disabledKey":  the entry key whose true turns a server off ("disabled"
//	                  in Roo Code's format); absent: none
//	  "jsonc", "bom": Fact<bool>: how the tool parses these files where it
//	                  is no reader of their kind (a tool modelled by its
//	                  profile only, such as Atomic TUI); a reader's own
//	                  facts win
//
// A profile may read files of kinds the tool is no reader of: Atomic TUI
// reads Claude Code's, Copilot CLI's and OpenCode's files. Such a tool
// takes part in the effective configuration and cross-file findings, never
// in a file's own diagnostics, which come from its kind's readers.
//
//	Dialect: "id", "tool", "name", "note"
//
//	FileKind:
//	  "id", "name"
//	  "globs":    VS Code globs, each starting with "**/" (see MatchGlob);
//	              used for editor selectors and for matching non-anchored kinds
//	  "scope":    "project" | "user" | "managed" | "session" | "any"
//	  "location": "" (anywhere a glob matches) | "home" (only at "paths")
//	  "paths":    for "home" kinds: templates starting with one of
//	              {home} {xdgConfigHome} {copilotHome} {openCodeConfig}
//	              {claudeHome} {claudeConfigDir} {codexHome} {vscodeUser}
//	              (see Env)
//	  "readers":  [Reader]  tools that read this file
//	  "notRead":  [NotRead] tools users expect to read it, which do not
//	  "note"
//
//	Reader:
//	  "tool", "dialect"
//	  "jsonc":       Fact<bool>  comments and trailing commas accepted
//	  "bom":         Fact<bool>  a leading U+FEFF accepted
//	  "syntaxError": Basis + "effect" ("drops-file" | "refuses-config" |
//	                 "stops-tool" | "overwrites-file" | "partial" |
//	                 "unknown"), "message"
//	  "serverMaps":  JSON paths of server maps; "*" matches any key
//	                 ([["projects","*","mcpServers"]]); [] = no servers here
//	  "gates":       [Basis + "id" ("approval" | "trusted-folder" |
//	                 "explicit-flag" | "fallback")]
//	  "at":          "" (wherever a glob matches) | "workspace-folder"
//	                 (only a file directly in a workspace folder: VS Code's
//	                 .mcp.json); applied by Registry.MatchIn alone
//	  "interpolation": as the tool's, for this kind only (nil: the tool's;
//	                 read through Tool.InterpolationFor)
//	  "elsewhere":   [Basis + "key", "instead", "message"]: top-level keys
//	                 the tool reads from another file only
//	  "note"
//
//	NotRead: Basis + "tool", "instead" (where the servers should go)
//
// Load-time validation ([Parse]) checks ids are unique and referenced ids
// exist, each reader's dialect belongs to its tool, globs and regexps
// compile, path templates (of kinds and profiles) use known variables,
// profile layers are well formed, and every fact has a confidence (and a
// source where the confidence claims one).
package registry
