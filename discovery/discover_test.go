package discovery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

var linux = registry.Env{Home: "/home/u", GOOS: "linux"}

// file, dir and link build fstest.MapFS entries; names are absolute paths
// written with their leading "/" so that tests read like the OS paths.
func file() *fstest.MapFile { return &fstest.MapFile{Data: []byte("{}")} }
func dir() *fstest.MapFile  { return &fstest.MapFile{Mode: fs.ModeDir | 0o755} }
func link(target string) *fstest.MapFile {
	return &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte(target)}
}

func mapFS(entries map[string]*fstest.MapFile) fstest.MapFS {
	m := fstest.MapFS{}
	for p, f := range entries {
		m[strings.TrimPrefix(p, "/")] = f
	}
	return m
}

func discover(t *testing.T, fsys fs.FS, env registry.Env, folders ...string) Result {
	t.Helper()
	return Discover(context.Background(), Options{FS: fsys, Env: env, Folders: folders})
}

// origins returns path -> origin, with the kind: "origin kind-id".
func origins(r Result) map[string]string {
	m := map[string]string{}
	for _, f := range r.Files {
		id := "<nil>"
		if f.Kind != nil {
			id = f.Kind.ID
		}
		m[f.Path] = f.Origin + " " + id
	}
	return m
}

func wantFiles(t *testing.T, r Result, want map[string]string) {
	t.Helper()
	got := origins(r)
	if !maps.Equal(got, want) {
		for _, p := range slices.Sorted(maps.Keys(got)) {
			if want[p] != got[p] {
				t.Errorf("%s: got %q, want %q", p, got[p], want[p])
			}
		}
		for _, p := range slices.Sorted(maps.Keys(want)) {
			if _, ok := got[p]; !ok {
				t.Errorf("%s: missing, want %q", p, want[p])
			}
		}
	}
	if !slices.IsSortedFunc(r.Files, func(a, b Found) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("Files not sorted by path")
	}
}

func noProblems(t *testing.T, r Result) {
	t.Helper()
	if len(r.Errors) > 0 || len(r.Truncated) > 0 {
		t.Errorf("Errors %v, Truncated %q; want none", r.Errors, r.Truncated)
	}
}

func TestUserFilesDefaultLocations(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/home/u/.claude.json":                       file(),
		"/home/u/.claude/settings.json":              file(),
		"/home/u/.copilot/mcp-config.json":           file(),
		"/home/u/.copilot/config.json":               file(), // trustedFolders
		"/home/u/.config/opencode/config.json":       file(),
		"/home/u/.config/opencode/opencode.jsonc":    file(),
		"/home/u/.cursor/mcp.json":                   file(),
		"/home/u/.cursor/other.json":                 file(),
		"/home/u/.config/opencode/opencode.json/x":   file(), // a directory where a file is expected
		"/home/u/notes/.mcp.json":                    file(), // not a user-level file
		"/etc/claude-code/managed-mcp.json":          file(), // no home path in the registry
		"/home/u/.claude/projects/p/settings.json":   file(),
		"/home/u/.config/opencode/node_modules/x.js": file(),
	})
	r := discover(t, fsys, linux)
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/home/u/.claude.json":                    "user claude-user-state",
		"/home/u/.claude/settings.json":           "user claude-settings-user",
		"/home/u/.copilot/mcp-config.json":        "user copilot-user-config",
		"/home/u/.copilot/config.json":            "user <nil>",
		"/home/u/.config/opencode/config.json":    "user opencode-global",
		"/home/u/.config/opencode/opencode.jsonc": "user opencode-global",
		"/home/u/.cursor/mcp.json":                "user cursor-user",
	})
}

