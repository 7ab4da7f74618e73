package registry

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

//go:embed registry.json
var registryJSON []byte

// ToolID names an MCP client: "claude-code", "copilot-cli", "opencode",
// "vscode", "cursor", "claude-desktop".
type ToolID string

// DialectID names one tool's interpretation of a family of files. It usually
// equals the tool id; a tool has more than one dialect when it reads files of
// different shapes (Claude Code's settings.json holds no servers).
type DialectID string

// Confidence says how a fact is known. Diagnostics use it to pick a severity
// and to qualify their message: only certain facts justify an error.
type Confidence string

const (
	// Verified facts were observed by running the tool.
	Verified Confidence = "verified"
	// Confirmed facts come from a primary source: the tool's docs or code.
	Confirmed Confidence = "confirmed"
	// Reported facts come from secondary sources (issues, blogs, mirrors).
	Reported Confidence = "reported"
	// Inferred facts are our reasoning from related, better-known facts.
	Inferred Confidence = "inferred"
	// Unconfirmed facts are deliberate choices without a source; the note
	// says why the choice was made.
	Unconfirmed Confidence = "unconfirmed"
)

// Certain reports whether the fact was verified or read in a primary source.
func (c Confidence) Certain() bool { return c == Verified || c == Confirmed }

func (c Confidence) valid() bool {
	switch c {
	case Verified, Confirmed, Reported, Inferred, Unconfirmed:
		return true
	}
	return false
}

// Basis is the provenance of a fact.
type Basis struct {
	Confidence Confidence `json:"confidence"`
	Source     string     `json:"source,omitempty"`
	Note       string     `json:"note,omitempty"`
}

// Fact is a value with its provenance.
type Fact[T any] struct {
	Value T `json:"value"`
	Basis
}

// MergeRule is what a tool does when two layers define the same server name.
type MergeRule string

const (
	// ReplaceEntry: the whole entry of the higher layer wins (Claude Code).
	ReplaceEntry MergeRule = "replace-entry"
	// DeepMerge: fields are merged, so a later layer can change one field of
	// an earlier entry (OpenCode).
	DeepMerge MergeRule = "deep-merge"
	// NoMerge: the tool reads a single file.
	NoMerge MergeRule = "none"
	// UnknownMerge: not documented and not observed.
	UnknownMerge MergeRule = "unknown"
)

// Tool holds the facts about one MCP client that do not depend on the file.
type Tool struct {
	ID   ToolID `json:"id"`
	Name string `json:"name"` // for messages: "Claude Code"
	// Docs is the tool's own documentation page for its MCP
	// configuration (an https URL), linked from hover. mcp-lsp never
	// opens it; "" when the tool has no such page.
	Docs string `json:"docs,omitempty"`
	// ToolNames is nil when the naming scheme is unknown.
	ToolNames     *ToolNaming     `json:"toolNames,omitempty"`
	Interpolation Interpolation   `json:"interpolation"`
	Merge         Fact[MergeRule] `json:"merge"`
	ServerNames   ServerNameRules `json:"serverNames"`
	Timeouts      []Timeout       `json:"timeouts,omitempty"`
	// Profile is how the tool assembles its servers from files; nil when
	// mcp-lsp does not model it (yet).
	Profile *Profile `json:"profile,omitempty"`
}

