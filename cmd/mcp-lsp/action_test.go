package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runActionScript runs scripts/action.sh as action.yml does: inputs in
// INPUT_* variables, in dir (the workspace).
func runActionScript(t *testing.T, dir string, env map[string]string, step string) (stdout, stderr string, code int) {
	t.Helper()
	script, err := filepath.Abs("../../scripts/action.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script, step)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for _, k := range []string{"INPUT_VERSION", "INPUT_PATHS", "INPUT_FORMAT", "INPUT_SARIF_FILE", "INPUT_FAIL_ON", "MCP_LSP_BIN", "MCP_LSP_ACTION_REF", "GITHUB_PATH", "GITHUB_ENV"} {
		cmd.Env = append(cmd.Env, k+"=")
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestActionScript runs the Action's two steps locally: install (no
// release named, so it builds the action's own checkout with go install,
// and registers the binary in GITHUB_PATH and GITHUB_ENV), then check on
// testdata/example with each fail-on, asserting the annotations, the SARIF
// file and the exit status.
func TestActionScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmp := t.TempDir()
	ghPath, ghEnv := filepath.Join(tmp, "github_path"), filepath.Join(tmp, "github_env")
	out, errOut, code := runActionScript(t, tmp, map[string]string{
		"RUNNER_TEMP": tmp, "GITHUB_PATH": ghPath, "GITHUB_ENV": ghEnv,
	}, "install")
	bin := strings.TrimSpace(out)
	if code != 0 || bin != filepath.Join(tmp, "mcp-lsp-bin", "mcp-lsp") || !strings.Contains(errOut, "building from the action's checkout") || !strings.Contains(errOut, "mcp-lsp ") {
		t.Fatalf("install: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(ghPath); string(b) != filepath.Dir(bin)+"\n" {
		t.Errorf("GITHUB_PATH: %q", b)
	}
	if b, _ := os.ReadFile(ghEnv); string(b) != "MCP_LSP_BIN="+bin+"\n" {
		t.Errorf("GITHUB_ENV: %q", b)
	}

	example, _ := filepath.Abs("../../testdata/example")
	warnOnly := writeTree(t, map[string]string{".mcp.json": `{"mcpServers": {"a": {"type": "stdio", "command": "x"}, "a": {"type": "stdio", "command": "y"}}}`})
	for _, c := range []struct {
		dir, failOn string
		want        int
	}{
		{example, "", 1}, {example, "error", 1}, {example, "warning", 1}, {example, "never", 0},
		{warnOnly, "error", 0}, {warnOnly, "warning", 1}, {warnOnly, "never", 0},
	} {
		sarif := filepath.Join(tmp, "out", "mcp-lsp.sarif")
		os.Remove(sarif)
		out, errOut, code := runActionScript(t, c.dir, map[string]string{
			"MCP_LSP_BIN": bin, "INPUT_FAIL_ON": c.failOn, "INPUT_SARIF_FILE": sarif,
		}, "check")
		if code != c.want {
			t.Errorf("%s, fail-on %q: exit %d, want %d\n%s%s", filepath.Base(c.dir), c.failOn, code, c.want, out, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		raw, err := os.ReadFile(sarif)
		var log sarifLog
		if err != nil || json.Unmarshal(raw, &log) != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != len(lines) {
			t.Errorf("%s: SARIF file (%v) does not hold the %d findings annotated", filepath.Base(c.dir), err, len(lines))
		}
		if c.dir != example || c.failOn != "" {
			continue
		}
		// The default format is github: the annotations of the example.
		for _, want := range []string{
			"::error file=.mcp.json,line=4,col=15,endLine=4,endColumn=22,title=type-not-accepted::Claude Code and VS Code skip server \"filesystem\" and Kilo Code refuses the whole configuration because of server \"filesystem\": unknown type \"local\"",
			"::warning file=.mcp.json,line=12,col=5,endLine=12,endColumn=11,title=duplicate-key::duplicate key \"docs\"",
			"::notice file=.mcp.json,line=9,col=7,endLine=9,endColumn=12,title=key-ignored-by-tool::",
			"::error file=services/api/opencode.json,line=6,col=18,endLine=6,endColumn=68,title=command-form::",
			"::error file=.github/mcp.json,line=8,col=6,endLine=8,endColumn=6,title=syntax-error::",
		} {
			found := false
			for _, l := range lines {
				found = found || strings.HasPrefix(l, want)
			}
			if !found {
				t.Errorf("no annotation starting %q in:\n%s", want, out)
			}
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "::error file=") && !strings.HasPrefix(l, "::warning file=") && !strings.HasPrefix(l, "::notice file=") {
				t.Errorf("not an annotation: %q", l)
			}
		}
	}

	// The README's workflow, its inputs as written there.
	var readme map[string]string
	for _, s := range readmeWorkflowSteps(t) {
		if strings.HasPrefix(s.uses, "mcp-lsp/mcp-lsp@") {
			readme = s.with
		}
	}
	env := map[string]string{"MCP_LSP_BIN": bin}
	for k, v := range readme {
		env["INPUT_"+strings.ToUpper(strings.ReplaceAll(k, "-", "_"))] = v
	}
	out, _, code = runActionScript(t, example, env, "check")
	sarifFile := filepath.Join(example, readme["sarif-file"])
	defer os.Remove(sarifFile)
	raw, err := os.ReadFile(sarifFile)
	if code != 1 || !strings.Contains(out, "title=type-not-accepted::") || err != nil || !strings.Contains(string(raw), `"ruleId": "type-not-accepted"`) {
		t.Errorf("README inputs %v: exit %d, SARIF %v\n%s", readme, code, err, out)
	}

	// paths (two, one a file) and format are passed through.
	out, _, code = runActionScript(t, example, map[string]string{
		"MCP_LSP_BIN": bin, "INPUT_PATHS": "services\n.vscode/mcp.json", "INPUT_FORMAT": "text",
	}, "check")
	if code != 1 || !strings.Contains(out, "services/api/opencode.json:6:") || !strings.Contains(out, ".vscode/mcp.json:9:") || strings.Contains(out, ".mcp.json:4:") {
		t.Errorf("paths and format: exit %d\n%s", code, out)
	}
	// A bad input is a usage error, not a pass.
	if _, errOut, code := runActionScript(t, example, map[string]string{"MCP_LSP_BIN": bin, "INPUT_FAIL_ON": "sometimes"}, "check"); code != 2 || !strings.Contains(errOut, "unknown --fail-on") {
		t.Errorf("bad fail-on: exit %d, stderr %q", code, errOut)
	}
}
