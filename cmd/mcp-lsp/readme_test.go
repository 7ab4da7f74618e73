package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// readmeSnippet returns the YAML code block of README.md whose first line
// is the comment "# <file>", without that line.
func readmeSnippet(t *testing.T, file string) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	head := "```yaml\n# " + file + "\n"
	i := strings.Index(string(raw), head)
	if i < 0 {
		t.Fatalf("README.md has no yaml block starting with # %s", file)
	}
	rest := string(raw)[i+len(head):]
	return rest[:strings.Index(rest, "```")]
}

// workflowStep is one step of the README's workflow: what it uses, its
// `if:` and its `with:` inputs.
type workflowStep struct {
	uses, cond string
	with       map[string]string
}

// readmeWorkflowSteps reads the steps of the README's workflow snippet.
// The snippet is plain block YAML; reading `- uses:`, `if:` and `with:`
// lines by indentation is all it needs.
func readmeWorkflowSteps(t *testing.T) []workflowStep {
	var steps []workflowStep
	inWith := false
	for _, line := range strings.Split(readmeSnippet(t, ".github/workflows/mcp-lsp.yml"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "- uses: "):
			steps = append(steps, workflowStep{uses: strings.TrimPrefix(trimmed, "- uses: "), with: map[string]string{}})
			inWith = false
		case len(steps) == 0:
		case strings.HasPrefix(trimmed, "if: "):
			steps[len(steps)-1].cond = strings.TrimPrefix(trimmed, "if: ")
		case trimmed == "with:":
			inWith = true
		case inWith && strings.HasPrefix(line, "          "):
			k, v, _ := strings.Cut(trimmed, ": ")
			steps[len(steps)-1].with[k] = v
		default:
			inWith = false
		}
	}
	return steps
}

// actionInputs reads the input names of action.yml and checks that each
// is handed to the script as INPUT_<NAME>.
func actionInputs(t *testing.T) map[string]bool {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	block := src[strings.Index(src, "\ninputs:\n"):strings.Index(src, "\nruns:\n")]
	inputs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z-]+):$`).FindAllStringSubmatch(block, -1) {
		inputs[m[1]] = true
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(m[1], "-", "_"))
		if !strings.Contains(src, env+": ${{ inputs."+m[1]+" }}") {
			t.Errorf("action.yml does not pass input %s to the script as %s", m[1], env)
		}
	}
	if len(inputs) != 5 {
		t.Errorf("action.yml inputs: %v", inputs)
	}
	return inputs
}

// TestReadmeWorkflowSnippet: the README's workflow uses this action at a
// release tag with inputs action.yml declares, and uploads the SARIF file
// it writes even when the check step fails. (TestActionScript runs the
// script with these very inputs.)
func TestReadmeWorkflowSnippet(t *testing.T) {
	inputs := actionInputs(t)
	steps := readmeWorkflowSteps(t)
	var action, upload *workflowStep
	for i := range steps {
		switch {
		case regexp.MustCompile(`^mcp-lsp/mcp-lsp@v\d+\.\d+\.\d+$`).MatchString(steps[i].uses):
			action = &steps[i]
		case strings.HasPrefix(steps[i].uses, "github/codeql-action/upload-sarif@"):
			upload = &steps[i]
		}
	}
	if action == nil || upload == nil {
		t.Fatalf("README workflow lacks the action at a release tag or the SARIF upload: %+v", steps)
	}
	for k := range action.with {
		if !inputs[k] {
			t.Errorf("README passes %q, which action.yml does not declare", k)
		}
	}
	if action.with["sarif-file"] == "" || upload.with["sarif_file"] != action.with["sarif-file"] || upload.cond != "${{ !cancelled() }}" {
		t.Errorf("the upload step must take the action's sarif-file even after a failure: action %v, upload %+v", action.with, upload)
	}
}

// TestReadmeAnyOtherCI runs the README's command lines for other CI
// systems ("Anything else"), as written there, on the example: SARIF 2.1.0
// with every rule, and JSON findings.
func TestReadmeAnyOtherCI(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	i := strings.Index(src, "\n### Anything else\n")
	if i < 0 {
		t.Fatal(`README.md has no "### Anything else" section under "Use it in CI"`)
	}
	section := src[i:]
	section = section[:strings.Index(section[1:], "\n## ")+1]
	m := regexp.MustCompile("`mcp-lsp (check --format sarif [^`>]*)> ([^`]+)`").FindStringSubmatch(section)
	if m == nil || !strings.Contains(section, "`--format json`") {
		t.Fatalf("the section lost its SARIF command line or --format json:\n%s", section)
	}
	example, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	t.Chdir(example)
	out, errOut, code := runCLI(t, strings.Fields(m[1])...)
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) != len(rules.Rules) || len(log.Runs[0].Results) == 0 || code != 1 {
		t.Errorf("README's %q: exit %d, %v, %+v\nstderr: %s", m[0], code, err, log.Version, errOut)
	}
	out, _, _ = runCLI(t, "check", "--format", "json", ".")
	var plain []checkResult
	if err := json.Unmarshal([]byte(out), &plain); err != nil || len(plain) != len(log.Runs[0].Results) {
		t.Errorf("--format json: %v, %d findings, SARIF %d", err, len(plain), len(log.Runs[0].Results))
	}
}