// Profile is how a tool assembles the servers it starts from its files:
// layers, lowest precedence first. When two layers define the same server
// name, the later layer wins by the tool's Merge rule (the whole entry, or
// field by field). Within a layer, files found closer to the launch
// directory win.
type Profile struct {
	// Version is the release of the tool the profile was verified against
	// ("2.1.328"); the effective view and hover name it, because tools
	// change how they assemble their servers between releases. "" when no
	// run of the tool backs the profile.
	Version string  `json:"version,omitempty"`
	Layers  []Layer `json:"layers"`
	// Trust, when set, is a folder-trust check over the whole profile:
	// in a folder it does not trust, no server of any layer starts (Gemini
	// CLI: user servers included). Layers gated "trusted-folder" without
	// gate files are those whose settings (Lists) count only when trusted.
	Trust *FolderTrust `json:"trust,omitempty"`
	// Lists are the allow and exclude lists of server names the tool reads
	// from its settings files (Gemini CLI's mcp.allowed, mcp.excluded).
	Lists *ServerLists `json:"lists,omitempty"`
	// Enablement is a file of per-server switches the tool writes itself
	// (Gemini CLI's mcp-server-enablement.json, from `gemini mcp disable`).
	Enablement *Enablement `json:"enablement,omitempty"`
	// Switches are lists of server names in a settings file that turn a
	// server off (and, where the tool has one, on) without touching its
	// entry: Claude Code's disabledMcpjsonServers, Copilot CLI's
	// disabledMcpServers. What `mcp-lsp disable` writes for the layers
	// whose entries have no EnabledKey.
	Switches []Switch `json:"switches,omitempty"`
	// StopsOnRefusal: when one file the tool reads is refused (a syntax
	// error or an entry whose effect is refuses-config), the tool starts
	// nothing at all, not only without that file (Codex CLI exits with
	// "failed to load bootstrap configuration"). nil or false: only the
	// refused file is left out.
	StopsOnRefusal *Fact[bool] `json:"stopsOnRefusal,omitempty"`
	// ValidatesMerged: the tool validates each server again after the
	// layers are merged field by field, so fields that are valid alone
	// can make the merged entry invalid (Codex CLI: command from one
	// layer and url from another). nil or false: each file alone.
	ValidatesMerged *Fact[bool] `json:"validatesMerged,omitempty"`
	Basis
}

// FolderTrust is a tool's folder-trust check: a file mapping folders to
// trust levels, the longest matching path winning, and a setting that
// turns the check off.
type FolderTrust struct {
	// File maps folder paths to levels (a path template).
	File string `json:"file"`
	// Levels name the values of the file: which trusts the folder and its
	// subfolders, which trusts the folder's parent (and so its siblings),
	// which distrusts it.
	TrustFolder string `json:"trustFolder"`
	TrustParent string `json:"trustParent"`
	DoNotTrust  string `json:"doNotTrust"`
	// Off is a boolean setting whose false value turns the check off (the
	// folder counts as trusted): a path template and the key's JSON path.
	Off *SettingKey `json:"off,omitempty"`
	// Why is the explanation of an untrusted folder, for messages.
	Why string `json:"why"`
	// OptIn: the check is off unless Off's key is true (Qwen Code:
	// security.folderTrust.enabled ?? false); false: on unless it is
	// false (Gemini CLI).
	OptIn bool `json:"optIn,omitempty"`
	// UnlistedTrusted: a folder no rule names counts as trusted (Qwen
	// Code); false: it is not trusted (Gemini CLI).
	UnlistedTrusted bool `json:"unlistedTrusted,omitempty"`
	// Layers, when set, are the only layers the check concerns, and an
	// untrusted folder's files of those layers are not read at all (Qwen
	// Code drops the workspace settings, the user's servers still load);
	// empty: in an untrusted folder every server is listed but none
	// starts (Gemini CLI).
	Layers []string `json:"layers,omitempty"`
	Basis
}

// SettingKey is one key of one file.
type SettingKey struct {
	File string   `json:"file"`
	Key  []string `json:"key"`
}

// ServerLists are a tool's settings that name servers to allow or
// exclude. Each list is read from every layer file that counts (see
// Profile.Trust); several allow lists are intersected, several exclude
// lists united, and exclusion wins.
type ServerLists struct {
	Allowed  []string `json:"allowed"`  // JSON path of the allow list
	Excluded []string `json:"excluded"` // JSON path of the exclude list
	// CaseInsensitive: names are compared without regard to case.
	CaseInsensitive bool `json:"caseInsensitive,omitempty"`
	Basis
}

// Enablement is a file of {"<server>": {"enabled": false}} switches.
type Enablement struct {
	File string `json:"file"` // a path template
	// CaseInsensitive: the server's name is lowered before it is looked
	// up, so the file's keys are lower case ("gemini mcp disable" writes
	// them so) and a key with a capital letter matches nothing.
	CaseInsensitive bool `json:"caseInsensitive,omitempty"`
	Basis
}

