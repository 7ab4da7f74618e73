package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// fixAllArchive is a code action golden of the editor's fix-all
// (testdata/codeactions, "only: source.fixAll"): its input files, and
// want/FILE, the bytes the editor's fix-all wrote (checked by
// lsp.TestCodeActionGoldens over a real JSON-RPC pipe).
type fixAllArchive struct {
	name   string
	inputs map[string][]byte
	want   map[string][]byte
	secret string
}

func loadFixAllArchives(t *testing.T) []fixAllArchive {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "codeactions", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixAllArchive
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fa := fixAllArchive{name: filepath.Base(f), inputs: map[string][]byte{}, want: map[string][]byte{}}
		isFixAll := false
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if strings.TrimSpace(line) == "only: source.fixAll" {
				isFixAll = true
			}
			if s, ok := strings.CutPrefix(line, "secret: "); ok {
				fa.secret = s
			}
		}
		if !isFixAll {
			continue
		}
		for _, af := range ar.Files {
			switch name, ok := strings.CutPrefix(af.Name, "want/"); {
			case !ok:
				fa.inputs[af.Name] = af.Data
			case name != "actions" && name != "diagnostics":
				fa.want[name] = af.Data
			}
		}
		out = append(out, fa)
	}
	if len(out) < 2 {
		t.Fatalf("found %d fix-all archives in testdata/codeactions, want at least 2", len(out))
	}
	return out
}

// materialize writes the archive's inputs into a new directory, with
// home/ as the user's home directory, as the code action goldens do.
func (fa fixAllArchive) materialize(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range fa.inputs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setHome(t, filepath.Join(dir, "home"))
	return dir
}

func setHome(t *testing.T, home string) {
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, v := range []string{"COPILOT_HOME", "OPENCODE_CONFIG", "CLAUDE_CONFIG_DIR"} {
		t.Setenv(v, "")
	}
}

// TestCheckFixMatchesEditorFixAll: on every fix-all golden, `check --fix`
// writes the bytes the editor's fix-all wrote (BOM, CRLF and comments
// included), and `check --diff` writes nothing and prints a diff that
// git applies to the same bytes.
func TestCheckFixMatchesEditorFixAll(t *testing.T) {
	for _, fa := range loadFixAllArchives(t) {
		t.Run(fa.name, func(t *testing.T) {
			dir := fa.materialize(t)

			out, errOut, code := runCLI(t, "check", "--diff", dir)
			if code != 1 {
				t.Errorf("--diff: exit %d, want 1 (there is something to fix); stderr: %s", code, errOut)
			}
			for name, data := range fa.inputs {
				if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, data) {
					t.Errorf("--diff wrote %s", name)
				}
			}
			if fa.secret != "" {
				if strings.Contains(out+errOut, fa.secret) {
					t.Errorf("--diff printed the secret:\n%s", out)
				}
				if !strings.Contains(out, rules.Masked) {
					t.Errorf("--diff: the line with the secret is not shown masked:\n%s", out)
				}
			} else {
				gitApply(t, "/", out) // check names the files by absolute paths
				for name, want := range fa.want {
					if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, want) {
						t.Errorf("git apply of the --diff output: %s is\n%q\nwant\n%q", name, got, want)
					}
				}
				dir = fa.materialize(t)
			}

			_, errOut, _ = runCLI(t, "check", "--fix", dir)
			if !strings.Contains(errOut, "mcp-lsp check: fixed ") {
				t.Errorf("--fix: no count of fixes on stderr: %q", errOut)
			}
			for name, want := range fa.want {
				if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, want) {
					t.Errorf("--fix: %s is\n%q\nwant (the editor's fix-all)\n%q", name, got, want)
				}
			}
			// Fixed: a second run has nothing left to fix.
			if out, _, code := runCLI(t, "check", "--diff", dir); code != 0 || out != "" {
				t.Errorf("--diff after --fix: exit %d, output %q", code, out)
			}
		})
	}
}

// gitApply applies a unified diff with git in dir (the diff names files
// a/NAME and b/NAME relative to dir).
func gitApply(t *testing.T, dir, patch string) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed to check the diffs: %v", err)
	}
	cmd := exec.Command(git, "apply", "--whitespace=nowarn", "--unsafe-paths", "-p1", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, patch)
	}
}

