package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp"
)

// checkSARIF runs `check --format sarif` in dir and decodes the log.
func checkSARIF(t *testing.T, dir string, args ...string) (sarifLog, []byte, int) {
	t.Helper()
	t.Chdir(dir)
	out, errOut, code := runCLI(t, append([]string{"check", "--format", "sarif"}, args...)...)
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s\nstderr: %s", err, out, errOut)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("want one run, got %d", len(log.Runs))
	}
	return log, []byte(out), code
}

// TestSARIFExampleShape checks what code scanning relies on, on the
// bundled example: every rule with its help URI (an anchor that exists in
// docs/rules.md) and default level; each result's rule id, index, level
// and region (1-based, UTF-16, the same place as the JSON output's LSP
// range); relative URIs under %SRCROOT%; fingerprints.
func TestSARIFExampleShape(t *testing.T) {
	example, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	log, _, code := checkSARIF(t, example, ".")
	if code != 1 {
		t.Errorf("exit %d, want 1 (the example has errors)", code)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.ColumnKind != "utf16CodeUnits" || run.Tool.Driver.Name != "mcp-lsp" {
		t.Errorf("header: version %q columnKind %q driver %q", log.Version, run.ColumnKind, run.Tool.Driver.Name)
	}
	if len(run.Tool.Driver.Rules) != len(rules.Rules) {
		t.Errorf("driver lists %d rules, analysis has %d", len(run.Tool.Driver.Rules), len(rules.Rules))
	}
	for i, r := range run.Tool.Driver.Rules {
		want := rules.Rules[i]
		if r.ID != want.Code || r.ShortDescription.Text != want.Summary || r.DefaultConfiguration.Level != sarifLevel(want.Severity) {
			t.Errorf("rule %d: %+v, want %+v", i, r, want)
		}
		anchor, ok := strings.CutPrefix(r.HelpURI, lsp.RulesDocURL+"#")
		if !ok || !strings.Contains(string(doc), `<a id="`+anchor+`"></a>`) {
			t.Errorf("rule %s: help URI %q is not an anchor of docs/rules.md", r.ID, r.HelpURI)
		}
	}

	// The same findings as --format json, same places.
	jsonOut, _, _ := runCLI(t, "check", "--format", "json", ".")
	var plain []checkResult
	if err := json.Unmarshal([]byte(jsonOut), &plain); err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != len(plain) || len(plain) < 10 {
		t.Fatalf("%d SARIF results, %d JSON results", len(run.Results), len(plain))
	}
	fps := map[string]bool{}
	for i, res := range run.Results {
		p := plain[i]
		if res.RuleID != p.Code || run.Tool.Driver.Rules[res.RuleIndex].ID != p.Code || res.Message.Text != p.Message {
			t.Errorf("result %d: rule %q (index %d), want %q", i, res.RuleID, res.RuleIndex, p.Code)
		}
		if want := sarifLevelName(p.Severity); res.Level != want {
			t.Errorf("result %d: level %q, want %q", i, res.Level, want)
		}
		loc := res.Locations[0].PhysicalLocation
		wantRegion := sarifRegion{int(p.Range.Start.Line) + 1, int(p.Range.Start.Character) + 1, int(p.Range.End.Line) + 1, int(p.Range.End.Character) + 1}
		if loc.Region != wantRegion || loc.Region.StartLine != p.Line {
			t.Errorf("result %d (%s): region %+v, want %+v", i, p.Code, loc.Region, wantRegion)
		}
		if loc.ArtifactLocation.URIBaseID != srcRoot || loc.ArtifactLocation.URI != filepath.ToSlash(p.Path) || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("result %d: artifact %+v for %s", i, loc.ArtifactLocation, p.Path)
		}
		fp := res.PartialFingerprints[fingerprintKey]
		if !regexp.MustCompile(`^[0-9a-f]{32}:[1-9][0-9]*$`).MatchString(fp) || fps[fp] {
			t.Errorf("result %d: fingerprint %q (malformed or repeated)", i, fp)
		}
		fps[fp] = true
	}
	if base := run.OriginalURIBaseIDs[srcRoot].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/example/") {
		t.Errorf("%%SRCROOT%% = %q", base)
	}
}

