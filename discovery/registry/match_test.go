package registry

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var linuxEnv = Env{Home: "/home/u", GOOS: "linux"}

func matchID(p string, env Env) string {
	k, ok := Default().Match(p, env)
	if !ok {
		return ""
	}
	return k.ID
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		// Every file kind the server must serve.
		{"/home/u/proj/.mcp.json", "mcp-json"},
		{"/home/u/proj/packages/web/.mcp.json", "mcp-json"},
		{"/home/u/.mcp.json", "mcp-json"}, // Claude Code walks up to /
		{"/home/u/proj/.github/mcp.json", "github-mcp-json"},
		{"/home/u/.copilot/mcp-config.json", "copilot-user-config"},
		{"/home/u/proj/.copilot/mcp-config.json", "copilot-project-config"},
		{"/home/u/proj/tools/mcp-config.json", "copilot-extra-config"},
		{"/home/u/.claude.json", "claude-user-state"},
		{"/home/u/proj/.claude.json", "claude-json-misplaced"},
		{"/etc/claude-code/managed-mcp.json", "claude-managed"},
		{"/Library/Application Support/ClaudeCode/managed-mcp.json", "claude-managed"},
		{"/home/u/.claude/settings.json", "claude-settings-user"},
		{"/home/u/proj/.claude/settings.json", "claude-settings-project"},
		{"/home/u/proj/.claude/settings.local.json", "claude-settings-project"},
		{"/home/u/proj/.claude/.mcp.json", "claude-dir-mcp-json"},
		{"/home/u/.claude/.mcp.json", "claude-dir-mcp-json"},
		{"/home/u/.claude/mcp.json", "claude-dir-mcp-json"},
		{"/home/u/proj/opencode.json", "opencode-project"},
		{"/home/u/proj/opencode.jsonc", "opencode-project"},
		{"/home/u/proj/.opencode/opencode.json", "opencode-dir"},
		{"/home/u/proj/.opencode/opencode.jsonc", "opencode-dir"},
		{"/home/u/.config/opencode/config.json", "opencode-global"},
		{"/home/u/.config/opencode/opencode.json", "opencode-global"},
		{"/home/u/.config/opencode/opencode.jsonc", "opencode-global"},
		{"/home/u/proj/.vscode/mcp.json", "vscode-workspace"},
		{"/home/u/.config/Code/User/mcp.json", "vscode-user"},
		{"/home/u/.config/Code - Insiders/User/mcp.json", "vscode-user"},
		{"/home/u/.config/Code/User/profiles/5e1f/mcp.json", "vscode-user"},
		{"/home/u/.vscode-server/data/User/mcp.json", "vscode-user"},
		{"/home/u/Library/Application Support/Code/User/mcp.json", "vscode-user"},
		{"/home/u/proj/.cursor/mcp.json", "cursor-project"},
		{"/home/u/.cursor/mcp.json", "cursor-user"},
		{"/home/u/.config/Claude/claude_desktop_config.json", "claude-desktop"},
		{"/home/u/Library/Application Support/Claude/claude_desktop_config.json", "claude-desktop"},

		// Paths are cleaned; relative paths match the anywhere kinds.
		{"/home/u/proj/./sub/../.mcp.json", "mcp-json"},
		{"/home/u/proj//.vscode/mcp.json", "vscode-workspace"},
		{".vscode/mcp.json", "vscode-workspace"},
		{".mcp.json", "mcp-json"},
		{"/home/u/x/../.cursor/mcp.json", "cursor-user"},

		// Negatives.
		{"/home/u/proj/package.json", ""},
		{"/home/u/proj/tsconfig.json", ""},
		{"/home/u/proj/mcp.json", ""},
		{"/home/u/proj/foo/mcp.json", ""},
		{"/home/u/proj/.vscode/settings.json", ""},
		{"/home/u/proj/settings.json", ""},
		{"/home/u/.config/Code/User/settings.json", ""},
		{"/home/u/proj/.mcp.json.bak", ""},
		{"/home/u/proj/.mcp.jsonc", ""},
		{"/home/u/proj/mcp.json.example", ""},
		{"/home/u/proj/opencode.json.orig", ""},
		{"/home/u/proj/.github/workflows/mcp.json", ""},
		{"/home/u/proj/.claude/commands/mcp.json", ""},
		{"/home/u/.copilot/config.json", ""},
		{"/home/u/proj/.config/opencode/config.json", ""}, // only at XDG_CONFIG_HOME
		{"/home/u/proj/.MCP.json", ""},                    // Linux is case-sensitive
		{"", ""},
		{"/", ""},
	} {
		if got := matchID(tc.path, linuxEnv); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestMatchHomeOverrides(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  Env
		path string
		want string
	}{
		{"COPILOT_HOME moves the user file", Env{Home: "/home/u", CopilotHome: "/opt/cop"}, "/opt/cop/mcp-config.json", "copilot-user-config"},
		{"COPILOT_HOME: ~/.copilot is then not auto-loaded", Env{Home: "/home/u", CopilotHome: "/opt/cop"}, "/home/u/.copilot/mcp-config.json", "copilot-project-config"},
		{"XDG_CONFIG_HOME does not move Copilot's file", Env{Home: "/home/u", XDGConfigHome: "/x"}, "/home/u/.copilot/mcp-config.json", "copilot-user-config"},
		{"XDG_CONFIG_HOME moves OpenCode's global config", Env{Home: "/home/u", XDGConfigHome: "/x/cfg"}, "/x/cfg/opencode/config.json", "opencode-global"},
		{"XDG_CONFIG_HOME: opencode.json under it", Env{Home: "/home/u", XDGConfigHome: "/x/cfg"}, "/x/cfg/opencode/opencode.jsonc", "opencode-global"},
		{"XDG_CONFIG_HOME: ~/.config/opencode is then a plain project file", Env{Home: "/home/u", XDGConfigHome: "/x/cfg"}, "/home/u/.config/opencode/opencode.json", "opencode-project"},
		{"XDG_CONFIG_HOME: ~/.config/opencode/config.json is nothing", Env{Home: "/home/u", XDGConfigHome: "/x/cfg"}, "/home/u/.config/opencode/config.json", ""},
		{"OPENCODE_CONFIG names any file", Env{Home: "/home/u", OpenCodeConfig: "/srv/oc/team.json"}, "/srv/oc/team.json", "opencode-env-config"},
		{"OPENCODE_CONFIG beats the project kind", Env{Home: "/home/u", OpenCodeConfig: "/p/opencode.json"}, "/p/opencode.json", "opencode-env-config"},
		{"OPENCODE_CONFIG unset", Env{Home: "/home/u"}, "/srv/oc/team.json", ""},
		{"CLAUDE_CONFIG_DIR moves .claude.json", Env{Home: "/home/u", ClaudeConfigDir: "/home/u/.claude-work"}, "/home/u/.claude-work/.claude.json", "claude-user-state"},
		{"CLAUDE_CONFIG_DIR: ~/.claude.json is then not read", Env{Home: "/home/u", ClaudeConfigDir: "/home/u/.claude-work"}, "/home/u/.claude.json", "claude-json-misplaced"},
		{"CLAUDE_CONFIG_DIR moves settings.json", Env{Home: "/home/u", ClaudeConfigDir: "/cc"}, "/cc/settings.json", "claude-settings-user"},
		{"no home: home kinds cannot match", Env{}, "/home/u/.claude.json", "claude-json-misplaced"},
		{"no home: ~/.cursor looks like a project", Env{}, "/home/u/.cursor/mcp.json", "cursor-project"},
		{"other user's home", linuxEnv, "/home/v/.cursor/mcp.json", "cursor-project"},
		{"home with trailing slash", Env{Home: "/home/u/"}, "/home/u/.claude.json", "claude-user-state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := matchID(tc.path, tc.env); got != tc.want {
				t.Errorf("Match(%q, %+v) = %q, want %q", tc.path, tc.env, got, tc.want)
			}
		})
	}
}