func TestUserFilesEnvironmentOverrides(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		// Shadowed by the overrides: not read (but see below).
		"/home/u/.copilot/mcp-config.json":     file(),
		"/home/u/.config/opencode/config.json": file(),
		"/home/u/.claude.json":                 file(),
		// The overrides.
		"/opt/copilot/mcp-config.json":     file(),
		"/opt/copilot/config.json":         file(),
		"/xdg/opencode/opencode.json":      file(),
		"/etc/team/opencode-shared.jsonc":  file(),
		"/opt/claude/.claude.json":         file(),
		"/opt/claude/settings.json":        file(),
		"/home/u/.cursor/mcp.json":         file(),
		"/xdg/opencode/opencode.jsonc.bak": file(),
	})
	env := linux
	env.CopilotHome = "/opt/copilot"
	env.XDGConfigHome = "/xdg"
	env.OpenCodeConfig = "/etc/team/opencode-shared.jsonc"
	env.ClaudeConfigDir = "/opt/claude"
	r := discover(t, fsys, env)
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/opt/copilot/mcp-config.json":    "user copilot-user-config",
		"/opt/copilot/config.json":        "user <nil>",
		"/xdg/opencode/opencode.json":     "user opencode-global",
		"/etc/team/opencode-shared.jsonc": "user opencode-env-config",
		"/opt/claude/.claude.json":        "user claude-user-state",
		"/opt/claude/settings.json":       "user claude-settings-user",
		"/home/u/.cursor/mcp.json":        "user cursor-user",
		// Atomic TUI reads $HOME/.copilot/mcp-config.json whatever
		// COPILOT_HOME says; away from $COPILOT_HOME it is no longer
		// Copilot CLI's user file.
		"/home/u/.copilot/mcp-config.json": "user copilot-project-config",
	})
}

// Atomic TUI's and Nyzhi's files: the user-level ones come from their
// profiles (Atomic reads $HOME, not COPILOT_HOME or CLAUDE_CONFIG_DIR;
// Nyzhi's global config.toml is under $XDG_CONFIG_HOME), the project ones
// from the tree.
func TestUserAndProjectFilesOfAtomicAndNyzhi(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/home/u/.claude/.mcp.json":          file(),
		"/home/u/.github/mcp-config.json":    file(),
		"/home/u/.config/nyzhi/config.toml":  file(), // shadowed by XDG_CONFIG_HOME
		"/xdg/nyzhi/config.toml":             file(),
		"/p/.nyzhi/config.toml":              file(),
		"/p/.github/mcp-config.json":         file(),
		"/p/.nyzhi/config.local.toml":        file(), // not read by Nyzhi
		"/p/sub/.nyzhi/config.toml":          file(),
		"/home/u/.github/workflows/ci.yml":   file(),
		"/home/u/.copilot/mcp-config.json":   file(),
		"/home/u/.claude/settings.json":      file(),
		"/home/u/.config/opencode/other.txt": file(),
	})
	env := linux
	env.XDGConfigHome = "/xdg"
	r := discover(t, fsys, env, "/p")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/home/u/.claude/.mcp.json":        "user claude-dir-mcp-json",
		"/home/u/.github/mcp-config.json":  "user github-mcp-config-json",
		"/xdg/nyzhi/config.toml":           "user nyzhi-global",
		"/home/u/.copilot/mcp-config.json": "user copilot-user-config",
		"/home/u/.claude/settings.json":    "user claude-settings-user",
		"/p/.nyzhi/config.toml":            "tree nyzhi-project",
		"/p/.github/mcp-config.json":       "tree github-mcp-config-json",
		"/p/sub/.nyzhi/config.toml":        "tree nyzhi-project",
	})
}

