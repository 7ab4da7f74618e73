package fix

import (
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Workspace is what conversions need to know beyond the source file: the
// registry, where the user's files are, the project directory conversions
// write to, and the current content of other files.
type Workspace struct {
	Registry *registry.Registry
	Env      registry.Env
	// ProjectDir is the directory whose project files a conversion
	// writes: the source file's project (the directory above .vscode,
	// .cursor, .github, .opencode), or the workspace folder for a
	// user-level source.
	ProjectDir string
	// File returns a file's current content (an open buffer over the
	// disk), whether it exists, and why it could not be read.
	File func(path string) (content []byte, exists bool, err error)
}

// targetFile is where a conversion to a dialect writes, in the project
// directory. The choices, where a tool reads more than one file:
//
//   - Claude Code: .mcp.json (the project scope).
//   - Copilot CLI: .github/mcp.json, unless .mcp.json exists: Copilot
//     reads .github/mcp.json only when there is no .mcp.json, so then the
//     server goes into .mcp.json, which Copilot reads in Claude's format.
//   - OpenCode: opencode.json if it exists, else opencode.jsonc if it
//     exists, else a new opencode.json (the name its documentation
//     uses). When both exist, opencode.json wins: OpenCode merges every
//     opencode.json after every opencode.jsonc, so a server added there
//     is the one it uses.
//   - VS Code: .vscode/mcp.json. Cursor: .cursor/mcp.json. Roo Code:
//     .roo/mcp.json. Zed: .zed/settings.json. Gemini CLI:
//     .gemini/settings.json (the workspace settings; other settings in
//     an existing file are kept).
//   - Claude Desktop has no project file: its one configuration file,
//     per user, at the place the app reads on the Env's system.
//
// It returns "" when there is no such file (Claude Desktop without a
// home directory).
func (ws *Workspace) targetFile(dialect string) string {
	dir := ws.ProjectDir
	exists := func(rel string) bool {
		_, ok, _ := ws.File(filepath.Join(dir, rel))
		return ok
	}
	switch dialect {
	case schemas.ClaudeCode:
		return filepath.Join(dir, ".mcp.json")
	case schemas.CopilotCLI:
		if exists(".mcp.json") {
			return filepath.Join(dir, ".mcp.json")
		}
		return filepath.Join(dir, ".github", "mcp.json")
	case schemas.OpenCode:
		if !exists("opencode.json") && exists("opencode.jsonc") {
			return filepath.Join(dir, "opencode.jsonc")
		}
		return filepath.Join(dir, "opencode.json")
	case schemas.VSCode:
		return filepath.Join(dir, ".vscode", "mcp.json")
	case schemas.Cursor:
		return filepath.Join(dir, ".cursor", "mcp.json")
	case schemas.RooCode:
		return filepath.Join(dir, ".roo", "mcp.json")
	case schemas.Zed:
		return filepath.Join(dir, ".zed", "settings.json")
	case schemas.GeminiCLI:
		return filepath.Join(dir, ".gemini", "settings.json")
	case schemas.ClaudeDesktop:
		return claudeDesktopFile(ws.Env)
	}
	return ""
}

// claudeDesktopFile is claude_desktop_config.json where Claude Desktop
// reads it (docs/formats.md 1.4): macOS Library/Application Support,
// Windows %APPDATA% (AppData/Roaming), elsewhere $XDG_CONFIG_HOME (the
// unofficial Linux builds).
func claudeDesktopFile(env registry.Env) string {
	if env.Home == "" {
		return ""
	}
	switch env.GOOS {
	case "darwin":
		return filepath.Join(env.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	case "windows":
		return filepath.Join(env.Home, "AppData", "Roaming", "Claude", "claude_desktop_config.json")
	}
	cfg := env.XDGConfigHome
	if cfg == "" {
		cfg = filepath.Join(env.Home, ".config")
	}
	return filepath.Join(cfg, "Claude", "claude_desktop_config.json")
}

// display names a file for a title: relative to the project directory
// or to the home directory (as ~/...), whichever is closer, else by its
// full path.
func (ws *Workspace) display(path string) string {
	best, depth := filepath.ToSlash(path), -1
	for _, base := range []struct{ dir, prefix string }{{ws.ProjectDir, ""}, {ws.Env.Home, "~/"}} {
		if base.dir == "" {
			continue
		}
		rel, err := filepath.Rel(base.dir, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if n := strings.Count(rel, string(filepath.Separator)); depth < 0 || n < depth {
			best, depth = base.prefix+filepath.ToSlash(rel), n
		}
	}
	return best
}

// toolName is a dialect's tool as titles name it.
func (ws *Workspace) toolName(dialect string) string {
	if d, ok := ws.Registry.Dialect(registry.DialectID(dialect)); ok {
		if t, ok := ws.Registry.Tool(d.Tool); ok {
			return t.Name
		}
	}
	return dialect
}

// TargetFile is where a server written for dialect goes in the project
// (see targetFile): the file conversions and `mcp-lsp sync` write.
func (ws *Workspace) TargetFile(dialect string) string { return ws.targetFile(dialect) }
