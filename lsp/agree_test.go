package lsp

// Agreement scenarios: testdata/agree/*.txtar.
//
// Each archive is a multi-file workspace laid out as for
// ../shared/tools/oracle-run.sh's CASE_DIR: project files under their real
// names, home/ standing for the user's home (home/.claude.json,
// home/.copilot/mcp-config.json, home/.config/opencode/opencode.json...),
// .git/HEAD when the workspace is a git root. "$DIR" in a file stands for
// the workspace directory (the projects keys of ~/.claude.json). Lines in
// the archive's comment set:
//
//	launch: sub/dir     the directory the tools are launched in (default: the workspace)
//	env: NAME=value     an environment variable for the CLI and the server ($DIR allowed)
//
// For every archive the test runs, on the same files and with the same
// fake HOME (never the real one):
//
//   - `mcp-lsp check --format json LAUNCH [files outside LAUNCH...]`, the
//     built binary: every finding, single-file and cross-file (check.txt);
//   - `mcp-lsp effective --format json LAUNCH`, the built binary: what each
//     tool that reads the files starts (effective.json);
//   - the language server over a JSON-RPC pipe, workspace folder LAUNCH,
//     every file open: hover on each server name its document symbols list
//     (hover.md);
//
// and compares each with its section of the archive. The three must tell
// the same story; a reviewer reads them side by side, and agreeResult
// gives cross-checks the parsed form.
//
// Regenerate the sections with: go test ./lsp -run TestAgreement -update

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The golden sections of an agreement scenario.
const (
	agreeCheck     = "check.txt"
	agreeEffective = "effective.json"
	agreeHover     = "hover.md"
)

// agreeFinding is one finding as `check --format json` prints it (the
// fields the goldens show).
type agreeFinding struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity string   `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Server   string   `json:"server"`
	Tools    []string `json:"tools"`
	// LoadedBy are tools the finding concerns that load the entry all
	// the same (they drop the value).
	LoadedBy []string `json:"loadedBy"`
	Related  []struct {
		Path    string `json:"path"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
	} `json:"related"`
}

// agreeHoverAt is the hover on one server name.
type agreeHoverAt struct {
	File     string // relative to the workspace
	Pos      protocol.Position
	Name     string
	Markdown string // "" when the server answered no hover
}

// agreeTool is one tool of `effective --format json`, the fields
// cross-checks read (env and header values print masked and are left out).
type agreeTool struct {
	Tool      string        `json:"tool"`
	LaunchDir string        `json:"launchDir"`
	Dropped   []DroppedFile `json:"dropped"`
	Servers   []struct {
		Name        string           `json:"name"`
		Started     bool             `json:"started"`
		Gate        string           `json:"gate"`
		GateWhy     string           `json:"gateWhy"`
		Enabled     bool             `json:"enabled"`
		Source      *EffectivePlace  `json:"source"`
		Definitions []EffectivePlace `json:"definitions"`
	} `json:"servers"`
}

// agreeResult is what the three paths said about one workspace; paths
// are relative to the workspace ($DIR).
type agreeResult struct {
	Check         []agreeFinding
	Effective     []agreeTool
	EffectiveJSON []byte // as printed, $DIR for the workspace
	Hovers        []agreeHoverAt
}

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// builtCLI builds cmd/mcp-lsp once per test binary. The sources are read
// here so that go test's cache sees a change to them (the lsp test binary
// does not include package main).
func builtCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		srcs, _ := filepath.Glob(filepath.Join("..", "cmd", "mcp-lsp", "*.go"))
		for _, p := range srcs {
			if _, err := os.ReadFile(p); err != nil {
				cliErr = err
				return
			}
		}
		dir, err := os.MkdirTemp("", "mcp-lsp-agree")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "mcp-lsp")
		if out, err := exec.Command("go", "build", "-o", cliPath, "../cmd/mcp-lsp").CombinedOutput(); err != nil {
			cliErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cliPath != "" {
		os.RemoveAll(filepath.Dir(cliPath))
	}
	os.Exit(code)
}

func TestAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtCLI(t)
	for _, sc := range loadArchives(t, "agree") {
		t.Run(sc.name, func(t *testing.T) {
			sc.materialize(t)
			res := sc.agree(t, bin)
			res.crossCheck(t, sc.rel(sc.launchDir(t)))
			got := []txtar.File{
				{Name: agreeCheck, Data: res.renderCheck()},
				{Name: agreeEffective, Data: res.EffectiveJSON},
				{Name: agreeHover, Data: res.renderHover()},
			}
			if *update {
				sc.setSections(t, got...)
				return
			}
			for _, g := range got {
				want := sc.content(g.Name)
				if want == nil {
					t.Errorf("%s has no %s section (run with -update)", sc.name, g.Name)
					continue
				}
				if !bytes.Equal(want, g.Data) {
					t.Errorf("%s differs\n--- want\n%s\n--- got\n%s", g.Name, want, g.Data)
				}
			}
		})
	}
}

// agreeEnv is the environment of the CLI and the server: HOME is the
// archive's home/, and nothing else of the process's environment (the
// real XDG_CONFIG_HOME or COPILOT_HOME) leaks in.
func (sc *scenario) agreeEnv(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{"HOME": filepath.Join(sc.dir, "home")}
	for _, kv := range sc.directives("env") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			t.Fatalf("%s: bad env directive %q (want NAME=value)", sc.name, kv)
		}
		env[k] = strings.ReplaceAll(v, "$DIR", sc.dir)
	}
	return env
}