// A repository /src/repo (a .git directory) opened at /src/repo/pkg/app:
// Claude Code's .mcp.json is looked up to /, Copilot's .mcp.json and
// OpenCode's files only up to the git root, so /src/opencode.json, above
// it, affects nothing.
func TestAncestorsWithGitDirectory(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/.mcp.json":                              file(),
		"/src/.mcp.json":                          file(),
		"/src/opencode.json":                      file(), // above the git root
		"/src/.opencode/opencode.json":            file(), // above the git root
		"/src/.github/mcp.json":                   file(), // not the git root's
		"/src/repo/.git/HEAD":                     file(),
		"/src/repo/.mcp.json":                     file(),
		"/src/repo/opencode.jsonc":                file(),
		"/src/repo/.opencode/opencode.json":       file(),
		"/src/repo/.github/mcp.json":              file(),
		"/src/repo/.vscode/mcp.json":              file(), // no tool walks up to it
		"/src/repo/pkg/.mcp.json":                 file(),
		"/src/repo/pkg/opencode.json":             file(),
		"/src/repo/pkg/sibling/.mcp.json":         file(), // beside the folder, not above it
		"/src/repo/pkg/app/.mcp.json":             file(),
		"/src/repo/pkg/app/.claude/settings.json": file(),
		"/src/repo/pkg/app/deep/opencode.json":    file(),
	})
	r := discover(t, fsys, linux, "/src/repo/pkg/app")
	noProblems(t, r)
	if got := r.GitRoots["/src/repo/pkg/app"]; got != "/src/repo" {
		t.Errorf("GitRoots = %q, want /src/repo", got)
	}
	wantFiles(t, r, map[string]string{
		"/.mcp.json":                              "ancestor mcp-json",
		"/src/.mcp.json":                          "ancestor mcp-json",
		"/src/repo/.mcp.json":                     "ancestor mcp-json",
		"/src/repo/opencode.jsonc":                "ancestor opencode-project",
		"/src/repo/.opencode/opencode.json":       "ancestor opencode-dir",
		"/src/repo/.github/mcp.json":              "ancestor github-mcp-json",
		"/src/repo/pkg/.mcp.json":                 "ancestor mcp-json",
		"/src/repo/pkg/opencode.json":             "ancestor opencode-project",
		"/src/repo/pkg/app/.mcp.json":             "tree mcp-json",
		"/src/repo/pkg/app/.claude/settings.json": "tree claude-settings-project",
		"/src/repo/pkg/app/deep/opencode.json":    "tree opencode-project",
	})
}

// A worktree or submodule has a .git FILE; it is the root all the same.
func TestAncestorsWithGitFile(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/w/.git/HEAD":                      file(),
		"/w/opencode.json":                  file(), // the superproject's: above the submodule's root
		"/w/.mcp.json":                      file(), // Claude: up to /
		"/w/sub/.git":                       {Data: []byte("gitdir: ../.git/modules/sub\n")},
		"/w/sub/opencode.json":              file(),
		"/w/sub/x/.opencode/opencode.jsonc": file(),
	})
	r := discover(t, fsys, linux, "/w/sub/x")
	noProblems(t, r)
	if got := r.GitRoots["/w/sub/x"]; got != "/w/sub" {
		t.Errorf("GitRoots = %q, want /w/sub", got)
	}
	wantFiles(t, r, map[string]string{
		"/w/.mcp.json":                      "ancestor mcp-json",
		"/w/sub/opencode.json":              "ancestor opencode-project",
		"/w/sub/x/.opencode/opencode.jsonc": "tree opencode-dir",
	})
}

// Without a git root, Copilot and OpenCode read the launch directory
// alone; Claude Code still walks up to /.
func TestAncestorsWithoutGitRoot(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/p/.mcp.json":          file(),
		"/p/opencode.json":      file(),
		"/p/.github/mcp.json":   file(),
		"/p/q/opencode.json":    file(),
		"/p/q/.github/mcp.json": file(),
	})
	r := discover(t, fsys, linux, "/p/q")
	noProblems(t, r)
	if got, ok := r.GitRoots["/p/q"]; !ok || got != "" {
		t.Errorf("GitRoots = %q, %v; want \"\", true", got, ok)
	}
	wantFiles(t, r, map[string]string{
		"/p/.mcp.json":          "ancestor mcp-json",
		"/p/q/opencode.json":    "tree opencode-project",
		"/p/q/.github/mcp.json": "tree github-mcp-json",
	})
}