// Switch is a list of server names that turns servers off, in one
// settings file, for the servers of some layers.
type Switch struct {
	// Layers are the ids of the layers whose servers it switches.
	Layers []string `json:"layers"`
	// File is a path template; At the object in it that holds the lists
	// (segments may be {gitRoot}, the key of ~/.claude.json's projects);
	// empty: the top level.
	File string   `json:"file"`
	At   []string `json:"at,omitempty"`
	// Off is the key of the list naming servers turned off; On, when the
	// tool has one, of the list naming servers turned on (approved).
	// A name is taken out of one list when it is put in the other.
	Off string `json:"off"`
	On  string `json:"on,omitempty"`
	// Writer is the tool's own command that writes the list, for
	// messages ("copilot mcp disable NAME"); "" when none.
	Writer string `json:"writer,omitempty"`
	Basis
}

// Layer is one scope of a profile (user, project, local...).
type Layer struct {
	ID    string `json:"id"`    // stable: "user", "project", "local"
	Label string `json:"label"` // for messages: "local scope"
	// Files are fixed locations: path templates as in FileKind.Paths, plus
	// {launchDir} and {gitRoot}. Later files win over earlier ones.
	Files []LayerFile `json:"files,omitempty"`
	// Walk finds per-directory files between the launch directory and a
	// boundary.
	Walk *Walk `json:"walk,omitempty"`
	// Gate is a condition on the layer's servers (approval, trust).
	Gate GateID `json:"gate,omitempty"`
	// GateFiles are where the gate's state is read.
	GateFiles []GateFile `json:"gateFiles,omitempty"`
	// GateTrust, when set, is a trust the gate's state counts under: until
	// the workspace is trusted, the layer's servers stay gated whatever
	// the gate files say (Claude Code 2.1.328 counts approval only after
	// the trust dialog).
	GateTrust *GateTrust `json:"gateTrust,omitempty"`
	// FallbackFor names other layers of the tool: this layer is read only
	// when none of them has a file (Copilot CLI reads .github/mcp.json
	// only without the git root's .mcp.json; Kilo Code reads
	// .cursor/mcp.json only without .kilocode/mcp.json, and .mcp.json only
	// without either). A file counts once it exists, whether or not the
	// tool can read it: a broken preferred file still keeps the fallback
	// out. The order of the layers stays their precedence: Copilot CLI's
	// .github/mcp.json comes before the .mcp.json walk it gives way to,
	// since a closer sub/.mcp.json wins a name over it.
	FallbackFor []string `json:"fallbackFor,omitempty"`
	// FallbackAt, a directory template ("{gitRoot}"), narrows FallbackFor
	// to the preferred layers' files in that directory: Copilot CLI still
	// reads .github/mcp.json beside a sub/.mcp.json of its walk when the
	// git root has none (verified with Copilot CLI 1.0.102).
	FallbackAt string `json:"fallbackAt,omitempty"`
	// EnabledKey is the entry key whose false value turns a server off in
	// this layer's files ("enabled" in OpenCode's format); "" when the
	// tool has none there. Claude Code drops an unknown "enabled" key and
	// Copilot CLI ignores it (enablement is a CLI setting), so an
	// "enabled": false in .mcp.json turns nothing off for them.
	EnabledKey string `json:"enabledKey,omitempty"`
	// DisabledKey is the entry key whose true value turns a server off in
	// these files ("disabled" in Roo Code's format); "": none.
	DisabledKey string `json:"disabledKey,omitempty"`
	// JSONC and BOM say how the tool parses this layer's files where it is
	// not one of the readers of their kind: a tool modelled by its profile
	// only (Atomic TUI reads Claude Code's, Copilot CLI's and OpenCode's
	// files with its own JSONC parser, and is no reader of those kinds, so
	// that their per-file diagnostics do not change). A reader's own facts
	// win. nil: the file is not dropped for its syntax extensions.
	JSONC *Fact[bool] `json:"jsonc,omitempty"`
	BOM   *Fact[bool] `json:"bom,omitempty"`
	Basis
}

// GateStateFiles are the path templates of every file the layer's gate
// reads: its gate files and the file of its trust.
func (l *Layer) GateStateFiles() []string {
	var out []string
	for _, g := range l.GateFiles {
		out = append(out, g.Path)
	}
	if l.GateTrust != nil {
		out = append(out, l.GateTrust.File)
	}
	return out
}

