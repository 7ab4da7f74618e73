package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// TestEveryRuleHasAScenario: each rule code documented in docs/rules.md
// (generated from rules.Rules) is triggered by at least one scenario
// (testdata/scenarios or the agreement scenarios), so no rule ships
// untested.
func TestEveryRuleHasAScenario(t *testing.T) {
	triggered := map[string]bool{}
	for _, sc := range loadScenarios(t) {
		data := sc.content(wantFile)
		var want map[string][]goldenDiagnostic
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		for _, ds := range want {
			for _, d := range ds {
				triggered[d.Code] = true
			}
		}
	}
	// The agreement scenarios' check.txt: one finding a line, "... [code]".
	for _, sc := range loadArchives(t, "agree") {
		for _, line := range strings.Split(string(sc.content(agreeCheck)), "\n") {
			if i := strings.LastIndex(line, " ["); i >= 0 && strings.HasSuffix(line, "]") && !strings.HasPrefix(line, " ") {
				triggered[line[i+2:len(line)-1]] = true
			}
		}
	}
	for _, r := range rules.Rules {
		if !triggered[r.Code] {
			t.Errorf("rule %q has no scenario in testdata/scenarios or testdata/agree that triggers it", r.Code)
		}
	}
}

// realWorldRules are the rules of issue 14 (the ones users asked for),
// each of which must be shown to stay quiet on a real-world file.
var realWorldRules = []string{
	rules.CodeHomeDirectoryPath, rules.CodeCredentialOverHTTP, rules.CodeUnpinnedPackage,
	rules.CodeWindowsCmdWrapper, rules.CodeToolNameBudget, rules.CodeApproveEverything,
	rules.CodeServerStartedTwice,
}

// TestRulesQuietOnRealWorldFiles: the scenario rule-<code>.txtar of each
// rule above holds a true positive and, named by a "real-world: SECTION
// PATH" line, a copy of a real-world file from testdata/ (byte for
// byte, so the copy cannot drift from its source) on which the rule
// reports nothing.
func TestRulesQuietOnRealWorldFiles(t *testing.T) {
	byName := map[string]*scenario{}
	for _, sc := range loadScenarios(t) {
		byName[sc.name] = sc
	}
	for _, code := range realWorldRules {
		sc := byName["rule-"+code]
		if sc == nil {
			t.Errorf("%s: no scenario rule-%s.txtar", code, code)
			continue
		}
		var want map[string][]goldenDiagnostic
		if err := json.Unmarshal(sc.content(wantFile), &want); err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		real := map[string]bool{}
		for _, d := range sc.directives("real-world") {
			section, src, ok := strings.Cut(d, " ")
			if !ok {
				t.Errorf("%s: %q: want \"real-world: SECTION PATH\"", sc.name, d)
				continue
			}
			data, err := os.ReadFile(filepath.Join("..", "testdata", filepath.FromSlash(src)))
			if err != nil {
				t.Errorf("%s: %v", sc.name, err)
				continue
			}
			if got := sc.content(section); !bytes.Equal(got, data) {
				t.Errorf("%s: section %s is not a copy of testdata/%s", sc.name, section, src)
			}
			real[section] = true
			for _, g := range want[section] {
				if g.Code == code {
					t.Errorf("%s: %s reports %s on the real-world file %s: %s", sc.name, code, g.Range, section, g.Message)
				}
			}
		}
		if len(real) == 0 {
			t.Errorf("%s: no real-world file (a \"real-world: SECTION PATH\" line)", sc.name)
		}
		fired := false
		for file, ds := range want {
			for _, g := range ds {
				fired = fired || g.Code == code && !real[file]
			}
		}
		if !fired {
			t.Errorf("%s: %s reports nothing (no true positive)", sc.name, code)
		}
	}
}