// TestSARIFValidates runs the official validator (@microsoft/sarif-multitool,
// installed by .ci/run) on the example's log and on one with non-ASCII
// text, related locations and an empty result list, and fails on any
// error or warning it reports.
func TestSARIFValidates(t *testing.T) {
	tool := requireProgram(t, "sarif-multitool", "MCP_LSP_SARIF_MULTITOOL")
	example, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	tmp := t.TempDir()
	odd := writeTree(t, map[string]string{
		".mcp.json":      "{\r\n  \"mcpServers\": {\"é😀\": {\"type\": \"local\", \"command\": \"x\"}},\r\n  \"mcpServers\": {}\r\n}\r\n",
		"opencode.json":  `{"mcp": {"a": {"type": "local", "command": ["a"]}}}`,
		"opencode.jsonc": `{"mcp": {"a": {"type": "remote", "url": "https://example.com"}}}`,
	})
	empty := t.TempDir()
	// One validator run for all three logs: it is a .NET program that
	// takes seconds to start.
	var inputs []string
	for name, dir := range map[string]string{"example": example, "odd": odd, "empty": empty} {
		_, out, _ := checkSARIF(t, dir, ".")
		in := filepath.Join(tmp, name+".sarif")
		if err := os.WriteFile(in, out, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, in)
	}
	// A control: the example's log with a 0 column and an absolute URI
	// under %SRCROOT%, which the validator must reject (so that a
	// validator that checks nothing, or is handed no file, cannot pass).
	_, exampleLog, _ := checkSARIF(t, example, ".")
	var broken map[string]any
	if err := json.Unmarshal(exampleLog, &broken); err != nil {
		t.Fatal(err)
	}
	res := broken["runs"].([]any)[0].(map[string]any)["results"].([]any)
	loc := res[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	loc["region"].(map[string]any)["startColumn"] = 0
	loc["artifactLocation"].(map[string]any)["uri"] = "/abs/.mcp.json"
	brokenLog, _ := json.Marshal(broken)
	control := filepath.Join(tmp, "control.sarif")
	if err := os.WriteFile(control, brokenLog, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, control)
	report := filepath.Join(tmp, "validation.sarif")
	cmd := exec.Command(tool, append([]string{"validate", "--output", report}, inputs...)...)
	cmd.Dir = tmp
	msg, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(msg), "4 files scanned") {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, msg)
	}
	// The validator's verdict is itself a SARIF log; it exits 0 even when
	// it finds errors, so read the results.
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("validator wrote no report: %v", err)
	}
	var verdict struct {
		Runs []struct {
			Artifacts []struct {
				Location struct {
					URI string `json:"uri"`
				} `json:"location"`
			} `json:"artifacts"`
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &verdict); err != nil || len(verdict.Runs) != 1 {
		t.Fatalf("unreadable validator report: %v\n%s", err, raw)
	}
	// Results without a level are warnings (SARIF's default level).
	controlErrors := map[string]bool{}
	for _, r := range verdict.Runs[0].Results {
		if r.Level == "" || r.Level == "error" || r.Level == "warning" {
			where := ""
			if len(r.Locations) > 0 {
				where = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			}
			if strings.HasSuffix(where, "/control.sarif") {
				controlErrors[r.RuleID] = true
				continue
			}
			t.Errorf("validator %s %s in %s: %s %v", r.Level, r.RuleID, where, r.Message.Text, r.Message.Arguments)
		}
	}
	// JSON1008: a value below the schema's minimum; SARIF1004: a
	// relative reference that begins with a slash.
	if !controlErrors["JSON1008"] || !controlErrors["SARIF1004"] {
		t.Errorf("the validator did not reject the broken control log (found %v): is it validating at all?", controlErrors)
	}
}

// TestSARIFPositionsAndFingerprints: columns are UTF-16 code units in a
// file with non-ASCII names and CRLF line ends; a fingerprint stays the
// same when unrelated lines are added above the finding, and changes when
// the finding moves to another server; no secret value appears.
func TestSARIFPositionsAndFingerprints(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	before := "{\r\n  \"mcpServers\": {\r\n    \"😀é\": {\"type\": \"local\", \"command\": \"x\"},\r\n    \"gh\": {\"type\": \"streamable-http\", \"url\": \"https://api.example.com\", \"headers\": {\"Authorization\": \"Bearer " + secret + "\"}}\r\n  }\r\n}\r\n"
	dir := writeTree(t, map[string]string{".mcp.json": before})
	log, out, _ := checkSARIF(t, dir, ".")
	if strings.Contains(string(out), secret) || strings.Contains(string(out), "0123456789abcdef") {
		t.Errorf("the secret appears in the SARIF log")
	}
	byRule := func(log sarifLog) map[string]sarifResult {
		m := map[string]sarifResult{}
		for _, r := range log.Runs[0].Results {
			m[r.RuleID] = r
		}
		return m
	}
	first := byRule(log)
	typ, ok := first["type-not-accepted"]
	if !ok {
		t.Fatalf("no type-not-accepted finding in %s", out)
	}
	// `    "😀é": {"type": "local"`: "\"local\"" starts after 4 spaces, the
	// quoted name (1+2+1+1 UTF-16 units), `: {"type": ` (9): column 21
	// in UTF-16 (24 in bytes), ending before column 28.
	if r := typ.Locations[0].PhysicalLocation.Region; r != (sarifRegion{3, 21, 3, 28}) {
		t.Errorf("type-not-accepted region %+v, want line 3 columns 21-28 (UTF-16)", r)
	}
	secretFinding, ok := first["literal-secret"]
	if !ok {
		t.Fatalf("no literal-secret finding in %s", out)
	}

	// An unrelated server added above both: lines move, fingerprints do not.
	after := strings.Replace(before, "\"mcpServers\": {\r\n", "\"mcpServers\": {\r\n    \"new\": {\"type\": \"stdio\", \"command\": \"y\"},\r\n\r\n", 1)
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	log2, _, _ := checkSARIF(t, dir, ".")
	second := byRule(log2)
	for _, code := range []string{"type-not-accepted", "literal-secret"} {
		a, b := first[code], second[code]
		if b.Locations[0].PhysicalLocation.Region.StartLine != a.Locations[0].PhysicalLocation.Region.StartLine+2 {
			t.Errorf("%s: the edit should move it down 2 lines: %d -> %d", code, a.Locations[0].PhysicalLocation.Region.StartLine, b.Locations[0].PhysicalLocation.Region.StartLine)
		}
		if a.PartialFingerprints[fingerprintKey] != b.PartialFingerprints[fingerprintKey] {
			t.Errorf("%s: fingerprint changed under an unrelated edit", code)
		}
	}
	if typ.PartialFingerprints[fingerprintKey] == secretFinding.PartialFingerprints[fingerprintKey] {
		t.Errorf("two different findings share a fingerprint")
	}

	// The same problem on another server is another alert.
	renamed := strings.Replace(before, "😀é", "other", 1)
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	log3, _, _ := checkSARIF(t, dir, ".")
	if byRule(log3)["type-not-accepted"].PartialFingerprints[fingerprintKey] == typ.PartialFingerprints[fingerprintKey] {
		t.Errorf("a finding on another server kept the fingerprint")
	}
}
