package main

import (
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

var updateHooks = flag.Bool("update-hooks", false, "rewrite the files: regex of .pre-commit-hooks.yaml from the registry")

const hooksFile = "../../.pre-commit-hooks.yaml"

// hookFilesRegex is the pre-commit `files:` pattern for exactly the files
// `mcp-lsp check` analyses in a repository: the globs of every file kind
// that can sit anywhere (a kind found only in the home directory, such as
// ~/.claude.json, is matched by its resolved path, never in a repository).
// pre-commit matches it with Python's re.search against paths relative
// to the repository root, "/"-separated; the pattern uses only syntax
// that Go's regexp and Python's re read alike.
func hookFilesRegex(t *testing.T) string {
	var alts []string
	for _, k := range registry.Default().Kinds() {
		if k.Location == registry.Home {
			continue
		}
		for _, g := range k.Globs {
			rest, ok := strings.CutPrefix(g, "**/")
			if !ok || strings.Contains(rest, "**") {
				t.Fatalf("glob %q of %s: only \"**/\" at the start is translated", g, k.ID)
			}
			alts = append(alts, globToRegex(t, rest))
		}
	}
	slices.Sort(alts)
	alts = slices.Compact(alts)
	return `^(?:.*/)?(?:` + strings.Join(alts, "|") + `)$`
}

// globToRegex translates the rest of a registry glob (see
// registry.MatchGlob): "*" and "?" stay within a segment, "{a,b}"
// alternates, "[...]" is a class, everything else is literal.
func globToRegex(t *testing.T, g string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			b.WriteString(`[^/]*`)
		case '?':
			b.WriteString(`[^/]`)
		case '{':
			depth++
			b.WriteString(`(?:`)
		case '}':
			depth--
			b.WriteString(`)`)
		case ',':
			if depth > 0 {
				b.WriteString(`|`)
			} else {
				b.WriteString(`,`)
			}
		case '[':
			t.Fatalf("glob %q: character classes are not translated", g)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// expandGlob returns paths a glob's rest matches: each "{a,b}"
// alternative, "*" and "?" as a letter.
func expandGlob(g string) []string {
	if i := strings.IndexByte(g, '{'); i >= 0 {
		j := i + strings.IndexByte(g[i:], '}')
		var out []string
		for _, alt := range strings.Split(g[i+1:j], ",") {
			out = append(out, expandGlob(g[:i]+alt+g[j+1:])...)
		}
		return out
	}
	return []string{strings.NewReplacer("*", "p", "?", "q").Replace(g)}
}

// hooksFilesLine finds the `files:` value in the hooks file.
func hooksFilesLine(t *testing.T, src string) (line, value string) {
	m := regexp.MustCompile(`(?m)^  files: '([^']*)'$`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("%s has no `  files: '...'` line", hooksFile)
	}
	return m[0], m[1]
}

// TestPreCommitFilesRegex: the checked-in pattern is the generated one
// (go test ./cmd/mcp-lsp -run PreCommitFilesRegex -update-hooks), and it
// matches a path exactly when the registry does, for sample paths and for
// every file under testdata/.
func TestPreCommitFilesRegex(t *testing.T) {
	raw, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	line, got := hooksFilesLine(t, string(raw))
	want := hookFilesRegex(t)
	if *updateHooks {
		raw = []byte(strings.Replace(string(raw), line, "  files: '"+want+"'", 1))
		if err := os.WriteFile(hooksFile, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if got != want {
		t.Fatalf(".pre-commit-hooks.yaml files: is not generated from the registry; run go test ./cmd/mcp-lsp -run PreCommitFilesRegex -update-hooks\n got %s\nwant %s", got, want)
	}
	re := regexp.MustCompile(got)
	reg, env := registry.Default(), registry.Env{Home: "/nonexistent-home"}
	samples := map[string]bool{
		".mcp.json":                       true,
		"services/api/.mcp.json":          true,
		".vscode/mcp.json":                true,
		".cursor/mcp.json":                true,
		".github/mcp.json":                true,
		"a/.github/mcp-config.json":       true,
		"mcp-config.json":                 true,
		"opencode.json":                   true,
		"x/opencode.jsonc":                true,
		".opencode/opencode.jsonc":        true,
		".claude/settings.local.json":     true,
		".claude/.mcp.json":               true,
		"claude_desktop_config.json":      true,
		"Code - Insiders/User/mcp.json":   true,
		"Code/User/profiles/p1/mcp.json":  true,
		"ClaudeCode/managed-mcp.json":     true,
		".nyzhi/config.toml":              true,
		"x.mcp.json":                      false,
		".mcp.json.bak":                   false,
		".mcp.jsonc":                      false,
		"mcp.json":                        false,
		"vscode/mcp.json":                 false,
		".vscode/settings.json":           false,
		"package.json":                    false,
		"Code/User/profiles/a/b/mcp.json": false,
		"opencode.json/x":                 false,
		".claude/settings.json.orig":      false,
		".nyzhi/config.json":              false,
		".config/opencode/opencode.json":  true, // also ./opencode.json's glob
		// The newest readers.
		".kilocode/mcp.json":                true,
		"pkg/.kilocode/mcp.json":            true,
		".kilocode/mcp_settings.json":       false,
		".roo/mcp.json":                     true,
		".gemini/settings.json":             true,
		".gemini/settings.json.orig":        false,
		".qwen/settings.json":               true,
		".qwen/config.json":                 false,
		".codex/config.toml":                true,
		".codex/config.json":                false,
		".zed/settings.json":                true,
		".kiro/settings/mcp.json":           true,
		".codeium/windsurf/mcp_config.json": false, // read only from the home directory
	}
	// One path made from each glob of every kind a repository can hold,
	// at the root and deeper: the regex must match every file the
	// registry knows, not only the samples above.
	for _, k := range reg.Kinds() {
		if k.Location == registry.Home {
			continue
		}
		for _, g := range k.Globs {
			for _, p := range expandGlob(strings.TrimPrefix(g, "**/")) {
				samples[p], samples["deep/er/"+p] = true, true
			}
		}
	}
	err = filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("../..", p)
			rel = filepath.ToSlash(rel)
			_, ok := reg.Match("/repo/"+rel, env)
			samples[rel] = ok
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	matched := 0
	for p, want := range samples {
		_, known := reg.Match("/repo/"+p, env)
		if known != want {
			t.Errorf("sample %q: registry says %v, sample list %v", p, known, want)
		}
		if re.MatchString(p) != want {
			t.Errorf("files: regex on %q = %v, want %v", p, !want, want)
		}
		if want {
			matched++
		}
	}
	if matched < 20 {
		t.Errorf("only %d sample paths are MCP files; the test would prove little", matched)
	}
}

// TestPreCommitHook runs the hook with the real pre-commit (Debian's
// package; .ci/run installs it) through `pre-commit try-repo` on a fixture
// repository: it fails on a broken .mcp.json, passes once it is fixed, and
// never sees a broken file that is not an MCP configuration file. Then it
// runs the README's .pre-commit-config.yaml, pointed at this checkout.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook's environment")
	}
	preCommit := requireProgram(t, "pre-commit", "MCP_LSP_PRE_COMMIT")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(home, "pre-commit"),
		// pre-commit gives the hook's `go install` its own GOPATH; keep
		// the machine's module cache so that nothing is downloaded again.
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null",
	)
	repo := writeTree(t, map[string]string{
		".mcp.json":    "{\n  \"mcpServers\": {\"fs\": {\"command\": \"npx\"},}\n}\n",
		"package.json": "{,}", // broken, but not the hook's business
		"README.md":    "fixture\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "fixture")
	preCommitRun := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(preCommit, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("pre-commit %v: %v\n%s", args, err, out)
		}
		return string(out), code
	}

	out, code := preCommitRun("try-repo", root, "mcp-lsp", "--all-files")
	if code != 1 || !strings.Contains(out, "trailing-comma-in-strict-json") || !strings.Contains(out, ".mcp.json:2:") || strings.Contains(out, "package.json") {
		t.Errorf("broken .mcp.json: exit %d, want 1 with the finding (and nothing on package.json):\n%s", code, out)
	}

	if err := os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte("{\n  \"mcpServers\": {\"fs\": {\"command\": \"npx\"}}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "fix")
	out, code = preCommitRun("try-repo", root, "mcp-lsp", "--all-files")
	if code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("clean .mcp.json: exit %d, want 0:\n%s", code, out)
	}

	// The README's .pre-commit-config.yaml, its repo pointed at this
	// checkout's HEAD, on a broken .vscode/mcp.json.
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	config := readmeSnippet(t, ".pre-commit-config.yaml")
	config = regexp.MustCompile(`(?m)^(\s*- repo: ).*$`).ReplaceAllString(config, "${1}"+root)
	config = regexp.MustCompile(`(?m)^(\s*rev: ).*$`).ReplaceAllString(config, "${1}"+strings.TrimSpace(string(head)))
	if !strings.Contains(config, "- id: mcp-lsp\n") {
		t.Fatalf("README's pre-commit config does not use hook mcp-lsp:\n%s", config)
	}
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".vscode", "mcp.json"), []byte(`{"servers": {"x": {"type": "stdio"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-qm", "config")
	out, code = preCommitRun("run", "--all-files")
	if code != 1 || !strings.Contains(out, ".vscode/mcp.json:1:") || strings.Contains(out, "package.json") {
		t.Errorf("README config on a broken .vscode/mcp.json: exit %d, want 1 with the finding:\n%s", code, out)
	}

	// Only a warning left: the hook passes, and fails with the README's
	// "to be stricter" args.
	if err := os.WriteFile(filepath.Join(repo, ".vscode", "mcp.json"), []byte(`{"servers": {"x": {"type": "stdio", "command": "node", "args": ["${HOME}/x.js"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "warning only")
	out, code = preCommitRun("run", "--all-files")
	if code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("a warning only: exit %d, want 0:\n%s", code, out)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	args := regexp.MustCompile("Pass `(args: \\[[^`]*\\])` to be stricter").FindStringSubmatch(string(readme))
	if args == nil {
		t.Fatal("README no longer says which args make the hook stricter")
	}
	stricter := strings.Replace(config, "- id: mcp-lsp\n", "- id: mcp-lsp\n        "+args[1]+"\n", 1)
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(stricter), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-qam", "stricter")
	out, code = preCommitRun("run", "--all-files")
	if code != 1 || !strings.Contains(out, "[foreign-interpolation]") {
		t.Errorf("README's %s on a warning: exit %d, want 1:\n%s\nconfig:\n%s", args[1], code, out, stricter)
	}
}