// With nested workspace folders, a file inside the outer folder is "tree"
// although it is also an ancestor of the inner one.
func TestNestedFoldersPreferTree(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/ws/.git/HEAD":     file(),
		"/ws/.mcp.json":     file(),
		"/ws/sub/.mcp.json": file(),
	})
	r := discover(t, fsys, linux, "/ws/sub", "/ws")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/ws/.mcp.json":     "tree mcp-json",
		"/ws/sub/.mcp.json": "tree mcp-json",
	})
}

func TestTreeSkipsDependencyAndVCSDirectories(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/p/.vscode/mcp.json":                    file(),
		"/p/a/.cursor/mcp.json":                  file(),
		"/p/a/b/c/.mcp.json":                     file(),
		"/p/a/b/c/README.md":                     file(),
		"/p/a/package.json":                      file(),
		"/p/node_modules/x/.mcp.json":            file(),
		"/p/a/node_modules/y/opencode.json":      file(),
		"/p/.git/.mcp.json":                      file(),
		"/p/vendor/m/.mcp.json":                  file(),
		"/p/.venv/lib/.mcp.json":                 file(),
		"/p/dist/.mcp.json":                      file(),
		"/p/build/.mcp.json":                     file(),
		"/p/target/.mcp.json":                    file(),
		"/p/src/__pycache__/.mcp.json":           file(),
		"/p/fifo/.mcp.json":                      {Mode: fs.ModeNamedPipe}, // reading it would block
		"/p/dir-named-like-a-config/.mcp.json/x": file(),
	})
	r := discover(t, fsys, linux, "/p")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/p/.vscode/mcp.json":   "tree vscode-workspace",
		"/p/a/.cursor/mcp.json": "tree cursor-project",
		"/p/a/b/c/.mcp.json":    "tree mcp-json",
	})
}

// The folder itself is not skipped, whatever its name.
func TestFolderNamedLikeASkippedDirectory(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{"/src/build/.mcp.json": file()})
	r := discover(t, fsys, linux, "/src/build")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{"/src/build/.mcp.json": "tree mcp-json"})
}

func TestDepthLimit(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/p/.mcp.json":       file(), // level 0
		"/p/a/b/.mcp.json":   file(), // level 2
		"/p/a/b/c/.mcp.json": file(), // level 3: beyond
		"/p/x/y/z/.mcp.json": file(), // level 3: beyond
	})
	r := Discover(context.Background(), Options{FS: fsys, Env: linux, Folders: []string{"/p"}, Limits: Limits{MaxDepth: 2}})
	wantFiles(t, r, map[string]string{
		"/p/.mcp.json":     "tree mcp-json",
		"/p/a/b/.mcp.json": "tree mcp-json",
	})
	if len(r.Truncated) != 1 || !strings.Contains(r.Truncated[0], "2 directories deeper than 2 levels") || !strings.Contains(r.Truncated[0], "/p/a/b/c") {
		t.Errorf("Truncated = %q, want one note on 2 directories deeper than 2 levels, first /p/a/b/c", r.Truncated)
	}
}

// wideTree has n directories of 10 entries each under /p, and one config
// file at the top, which a breadth-first walk finds before any limit.
func wideTree(n int) fstest.MapFS {
	m := mapFS(map[string]*fstest.MapFile{"/p/zz/.mcp.json": file()})
	for i := range n {
		for j := range 10 {
			m[fmt.Sprintf("p/d%03d/f%d.txt", i, j)] = file()
		}
	}
	return m
}

