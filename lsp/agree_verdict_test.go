package lsp

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
)

// crossCheck asserts that the effective view never contradicts a finding
// of the same files: both read one verdict per (entry, tool)
// (analysis/verdict), so an error saying tool T skips server S of file F
// (or refuses F, or may not load S) and an effective view starting S from
// F for T cannot both appear; nor can the effective view skip an entry as
// invalid, or drop a file for an invalid entry, without such an error.
// launch is the launch directory relative to the workspace ("." for it).
func (r *agreeResult) crossCheck(t *testing.T, launch string) {
	t.Helper()
	for _, c := range r.contradictions(launch) {
		t.Error(c)
	}
}

// contradictions lists where the effective view and the findings disagree.
func (r *agreeResult) contradictions(launch string) []string {
	var out []string
	// blamed[tool][file][server]: an error says tool does not load it.
	blamed := map[string]map[string]map[string]bool{}
	for _, f := range r.Check {
		if f.Severity != "error" || f.Server == "" {
			continue
		}
		for _, tool := range f.Tools {
			if slices.Contains(f.LoadedBy, tool) {
				continue
			}
			if blamed[tool] == nil {
				blamed[tool] = map[string]map[string]bool{}
			}
			if blamed[tool][f.Path] == nil {
				blamed[tool][f.Path] = map[string]bool{}
			}
			blamed[tool][f.Path][f.Server] = true
		}
	}
	for _, tool := range r.Effective {
		for _, d := range tool.Dropped {
			file := agreeWorkspacePath(d.Path, launch)
			if strings.Contains(d.Reason, "is invalid for it") && len(blamed[tool.Tool][file]) == 0 {
				out = append(out, fmt.Sprintf("effective: %s refuses %s (%s), and no error in that file says so", tool.Tool, file, d.Reason))
			}
		}
		for _, s := range tool.Servers {
			for _, def := range s.Definitions {
				file := agreeWorkspacePath(def.Path, launch)
				says := blamed[tool.Tool][file][s.Name]
				if says && slices.Contains([]string{"used", "merged"}, def.State) {
					out = append(out, fmt.Sprintf("an error in %s says %s does not load %q; the effective view has that definition %s", file, tool.Tool, s.Name, def.State))
				}
				if def.State == "invalid" && !says {
					out = append(out, fmt.Sprintf("the effective view says %s skips %q in %s as invalid; no error there says so", tool.Tool, s.Name, file))
				}
			}
		}
	}
	return out
}

// agreeWorkspacePath turns a path as the effective view prints it (~/ for
// the home, $DIR/ for the workspace, else relative to the launch
// directory) into a path relative to the workspace, as check's are.
func agreeWorkspacePath(p, launch string) string {
	switch {
	case strings.HasPrefix(p, "~/"):
		return "home/" + strings.TrimPrefix(p, "~/")
	case strings.HasPrefix(p, "$DIR/"):
		return strings.TrimPrefix(p, "$DIR/")
	}
	return path.Join(launch, p)
}

// TestAgreeCrossCheckCatchesContradictions: the cross-check fails on an
// effective view that starts what an error says is skipped, and on one
// that skips what no error mentions.
func TestAgreeCrossCheckCatchesContradictions(t *testing.T) {
	res := &agreeResult{Check: []agreeFinding{{Path: ".mcp.json", Severity: "error", Server: "a", Tools: []string{"claude-code"}}}}
	tool := agreeTool{Tool: "claude-code"}
	tool.Servers = append(tool.Servers, struct {
		Name        string           `json:"name"`
		Started     bool             `json:"started"`
		Gate        string           `json:"gate"`
		GateWhy     string           `json:"gateWhy"`
		Enabled     bool             `json:"enabled"`
		Source      *EffectivePlace  `json:"source"`
		Definitions []EffectivePlace `json:"definitions"`
	}{Name: "a", Definitions: []EffectivePlace{{Path: ".mcp.json", State: "used"}}})
	tool.Servers = append(tool.Servers, tool.Servers[0])
	tool.Servers[1].Name = "b"
	tool.Servers[1].Definitions = []EffectivePlace{{Path: "~/.claude.json", State: "invalid"}}
	res.Effective = []agreeTool{tool}
	if got := res.contradictions("."); len(got) != 2 {
		t.Errorf("want both contradictions found, got %q", got)
	}
	res.Effective[0].Servers[0].Definitions[0].State = "invalid"
	res.Effective[0].Servers = res.Effective[0].Servers[:1]
	if got := res.contradictions("."); len(got) != 0 {
		t.Errorf("an agreement failed the cross-check: %q", got)
	}
}
