package lsp

import (
	"encoding/json"
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
