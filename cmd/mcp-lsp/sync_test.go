package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var hashRE = regexp.MustCompile(`sha256:[0-9a-f]{64}`)

var updateSync = flag.Bool("update-sync", false, "rewrite the want section of testdata/sync/*.txtar")

// TestSyncScenarios runs each testdata/sync/*.txtar: its files are
// materialized in a fresh project directory (a section named "F (crlf)"
// is written with CRLF line endings), the lines of its "cmd" section
// are run one after the other in that directory, and the transcript
// (each command, its exit status and output) followed by every file
// that changed or appeared, and the name of every input file left byte
// for byte, must equal its "want" section. In want, a carriage return
// shows as <CR>, the project directory as $ROOT, the home as $HOME.
//
// Commands: any mcp-lsp command line (sync, check, enable, disable...),
// and three of the test's own to act as a person would between runs:
// `replace FILE OLD NEW` (the first OLD in FILE), `rm FILE` and
// `cp SECTION FILE` (write an archive section to FILE).
//
// HOME is a scratch directory and PATH is empty, so {{runtime.python}}
// is a .venv of the archive or nothing. -update-sync rewrites want.
func TestSyncScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sync", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata/sync: %v", err)
	}
	for _, file := range files {
		file, _ := filepath.Abs(file) // the scenario changes directory
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runSyncScenario(t, ar)
			i := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == "want" })
			if *updateSync {
				if i < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					i = len(ar.Files) - 1
				}
				ar.Files[i].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if i < 0 {
				t.Fatal("no want section (run with -update-sync)")
			}
			if want := string(ar.Files[i].Data); got != want {
				t.Errorf("transcript differs (-update-sync to accept):\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

func runSyncScenario(t *testing.T, ar *txtar.Archive) string {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	home := filepath.Join(base, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	setHome(t, home)
	t.Setenv("PATH", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("GEMINI_CLI_HOME", "")
	t.Chdir(root)
	sections := map[string][]byte{}
	inputs := map[string][]byte{}
	var cmds []string
	for _, f := range ar.Files {
		name, data := f.Name, f.Data
		if n, ok := strings.CutSuffix(name, " (crlf)"); ok {
			name, data = n, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		}
		switch {
		case name == "want":
			continue
		case name == "cmd":
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					cmds = append(cmds, l)
				}
			}
			continue
		case strings.HasPrefix(name, "section/"):
			sections[strings.TrimPrefix(name, "section/")] = data
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasPrefix(name, "~/") {
			p = filepath.Join(home, filepath.FromSlash(name[2:]))
		}
		mustWriteFile(t, p, string(data))
		inputs[name] = data
	}
	if len(cmds) == 0 {
		t.Fatal("no cmd section")
	}
	var b strings.Builder
	clean := func(s string) string {
		s = strings.ReplaceAll(s, root, "$ROOT")
		s = strings.ReplaceAll(s, home, "$HOME")
		// Hashes of entries holding $ROOT differ from run to run.
		s = hashRE.ReplaceAllString(s, "sha256:…")
		return strings.ReplaceAll(s, "\r", "<CR>")
	}
	for _, c := range cmds {
		args := splitArgs(t, c)
		fmt.Fprintf(&b, "$ %s\n", c)
		switch args[0] {
		case "replace":
			p := filepath.Join(root, args[1])
			data, err := os.ReadFile(p)
			if err != nil || !bytes.Contains(data, []byte(args[2])) {
				t.Fatalf("%s: %q not in it (%v)", c, args[2], err)
			}
			mustWriteFile(t, p, string(bytes.Replace(data, []byte(args[2]), []byte(args[3]), 1)))
			continue
		case "rm":
			if err := os.Remove(filepath.Join(root, args[1])); err != nil {
				t.Fatal(err)
			}
			continue
		case "cp":
			data, ok := sections[args[1]]
			if !ok {
				t.Fatalf("%s: no section/%s", c, args[1])
			}
			mustWriteFile(t, filepath.Join(root, args[2]), string(data))
			continue
		}
		out, errOut, code := runCLI(t, args...)
		fmt.Fprintf(&b, "exit %d\n", code)
		if out != "" {
			b.WriteString(clean(out))
		}
		if errOut != "" {
			b.WriteString("stderr:\n" + clean(errOut))
		}
	}
	// Every file now, against the inputs.
	type entry struct{ name, content string }
	var now []entry
	for _, dir := range []struct{ path, prefix string }{{root, ""}, {home, "~/"}} {
		filepath.WalkDir(dir.path, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir.path, p)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			now = append(now, entry{dir.prefix + filepath.ToSlash(rel), string(data)})
			return nil
		})
	}
	slices.SortFunc(now, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for _, e := range now {
		if old, ok := inputs[e.name]; ok && string(old) == e.content {
			fmt.Fprintf(&b, "=== %s (unchanged)\n", e.name)
			continue
		}
		if strings.Contains(e.name, ".venv/") {
			continue
		}
		fmt.Fprintf(&b, "=== %s\n%s", e.name, clean(e.content))
		if !strings.HasSuffix(e.content, "\n") {
			b.WriteString("\n(no final newline)\n")
		}
	}
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.ContainsFunc(now, func(e entry) bool { return e.name == name }) {
			fmt.Fprintf(&b, "=== %s (removed)\n", name)
		}
	}
	return b.String()
}

// splitArgs splits a command line at spaces; double quotes group, and
// \" inside them is a quote.
func splitArgs(t *testing.T, line string) []string {
	var out []string
	var cur strings.Builder
	inQuote, has := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQuote && c == '\\' && i+1 < len(line) && line[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			inQuote, has = !inQuote, true
		case c == ' ' && !inQuote:
			if has || cur.Len() > 0 {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteByte(c)
		}
	}
	if inQuote {
		t.Fatalf("unclosed quote in %q", line)
	}
	if has || cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