// GateFile is a file holding a gate's state: a path template, and the
// object in it that holds the gate's keys ("" segments: the top level).
// In the registry a plain string is a path whose top level holds them.
type GateFile struct {
	Path string `json:"path"`
	// At is the JSON path of the object holding the keys; "{launchDir}"
	// and "{gitRoot}" are allowed as segments (~/.claude.json's projects
	// entries). Empty: the top-level object.
	At []string `json:"at,omitempty"`
}

// UnmarshalJSON accepts a plain path string as well as an object.
func (g *GateFile) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		g.At = nil
		return json.Unmarshal(data, &g.Path)
	}
	type plain GateFile
	return json.Unmarshal(data, (*plain)(g))
}

// GateTrust is a boolean that must be true in a file before a layer's
// gate state counts.
type GateTrust struct {
	File string `json:"file"` // a path template
	// Key is the JSON path of the boolean; "{launchDir}" and "{gitRoot}"
	// are allowed as segments.
	Key []string `json:"key"`
	// Why is the explanation while the key is not true, for messages.
	Why string `json:"why"`
	Basis
}

// LayerFile is one fixed file of a layer and where its servers are.
type LayerFile struct {
	Path string `json:"path"`
	// ServerMaps are the JSON paths of the server maps, "{launchDir}" and
	// "{gitRoot}" allowed as segments (~/.claude.json's projects entries).
	ServerMaps [][]string `json:"serverMaps"`
}

// Walk describes files looked up in each directory between the launch
// directory and a boundary.
type Walk struct {
	// Names are the files looked up in each directory, relative to it,
	// lowest precedence first (OpenCode: opencode.json < opencode.jsonc <
	// .opencode/opencode.json < .opencode/opencode.jsonc).
	Names []string `json:"names"`
	// Boundary: "root" (up to /) or "git-root" (up to the directory
	// holding .git; the launch directory alone when there is none).
	Boundary   string     `json:"boundary"`
	ServerMaps [][]string `json:"serverMaps"`
}

// ToolNaming is how a tool names the MCP tools it exposes to the model. A
// later rule uses it to warn when server and tool names exceed MaxLength.
type ToolNaming struct {
	Pattern   string `json:"pattern"`             // "mcp__{server}__{tool}"
	MaxLength int    `json:"maxLength,omitempty"` // 0: no limit known
	Basis
}

// Interpolation describes variable expansion in server entries.
type Interpolation struct {
	Forms       []string `json:"forms"`                 // token spellings; empty: none
	Fields      []string `json:"fields,omitempty"`      // entry keys expanded; "*": every string
	BeforeParse bool     `json:"beforeParse,omitempty"` // substituted in the raw text
	Unset       string   `json:"unset,omitempty"`       // what an unset variable becomes
	// ByName are the fields through which a tool without interpolation
	// takes environment variables by name (Codex CLI: env_vars,
	// bearer_token_env_var, env_http_headers): the fix for a ${VAR} it
	// would send literally, and the variables an entry depends on.
	ByName []NamedVariables `json:"byName,omitempty"`
	Basis
}

// NamedVariables is a field whose values name environment variables.
type NamedVariables struct {
	// Field holds the names: a string, an array of names, or a table
	// whose values are names ("env_http_headers": header = variable).
	Field string `json:"field"`
	// Replaces is where a ${VAR} it stands in for is written: a field
	// ("env"), or a field and key ("http_headers.Authorization").
	Replaces string `json:"replaces"`
	// Prefix, when set, is the text the value must start with before the
	// variable for the replacement to hold ("Bearer ").
	Prefix string `json:"prefix,omitempty"`
	// Write is what to write instead, {var} and {key} filled in:
	// env_vars = ["{var}"].
	Write string `json:"write"`
}

// ServerNameRules constrain server names (the keys of a server map).
type ServerNameRules struct {
	Safe      string   `json:"safe,omitempty"`      // RE2: names used verbatim
	Forbidden string   `json:"forbidden,omitempty"` // RE2: characters the tool rejects
	Reserved  []string `json:"reserved,omitempty"`  // names the tool skips
	Basis
}

// Timeout is a default timeout of a tool.
type Timeout struct {
	Name      string `json:"name"`                // "startup", "tools"
	Field     string `json:"field,omitempty"`     // per-server key, if any
	EnvVar    string `json:"envVar,omitempty"`    // environment override, if any
	DefaultMs int    `json:"defaultMs,omitempty"` // 0: unknown
	Basis
}