// TestCheckFixStatusSaysWhatIsLeft: the report and the exit status after
// --fix are those of the fixed files.
func TestCheckFixStatusSaysWhatIsLeft(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".mcp.json": "{\n  \"mcpServers\": {\n    \"fs\": {\"type\": \"local\", \"command\": \"node\"}\n  }\n}\n",
	})
	setHome(t, filepath.Join(dir, "home"))
	out, errOut, code := runCLI(t, "check", dir)
	if code != 1 || !strings.Contains(out, "[type-not-accepted]") {
		t.Fatalf("before: exit %d, output %q, want 1 and type-not-accepted", code, out)
	}
	out, errOut, code = runCLI(t, "check", "--fix", dir)
	if code != 0 || out != "" {
		t.Errorf("--fix: exit %d, output %q; want 0 and nothing left; stderr %s", code, out, errOut)
	}
	if errOut != "mcp-lsp check: fixed 1 problem\n" {
		t.Errorf("--fix stderr = %q", errOut)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json"))
	if want := "{\n  \"mcpServers\": {\n    \"fs\": {\"type\": \"stdio\", \"command\": \"node\"}\n  }\n}\n"; string(got) != want {
		t.Errorf("fixed file %q, want %q", got, want)
	}
}

// TestCheckFixNeverWritesABrokenFile: a file that does not parse stays
// byte for byte as it was, even with --unsafe, and with a fixable
// problem in it; the other files are still fixed.
func TestCheckFixNeverWritesABrokenFile(t *testing.T) {
	broken := "{\n  \"mcpServers\": {\n    \"fs\": {\"type\": \"local\", \"command\": \"npx\"}\n    \"b\": {\"command\": \"y\"}\n  }\n}\n"
	dir := writeTree(t, map[string]string{
		".mcp.json":          broken,
		".vscode/mcp.json":   "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\n",
		".cursor/README.txt": "not a config",
	})
	setHome(t, filepath.Join(dir, "home"))
	for _, args := range [][]string{{"--fix"}, {"--fix", "--unsafe"}, {"--diff", "--unsafe"}} {
		out, errOut, code := runCLI(t, append(append([]string{"check"}, args...), dir)...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1; stderr %s", args, code, errOut)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(got) != broken {
			t.Errorf("%v wrote the broken file:\n%s", args, got)
		}
		if !strings.Contains(errOut, ".mcp.json: not fixed: it does not parse") {
			t.Errorf("%v: stderr does not say why the broken file is not fixed: %q", args, errOut)
		}
		if strings.Contains(out, "+++ b/"+strings.TrimPrefix(filepath.Join(dir, ".mcp.json"), "/")) {
			t.Errorf("%v: a diff for the broken file:\n%s", args, out)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".vscode", "mcp.json")); !strings.Contains(string(got), `"servers"`) {
		t.Errorf("the other file was not fixed: %s", got)
	}
}

