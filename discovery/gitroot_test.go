package discovery

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGitRoot(t *testing.T) {
	fsys := mapFS(map[string]*fstest.MapFile{
		"/r/.git/HEAD":         file(),
		"/r/a/b/x.txt":         file(),
		"/r/wt/.git":           {Data: []byte("gitdir: /r/.git/worktrees/wt\n")},
		"/r/wt/c/x.txt":        file(),
		"/r/ln":                link("wt/c"),
		"/r/dangling/.git":     link("nowhere"), // an entry all the same
		"/plain/d/x.txt":       file(),
		"/top/.git/HEAD":       file(),
		"/.git/HEAD":           file(),
		"/elsewhere/.git/HEAD": file(),
	})
	for _, tc := range []struct{ dir, want string }{
		{"/r", "/r"},         // the directory itself
		{"/r/a/b", "/r"},     // an ancestor
		{"/r/a/b/", "/r"},    // cleaned
		{"/r/wt/c", "/r/wt"}, // a .git file: worktree or submodule
		{"/r/ln", "/r"},      // through a link to /r/wt/c: a prefix of dir as written, not /r/wt
		{"/r/dangling", "/r/dangling"},
		{"/plain/d", "/"},    // up to /
		{"/missing/x", "/"},  // nothing to stat is not an error
		{"relative/dir", ""}, // not absolute
		{`C:\r`, ""},         // Windows: out of scope
	} {
		if got := GitRoot(fsys, tc.dir); got != tc.want {
			t.Errorf("GitRoot(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
	if got := GitRoot(mapFS(map[string]*fstest.MapFile{"/p/q/x": file()}), "/p/q"); got != "" {
		t.Errorf("GitRoot without any .git = %q, want \"\"", got)
	}
}

// TestOSDirFS runs Discover on the real file system, as in production,
// where links have absolute targets and os.DirFS reads them.
func TestOSDirFS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows paths are out of scope")
	}
	tmp := t.TempDir()
	proj := filepath.Join(tmp, "proj")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
	must(os.MkdirAll(filepath.Join(proj, ".cursor"), 0o755))
	must(os.MkdirAll(filepath.Join(proj, "node_modules", "m"), 0o755))
	must(os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte("{}"), 0o644))
	must(os.WriteFile(filepath.Join(proj, "node_modules", "m", ".mcp.json"), []byte("{}"), 0o644))
	must(os.WriteFile(filepath.Join(tmp, "opencode.json"), []byte("{}"), 0o644)) // above the git root
	must(os.Symlink(filepath.Join(proj, ".mcp.json"), filepath.Join(proj, ".cursor", "mcp.json")))
	must(os.Symlink(proj, filepath.Join(proj, "loop")))
	must(os.Symlink(filepath.Join(proj, "a"), filepath.Join(proj, "b")))
	must(os.Symlink(filepath.Join(proj, "b"), filepath.Join(proj, "a")))
	must(os.Symlink("opencode.json", filepath.Join(proj, "opencode.json"))) // a self-loop

	env := linux
	env.Home = filepath.Join(tmp, "home")
	r := discover(t, nil, env, proj)
	var got []string
	for _, f := range r.Files {
		if strings.HasPrefix(f.Path, tmp) {
			got = append(got, f.Path+" "+f.Origin+" "+strings.Join(f.Aliases, ","))
		}
	}
	// .cursor/mcp.json (a link to .mcp.json) and .mcp.json are both named
	// lookups of the folder (Kilo Code reads either); among equals the
	// first in path order names the file, the other is its alias.
	want := []string{filepath.Join(proj, ".cursor", "mcp.json") + " tree " + filepath.Join(proj, ".mcp.json")}
	if !slices.Equal(got, want) {
		t.Errorf("files under %s:\n got %q\nwant %q", tmp, got, want)
	}
	if r.GitRoots[proj] != proj {
		t.Errorf("GitRoots = %v", r.GitRoots)
	}
	var loops int
	for _, err := range r.Errors {
		if strings.Contains(err.Error(), tmp) {
			loops++
		}
	}
	if loops != 1 {
		t.Errorf("Errors = %v, want one about the opencode.json link loop", r.Errors)
	}
}