func TestEntryLimit(t *testing.T) {
	r := Discover(context.Background(), Options{FS: wideTree(50), Env: linux, Folders: []string{"/p"}, Limits: Limits{MaxFiles: 100}})
	// Level 1 (51 entries) is visited before any directory's contents.
	wantFiles(t, r, map[string]string{})
	if len(r.Truncated) != 1 || !strings.Contains(r.Truncated[0], "entry limit (100 entries visited) reached") {
		t.Errorf("Truncated = %q, want the entry limit", r.Truncated)
	}
	// With room for levels 0 and 1 the shallow file is found even though
	// the walk stops.
	m := wideTree(50)
	m["p/.mcp.json"] = file()
	r = Discover(context.Background(), Options{FS: m, Env: linux, Folders: []string{"/p"}, Limits: Limits{MaxFiles: 100}})
	if _, ok := origins(r)["/p/.mcp.json"]; !ok || len(r.Truncated) != 1 {
		t.Errorf("files %v, Truncated %q; want /p/.mcp.json and one note", origins(r), r.Truncated)
	}
}

func TestTimeLimitWithInjectedClock(t *testing.T) {
	var calls int
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { calls++; return start.Add(time.Duration(calls) * time.Millisecond) }
	r := Discover(context.Background(), Options{
		FS: wideTree(50), Env: linux, Folders: []string{"/p"},
		Limits: Limits{Timeout: 200 * time.Millisecond, Now: now},
	})
	if len(r.Truncated) != 1 || !strings.Contains(r.Truncated[0], "time limit (200ms) reached") {
		t.Errorf("Truncated = %q, want the time limit", r.Truncated)
	}
	if calls > 250 {
		t.Errorf("clock read %d times; the walk went on past the deadline", calls)
	}
}

// cancelFS cancels a context on its nth ReadDir and counts the calls after.
type cancelFS struct {
	fs.FS
	n, calls int
	cancel   context.CancelFunc
}

func (c *cancelFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if c.calls++; c.calls == c.n {
		c.cancel()
	}
	return fs.ReadDir(c.FS, name)
}

func TestCancelledContextStopsQuickly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	home := wideTree(200)
	home["home/u/.claude.json"] = file()
	r := Discover(ctx, Options{FS: home, Env: linux, Folders: []string{"/p"}})
	if len(r.Files) != 0 || len(r.Truncated) != 3 {
		t.Errorf("files %v, Truncated %q; want nothing read, and notes for the user files, /p's ancestors and /p's tree", origins(r), r.Truncated)
	}
	for _, tr := range r.Truncated {
		if !strings.Contains(tr, "context canceled") {
			t.Errorf("Truncated %q does not say why", tr)
		}
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	c := &cancelFS{FS: wideTree(200), n: 3, cancel: cancel}
	r = Discover(ctx, Options{FS: c, Env: linux, Folders: []string{"/p"}})
	if c.calls != c.n {
		t.Errorf("%d directories read, want %d: the walk went on after cancellation", c.calls, c.n)
	}
	if len(r.Truncated) != 1 || !strings.Contains(r.Truncated[0], "context canceled") {
		t.Errorf("Truncated = %q", r.Truncated)
	}
}

func TestSymlinkLoopsTerminate(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/p/.mcp.json":          file(),
		"/p/self":               link("."),     // a directory linking to itself
		"/p/a/up":               link("../.."), // to /
		"/p/a/b/back":           link("/p/a"),  // absolute, to an ancestor
		"/p/a/ping":             link("pong"),  // a two-link loop...
		"/p/a/pong":             link("ping"),
		"/p/a/.cursor/mcp.json": link("mcp.json"), // ...and a self-loop with a config name
	})
	done := make(chan Result)
	go func() { done <- discover(t, fsys, linux, "/p") }()
	var r Result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Discover did not return: a symlink loop was followed")
	}
	if len(r.Truncated) > 0 {
		t.Errorf("Truncated = %q; nothing should be limited", r.Truncated)
	}
	wantFiles(t, r, map[string]string{"/p/.mcp.json": "tree mcp-json"})
	if len(r.Errors) != 1 || !errors.Is(r.Errors[0], errLinkLoop) || !strings.Contains(r.Errors[0].Error(), "p/a/.cursor/mcp.json") {
		t.Errorf("Errors = %v, want one link loop at p/a/.cursor/mcp.json", r.Errors)
	}
}