// TestCheckFixUnsafe: --unsafe adds the fixes that change meaning (a
// removed duplicate, a secret moved into a variable); without it they
// are left, and reported.
func TestCheckFixUnsafe(t *testing.T) {
	const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"
	src := "{\n  \"mcpServers\": {\n    \"web\": {\"type\": \"http\", \"url\": \"https://a.example.com\"},\n    \"web\": {\"type\": \"http\", \"url\": \"https://b.example.com\", \"headers\": {\"X-Api-Key\": \"" + secret + "\"}}\n  }\n}\n"
	// The project runs Claude Code, Copilot CLI and VS Code: Kilo Code,
	// which would read this .mcp.json too (no .kilocode/mcp.json), takes
	// no "http" type and expands only ${env:NAME}.
	dir := writeTree(t, map[string]string{".mcp.json": src, ".mcp-lsp.json": `{"tools": ["claude-code", "copilot-cli", "vscode"]}`})
	setHome(t, filepath.Join(dir, "home"))
	if _, errOut, code := runCLI(t, "check", "--unsafe", dir); code != 2 || !strings.Contains(errOut, "--unsafe needs --fix or --diff") {
		t.Errorf("--unsafe alone: exit %d, stderr %q", code, errOut)
	}
	out, errOut, code := runCLI(t, "check", "--fix", dir)
	if code != 0 || !strings.Contains(out, "[duplicate-key]") || !strings.Contains(out, "[literal-secret]") {
		t.Errorf("--fix: exit %d, output %q (want the unsafe findings left, as warnings); stderr %s", code, out, errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(got) != src {
		t.Errorf("--fix without --unsafe changed the file:\n%s", got)
	}
	out, errOut, code = runCLI(t, "check", "--fix", "--unsafe", "--format", "json", dir)
	// Left: VS Code, which reads the workspace folder's .mcp.json but
	// expands no variable in it, gets the reference as written.
	var left []struct {
		Code  string   `json:"code"`
		Tools []string `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &left); code != 0 || err != nil || len(left) != 1 ||
		left[0].Code != "foreign-interpolation" || !slices.Equal(left[0].Tools, []string{"vscode"}) {
		t.Errorf("--fix --unsafe: exit %d, output %q (want only VS Code's foreign-interpolation); stderr %s", code, out, errOut)
	}
	want := "{\n  \"mcpServers\": {\n    \"web\": {\"type\": \"http\", \"url\": \"https://b.example.com\", \"headers\": {\"X-Api-Key\": \"${WEB_API_KEY}\"}}\n  }\n}\n"
	if got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(got) != want {
		t.Errorf("--fix --unsafe:\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(out+errOut, secret) {
		t.Error("the secret was printed")
	}
}

// TestCheckFixThroughSymlink: a config file that is a symbolic link (a
// dotfiles repository) is fixed through the link: the file it points to
// gets the fix and keeps its permissions, the link stays a link.
func TestCheckFixThroughSymlink(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"dotfiles/mcp.json": "{\"mcpServers\": {\"fs\": {\"type\": \"local\", \"command\": \"npx\"}}}\n",
		"project/README":    "",
	})
	setHome(t, filepath.Join(dir, "home"))
	target := filepath.Join(dir, "dotfiles", "mcp.json")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "project", ".mcp.json")
	if err := os.Symlink(filepath.Join("..", "dotfiles", "mcp.json"), link); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "check", "--fix", link)
	if code != 0 {
		t.Errorf("exit %d; stderr %s", code, errOut)
	}
	info, err := os.Lstat(link)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", info.Mode(), err)
	}
	got, _ := os.ReadFile(target)
	if want := "{\"mcpServers\": {\"fs\": {\"type\": \"stdio\", \"command\": \"npx\"}}}\n"; string(got) != want {
		t.Errorf("target %q, want %q", got, want)
	}
	if ti, _ := os.Stat(target); ti.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600", ti.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(dir, "dotfiles", ".*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestUnifiedDiffAppliesWithGit: diffs of edits far apart (two hunks),
// close together (one), at the start, and at the end of a file without a
// final line break apply with git to the text the edits make.
func TestUnifiedDiffAppliesWithGit(t *testing.T) {
	var lines []string
	for i := range 20 {
		lines = append(lines, strings.Repeat("x", i%5)+"line")
	}
	old := strings.Join(lines, "\n") // no final line break
	off := func(line int) int {
		n := 0
		for i := range line {
			n += len(lines[i]) + 1
		}
		return n
	}
	cases := map[string][]fix.Edit{
		"two hunks":   {{Span: span.New(off(1), off(1)+1), NewText: "Y"}, {Span: span.New(off(17), off(17)), NewText: "new\n"}},
		"one hunk":    {{Span: span.New(off(5), off(6)), NewText: ""}, {Span: span.New(off(9), off(9)+4), NewText: "a\nb\nc"}},
		"start":       {{Span: span.New(0, 0), NewText: "first\n"}},
		"end":         {{Span: span.New(len(old), len(old)), NewText: "\n"}},
		"last line":   {{Span: span.New(off(19), len(old)), NewText: "changed"}},
		"multi-line":  {{Span: span.New(off(3)+2, off(12)+1), NewText: "joined"}},
		"same line 2": {{Span: span.New(off(4), off(4)+1), NewText: "A"}, {Span: span.New(off(4)+3, off(4)+4), NewText: "B"}},
	}
	for name, edits := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f.json"), []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := fix.Apply([]byte(old), edits)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := writeUnifiedDiff(&b, "f.json", []byte(old), edits); err != nil {
				t.Fatal(err)
			}
			gitApply(t, dir, b.String())
			if got, _ := os.ReadFile(filepath.Join(dir, "f.json")); string(got) != string(want) {
				t.Errorf("applied:\n%q\nwant\n%q\ndiff:\n%s", got, want, b.String())
			}
		})
	}
}

// TestCheckFixUnsafeKeepsEveryToolsServers: on a copy of the example,
// `check --fix --unsafe` changes what the files say but takes no server
// from any tool. (It once removed .mcp.json's "github": once the secret
// was moved into a variable it was identical to the one VS Code takes
// from .vscode/mcp.json, and duplicate-server called it a spare copy,
// though Claude Code and Copilot CLI read only .mcp.json.)
func TestCheckFixUnsafeKeepsEveryToolsServers(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "example"))); err != nil {
		t.Fatal(err)
	}
	setHome(t, filepath.Join(dir, "home"))
	servers := func() map[string]bool {
		t.Helper()
		out, errOut, code := runCLI(t, "effective", "--format", "json", dir)
		var tools []struct {
			Tool    string `json:"tool"`
			Servers []struct {
				Name string `json:"name"`
			} `json:"servers"`
		}
		if err := json.Unmarshal([]byte(out), &tools); err != nil || code != 0 {
			t.Fatalf("effective: exit %d, %v\n%s", code, err, errOut)
		}
		set := map[string]bool{}
		for _, tool := range tools {
			for _, s := range tool.Servers {
				set[tool.Tool+" "+s.Name] = true
			}
		}
		return set
	}
	before := servers()
	if len(before) < 5 {
		t.Fatalf("the example gives the tools only %v", before)
	}
	if _, errOut, _ := runCLI(t, "check", "--fix", "--unsafe", dir); !strings.Contains(errOut, "fixed ") {
		t.Fatalf("--fix --unsafe fixed nothing: %s", errOut)
	}
	after := servers()
	for s := range before {
		if !after[s] {
			t.Errorf("--fix --unsafe took server %s away", s)
		}
	}
}

// TestCheckFixUnsafeFixesOnlyWhatWasReported: --unsafe makes the fixes
// of the findings reported before it ran, not of those its own edits
// bring about. Wrapping "fs" in cmd /c makes it the same server as
// "already"; that server-started-twice was never reported, so "already"
// is not removed: it is reported after the fix instead.
func TestCheckFixUnsafeFixesOnlyWhatWasReported(t *testing.T) {
	src := `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "pkg@1.0.0"]}, "already": {"command": "cmd", "args": ["/c", "npx", "-y", "pkg@1.0.0"]}}}` + "\n"
	dir := writeTree(t, map[string]string{".mcp.json": src})
	setHome(t, filepath.Join(dir, "home"))
	before, _, _ := runCLI(t, "check", dir)
	if !strings.Contains(before, "[windows-cmd-wrapper]") || strings.Contains(before, "[server-started-twice]") {
		t.Fatalf("before: %s", before)
	}
	out, errOut, code := runCLI(t, "check", "--fix", "--unsafe", dir)
	want := `{"mcpServers": {"fs": {"command": "cmd", "args": ["/c", "npx", "-y", "pkg@1.0.0"]}, "already": {"command": "cmd", "args": ["/c", "npx", "-y", "pkg@1.0.0"]}}}` + "\n"
	if got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(got) != want {
		t.Errorf("--fix --unsafe:\n%s\nwant\n%s", got, want)
	}
	if code != 0 || !strings.Contains(out, "[server-started-twice]") || errOut != "mcp-lsp check: fixed 1 problem\n" {
		t.Errorf("after: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
}

// TestLineEditsDiff: the diff of a file fixed over several passes shows
// the lines that changed, not one block from the first change to the
// last, and applies with git to the fixed bytes (CRLF, no final line
// break, insertions, removals, a file replaced whole).
func TestLineEditsDiff(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"apart", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n", ""},
		{"insert and remove", "{\n  x\n  y\n  z\n}\n", "{\n  w\n  x\n  z\n}\n", "--- a/f.json\n+++ b/f.json\n@@ -1,5 +1,5 @@\n {\n+  w\n   x\n-  y\n   z\n }\n"},
		{"crlf", "{\r\n  a\r\n  b\r\n}\r\n", "{\r\n  a\r\n  B\r\n}\r\n", "--- a/f.json\n+++ b/f.json\n@@ -1,4 +1,4 @@\n {\r\n   a\r\n-  b\r\n+  B\r\n }\r\n"},
		{"no final break", "a\nb\nc", "a\nB\nc", ""},
		{"last line", "a\nb\nc", "a\nb\nC\n", ""},
		{"whole", "x\n", "y\nz\n", ""},
		{"to empty", "x\ny\n", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edits := lineEdits("f.json", []byte(c.old), []byte(c.new))
			if got, err := fix.Apply([]byte(c.old), edits); err != nil || string(got) != c.new {
				t.Fatalf("the edits make %q (%v), want %q", got, err, c.new)
			}
			var b bytes.Buffer
			if err := writeUnifiedDiff(&b, "f.json", []byte(c.old), edits); err != nil {
				t.Fatal(err)
			}
			if c.want != "" && b.String() != c.want {
				t.Errorf("diff:\n%s\nwant:\n%s", b.String(), c.want)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f.json"), []byte(c.old), 0o644); err != nil {
				t.Fatal(err)
			}
			gitApply(t, dir, b.String())
			if got, _ := os.ReadFile(filepath.Join(dir, "f.json")); string(got) != c.new {
				t.Errorf("git apply made %q, want %q\n%s", got, c.new, b.String())
			}
			if c.name == "apart" && strings.Count(b.String(), "@@ -") != 2 {
				t.Errorf("two changes far apart should be two hunks:\n%s", b.String())
			}
		})
	}
}