// Dialect is one tool's interpretation of a family of files.
type Dialect struct {
	ID   DialectID `json:"id"`
	Tool ToolID    `json:"tool"`
	// SharedWith are other tools that read files of this dialect the same
	// way (Qwen Code, a fork of Gemini CLI, reads Gemini CLI's mcpServers
	// entries): their readers may name it, so the schema, the verdicts and
	// the completion are one. Their own facts (files, strictness, trust)
	// stay in their readers and profiles.
	SharedWith []ToolID `json:"sharedWith,omitempty"`
	Name       string   `json:"name"`
	Note       string   `json:"note,omitempty"`
}

// Scope is the layer a file kind belongs to.
type Scope string

const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
	ScopeManaged Scope = "managed" // installed by an administrator
	ScopeSession Scope = "session" // only when named on a command line
	ScopeAny     Scope = "any"     // project or user, depending on where it sits
)

// Location says where a file kind may sit.
type Location string

const (
	// Anywhere: wherever one of the kind's globs matches.
	Anywhere Location = ""
	// Home: only at one of the kind's path templates, resolved with [Env]
	// (the user's home, a tool's home directory, or a path named by an
	// environment variable).
	Home Location = "home"
)

// SyntaxEffect is what a reader does with a file it cannot parse.
type SyntaxEffect string

const (
	// DropsFile: every server in the file is ignored; the tool runs on.
	DropsFile SyntaxEffect = "drops-file"
	// RefusesConfig: the tool reports its whole configuration invalid.
	RefusesConfig SyntaxEffect = "refuses-config"
	// StopsTool: the tool exits at start-up, so no server of any file
	// starts (Claude Code with a corrupted ~/.claude.json).
	StopsTool SyntaxEffect = "stops-tool"
	// OverwritesFile: the tool falls back to defaults and writes them over
	// the file, so the user's servers are lost on disk.
	OverwritesFile SyntaxEffect = "overwrites-file"
	// Partial: a tolerant parser loads what it can recover.
	Partial SyntaxEffect = "partial"
	// UnknownEffect: not documented and not observed.
	UnknownEffect SyntaxEffect = "unknown"
)

// SyntaxError describes a reader's reaction to invalid syntax.
type SyntaxError struct {
	Effect  SyntaxEffect `json:"effect"`
	Message string       `json:"message,omitempty"` // the tool's own text, to quote
	Basis
}

// EntryEffect is what a reader does with one server entry of a file it
// parsed: it loads it (perhaps without some keys), skips it alone, or
// refuses the whole configuration because of it. The verdict package
// (analysis/verdict) reads these facts; no other code decides them.
type EntryEffect string

const (
	// LoadsEntry: the entry loads as written.
	LoadsEntry EntryEffect = "loads"
	// IgnoresKey: the key is dropped silently and the entry loads.
	IgnoresKey EntryEffect = "ignores-key"
	// StripsKey: the tool's schema strips the key (OpenCode's zod objects)
	// and the entry loads without it.
	StripsKey EntryEffect = "strips-key"
	// SkipsEntry: the entry is skipped; the other servers load.
	SkipsEntry EntryEffect = "skips-entry"
	// RefusesWholeConfig: the tool reports its whole configuration invalid
	// and loads none of it.
	RefusesWholeConfig EntryEffect = "refuses-config"
	// LastWins: of two members with the same name, the later one counts.
	LastWins EntryEffect = "last-wins"
	// UnknownEntryEffect: not documented and not observed ("may not load").
	UnknownEntryEffect EntryEffect = "unknown"
)

// EffectFact is one per-reader effect with its provenance.
type EffectFact struct {
	Effect  EntryEffect `json:"effect"`
	Message string      `json:"message,omitempty"` // the tool's own text, to quote
	Basis
}

