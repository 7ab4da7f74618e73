package registry

import (
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
)

// Env is the part of the user's environment that decides where user-level
// files live. Matching never reads the process environment itself: the
// language server is often started by an editor whose environment differs
// from the user's shell, and tests need fake homes. Build one with [OSEnv]
// or by hand.
//
// Paths may use either separator. Empty fields take the tools' defaults.
type Env struct {
	Home            string // the user's home directory ($HOME, %USERPROFILE%)
	XDGConfigHome   string // $XDG_CONFIG_HOME; default Home/.config (OpenCode)
	CopilotHome     string // $COPILOT_HOME; default Home/.copilot
	OpenCodeConfig  string // $OPENCODE_CONFIG: one extra OpenCode config file
	ClaudeConfigDir string // $CLAUDE_CONFIG_DIR; default Home/.claude, and .claude.json in Home
	// GeminiCLIHome is $GEMINI_CLI_HOME: Gemini CLI's stand-in for Home
	// (its .gemini directory lives there).
	GeminiCLIHome string
	// GeminiSystemSettings and GeminiSystemDefaults are
	// $GEMINI_CLI_SYSTEM_SETTINGS_PATH and $GEMINI_CLI_SYSTEM_DEFAULTS_PATH;
	// defaults: /etc/gemini-cli/settings.json (per OS) and
	// system-defaults.json beside it.
	GeminiSystemSettings string
	GeminiSystemDefaults string
	CodexHome            string // $CODEX_HOME; default Home/.codex (Codex CLI)
	// QwenHome is $QWEN_HOME: Qwen Code's directory itself (default
	// Home/.qwen), unlike GEMINI_CLI_HOME, which stands in for Home.
	QwenHome string
	// QwenSystemSettings and QwenSystemDefaults are
	// $QWEN_CODE_SYSTEM_SETTINGS_PATH and $QWEN_CODE_SYSTEM_DEFAULTS_PATH;
	// defaults: /etc/qwen-code/settings.json (per OS) and
	// system-defaults.json beside it (getSystemSettingsPath in Qwen Code
	// 0.15.10's cli.js).
	QwenSystemSettings string
	QwenSystemDefaults string
	GOOS               string // runtime.GOOS of the machine the files are on
}

// OSEnv returns the environment of the current process.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	e := EnvFrom(os.Getenv, runtime.GOOS)
	e.Home = home
	return e
}

// EnvFrom builds an Env from variables looked up with getenv, for files on
// a machine running goos. It is OSEnv without the process: tests that run
// the CLI with an environment of their own give the language server the
// same one through it.
func EnvFrom(getenv func(string) string, goos string) Env {
	home := getenv("HOME")
	if goos == "windows" {
		home = getenv("USERPROFILE")
	}
	return Env{
		Home:            home,
		XDGConfigHome:   getenv("XDG_CONFIG_HOME"),
		CopilotHome:     getenv("COPILOT_HOME"),
		OpenCodeConfig:  getenv("OPENCODE_CONFIG"),
		ClaudeConfigDir: getenv("CLAUDE_CONFIG_DIR"),
		GeminiCLIHome:   getenv("GEMINI_CLI_HOME"),
		// Set only when named: the default depends on the OS (dir).
		GeminiSystemSettings: getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"),
		GeminiSystemDefaults: getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"),
		CodexHome:            getenv("CODEX_HOME"),
		QwenHome:             getenv("QWEN_HOME"),
		QwenSystemSettings:   getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH"),
		QwenSystemDefaults:   getenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH"),
		GOOS:                 goos,
	}
}

// CaseInsensitive reports whether file names on e.GOOS compare without
// regard to case. Windows (NTFS) and macOS (APFS and HFS+ by default) do:
// there Claude Code opening ".mcp.json" gets a file saved as ".MCP.json",
// so that file must be treated as the same kind. Linux file systems do not.
func (e Env) CaseInsensitive() bool { return e.GOOS == "windows" || e.GOOS == "darwin" }

// templateVars are the variables a kind's path template may start with.
var templateVars = []string{
	"{home}", "{xdgConfigHome}", "{copilotHome}", "{openCodeConfig}",
	"{claudeHome}", "{claudeConfigDir}", "{codexHome}",
	"{geminiHome}", "{geminiSystemSettings}", "{geminiSystemDefaults}",
	"{qwenHome}", "{qwenSystemSettings}", "{qwenSystemDefaults}",
	"{vscodeUser}",
}

