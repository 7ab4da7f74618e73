package registry_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The VS Code extension (editors/vscode) generates its document selector
// from registry.json with a Node script. These tests check its output from
// the Go side, so that a registry change without `npm run gen-selector`, or a
// difference between the extension's glob semantics and MatchGlob, fails
// `go test` as well as `npm test`.

const vscodeDir = "../../editors/vscode"

// readVSCodeFile reads a file of the extension, skipping the test when the
// extension is not in this tree.
func readVSCodeFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vscodeDir, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s not present: no VS Code extension in this tree", rel)
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// generatedArray reads `export const NAME: readonly string[] = [...];` from
// the generated module; the array is a JSON literal.
func generatedArray(t *testing.T, src, name string) []string {
	t.Helper()
	head := "export const " + name + ": readonly string[] = "
	i := strings.Index(src, head)
	if i < 0 {
		t.Fatalf("selector.generated.ts: no %q", head)
	}
	rest := src[i+len(head):]
	j := strings.Index(rest, "];")
	if j < 0 {
		t.Fatalf("selector.generated.ts: %s is not closed by \"];\"", name)
	}
	var out []string
	if err := json.Unmarshal([]byte(rest[:j+1]), &out); err != nil {
		t.Fatalf("selector.generated.ts: %s: %v", name, err)
	}
	return out
}

func TestVSCodeSelectorInSync(t *testing.T) {
	src := string(readVSCodeFile(t, "src/selector.generated.ts"))
	reg := registry.Default()
	const fix = "run `npm run gen-selector` in editors/vscode"

	if got, want := generatedArray(t, src, "SELECTOR_GLOBS"), reg.SelectorGlobs(); !slices.Equal(got, want) {
		t.Errorf("editors/vscode SELECTOR_GLOBS differ from SelectorGlobs() (%s)\n got: %q\nwant: %q", fix, got, want)
	}
	var want []string
	for _, tool := range reg.Tools() {
		want = append(want, string(tool.ID))
	}
	if got := generatedArray(t, src, "TOOL_IDS"); !slices.Equal(got, want) {
		t.Errorf("editors/vscode TOOL_IDS differ from Tools() (%s)\n got: %q\nwant: %q", fix, got, want)
	}
}

type selectorCase struct {
	Path     string  `json:"path"`
	Selected bool    `json:"selected"`
	Kind     *string `json:"kind"`
	Note     string  `json:"note"`
}

// TestVSCodeSelectorCases checks the sample paths the extension's unit tests
// use against MatchGlob (the selector) and Match (what the server serves).
func TestVSCodeSelectorCases(t *testing.T) {
	var fixture struct {
		Env struct {
			Home string `json:"home"`
			GOOS string `json:"goos"`
		} `json:"env"`
		Cases []selectorCase `json:"cases"`
	}
	if err := json.Unmarshal(readVSCodeFile(t, "test/fixtures/selector-cases.json"), &fixture); err != nil {
		t.Fatalf("selector-cases.json: %v", err)
	}
	if len(fixture.Cases) == 0 {
		t.Fatal("selector-cases.json has no cases")
	}
	reg := registry.Default()
	env := registry.Env{Home: fixture.Env.Home, GOOS: fixture.Env.GOOS}
	globs := reg.SelectorGlobs()
	for _, c := range fixture.Cases {
		selected := slices.ContainsFunc(globs, func(g string) bool { return registry.MatchGlob(g, c.Path) })
		if selected != c.Selected {
			t.Errorf("%s: selected by SelectorGlobs = %v, fixture says %v", c.Path, selected, c.Selected)
		}
		got := ""
		if k, ok := reg.Match(c.Path, env); ok {
			got = k.ID
		}
		want := ""
		if c.Kind != nil {
			want = *c.Kind
		}
		if got != want {
			t.Errorf("%s: Match = %q, fixture kind %q", c.Path, got, want)
		}
		if got != "" && !selected {
			t.Errorf("%s: served as %s but not selected by the editor", c.Path, got)
		}
		if got == "" && selected && c.Note == "" {
			t.Errorf("%s: selected but not served: explain the over-approximation in a note", c.Path)
		}
	}
}