// launchDir is where the tools are launched: the launch directive, or the
// workspace.
func (sc *scenario) launchDir(t *testing.T) string {
	t.Helper()
	v, ok := sc.directive("launch")
	if !ok {
		return sc.dir
	}
	dir := filepath.Join(sc.dir, filepath.FromSlash(v))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// agree runs the three paths on the materialized workspace.
func (sc *scenario) agree(t *testing.T, bin string) *agreeResult {
	t.Helper()
	env := sc.agreeEnv(t)
	launch := sc.launchDir(t)
	res := &agreeResult{}

	// check: the launch directory is walked (and is the launch directory
	// of the cross-file rules); files outside it are named.
	args := []string{"check", "--format", "json", launch}
	for _, name := range sc.inputs {
		p := filepath.Join(sc.dir, filepath.FromSlash(name))
		if !strings.HasPrefix(name, ".git/") && !within(launch, p) {
			args = append(args, p)
		}
	}
	out := sc.runCLI(t, bin, env, args...)
	if err := json.Unmarshal(out, &res.Check); err != nil {
		t.Fatalf("check output: %v\n%s", err, out)
	}
	for i := range res.Check {
		f := &res.Check[i]
		f.Path = sc.rel(f.Path)
		f.Message = strings.ReplaceAll(f.Message, sc.dir, "$DIR")
		for j := range f.Related {
			f.Related[j].Path = sc.rel(f.Related[j].Path)
			f.Related[j].Message = strings.ReplaceAll(f.Related[j].Message, sc.dir, "$DIR")
		}
	}

	out = sc.runCLI(t, bin, env, "effective", "--format", "json", launch)
	res.EffectiveJSON = bytes.ReplaceAll(out, []byte(sc.dir), []byte("$DIR"))
	if err := json.Unmarshal(res.EffectiveJSON, &res.Effective); err != nil {
		t.Fatalf("effective output: %v\n%s", err, out)
	}

	c := startServer(t, Options{Env: registry.EnvFrom(func(k string) string { return env[k] }, runtime.GOOS)})
	c.initialize(launch)
	uris := map[string]protocol.DocumentURI{}
	for _, name := range sc.inputs {
		if strings.HasPrefix(name, ".git/") {
			continue
		}
		p := filepath.Join(sc.dir, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		uris[name] = c.open(p, string(data))
	}
	for _, name := range sc.inputs {
		uri, ok := uris[name]
		if !ok {
			continue
		}
		for _, sym := range c.serverSymbols(uri) {
			md := c.hover(uri, sym.SelectionRange.Start)
			res.Hovers = append(res.Hovers, agreeHoverAt{
				File: name, Pos: sym.SelectionRange.Start, Name: sym.Name,
				Markdown: strings.ReplaceAll(md, sc.dir, "$DIR"),
			})
		}
	}
	return res
}

// runCLI runs the built binary in the workspace with env only; exit 0 and
// 1 (errors found) are answers, anything else fails the test.
func (sc *scenario) runCLI(t *testing.T, bin string, env map[string]string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = sc.dir
	cmd.Env = []string{}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		t.Fatalf("mcp-lsp %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// serverSymbols lists the server names of a document, the groups
// (projects of ~/.claude.json) flattened away.
func (c *testClient) serverSymbols(uri protocol.DocumentURI) []protocol.DocumentSymbol {
	c.t.Helper()
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
	}, &syms); err != nil {
		c.t.Fatalf("documentSymbol: %v", err)
	}
	var out []protocol.DocumentSymbol
	var walk func([]protocol.DocumentSymbol)
	walk = func(ss []protocol.DocumentSymbol) {
		for _, s := range ss {
			if s.Kind == protocol.SymbolKindNamespace {
				walk(s.Children)
				continue
			}
			out = append(out, s)
		}
	}
	walk(syms)
	return out
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// renderCheck prints one finding a line as the text CLI does, with the
// related places indented below it.
func (r *agreeResult) renderCheck() []byte {
	var b strings.Builder
	if len(r.Check) == 0 {
		b.WriteString("(no findings)\n")
	}
	for _, f := range r.Check {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", f.Path, f.Line, f.Column, f.Severity, f.Message, f.Code)
		for _, rel := range f.Related {
			fmt.Fprintf(&b, "    %s:%d:%d: %s\n", rel.Path, rel.Line, rel.Column, rel.Message)
		}
	}
	return []byte(b.String())
}

// renderHover prints each hover under a heading naming the file, the
// position (0-based line:UTF-16 character) and the server.
func (r *agreeResult) renderHover() []byte {
	var b strings.Builder
	if len(r.Hovers) == 0 {
		b.WriteString("(no server names)\n")
	}
	for i, h := range r.Hovers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s %d:%d %s\n\n", h.File, h.Pos.Line, h.Pos.Character, h.Name)
		if h.Markdown == "" {
			b.WriteString("(no hover)\n")
			continue
		}
		b.WriteString(strings.TrimRight(h.Markdown, "\n") + "\n")
	}
	return []byte(b.String())
}