// A linked file that matches is included; a file reached at two paths is
// listed once, at its preferred path, with the other as an alias.
func TestSymlinkedFiles(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/home/u/.cursor/mcp.json": file(),
		"/shared/team-mcp":         file(),
		"/shared/.mcp.json":        file(), // /p/linked/.mcp.json, if the link were followed
		"/p/configs/.mcp.json":     file(),
		"/p/.mcp.json":             link("configs/.mcp.json"),        // both in the tree
		"/p/.cursor/mcp.json":      link("/home/u/.cursor/mcp.json"), // the user file
		"/p/opencode.json":         link("../shared/team-mcp"),       // target matches nothing
		"/p/linked":                link("/shared"),                  // a linked directory: not followed
		"/p/dangling/.mcp.json":    link("nowhere"),
	})
	r := discover(t, fsys, linux, "/p")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/home/u/.cursor/mcp.json": "user cursor-user",
		"/p/.mcp.json":             "tree mcp-json",
		"/p/opencode.json":         "tree opencode-project",
	})
	aliases := map[string][]string{}
	for _, f := range r.Files {
		aliases[f.Path] = f.Aliases
	}
	if a := aliases["/home/u/.cursor/mcp.json"]; !slices.Equal(a, []string{"/p/.cursor/mcp.json"}) {
		t.Errorf("aliases of the user file = %q", a)
	}
	if a := aliases["/p/.mcp.json"]; !slices.Equal(a, []string{"/p/configs/.mcp.json"}) {
		t.Errorf("aliases of /p/.mcp.json = %q", a)
	}
}

// A workspace folder reached through a link: files are reported under the
// folder as given, and the ancestors of both paths are read (tools see
// the canonical one through getcwd).
func TestFolderThroughSymlink(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/home/u/work":                  link("../../data/work"),
		"/home/.mcp.json":               file(),
		"/data/.mcp.json":               file(),
		"/data/work/.git/HEAD":          file(),
		"/data/work/.mcp.json":          file(),
		"/data/work/a/.vscode/mcp.json": file(),
	})
	r := discover(t, fsys, linux, "/home/u/work")
	noProblems(t, r)
	if got := r.GitRoots["/home/u/work"]; got != "/home/u/work" {
		t.Errorf("GitRoots = %q, want the folder as given", got)
	}
	wantFiles(t, r, map[string]string{
		"/home/.mcp.json":                 "ancestor mcp-json",
		"/data/.mcp.json":                 "ancestor mcp-json",
		"/home/u/work/.mcp.json":          "tree mcp-json",
		"/home/u/work/a/.vscode/mcp.json": "tree vscode-workspace",
	})
}

// A home directory opened as a workspace: its user files are listed once,
// as user files.
func TestHomeAsWorkspace(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/home/u/.claude.json":             file(),
		"/home/u/.copilot/mcp-config.json": file(),
		"/home/u/proj/.mcp.json":           file(),
		"/home/u/.cache/x/.mcp.json":       file(),
	})
	r := discover(t, fsys, linux, "/home/u")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/home/u/.claude.json":             "user claude-user-state",
		"/home/u/.copilot/mcp-config.json": "user copilot-user-config",
		"/home/u/proj/.mcp.json":           "tree mcp-json",
	})
	for _, f := range r.Files {
		if len(f.Aliases) > 0 {
			t.Errorf("%s: aliases %q; the same path twice is not an alias", f.Path, f.Aliases)
		}
	}
}

// foldFS simulates a case-insensitive file system (APFS, NTFS) over a
// MapFS: a name that is not in the map finds an entry spelled with other
// case. Directory listings keep the stored spelling.
type foldFS struct{ m fstest.MapFS }

