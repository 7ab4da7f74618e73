package lsp

// The oracle driver (issue 10): does `mcp-lsp effective` say what the real
// tools do? It runs only when asked, since CI has none of the tools:
//
//	MCP_LSP_ORACLE=/work/shared/tools/oracle-run.sh go test ./lsp -run TestOracle -v -timeout 2h
//
// MCP_LSP_ORACLE names oracle-run.sh (../shared/tools/ beside the
// repository); the tools are where that script finds them
// (ORACLE_PREFIX, default ~/.cache/mcp-lsp-oracles). A tool that is
// missing fails the test. MCP_LSP_ORACLE_ONLY=substring runs the
// workspaces whose name contains it; MCP_LSP_ORACLE_KEEP=DIR keeps each
// workspace as given to oracle-run.sh, with the outputs;
// MCP_LSP_ORACLE_REPLAY=DIR compares such kept outputs again, running
// nothing.
//
// The workspaces are every testdata/agree scenario (without its goldens;
// oracle-run.sh launches at the project, so a "launch:" line is honoured by
// the wrapper below) and the generated ones of oracle_gen_test.go. Before
// anything runs, every file is made harmless (oracleSanitize): each command
// becomes /bin/true or /bin/false, each URL a loopback one on closed port
// 9; a workspace the sanitizer cannot vouch for is refused, not run.
//
// For each tool that reads a file of the workspace, oracle-run.sh is given
// a wrapper as the tool's binary (CLAUDE_BIN...). Inside oracle-run.sh's
// scratch project, with its HOME and environment, the wrapper replaces
// "$DIR" by the project's path, moves to the launch directory, runs
// `mcp-lsp effective --format json --tool T .` on exactly the files the
// tool is about to read, and then execs the real tool. The driver parses
// each tool's output (oracleParse) into the servers it starts (and, for
// Claude Code, the ones pending approval) and compares with effective.
//
// A disagreement is either fixed in mcp-lsp or listed, with its reason, in
// testdata/oracle/known.txt; the test fails on a disagreement that is not
// listed and on a listed one that no longer happens.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// oracleTool is one real tool as oracle-run.sh runs it.
type oracleTool struct {
	id      string // mcp-lsp's tool id
	run     string // oracle-run.sh's name (ORACLE_ONLY)
	binEnv  string // the variable that gives oracle-run.sh its binary
	pkgDir  string // $ORACLE_PREFIX/<pkgDir>/node_modules/.bin/<bin>
	bin     string
	label   string // the "=== label" of its section
	readsRe *regexp.Regexp
}

var oracleTools = []oracleTool{
	{"opencode", "opencode", "OPENCODE_BIN", "opencode", "opencode", "opencode debug config",
		regexp.MustCompile(`^(opencode\.jsonc?|.*/opencode\.jsonc?|\.opencode/.*|home/\.config/opencode/.*)$`)},
	{"claude-code", "claude", "CLAUDE_BIN", "claude", "claude", "claude mcp list",
		regexp.MustCompile(`^(\.mcp\.json|.*/\.mcp\.json|home/\.claude\.json|(.*/)?\.claude/settings(\.local)?\.json|home/\.claude/settings\.json)$`)},
	{"copilot-cli", "copilot", "COPILOT_BIN", "copilot", "copilot", "copilot mcp list --json",
		regexp.MustCompile(`^(\.mcp\.json|.*/\.mcp\.json|\.github/mcp\.json|home/\.copilot/(mcp-config|settings)\.json)$`)},
	{"gemini-cli", "gemini", "GEMINI_BIN", "gemini", "gemini", "gemini mcp list",
		regexp.MustCompile(`^((.*/)?\.gemini/settings\.json|home/\.gemini/.*)$`)},
	{"codex-cli", "codex", "CODEX_BIN", "codex", "codex", "codex mcp list --json",
		regexp.MustCompile(`^((.*/)?\.codex/config\.toml|home/\.codex/config\.toml)$`)},
}