func TestMatchWindowsAndDarwin(t *testing.T) {
	win := Env{Home: `C:\Users\Me`, GOOS: "windows"}
	mac := Env{Home: "/Users/me", GOOS: "darwin"}
	for _, tc := range []struct {
		env        Env
		path, want string
	}{
		{win, `C:\Users\Me\proj\.mcp.json`, "mcp-json"},
		{win, `C:\Users\Me\.cursor\mcp.json`, "cursor-user"},
		{win, `c:\users\me\.CURSOR\MCP.json`, "cursor-user"},  // NTFS ignores case
		{win, `/c:/Users/Me/.cursor/mcp.json`, "cursor-user"}, // from a file URI
		{win, `C:/Users/Me/.copilot/mcp-config.json`, "copilot-user-config"},
		{win, `C:\Users\Me\.claude.json`, "claude-user-state"},
		{win, `C:\Users\Me\.config\opencode\opencode.json`, "opencode-global"},
		{win, `C:\Users\Me\AppData\Roaming\Code\User\mcp.json`, "vscode-user"},
		{win, `C:\Users\Me\AppData\Roaming\Claude\claude_desktop_config.json`, "claude-desktop"},
		{win, `C:\Program Files\ClaudeCode\managed-mcp.json`, "claude-managed"},
		{win, `D:\work\.VSCode\mcp.json`, "vscode-workspace"},
		{win, `\\server\share\proj\.mcp.json`, "mcp-json"},
		{win, `C:\Users\Me\proj\package.json`, ""},
		{mac, "/Users/me/proj/.MCP.json", "mcp-json"}, // APFS ignores case by default
		{mac, "/Users/Me/.cursor/mcp.json", "cursor-user"},
		{mac, "/Users/me/Library/Application Support/Claude/claude_desktop_config.json", "claude-desktop"},
		{mac, "/Users/me/Library/Application Support/Code/User/mcp.json", "vscode-user"},
	} {
		if got := matchID(tc.path, tc.env); got != tc.want {
			t.Errorf("Match(%q, %s) = %q, want %q", tc.path, tc.env.GOOS, got, tc.want)
		}
	}
}