// Effects are what a reader does with the entries of one file kind.
type Effects struct {
	// InvalidEntry: an entry the reader's schema rejects (a value of the
	// wrong type, a missing field, a type it does not know).
	InvalidEntry EffectFact `json:"invalidEntry"`
	// UnknownKey: a key the reader does not know in an entry.
	UnknownKey EffectFact `json:"unknownKey"`
	// DuplicateName: two members of one server map with the same name.
	DuplicateName EffectFact `json:"duplicateName"`
	// ByField overrides InvalidEntry for an invalid value of one field
	// (Gemini CLI uses invalid values as written, but "args" as a string
	// crashes it).
	ByField map[string]EffectFact `json:"byField,omitempty"`
	// MissingField, when set, replaces InvalidEntry for an entry whose
	// only fault is a missing required field, where the tool merges
	// layers field by field before it validates (a Codex CLI project
	// file may name only the fields it changes: a lower layer may supply
	// the rest). nil: InvalidEntry applies.
	MissingField *EffectFact `json:"missingField,omitempty"`
	// UnknownTopKey, when set, is what the reader does with a key it does
	// not know at the top of the file, outside any server entry (OpenCode's
	// top-level config object is strict: it refuses the configuration).
	// nil: the reader does not read the key (ignores-key), as the tools
	// whose files hold other settings do.
	UnknownTopKey *EffectFact `json:"unknownTopKey,omitempty"`
}

// AcceptsComments reports whether the reader reads a file with comments.
func (r *Reader) AcceptsComments() bool { return r.JSONC.Value }

// AcceptsTrailingCommas reports whether the reader reads a file with
// trailing commas.
func (r *Reader) AcceptsTrailingCommas() bool {
	if r.TrailingCommas != nil {
		return r.TrailingCommas.Value
	}
	return r.JSONC.Value
}

// GateID names a condition under which a reader uses a file at all.
type GateID string

const (
	GateApproval      GateID = "approval"       // servers need the user's approval
	GateTrustedFolder GateID = "trusted-folder" // only in a trusted folder
	GateExplicitFlag  GateID = "explicit-flag"  // only when named on the command line
	GateFallback      GateID = "fallback"       // only when a preferred file is absent
	// GateTrustedProject: each directory's files are read only when that
	// directory is trusted, looked up per directory in a table of the
	// gate file keyed by directory (Codex CLI: [projects."<dir>"]
	// trust_level = "trusted" in ~/.codex/config.toml; the closest
	// listed ancestor decides).
	GateTrustedProject GateID = "trusted-project"
)

// Gate is a condition under which a reader uses a file.
type Gate struct {
	ID GateID `json:"id"`
	Basis
}

// Reader is one tool reading one file kind.
type Reader struct {
	Tool    ToolID     `json:"tool"`
	Dialect DialectID  `json:"dialect"`
	JSONC   Fact[bool] `json:"jsonc"` // comments and trailing commas
	// TrailingCommas, when set, says whether trailing commas are accepted
	// apart from comments (Gemini CLI reads comments but stops at a
	// trailing comma); nil: as JSONC.
	TrailingCommas *Fact[bool] `json:"trailingCommas,omitempty"`
	BOM            Fact[bool]  `json:"bom"` // a leading U+FEFF
	SyntaxError    SyntaxError `json:"syntaxError"`
	// Effects are what the reader does with an invalid entry, an unknown
	// key and a duplicate name; required when the reader takes servers
	// from the file (ServerMaps not empty).
	Effects *Effects `json:"effects,omitempty"`
	// ServerMaps are the JSON paths of the objects whose members are
	// servers. A "*" segment matches any key. Empty: the tool reads the file
	// but takes no servers from it.
	ServerMaps [][]string `json:"serverMaps"`
	Gates      []Gate     `json:"gates,omitempty"`
	// At narrows where the reader reads files of this kind: "" wherever
	// the kind's globs match; "workspace-folder" only a file directly in
	// a workspace folder (VS Code reads <folder>/.mcp.json, never one in
	// a subfolder or an ancestor). [Registry.MatchIn] applies it.
	At ReaderAt `json:"at,omitempty"`
	// Interpolation, when set, replaces the tool's interpolation for
	// files of this kind (VS Code expands ${env:VAR} and ${input:id} in
	// .vscode/mcp.json but nothing in .mcp.json). Read it through
	// [Tool.InterpolationFor].
	Interpolation *Interpolation `json:"interpolation,omitempty"`
	// Elsewhere are top-level settings the tool reads from another of its
	// files only: here they have no effect (VS Code's "inputs" in
	// .mcp.json).
	Elsewhere []ElsewhereKey `json:"elsewhere,omitempty"`
	Note      string         `json:"note,omitempty"`

	// unless are the files, relative to the workspace folder, whose
	// existence stops this reader from reading the file: its tool reads
	// this layer only as a fallback for those (Kilo Code reads .mcp.json
	// only when neither .kilocode/mcp.json nor .cursor/mcp.json exists).
	// Derived from the profile's fallbackFor at load; applied by
	// [Registry.MatchIn].
	unless []string
}