// oracleCase is one workspace: files by relative path (home/ is the
// user's home, "$DIR" the project's path), and the launch directory.
type oracleCase struct {
	name   string
	files  map[string][]byte
	launch string // relative to the project; "" for the project
}

// State of a server as a tool shows it.
const (
	oracleStarted = "started" // the tool starts it (or tries: health check failed)
	oraclePending = "pending" // Claude Code: pending approval
	oracleOff     = "off"     // listed, not started (disabled, blocked)
)

// oracleView is what one side says of one tool: server name -> state.
type oracleView struct {
	servers map[string]string
	// skipped are the names of which the tool skips a definition as
	// invalid (Claude Code's "Skipped — invalid MCP server config",
	// Copilot CLI's "Skipping invalid MCP server"); another definition of
	// the name may still start.
	skipped map[string]bool
	note    string // e.g. "rc=1": the tool refused its configuration
	// timedOut: oracle-run.sh's timeout ended the tool (rc 124).
	timedOut bool
}

func TestOracle(t *testing.T) {
	script, replay := os.Getenv("MCP_LSP_ORACLE"), os.Getenv("MCP_LSP_ORACLE_REPLAY")
	if script == "" && replay == "" {
		t.Skip("runs the real tools only when asked: MCP_LSP_ORACLE=/path/to/oracle-run.sh")
	}
	var bin string
	var bins map[string]string
	if replay == "" {
		if _, err := os.Stat(script); err != nil {
			t.Fatal(err)
		}
		bin = builtCLI(t)
		bins = oracleBinaries(t)
	}
	known := oracleKnown(t)

	var cases []oracleCase
	for _, sc := range loadArchives(t, "agree") {
		cases = append(cases, agreeOracleCase(sc))
	}
	cases = append(cases, oracleGenerated()...)
	only := os.Getenv("MCP_LSP_ORACLE_ONLY")

	type tally struct{ agree, total, timedOut int }
	counts := map[string]*tally{}
	var lines []string
	seen := map[string]bool{}
	for _, c := range cases {
		if only != "" && !strings.Contains(c.name, only) {
			continue
		}
		tools := c.tools()
		if len(tools) == 0 {
			continue
		}
		files, err := oracleSanitizeAll(c.files)
		if err != nil {
			t.Errorf("%s: not run: %v", c.name, err)
			continue
		}
		var res oracleResult
		if replay != "" {
			dir := filepath.Join(replay, strings.ReplaceAll(c.name, "/", "_"))
			if _, err := os.Stat(filepath.Join(dir, "out", "oracle-run.txt")); err != nil {
				lines = append(lines, c.name+": not in the replayed run")
				continue
			}
			res = replayOracle(t, dir, tools)
		} else {
			res = runOracle(t, script, bin, bins, c, files, tools)
		}
		for _, tl := range tools {
			got, want := res.effective[tl.id], res.oracle[tl.id]
			tal := counts[tl.id]
			if tal == nil {
				tal = &tally{}
				counts[tl.id] = tal
			}
			if want.timedOut {
				// oracle-run.sh's `timeout 60` ended the tool (a loaded
				// machine): no answer, neither agreement nor not.
				tal.timedOut++
				lines = append(lines, c.name+" "+tl.id+": the tool timed out (rc=124), not counted")
				continue
			}
			tal.total++
			diff := oracleDiff(tl.id, got, want)
			key := c.name + " " + tl.id
			if diff == "" {
				tal.agree++
				if reason, ok := known[key]; ok {
					t.Errorf("%s: listed in testdata/oracle/known.txt (%s) but agrees now: remove the line", key, reason)
				}
				continue
			}
			seen[key] = true
			line := fmt.Sprintf("%s: %s", key, diff)
			if reason, ok := known[key]; ok {
				line += "  [known: " + reason + "]"
			} else {
				t.Errorf("%s: effective disagrees with the tool: %s\n%s", key, diff, res.raw[tl.id])
			}
			lines = append(lines, line)
		}
	}
	for key := range known {
		name, _, _ := strings.Cut(key, " ")
		if !seen[key] && (only == "" || strings.Contains(name, only)) {
			found := false
			for _, c := range cases {
				found = found || c.name == name
			}
			if !found {
				t.Errorf("testdata/oracle/known.txt names %q, no such workspace", key)
			}
		}
	}
	var sum strings.Builder
	fmt.Fprintf(&sum, "oracle agreement (mcp-lsp effective vs the real tool, workspaces where the tool reads a file):\n")
	for _, tl := range oracleTools {
		if tal := counts[tl.id]; tal != nil {
			fmt.Fprintf(&sum, "  %-12s %d/%d", tl.id, tal.agree, tal.total)
			if tal.timedOut > 0 {
				fmt.Fprintf(&sum, " (%d timed out)", tal.timedOut)
			}
			sum.WriteString("\n")
		}
	}
	for _, l := range lines {
		fmt.Fprintf(&sum, "  %s\n", l)
	}
	t.Log("\n" + sum.String())
	if dir := os.Getenv("MCP_LSP_ORACLE_KEEP"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "SUMMARY.txt"), []byte(sum.String()), 0o644)
	}
}