// sampleTree is a user's home and project as an editor would see them.
var sampleTree = []string{
	"/home/u/.claude.json",
	"/home/u/.claude.json.backup",
	"/home/u/.claude/settings.json",
	"/home/u/.claude/mcp.json",
	"/home/u/.claude/projects/x/session.jsonl",
	"/home/u/.copilot/mcp-config.json",
	"/home/u/.copilot/config.json",
	"/home/u/.cursor/mcp.json",
	"/home/u/.cursor/argv.json",
	"/home/u/.config/opencode/opencode.json",
	"/home/u/.config/opencode/config.json",
	"/home/u/.config/opencode/package.json",
	"/home/u/.config/Code/User/mcp.json",
	"/home/u/.config/Code/User/settings.json",
	"/home/u/.config/Code/User/profiles/a1/mcp.json",
	"/home/u/.config/Claude/claude_desktop_config.json",
	"/home/u/proj/.mcp.json",
	"/home/u/proj/.mcp.json.bak",
	"/home/u/proj/.github/mcp.json",
	"/home/u/proj/.github/workflows/ci.yml",
	"/home/u/proj/.vscode/mcp.json",
	"/home/u/proj/.vscode/settings.json",
	"/home/u/proj/.cursor/mcp.json",
	"/home/u/proj/.claude/settings.json",
	"/home/u/proj/.claude/settings.local.json",
	"/home/u/proj/.claude/.mcp.json",
	"/home/u/proj/.copilot/mcp-config.json",
	"/home/u/proj/.opencode/opencode.jsonc",
	"/home/u/proj/opencode.json",
	"/home/u/proj/package.json",
	"/home/u/proj/tsconfig.json",
	"/home/u/proj/mcp.json",
	"/home/u/proj/foo/mcp.json",
	"/home/u/proj/settings.json",
	"/home/u/proj/scripts/mcp-config.json",
	"/etc/claude-code/managed-mcp.json",
}

// overSelected are files the selector globs select although Match rejects
// them: the glob of a home-anchored kind cannot know where the home is.
// The server ignores them; listing them keeps the approximation deliberate.
var overSelected = []string{
	"/home/u/proj/.config/opencode/config.json",
	"/srv/.config/opencode/config.json",
}

func selected(r *Registry, p string) bool {
	return slices.ContainsFunc(r.SelectorGlobs(), func(g string) bool { return MatchGlob(g, p) })
}

func TestSelectorGlobsSelectExactlyServedFiles(t *testing.T) {
	r := Default()
	for _, p := range sampleTree {
		_, served := r.Match(p, linuxEnv)
		if sel := selected(r, p); sel != served {
			t.Errorf("%s: selected by globs = %v, served by Match = %v", p, sel, served)
		}
	}
	for _, p := range overSelected {
		if _, served := r.Match(p, linuxEnv); !selected(r, p) || served {
			t.Errorf("%s: expected selected but not served (documented over-approximation)", p)
		}
	}
}