// ReaderAt is where in a project a reader reads files of its kind.
type ReaderAt string

const (
	// AtAnywhere: wherever the kind's globs match.
	AtAnywhere ReaderAt = ""
	// AtWorkspaceFolder: only directly in a workspace folder (an
	// editor's open folder; for `mcp-lsp check`, a directory it is given).
	AtWorkspaceFolder ReaderAt = "workspace-folder"
)

// ElsewhereKey is a top-level key a reader does not read in this kind,
// because the tool takes it from another file.
type ElsewhereKey struct {
	Key     string `json:"key"`
	Instead string `json:"instead"`           // the file it belongs in
	Message string `json:"message,omitempty"` // the tool's own words
	Basis
}

// InterpolationFor is how the tool expands variables in files read by
// rd: the reader's own interpolation where it has one, else the tool's.
// rd may be nil.
func (t *Tool) InterpolationFor(rd *Reader) *Interpolation {
	if rd != nil && rd.Interpolation != nil {
		return rd.Interpolation
	}
	return &t.Interpolation
}

// NotRead records a tool that users expect to read a file kind, but which
// does not (at least not its servers). Rules turn it into "Claude Code does
// not read this file" with Instead as the suggestion.
type NotRead struct {
	Tool    ToolID `json:"tool"`
	Instead string `json:"instead,omitempty"`
	Basis
}

// FileKind is a family of files with the same readers.
type FileKind struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Globs    []string  `json:"globs,omitempty"`
	Scope    Scope     `json:"scope"`
	Location Location  `json:"location,omitempty"`
	Paths    []string  `json:"paths,omitempty"`
	Readers  []Reader  `json:"readers,omitempty"`
	NotRead  []NotRead `json:"notRead,omitempty"`
	// Skim marks a tool's state file that embeds MCP settings among much
	// else (Claude Code's ~/.claude.json holds every project's prompt
	// history: 15 to 100 MB and more, which its users cannot shrink). Only
	// the object members on these paths ("*" matches any key) are read:
	// the readers' server maps and the keys their gates need. The rest is
	// skipped unparsed (jsonc.Skim), and the size limit of a file a person
	// edits does not apply. Every server map of every reader must lie on a
	// path listed here.
	Skim [][]string `json:"skim,omitempty"`
	Note string     `json:"note,omitempty"`

	globs []*glob // compiled Globs
	// away is this kind without its workspace-folder readers, for a file
	// not directly in a workspace folder; nil when it has none.
	away *FileKind
	// fallbacks are this kind without some fallback readers (those whose
	// preferred file exists), keyed by the bit set of the readers left
	// out: one value per set, so that a kind compares equal (and caches
	// keyed by it hit) from one analysis to the next.
	fallbacks *fallbackKinds
}

// SkimPaths returns the Skim paths of the kind whose glob matches the
// file at p by its name, or nil. Only globs are used, so the answer
// depends on the path alone (not on the environment): how a file is
// parsed is decided before anything knows whose it is. A file of that
// name elsewhere (a copy of ~/.claude.json in a project) is the same kind
// of file and just as big.
func (r *Registry) SkimPaths(p string) [][]string {
	p = cleanPath(p)
	for _, k := range r.kinds {
		if len(k.Skim) == 0 {
			continue
		}
		for _, g := range k.globs {
			if _, ok := g.match(p, false); ok {
				return k.Skim
			}
		}
	}
	return nil
}

// Reader returns the reader for tool id, if that tool reads this kind.
func (k *FileKind) Reader(id ToolID) (*Reader, bool) {
	for i := range k.Readers {
		if k.Readers[i].Tool == id {
			return &k.Readers[i], true
		}
	}
	return nil, false
}

// NotReadBy returns the entry saying tool id does not read this kind.
func (k *FileKind) NotReadBy(id ToolID) (*NotRead, bool) {
	for i := range k.NotRead {
		if k.NotRead[i].Tool == id {
			return &k.NotRead[i], true
		}
	}
	return nil, false
}