// tools are the tools that read a file of the workspace.
func (c oracleCase) tools() []oracleTool {
	var out []oracleTool
	for _, tl := range oracleTools {
		for name := range c.files {
			if tl.readsRe.MatchString(name) {
				out = append(out, tl)
				break
			}
		}
	}
	return out
}

// agreeOracleCase is an agreement scenario as an oracle workspace. Its
// .git/ stand-in is left out: oracle-run.sh makes the project a real git
// repository (every workspace is a git root there, for both sides).
func agreeOracleCase(sc *scenario) oracleCase {
	c := oracleCase{name: "agree/" + sc.name, files: map[string][]byte{}}
	if v, ok := sc.directive("launch"); ok {
		c.launch = v
	}
	for _, af := range sc.archive.Files {
		if goldenSections[af.Name] || strings.HasPrefix(af.Name, ".git/") {
			continue
		}
		c.files[af.Name] = af.Data
	}
	return c
}

// oracleBinaries finds the real tools as oracle-run.sh does; a missing
// one fails the test.
func oracleBinaries(t *testing.T) map[string]string {
	t.Helper()
	prefix := os.Getenv("ORACLE_PREFIX")
	if prefix == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		prefix = filepath.Join(home, ".cache", "mcp-lsp-oracles")
	}
	out := map[string]string{}
	for _, tl := range oracleTools {
		p := os.Getenv(tl.binEnv)
		if p == "" {
			p = filepath.Join(prefix, tl.pkgDir, "node_modules", ".bin", tl.bin)
		}
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is not installed (%v); see oracle-run.sh's header", tl.run, err)
		}
		out[tl.id] = p
	}
	return out
}

// oracleKnown reads testdata/oracle/known.txt: "workspace tool: reason"
// a line, # comments.
func oracleKnown(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "oracle", "known.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("known.txt: %q: want \"workspace tool: reason\"", line)
		}
		out[key] = reason
	}
	return out
}

type oracleResult struct {
	effective map[string]oracleView
	oracle    map[string]oracleView
	raw       map[string]string // the tool's section of oracle-run.sh's output
}