// TestHomePathsAreSelected checks that each home kind's own globs select its
// default location, so an editor opens the user files with the server.
func TestHomePathsAreSelected(t *testing.T) {
	for _, k := range Default().Kinds() {
		if k.Location != Home {
			continue
		}
		for _, p := range k.ResolvePaths(linuxEnv) {
			if !slices.ContainsFunc(k.Globs, func(g string) bool { return MatchGlob(g, p) }) {
				t.Errorf("kind %s: no glob of its own selects %s", k.ID, p)
			}
		}
	}
}

func TestResolvePaths(t *testing.T) {
	r := Default()
	k, _ := r.Kind("opencode-global")
	got := k.ResolvePaths(Env{Home: `C:\Users\Me`, XDGConfigHome: `D:\cfg\`})
	want := []string{"D:/cfg/opencode/config.json", "D:/cfg/opencode/opencode.json", "D:/cfg/opencode/opencode.jsonc"}
	if !slices.Equal(got, want) {
		t.Errorf("ResolvePaths = %q, want %q", got, want)
	}
	k, _ = r.Kind("opencode-env-config")
	if got := k.ResolvePaths(Env{Home: "/h"}); len(got) != 0 {
		t.Errorf("OPENCODE_CONFIG unset: ResolvePaths = %q, want none", got)
	}
}

// TestEnvFromReadsOnlyTheGivenVariables: the agreement scenarios give the
// language server the environment they give the CLI through EnvFrom.
func TestEnvFromReadsOnlyTheGivenVariables(t *testing.T) {
	vars := map[string]string{"HOME": "/h", "USERPROFILE": `C:\Users\u`, "COPILOT_HOME": "/c", "XDG_CONFIG_HOME": "/x"}
	get := func(k string) string { return vars[k] }
	e := EnvFrom(get, "linux")
	if e.Home != "/h" || e.CopilotHome != "/c" || e.XDGConfigHome != "/x" || e.OpenCodeConfig != "" || e.GOOS != "linux" {
		t.Errorf("linux: %+v", e)
	}
	if w := EnvFrom(get, "windows"); w.Home != `C:\Users\u` {
		t.Errorf("windows home = %q", w.Home)
	}
}

// TestMatchInWorkspaceFolder: VS Code reads the .mcp.json directly in a
// workspace folder only (code-server 4.139.1), so it is a reader of that
// file and of no other .mcp.json; Match, which knows no folders, never
// names it.
func TestMatchInWorkspaceFolder(t *testing.T) {
	r := Default()
	env := Env{Home: "/home/u", GOOS: "linux"}
	for _, tc := range []struct {
		path    string
		folders []string
		want    []ToolID
	}{
		{"/w/proj/.mcp.json", []string{"/w/proj"}, []ToolID{"claude-code", "copilot-cli", "vscode", "kilo-code"}},
		{"/w/proj/.mcp.json", []string{"/w/other", "/w/proj/"}, []ToolID{"claude-code", "copilot-cli", "vscode", "kilo-code"}},
		{"/w/proj/services/.mcp.json", []string{"/w/proj"}, []ToolID{"claude-code", "copilot-cli"}},
		{"/w/.mcp.json", []string{"/w/proj"}, []ToolID{"claude-code", "copilot-cli"}},
		{"/w/proj/.mcp.json", nil, []ToolID{"claude-code", "copilot-cli"}},
		{"/.mcp.json", []string{"/"}, []ToolID{"claude-code", "copilot-cli", "vscode", "kilo-code"}},
	} {
		k, ok := r.MatchIn(tc.path, env, tc.folders, nil)
		if !ok || k.ID != "mcp-json" || !slices.Equal(readers(k), tc.want) {
			t.Errorf("MatchIn(%s, %v) = %v %v, want mcp-json read by %v", tc.path, tc.folders, k, ok, tc.want)
		}
	}
	// A kind whose glob has more than the file name: the folder is the
	// path without the glob's tail (Kilo Code reads <folder>/.cursor/mcp.json).
	for _, tc := range []struct {
		path    string
		folders []string
		want    []ToolID
	}{
		{"/w/proj/.cursor/mcp.json", []string{"/w/proj"}, []ToolID{"cursor", "kilo-code"}},
		{"/w/proj/.cursor/mcp.json", []string{"/w/proj/.cursor"}, []ToolID{"cursor"}},
		{"/w/proj/sub/.cursor/mcp.json", []string{"/w/proj"}, []ToolID{"cursor"}},
		{"/w/proj2/.cursor/mcp.json", []string{"/w/proj"}, []ToolID{"cursor"}},
	} {
		k, ok := r.MatchIn(tc.path, env, tc.folders, nil)
		if !ok || k.ID != "cursor-project" || !slices.Equal(readers(k), tc.want) {
			t.Errorf("MatchIn(%s, %v) = %v %v, want cursor-project read by %v", tc.path, tc.folders, k.ID, ok, tc.want)
		}
	}
	if k, _ := r.MatchAll("/w/proj/sub/.cursor/mcp.json", env); !slices.Contains(readers(k), "kilo-code") {
		t.Error("MatchAll leaves out a workspace-folder reader")
	}
	if k, _ := r.Match("/w/proj/.mcp.json", env); slices.Contains(readers(k), "vscode") {
		t.Error("Match names VS Code as a reader of a .mcp.json without knowing the workspace folders")
	}
	// On a case-insensitive system the folder compares without case.
	mac := Env{Home: "/Users/u", GOOS: "darwin"}
	if k, _ := r.MatchIn("/Users/u/Proj/.mcp.json", mac, []string{"/users/u/proj"}, nil); !slices.Contains(readers(k), "vscode") {
		t.Error("MatchIn on macOS: the folder did not match without case")
	}
}

// TestMatchInLeavesOutAFallbackWhileItsPreferredFileExists: Kilo Code
// reads the workspace folder's .cursor/mcp.json only while no
// .kilocode/mcp.json exists, and .mcp.json only while neither exists
// (McpHub.ts checkAlternativeMcpPaths); the kind of each file leaves Kilo
// Code out accordingly, and the same set of readers is the same value.
func TestMatchInLeavesOutAFallbackWhileItsPreferredFileExists(t *testing.T) {
	r := Default()
	env := Env{Home: "/home/u", GOOS: "linux"}
	folder := filepath.FromSlash("/w/proj")
	for _, tc := range []struct {
		file     string
		existing []string
		kilo     bool
	}{
		{".mcp.json", nil, true},
		{".mcp.json", []string{".kilocode/mcp.json"}, false},
		{".mcp.json", []string{".cursor/mcp.json"}, false},
		{".mcp.json", []string{".vscode/mcp.json", ".github/mcp.json"}, true},
		{".cursor/mcp.json", nil, true},
		{".cursor/mcp.json", []string{".mcp.json"}, true},
		{".cursor/mcp.json", []string{".kilocode/mcp.json"}, false},
		{".kilocode/mcp.json", []string{".cursor/mcp.json", ".mcp.json"}, true},
	} {
		var asked []string
		exists := func(p string) bool {
			asked = append(asked, p)
			return slices.Contains(tc.existing, filepath.ToSlash(strings.TrimPrefix(p, folder+string(filepath.Separator))))
		}
		p := filepath.Join(folder, filepath.FromSlash(tc.file))
		k, ok := r.MatchIn(p, env, []string{folder}, exists)
		if !ok || slices.Contains(readers(k), "kilo-code") != tc.kilo {
			t.Errorf("%s beside %v: readers %v, want Kilo Code among them: %v", tc.file, tc.existing, readers(k), tc.kilo)
		}
		again, _ := r.MatchIn(p, env, []string{folder}, exists)
		if again != k {
			t.Errorf("%s beside %v: two matches gave two values of one kind", tc.file, tc.existing)
		}
		if whole, _ := r.MatchIn(p, env, []string{folder}, nil); len(whole.Readers) < len(k.Readers) {
			t.Errorf("%s: without exists the kind lost readers", tc.file)
		}
	}
	// Outside the workspace folder no fallback reader reads the file, and
	// nothing is asked.
	asked := 0
	if k, _ := r.MatchIn(filepath.FromSlash("/w/proj/sub/.mcp.json"), env, []string{folder}, func(string) bool { asked++; return false }); slices.Contains(readers(k), "kilo-code") || asked > 0 {
		t.Errorf("a subfolder's .mcp.json: readers %v, %d existence questions", readers(k), asked)
	}
}

// readers lists the tools that read files of kind k.
func readers(k *FileKind) []ToolID {
	var out []ToolID
	for _, rd := range k.Readers {
		out = append(out, rd.Tool)
	}
	return out
}
