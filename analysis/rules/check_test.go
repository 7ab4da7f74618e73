package rules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestEachRuleIsOneValue: every rule names its check, and a check either
// has exactly one function or says where the rule is reported instead.
func TestEachRuleIsOneValue(t *testing.T) {
	for _, r := range Rules {
		k := r.Check
		if k == nil {
			t.Errorf("rule %q has no check", r.Code)
			continue
		}
		n := 0
		for _, set := range []bool{k.file != nil, k.sem != nil, k.entry != nil, k.machine != nil} {
			if set {
				n++
			}
		}
		switch {
		case n > 1:
			t.Errorf("rule %q: its check has %d functions, want one", r.Code, n)
		case n == 0 && k.elsewhere == "":
			t.Errorf("rule %q: its check has no function and does not say where the rule is reported", r.Code)
		case n == 1 && k.elsewhere != "":
			t.Errorf("rule %q: its check has a function and is also reported elsewhere", r.Code)
		}
		if k.anyValue && k.entry == nil {
			t.Errorf("rule %q: anyValue on a check that does not look at entries", r.Code)
		}
	}
}

// TestEachFindingComesFromItsRulesCheck runs every check alone over the
// files of the scenarios and agreement scenarios and asserts that it only
// reports the codes of the rules that name it (so the rule for X is where
// its findings come from), and that every check with a function finds
// something somewhere (so the runner really runs the list).
func TestEachFindingComesFromItsRulesCheck(t *testing.T) {
	files := scenarioFiles(t)
	if len(files) < 50 {
		t.Fatalf("only %d files found in the scenarios: the walk is broken", len(files))
	}
	all := slices.Concat(fileChecks, semChecks, entryChecks, machineChecks)
	found := map[*Check]int{}
	saved := [4][]*Check{fileChecks, semChecks, entryChecks, machineChecks}
	defer func() { fileChecks, semChecks, entryChecks, machineChecks = saved[0], saved[1], saved[2], saved[3] }()
	for _, k := range all {
		var codes []string
		for _, r := range Rules {
			if r.Check == k {
				codes = append(codes, r.Code)
			}
		}
		only := func(list []*Check) []*Check {
			if slices.Contains(list, k) {
				return []*Check{k}
			}
			return nil
		}
		fileChecks, semChecks, entryChecks, machineChecks = only(saved[0]), only(saved[1]), only(saved[2]), only(saved[3])
		for _, in := range files {
			in.Cache = NewCache() // nothing remembered from another check's run
			for _, d := range AnalyzeFile(in) {
				found[k]++
				if !slices.Contains(codes, d.Code) {
					t.Errorf("%s: the check of %v reported %q: %s", in.Path, codes, d.Code, d.Message)
				}
			}
		}
		if found[k] == 0 {
			t.Errorf("the check of %v found nothing in %d scenario files", codes, len(files))
		}
	}
}

// scenarioFiles reads the configuration files of testdata/scenarios and
// testdata/agree, each with the kind the registry matches for it (those
// without one are left out). A resolver that finds nothing lets the rules
// that need one speak.
func scenarioFiles(t *testing.T) []FileInput {
	t.Helper()
	reg := registry.Default()
	var out []FileInput
	for _, dir := range []string{"scenarios", "agree"} {
		paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range txtar.Parse(src).Files {
				path := "/work/proj/" + f.Name
				if rest, ok := strings.CutPrefix(f.Name, "home/"); ok {
					path = "/home/u/" + rest
				}
				kind, ok := reg.Match(path, registry.Env{Home: "/home/u", GOOS: "linux"})
				if !ok {
					continue
				}
				in := FileInput{Path: path, Content: f.Data, Kind: kind, Registry: reg, Resolver: fakeResolver{}}
				if strings.HasSuffix(path, ".toml") {
					in.Parsed = toml.Parse(f.Data)
				} else {
					in.Parsed = jsonc.Parse(f.Data)
				}
				out = append(out, in)
			}
		}
	}
	return out
}