// dir resolves a template variable. ok is false when the variable has no
// value: no home directory, or OPENCODE_CONFIG unset.
func (e Env) dir(v string) (dir string, ok bool) {
	or := func(set, rel string) (string, bool) {
		if set != "" {
			return set, true
		}
		if e.Home == "" {
			return "", false
		}
		return e.Home + rel, true
	}
	switch v {
	case "{home}":
		return or("", "")
	case "{xdgConfigHome}":
		return or(e.XDGConfigHome, "/.config")
	case "{copilotHome}":
		return or(e.CopilotHome, "/.copilot")
	case "{claudeHome}":
		return or(e.ClaudeConfigDir, "")
	case "{claudeConfigDir}":
		return or(e.ClaudeConfigDir, "/.claude")
	case "{codexHome}":
		return or(e.CodexHome, "/.codex")
	case "{openCodeConfig}":
		return e.OpenCodeConfig, e.OpenCodeConfig != ""
	case "{geminiHome}":
		return or(e.GeminiCLIHome, "")
	case "{vscodeUser}":
		return e.vscodeUser()
	case "{qwenHome}":
		return or(e.QwenHome, "/.qwen")
	case "{qwenSystemSettings}":
		return e.qwenSystemSettings(), true
	case "{qwenSystemDefaults}":
		if e.QwenSystemDefaults != "" {
			return e.QwenSystemDefaults, true
		}
		return path.Dir(e.qwenSystemSettings()) + "/system-defaults.json", true
	case "{geminiSystemSettings}":
		return e.geminiSystemSettings(), true
	case "{geminiSystemDefaults}":
		if e.GeminiSystemDefaults != "" {
			return e.GeminiSystemDefaults, true
		}
		return path.Dir(e.geminiSystemSettings()) + "/system-defaults.json", true
	}
	return "", false
}

// geminiSystemSettings is Gemini CLI's system settings file: the
// variable's value, else the OS's place (getSystemSettingsPath in
// packages/cli/src/config/settings.ts).
func (e Env) geminiSystemSettings() string {
	if e.GeminiSystemSettings != "" {
		return e.GeminiSystemSettings
	}
	switch e.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		return "C:/ProgramData/gemini-cli/settings.json"
	}
	return "/etc/gemini-cli/settings.json"
}

// qwenSystemSettings is Qwen Code's system settings file: the variable's
// value, else the OS's place (getSystemSettingsPath in 0.15.10's cli.js).
func (e Env) qwenSystemSettings() string {
	if e.QwenSystemSettings != "" {
		return e.QwenSystemSettings
	}
	switch e.GOOS {
	case "darwin":
		return "/Library/Application Support/QwenCode/settings.json"
	case "windows":
		return "C:/ProgramData/qwen-code/settings.json"
	}
	return "/etc/qwen-code/settings.json"
}

// vscodeUser is VS Code's user data directory, where extensions keep
// their global storage (Roo Code's mcp_settings.json): ~/.config/Code/User
// on Linux ($XDG_CONFIG_HOME moves it), ~/Library/Application
// Support/Code/User on macOS, %APPDATA%\Code\User on Windows (taken as
// its default under the home directory).
func (e Env) vscodeUser() (string, bool) {
	switch {
	case e.GOOS == "darwin" && e.Home != "":
		return e.Home + "/Library/Application Support/Code/User", true
	case e.GOOS == "windows" && e.Home != "":
		return e.Home + "/AppData/Roaming/Code/User", true
	case e.GOOS == "darwin", e.GOOS == "windows":
		return "", false
	}
	dir, ok := e.dir("{xdgConfigHome}")
	return dir + "/Code/User", ok
}

// ResolvePaths returns the paths where a "home" kind lives in env, cleaned
// and with forward slashes. A template whose variable has no value in env is
// skipped. Later discovery code stats these paths.
func (k *FileKind) ResolvePaths(env Env) []string {
	var out []string
	for _, t := range k.Paths {
		v, rest := splitTemplate(t)
		dir, ok := env.dir(v)
		if !ok {
			continue
		}
		out = append(out, cleanPath(dir+rest))
	}
	return out
}

// splitTemplate splits "{home}/.cursor/mcp.json" into "{home}" and
// "/.cursor/mcp.json". Validation guarantees the variable prefix.
func splitTemplate(t string) (v, rest string) {
	if i := strings.IndexByte(t, '}'); strings.HasPrefix(t, "{") && i > 0 {
		return t[:i+1], t[i+1:]
	}
	return "", t
}

// Match returns the kind of the file at p, or false if no tool reads it and
// no tool is commonly expected to. Readers that read a file only directly
// in a workspace folder are left out: use [Registry.MatchIn] where the
// folders are known.
//
// p is a file system path, absolute or relative, with either separator
// (convert URIs first). It is cleaned, so "a/./b/../.mcp.json" and
// `C:\proj\.mcp.json` work, and a "/c:/" prefix left by some URI
// conversions is dropped. On case-insensitive systems (see
// [Env.CaseInsensitive]) names are compared without case. Symbolic links are
// not resolved: that needs the file system, which Match never touches.
//
// A kind anchored at a home path (Location "home") wins when p is exactly one
// of its resolved paths: ~/.cursor/mcp.json is the user file even though
// "**/.cursor/mcp.json" also names the project kind. Otherwise the kind with
// the most specific matching glob wins; among equals, the first in the data.
func (r *Registry) Match(p string, env Env) (*FileKind, bool) {
	k, ok := r.match(p, env)
	if ok && k.away != nil {
		return k.away, true
	}
	return k, ok
}