// runOracle runs oracle-run.sh on the workspace with a wrapper per tool.
func runOracle(t *testing.T, script, bin string, bins map[string]string, c oracleCase, files map[string][]byte, tools []oracleTool) oracleResult {
	t.Helper()
	root := t.TempDir()
	if keep := os.Getenv("MCP_LSP_ORACLE_KEEP"); keep != "" {
		root = filepath.Join(keep, strings.ReplaceAll(c.name, "/", "_"))
		os.RemoveAll(root)
	}
	caseDir := filepath.Join(root, "case")
	outDir := filepath.Join(root, "out")
	binDir := filepath.Join(root, "bin")
	for _, d := range []string{caseDir, outDir, binDir, filepath.Join(root, "scratch")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for name, data := range files {
		p := filepath.Join(caseDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	env := os.Environ()
	var only []string
	for _, tl := range tools {
		wrapper := filepath.Join(binDir, tl.run)
		if err := os.WriteFile(wrapper, oracleWrapper(tl, bins[tl.id], bin, outDir, names, c.launch), 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, tl.binEnv+"="+wrapper)
		only = append(only, tl.run)
	}
	env = append(env, "ORACLE_ONLY="+strings.Join(only, " "), "ORACLE_TMP="+filepath.Join(root, "scratch"))
	cmd := exec.Command(script, caseDir)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: oracle-run.sh: %v\n%s", c.name, err, stderr.Bytes())
	}
	_ = os.WriteFile(filepath.Join(outDir, "oracle-run.txt"), stdout.Bytes(), 0o644)
	_ = os.WriteFile(filepath.Join(root, "workspace.txtar"), oracleCaseArchive(oracleCase{name: c.name, files: files, launch: c.launch}), 0o644)
	return readOracle(t, root, stdout.String(), tools)
}

// replayOracle compares again the outputs a run kept
// (MCP_LSP_ORACLE_KEEP) without running anything: after a change to the
// comparison, not to mcp-lsp.
func replayOracle(t *testing.T, root string, tools []oracleTool) oracleResult {
	t.Helper()
	out, err := os.ReadFile(filepath.Join(root, "out", "oracle-run.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return readOracle(t, root, string(out), tools)
}

// readOracle reads oracle-run.sh's output and the wrapper's effective
// outputs under root/out.
func readOracle(t *testing.T, root, stdout string, tools []oracleTool) oracleResult {
	t.Helper()
	outDir := filepath.Join(root, "out")
	sections := oracleSections(stdout)
	res := oracleResult{effective: map[string]oracleView{}, oracle: map[string]oracleView{}, raw: map[string]string{}}
	for _, tl := range tools {
		sec, ok := sections[tl.label]
		if !ok {
			t.Fatalf("%s: no %q section in oracle-run.sh's output:\n%s", root, tl.label, stdout)
		}
		res.raw[tl.id] = sec
		res.oracle[tl.id] = oracleParse(tl.id, sec)
		eff, err := os.ReadFile(filepath.Join(outDir, tl.id+".json"))
		if err != nil {
			t.Fatalf("%s: the wrapper did not run mcp-lsp for %s: %v", root, tl.id, err)
		}
		v, err := effectiveView(eff)
		if err != nil {
			errOut, _ := os.ReadFile(filepath.Join(outDir, tl.id+".err"))
			t.Fatalf("%s: mcp-lsp effective --tool %s: %v\n%s\n%s", root, tl.id, err, eff, errOut)
		}
		res.effective[tl.id] = v
	}
	return res
}

// oracleWrapper is the shell script oracle-run.sh runs as the tool: in
// the scratch project, with the scratch HOME and environment, it fills in
// "$DIR", runs mcp-lsp effective on the files the tool is about to read,
// then becomes the tool.
func oracleWrapper(tl oracleTool, real, mcpLSP, outDir string, names []string, launch string) []byte {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "if [ \"$1\" = --version ]; then exec %s \"$@\"; fi\n", q(real))
	b.WriteString("proj=$(pwd -P)\n")
	for _, name := range names {
		p := `"$proj"/` + q(name)
		if rest, ok := strings.CutPrefix(name, "home/"); ok {
			p = `"$HOME"/` + q(rest)
		}
		fmt.Fprintf(&b, "[ -f %s ] && sed -i \"s#[$]DIR#$proj#g\" %s\n", p, p)
	}
	if launch != "" {
		fmt.Fprintf(&b, "mkdir -p %s && cd %s || exit 97\n", q(launch), q(launch))
	}
	out := filepath.Join(outDir, tl.id)
	fmt.Fprintf(&b, "%s effective --format json --tool %s . >%s 2>%s\n", q(mcpLSP), tl.id, q(out+".json"), q(out+".err"))
	fmt.Fprintf(&b, "exec %s \"$@\"\n", q(real))
	return []byte(b.String())
}

// oracleSections splits oracle-run.sh's output by its "=== label" lines.
func oracleSections(out string) map[string]string {
	secs := map[string]string{}
	var label string
	var b strings.Builder
	flush := func() {
		if label != "" {
			secs[label] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		if l, ok := strings.CutPrefix(line, "=== "); ok {
			flush()
			label = strings.TrimSpace(l)
			continue
		}
		b.WriteString(line)
	}
	flush()
	return secs
}

// oracleStreams returns rc, stdout and stderr of a section.
func oracleStreams(sec string) (rc int, stdout, stderr string) {
	rc = -1
	head, rest, _ := strings.Cut(sec, "--- stdout\n")
	for _, l := range strings.Split(head, "\n") {
		if v, ok := strings.CutPrefix(l, "rc="); ok {
			fmt.Sscan(v, &rc)
		}
	}
	stdout, stderr, _ = strings.Cut(rest, "--- stderr\n")
	return rc, stdout, stderr
}

var (
	claudeLine    = regexp.MustCompile(`^([^\s:][^:]*): (.*) - (.+)$`)
	claudeSkipped = regexp.MustCompile(`\[Warning\] \[([^\]]+)\] [^\n]*(?:Skipped|was not loaded)`)
	// Copilot CLI prints its warnings on one line, several in a row.
	copilotSkipped = regexp.MustCompile(`Skipping invalid MCP server "([^"]+)"`)
	geminiLine     = regexp.MustCompile(`^\S+ ([^:]+): (.*) - (\w+)\s*$`)
)

// oracleParse reads the servers a tool shows and their state.
func oracleParse(tool, sec string) oracleView {
	rc, stdout, stderr := oracleStreams(sec)
	v := oracleView{servers: map[string]string{}, skipped: map[string]bool{}}
	v.timedOut = rc == 124
	if rc != 0 {
		v.note = fmt.Sprintf("rc=%d", rc)
	}
	switch tool {
	case "claude-code":
		for _, m := range claudeSkipped.FindAllStringSubmatch(stdout, -1) {
			v.skipped[m[1]] = true
		}
		sc := bufio.NewScanner(strings.NewReader(stdout))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "MCP config diagnostics") {
				break
			}
			m := claudeLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			status := m[3]
			switch {
			case strings.Contains(status, "Pending approval"):
				v.servers[m[1]] = oraclePending
			case strings.Contains(status, "Connected"), strings.Contains(status, "Failed to connect"),
				strings.Contains(status, "Needs authentication"), strings.Contains(status, "Connecting"):
				v.servers[m[1]] = oracleStarted
			default:
				v.servers[m[1]] = oracleOff
			}
		}
	case "gemini-cli":
		for _, line := range strings.Split(stderr, "\n") {
			m := geminiLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			switch m[3] {
			case "Connected", "Disconnected", "Connecting":
				v.servers[m[1]] = oracleStarted
			default:
				v.servers[m[1]] = oracleOff
			}
		}
	case "copilot-cli":
		for _, m := range copilotSkipped.FindAllStringSubmatch(stderr, -1) {
			v.skipped[m[1]] = true
		}
		var doc struct {
			MCPServers map[string]struct {
				Enabled *bool `json:"enabled"`
			} `json:"mcpServers"`
		}
		if json.Unmarshal([]byte(stdout), &doc) == nil {
			for name, s := range doc.MCPServers {
				v.servers[name] = oracleStarted
				if s.Enabled != nil && !*s.Enabled {
					v.servers[name] = oracleOff
				}
			}
		} else if v.note == "" {
			v.note = "stdout is not JSON"
		}
	case "opencode":
		var doc struct {
			MCP map[string]struct {
				Enabled *bool `json:"enabled"`
			} `json:"mcp"`
		}
		if rc == 0 && json.Unmarshal([]byte(stdout), &doc) == nil {
			for name, s := range doc.MCP {
				v.servers[name] = oracleStarted
				if s.Enabled != nil && !*s.Enabled {
					v.servers[name] = oracleOff
				}
			}
		}
	case "codex-cli":
		var doc []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		}
		if rc == 0 && json.Unmarshal([]byte(stdout), &doc) == nil {
			for _, s := range doc {
				v.servers[s.Name] = oracleStarted
				if !s.Enabled {
					v.servers[s.Name] = oracleOff
				}
			}
		}
	}
	return v
}

// effectiveView reads `effective --format json --tool T`.
func effectiveView(data []byte) (oracleView, error) {
	var tools []agreeTool
	if err := json.Unmarshal(data, &tools); err != nil {
		return oracleView{}, err
	}
	if len(tools) != 1 {
		return oracleView{}, fmt.Errorf("want one tool, got %d", len(tools))
	}
	v := oracleView{servers: map[string]string{}, skipped: map[string]bool{}}
	for _, s := range tools[0].Servers {
		for _, d := range s.Definitions {
			if d.State == "invalid" {
				v.skipped[s.Name] = true
			}
		}
		switch {
		case s.Started:
			v.servers[s.Name] = oracleStarted
		case s.Gate == "pending-approval":
			v.servers[s.Name] = oraclePending
		default:
			v.servers[s.Name] = oracleOff
		}
	}
	return v, nil
}

// oracleDiff compares the servers started (and, for Claude Code, pending
// approval; for Claude Code and Copilot CLI, the names of which a
// definition is skipped as invalid): "" when they agree.
func oracleDiff(tool string, eff, tool_ oracleView) string {
	states := []string{oracleStarted}
	if tool == "claude-code" {
		states = append(states, oraclePending)
	}
	var parts []string
	for _, st := range states {
		e, o := eff.names(st), tool_.names(st)
		if strings.Join(e, ",") != strings.Join(o, ",") {
			parts = append(parts, fmt.Sprintf("%s: effective [%s], tool [%s]", st, strings.Join(e, " "), strings.Join(o, " ")))
		}
	}
	if tool == "claude-code" || tool == "copilot-cli" {
		e, o := eff.skippedNames(), tool_.skippedNames()
		differ := strings.Join(e, ",") != strings.Join(o, ",")
		if tool == "copilot-cli" {
			// Copilot CLI warns only about workspace files: an invalid
			// entry of ~/.copilot/mcp-config.json is dropped silently
			// (it is not started either way). Only a skip effective
			// does not know is a difference.
			differ = false
			for _, n := range o {
				differ = differ || !eff.skipped[n]
			}
		}
		if differ {
			parts = append(parts, fmt.Sprintf("skipped: effective [%s], tool [%s]", strings.Join(e, " "), strings.Join(o, " ")))
		}
	}
	if len(parts) > 0 && tool_.note != "" {
		parts = append(parts, "tool "+tool_.note)
	}
	return strings.Join(parts, "; ")
}

func (v oracleView) skippedNames() []string {
	var out []string
	for n := range v.skipped {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (v oracleView) names(state string) []string {
	var out []string
	for n, s := range v.servers {
		if s == state {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// oracleCaseArchive writes a workspace as a txtar (for MCP_LSP_ORACLE_KEEP
// readers and for turning a disagreement into a testdata/agree scenario).
func oracleCaseArchive(c oracleCase) []byte {
	ar := &txtar.Archive{}
	if c.launch != "" {
		ar.Comment = []byte("launch: " + c.launch + "\n")
	}
	var names []string
	for n := range c.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ar.Files = append(ar.Files, txtar.File{Name: n, Data: c.files[n]})
	}
	return txtar.Format(ar)
}