// DeclaresServers reports whether some tool takes servers from this kind.
func (k *FileKind) DeclaresServers() bool {
	for _, r := range k.Readers {
		if len(r.ServerMaps) > 0 {
			return true
		}
	}
	return false
}

// Registry is the parsed, validated data. It is immutable after [Parse]: the
// values it returns are shared and must not be modified.
type Registry struct {
	tools    []*Tool
	dialects []*Dialect
	kinds    []*FileKind
	toolByID map[ToolID]*Tool
	dialByID map[DialectID]*Dialect
	kindByID map[string]*FileKind
	selector []string
	matches  matchMemo
}

// file is the top level of registry.json.
type file struct {
	Version  int         `json:"version"`
	Tools    []*Tool     `json:"tools"`
	Dialects []*Dialect  `json:"dialects"`
	Kinds    []*FileKind `json:"kinds"`
}

// Default returns the registry embedded in the binary. It is parsed on first
// use; it panics only if the embedded data is invalid, which the package's
// tests rule out.
func Default() *Registry { return defaultRegistry() }

var defaultRegistry = sync.OnceValue(func() *Registry {
	r, err := Parse(registryJSON)
	if err != nil {
		panic("registry: embedded registry.json is invalid: " + err.Error())
	}
	return r
})

// Parse decodes and validates registry data. It reports every problem it
// finds, not only the first, so that one test run shows all of them.
func Parse(data []byte) (*Registry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decoding registry: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decoding registry: data after the top-level object")
	}
	r := &Registry{
		tools:    f.Tools,
		dialects: f.Dialects,
		kinds:    f.Kinds,
		toolByID: make(map[ToolID]*Tool),
		dialByID: make(map[DialectID]*Dialect),
		kindByID: make(map[string]*FileKind),
	}
	if err := r.validate(f.Version); err != nil {
		return nil, err
	}
	r.deriveFallbacks()
	for _, k := range r.kinds {
		if i := slices.IndexFunc(k.Readers, func(rd Reader) bool { return rd.At == AtWorkspaceFolder }); i >= 0 {
			away := *k
			away.Readers = slices.DeleteFunc(slices.Clone(k.Readers), func(rd Reader) bool { return rd.At == AtWorkspaceFolder })
			away.fallbacks = nil
			k.away = &away
		}
	}
	set := make(map[string]bool)
	for _, k := range r.kinds {
		for _, g := range k.Globs {
			set[g] = true
		}
	}
	r.selector = make([]string, 0, len(set))
	for g := range set {
		r.selector = append(r.selector, g)
	}
	slices.Sort(r.selector)
	return r, nil
}

// Tool returns the tool with the given id.
func (r *Registry) Tool(id ToolID) (*Tool, bool) {
	t, ok := r.toolByID[id]
	return t, ok
}

// Tools returns every tool in data order.
func (r *Registry) Tools() []*Tool { return slices.Clone(r.tools) }

// Dialect returns the dialect with the given id.
func (r *Registry) Dialect(id DialectID) (*Dialect, bool) {
	d, ok := r.dialByID[id]
	return d, ok
}

// Dialects returns every dialect in data order.
func (r *Registry) Dialects() []*Dialect { return slices.Clone(r.dialects) }

// Kind returns the file kind with the given id as [Registry.Match]
// returns it: without the readers that read such a file only directly in
// a workspace folder ([Registry.MatchIn] has them; [Registry.Kinds] lists
// the kinds with every reader).
func (r *Registry) Kind(id string) (*FileKind, bool) {
	k, ok := r.kindByID[id]
	if ok && k.away != nil {
		return k.away, true
	}
	return k, ok
}

// Kinds returns every file kind in data order.
func (r *Registry) Kinds() []*FileKind { return slices.Clone(r.kinds) }

// SelectorGlobs returns every glob of every kind, sorted and without
// duplicates, for an editor's document selector.
//
// The selector over-approximates: a glob of a "home" kind such as
// "**/.config/opencode/config.json" also selects that path elsewhere, and
// files named only by an environment variable (OPENCODE_CONFIG) are not
// selected at all. The server decides with [Registry.Match].
func (r *Registry) SelectorGlobs() []string { return slices.Clone(r.selector) }