// match is Match with every reader of the kind. Answers are remembered
// (matchMemo): the effective engine asks about the same few dozen
// candidate paths for every tool on every edit, and each answer tries
// every kind's globs.
func (r *Registry) match(p string, env Env) (*FileKind, bool) {
	key := matchKey{p, env}
	if k, ok := r.matches.get(key); ok {
		return k, k != nil
	}
	k, ok := r.matchUncached(p, env)
	r.matches.put(key, k)
	return k, ok
}

// matchKey is what match's answer depends on.
type matchKey struct {
	path string
	env  Env
}

// matchMemo remembers match's answers, a nil kind for none; the registry
// never changes once parsed. It is bounded: a full memo starts afresh.
type matchMemo struct {
	mu      sync.Mutex
	answers map[matchKey]*FileKind
}

const matchMemoSize = 4096

func (m *matchMemo) get(k matchKey) (*FileKind, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	kind, ok := m.answers[k]
	return kind, ok
}

func (m *matchMemo) put(k matchKey, kind *FileKind) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.answers == nil || len(m.answers) >= matchMemoSize {
		m.answers = map[matchKey]*FileKind{}
	}
	m.answers[k] = kind
}

func (r *Registry) matchUncached(p string, env Env) (*FileKind, bool) {
	fold := env.CaseInsensitive()
	p = cleanPath(p)
	for _, k := range r.kinds {
		if k.Location != Home {
			continue
		}
		for _, a := range k.ResolvePaths(env) {
			if a == p || fold && strings.EqualFold(a, p) {
				return k, true
			}
		}
	}
	var best *FileKind
	var bestSpec specificity
	for _, k := range r.kinds {
		if k.Location == Home {
			continue
		}
		for _, g := range k.globs {
			if s, ok := g.match(p, fold); ok && (best == nil || bestSpec.less(s)) {
				best, bestSpec = k, s
			}
		}
	}
	return best, best != nil
}

// MatchIn is [Registry.Match] for a file seen from the workspace folders
// (absolute directories: an editor's open folders, the directories given
// to `mcp-lsp check`, the launch directory of `mcp-lsp effective`). A
// reader whose At is "workspace-folder" reads the file only where the
// kind's glob, without its leading "**/", matches the path from one of
// them: VS Code reads <folder>/.mcp.json, not the .mcp.json of a
// subfolder or of an ancestor; Kilo Code reads <folder>/.cursor/mcp.json.
// Elsewhere the kind is returned without such readers, as Match returns
// it for every file. With exists (nil: every reader reads the file), a
// reader that reads the file only as a fallback is left out while a file
// it prefers exists in that folder (Kilo Code's .mcp.json beside a
// .kilocode/mcp.json). This is the one place those decisions are made.
func (r *Registry) MatchIn(p string, env Env, folders []string, exists func(string) bool) (*FileKind, bool) {
	k, ok := r.match(p, env)
	if !ok || k.away == nil {
		return k, ok
	}
	cp := cleanPath(p)
	fold := env.CaseInsensitive()
	for _, f := range folders {
		if k.inFolder(cp, cleanPath(f), fold) {
			return k.withoutFallbacks(f, exists), true
		}
	}
	return k.away, true
}

// MatchAll is [Registry.Match] with every reader of the kind, as if the
// file sat in a workspace folder: who could read a file like this one.
func (r *Registry) MatchAll(p string, env Env) (*FileKind, bool) {
	return r.match(p, env)
}

// inFolder reports whether p (clean) is the kind's file of the workspace
// folder f (clean): the path below f matches one of the kind's globs
// without its leading "**".
func (k *FileKind) inFolder(p, f string, fold bool) bool {
	var rel string
	switch {
	case f == "/" && strings.HasPrefix(p, "/"):
		rel = p[1:]
	case len(p) > len(f)+1 && p[len(f)] == '/' && (p[:len(f)] == f || fold && strings.EqualFold(p[:len(f)], f)):
		rel = p[len(f)+1:]
	default:
		return false
	}
	if fold {
		rel = strings.ToLower(rel)
	}
	parts := splitPath(rel)
	for _, g := range k.globs {
		for i := range g.alts {
			segs := g.alts[i].segs
			if fold {
				segs = g.alts[i].lower
			}
			if len(segs) >= 2 && segs[0] == "**" && matchSegments(segs[1:], parts) {
				return true
			}
		}
	}
	return false
}

// cleanPath normalises separators to "/" and cleans the path lexically,
// keeping a UNC "//server/share" prefix.
func cleanPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 3 && p[0] == '/' && isDriveLetter(p[1]) && p[2] == ':' {
		p = p[1:] // "/c:/Users" from a file URI
	}
	unc := strings.HasPrefix(p, "//")
	p = path.Clean(p)
	if unc && !strings.HasPrefix(p, "//") {
		p = "/" + p
	}
	return p
}

func isDriveLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
