package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actionStep is one step of action.yml's composite run.
type actionStep struct {
	name, shell, run string
	env              map[string]string
}

// actionDefinition reads action.yml: its inputs' defaults and its steps.
// The file is plain block YAML (no anchors, no flow collections, every
// scalar on one line), so reading it by indentation is enough; anything
// else in it fails the test rather than being misread.
func actionDefinition(t *testing.T) (using string, defaults map[string]string, steps []actionStep) {
	t.Helper()
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	defaults = map[string]string{}
	section, input, inEnv := "", "", false
	unquote := func(v string) string {
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			return v[1 : len(v)-1]
		}
		return v
	}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if indent == 0 {
			section, _, _ = strings.Cut(trimmed, ":")
			continue
		}
		key, value, _ := strings.Cut(strings.TrimPrefix(trimmed, "- "), ":")
		value = unquote(strings.TrimSpace(value))
		switch section {
		case "inputs":
			if indent == 2 {
				input = key
			} else if indent == 4 && key == "default" {
				defaults[input] = value
			}
		case "runs":
			switch {
			case indent == 2 && key == "using":
				using = value
			case indent == 4 && strings.HasPrefix(trimmed, "- "):
				steps = append(steps, actionStep{env: map[string]string{}})
				inEnv = false
				fallthrough
			case indent == 6 && len(steps) > 0:
				s := &steps[len(steps)-1]
				inEnv = key == "env"
				switch key {
				case "name":
					s.name = value
				case "shell":
					s.shell = value
				case "run":
					if value == "|" || value == ">" || value == "" {
						t.Fatalf("action.yml: step %q: a multi-line run: is not read by this test; keep the logic in scripts/action.sh", s.name)
					}
					s.run = value
				}
			case indent == 8 && inEnv:
				steps[len(steps)-1].env[key] = value
			}
		}
	}
	return using, defaults, steps
}

var actionExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// runActionYAML runs action.yml's steps as the Actions runner does: each
// `shell: bash` step as `bash --noprofile --norc -eo pipefail` on its run:
// text, with its env: evaluated (inputs, else their defaults;
// github.action_path, github.action_ref), GITHUB_ENV and GITHUB_PATH
// files that a step writes to and later steps see.
func runActionYAML(t *testing.T, workspace string, inputs map[string]string) (stdout, stderr string, code int) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	using, defaults, steps := actionDefinition(t)
	if using != "composite" || len(steps) == 0 {
		t.Fatalf("action.yml: runs.using %q with %d steps, want a composite action", using, len(steps))
	}
	runner := t.TempDir()
	ghEnv, ghPath := filepath.Join(runner, "github_env"), filepath.Join(runner, "github_path")
	for _, f := range []string{ghEnv, ghPath} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eval := func(s string) string {
		return actionExpr.ReplaceAllStringFunc(s, func(m string) string {
			expr := actionExpr.FindStringSubmatch(m)[1]
			if name, ok := strings.CutPrefix(expr, "inputs."); ok {
				if _, declared := defaults[name]; !declared {
					t.Fatalf("action.yml uses undeclared input %q", name)
				}
				if v, ok := inputs[name]; ok {
					return v
				}
				return defaults[name]
			}
			switch expr {
			case "github.action_path":
				return root
			case "github.action_ref":
				return "" // a branch or commit: the action builds its checkout
			}
			t.Fatalf("action.yml: expression %q is not known to this test", expr)
			return ""
		})
	}
	for name := range inputs {
		if _, ok := defaults[name]; !ok {
			t.Fatalf("test passes input %q, which action.yml does not declare", name)
		}
	}
	var out, errb strings.Builder
	for _, s := range steps {
		if s.shell != "bash" {
			t.Fatalf("step %q: shell %q, want bash (the same on Linux, macOS and Windows runners)", s.name, s.shell)
		}
		env := os.Environ()
		for _, k := range []string{"INPUT_VERSION", "INPUT_PATHS", "INPUT_FORMAT", "INPUT_SARIF_FILE", "INPUT_FAIL_ON", "MCP_LSP_BIN", "MCP_LSP_ACTION_REF", "MCP_LSP_ACTION_PATH"} {
			env = append(env, k+"=")
		}
		env = append(env, "RUNNER_TEMP="+runner, "GITHUB_ENV="+ghEnv, "GITHUB_PATH="+ghPath, "GITHUB_WORKSPACE="+workspace)
		if b, _ := os.ReadFile(ghPath); len(b) > 0 {
			path := os.Getenv("PATH")
			for _, dir := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				path = dir + string(os.PathListSeparator) + path
			}
			env = append(env, "PATH="+path)
		}
		if b, _ := os.ReadFile(ghEnv); len(b) > 0 {
			env = append(env, strings.Split(strings.TrimSpace(string(b)), "\n")...)
		}
		for k, v := range s.env {
			env = append(env, k+"="+eval(v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", eval(s.run))
		cmd.Dir, cmd.Env = workspace, env
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return out.String(), errb.String(), 0
}

// TestActionYAMLSteps runs action.yml itself, step by step as the runner
// would (TestActionScript runs the script it calls): its inputs' defaults
// are the documented ones, the install step puts the binary where the
// check step finds it, and the check step annotates the example,
// writes the SARIF file and fails the step on its errors.
func TestActionYAMLSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	_, defaults, _ := actionDefinition(t)
	for k, want := range map[string]string{"paths": ".", "format": "github", "fail-on": "error", "sarif-file": "", "version": ""} {
		if got, ok := defaults[k]; !ok || got != want {
			t.Errorf("input %s: default %q (declared %v), want %q", k, got, ok, want)
		}
	}
	workspace := t.TempDir()
	if err := os.CopyFS(workspace, os.DirFS(filepath.Join("..", "..", "testdata", "example"))); err != nil {
		t.Fatal(err)
	}
	// A home of its own, so the user's files do not change the findings;
	// Go keeps its caches where they are (under the real home).
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		dir, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(v, strings.TrimSpace(string(dir)))
	}
	setHome(t, t.TempDir())
	out, errOut, code := runActionYAML(t, workspace, map[string]string{"sarif-file": "reports/mcp-lsp.sarif"})
	if code != 1 {
		t.Errorf("exit %d, want 1 (the example has errors)\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "building from the action's checkout") || !strings.Contains(errOut, "mcp-lsp ") {
		t.Errorf("install step: stderr\n%s", errOut)
	}
	if !strings.Contains(out, "::error file=.mcp.json,line=4,col=15,endLine=4,endColumn=22,title=type-not-accepted::") {
		t.Errorf("no type-not-accepted annotation in:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !regexp.MustCompile(`^::(error|warning|notice) file=[^,]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z-]+::`).MatchString(l) {
			t.Errorf("not an annotation: %q", l)
		}
	}
	if raw, err := os.ReadFile(filepath.Join(workspace, "reports", "mcp-lsp.sarif")); err != nil || !strings.Contains(string(raw), `"ruleId": "type-not-accepted"`) {
		t.Errorf("SARIF file: %v", err)
	}

	// fail-on never: the same annotations, and the step passes.
	out2, errOut, code := runActionYAML(t, workspace, map[string]string{"fail-on": "never", "paths": ".mcp.json\nservices"})
	if code != 0 || !strings.Contains(out2, "title=type-not-accepted::") || !strings.Contains(out2, "file=services/api/opencode.json,") || strings.Contains(out2, "file=.vscode/") {
		t.Errorf("fail-on never, two paths: exit %d\n%s%s", code, out2, errOut)
	}
}

// TestShellScriptsLint: the Action's script, the release script and the
// run: lines of action.yml parse (bash -n) and pass shellcheck (Debian's
// package; .ci/run installs it), which catches the quoting mistakes that
// only show on a runner: a path with spaces, an unset variable, a glob.
func TestShellScriptsLint(t *testing.T) {
	shellcheck := requireProgram(t, "shellcheck", "MCP_LSP_SHELLCHECK")
	scripts, err := filepath.Glob("../../scripts/*.sh")
	if err != nil || len(scripts) < 2 {
		t.Fatalf("scripts: %v %v", scripts, err)
	}
	// Each run: line as the runner hands it to bash, its expressions
	// (only ever in env:, never in run:) checked not to be there.
	_, _, steps := actionDefinition(t)
	dir := t.TempDir()
	for i, s := range steps {
		if strings.Contains(s.run, "${{") {
			t.Errorf("step %q: an expression in run: is pasted into the script unquoted; pass it through env:", s.name)
		}
		p := filepath.Join(dir, "action-step-"+string(rune('1'+i))+".sh")
		if err := os.WriteFile(p, []byte("#!/usr/bin/env bash\nset -eo pipefail\n"+s.run+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, p)
	}
	for _, s := range scripts {
		if out, err := exec.Command("bash", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", s, err, out)
		}
	}
	if out, err := exec.Command(shellcheck, append([]string{"--shell=bash", "--severity=style"}, scripts...)...).CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}