func (f foldFS) real(name string) string {
	if _, ok := f.m[name]; ok {
		return name
	}
	for k := range f.m {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	return name
}

func (f foldFS) Open(name string) (fs.File, error)      { return f.m.Open(f.real(name)) }
func (f foldFS) Lstat(name string) (fs.FileInfo, error) { return f.m.Lstat(f.real(name)) }
func (f foldFS) ReadLink(name string) (string, error)   { return f.m.ReadLink(f.real(name)) }

func TestCaseInsensitiveDuplicatesOnDarwin(t *testing.T) {
	fsys := foldFS{mapFS(map[string]*fstest.MapFile{
		"/Users/u/p/.MCP.json":      file(),
		"/Users/u/.cursor/MCP.json": file(),
		"/Users/u/p/.Cursor":        link("../.cursor"),
	})}
	env := registry.Env{Home: "/Users/u", GOOS: "darwin"}
	r := discover(t, fsys, env, "/Users/u/p")
	noProblems(t, r)
	// .MCP.json is reached by the ancestor lookup as .mcp.json and by the
	// tree walk as .MCP.json; ~/.cursor/mcp.json both as the user file and
	// through the project's .Cursor link (a directory link, not followed
	// by the walk, so only the user lookup finds it).
	wantFiles(t, r, map[string]string{
		"/Users/u/.cursor/mcp.json": "user cursor-user",
		"/Users/u/p/.mcp.json":      "tree mcp-json",
	})
	for _, f := range r.Files {
		if f.Path == "/Users/u/p/.mcp.json" && !slices.Equal(f.Aliases, []string{"/Users/u/p/.MCP.json"}) {
			t.Errorf("aliases %q, want the stored spelling", f.Aliases)
		}
	}

	// On Linux the two spellings are two files, and .MCP.json is no
	// config file at all.
	env.GOOS = "linux"
	r = discover(t, mapFS(map[string]*fstest.MapFile{
		"/Users/u/p/.MCP.json": file(),
		"/Users/u/p/.mcp.json": file(),
	}), env, "/Users/u/p")
	wantFiles(t, r, map[string]string{"/Users/u/p/.mcp.json": "tree mcp-json"})
}

func TestFoldCase(t *testing.T) {
	for _, pair := range [][2]string{{"/Users/U/.MCP.json", "/users/u/.mcp.json"}, {"\u212a", "k"}, {"ÉTÉ", "été"}} {
		if foldCase(pair[0]) != foldCase(pair[1]) {
			t.Errorf("foldCase(%q) != foldCase(%q)", pair[0], pair[1])
		}
	}
}

func TestBadFolders(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{"/p/.mcp.json": file(), "/f": file()})
	r := discover(t, fsys, linux, `C:\proj`, "relative", "/missing", "/f", "/p")
	wantFiles(t, r, map[string]string{"/p/.mcp.json": "tree mcp-json"})
	if len(r.Errors) != 4 {
		t.Errorf("Errors = %v, want one per bad folder", r.Errors)
	}
	if len(r.GitRoots) != 5 {
		t.Errorf("GitRoots = %v, want every folder", r.GitRoots)
	}
}

// noLinkFS hides fs.ReadLinkFS: paths are then compared as written.
type noLinkFS struct{ fs.FS }

func TestWithoutReadLinkFS(t *testing.T) {
	fsys := noLinkFS{mapFS(map[string]*fstest.MapFile{
		"/p/.git/HEAD":       file(),
		"/p/.mcp.json":       file(),
		"/p/a/opencode.json": file(),
	})}
	r := discover(t, fsys, linux, "/p")
	noProblems(t, r)
	wantFiles(t, r, map[string]string{
		"/p/.mcp.json":       "tree mcp-json",
		"/p/a/opencode.json": "tree opencode-project",
	})
}
