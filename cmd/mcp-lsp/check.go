package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// checkResult is one finding as `check --format json` prints it: the Go
// style position (1-based line, 1-based byte column) and the LSP range
// (0-based, UTF-16), so scripts can use either.
type checkResult struct {
	Path      string         `json:"path"`
	Line      int            `json:"line"`
	Column    int            `json:"column"`
	EndLine   int            `json:"endLine"`
	EndColumn int            `json:"endColumn"`
	Range     protocol.Range `json:"range"`
	Severity  string         `json:"severity"`
	Code      string         `json:"code"`
	Message   string         `json:"message"`
	// Server and Tools name the server entry and the tools the finding
	// is about ("Claude Code skips server fs": server fs, claude-code),
	// so scripts need not parse messages.
	Server string   `json:"server,omitempty"`
	Tools  []string `json:"tools,omitempty"`
	// LoadedBy are tools of Tools that load the entry all the same,
	// without the value (VS Code drops an args that is not an array from
	// the workspace folder's .mcp.json, where Claude Code skips the entry).
	LoadedBy []string       `json:"loadedBy,omitempty"`
	Related  []checkRelated `json:"related,omitempty"`

	// pointer is the JSON Pointer of the innermost value at the start of
	// the finding ("/mcpServers/db/env/TOKEN"): what the SARIF reporter's
	// fingerprint is made of, so that it survives edits elsewhere in the
	// file. Never a value, so never a secret.
	pointer string
}

type checkRelated struct {
	Path    string         `json:"path"`
	Line    int            `json:"line"`
	Column  int            `json:"column"`
	Range   protocol.Range `json:"range"`
	Message string         `json:"message"`
}

// checkFormats are the values of `check --format`, each a reporter.
var checkFormats = map[string]func(w io.Writer, results []checkResult) error{
	"text":   writeText,
	"json":   writeJSON,
	"sarif":  writeSARIF,
	"github": writeGitHub,
}

// failOn is `check --fail-on`: the least severe finding that makes the
// exit status 1.
var failOn = map[string]rules.Severity{
	"error":   rules.SeverityError,
	"warning": rules.SeverityWarning,
	"never":   0,
}

func runCheck(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	format := fset.String("format", "text", "output `format`: text, json, sarif or github")
	failOnFlag := fset.String("fail-on", "error", "exit with status 1 when a finding is at least this `severe`: error, warning or never")
	tools := fset.String("tools", "", "comma-separated tool `ids` to check for (default: every tool that reads each file)")
	commandLookup := fset.Bool("command-lookup", false, "check that each server's command exists on PATH (looked up, never run)")
	fixFlag := fset.Bool("fix", false, "apply the safe fixes (the editor's fix-all) in place, then report what is left")
	diffFlag := fset.Bool("diff", false, "print the fixes --fix would make as a unified diff; write nothing")
	unsafeFlag := fset.Bool("unsafe", false, "with --fix or --diff, apply the fixes that change meaning too")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	roots, ok := parseInterleaved(fset, args)
	if !ok {
		return 2
	}
	report, ok := checkFormats[*format]
	if !ok {
		fmt.Fprintf(stderr, "mcp-lsp check: unknown --format %q (want text, json, sarif or github)\n", *format)
		return 2
	}
	failLevel, ok := failOn[*failOnFlag]
	if !ok {
		fmt.Fprintf(stderr, "mcp-lsp check: unknown --fail-on %q (want error, warning or never)\n", *failOnFlag)
		return 2
	}
	if *unsafeFlag && !*fixFlag && !*diffFlag {
		fmt.Fprintln(stderr, "mcp-lsp check: --unsafe needs --fix or --diff")
		return 2
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	reg, env := registry.Default(), registry.OSEnv()

	var paths []string
	ioFailed := false
	for _, root := range roots {
		info, err := os.Stat(root)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", err)
			ioFailed = true
			continue
		}
		if !info.IsDir() {
			if _, ok := reg.Match(absPath(root), env); !ok {
				fmt.Fprintf(stderr, "mcp-lsp check: %s: not an MCP configuration file mcp-lsp knows; skipped\n", root)
				continue
			}
			paths = append(paths, root)
			continue
		}
		found, errs := discovery.Walk(root, func(p string) bool {
			_, ok := reg.Match(absPath(p), env)
			return ok
		}, discovery.WalkLimits{})
		for _, e := range errs {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", e)
		}
		paths = append(paths, found...)
	}
	// Overlapping roots ("." and "services") name some files twice.
	seen := map[string]bool{}
	paths = slices.DeleteFunc(paths, func(p string) bool {
		abs := absPath(p)
		dup := seen[abs]
		seen[abs] = true
		return dup
	})
	if len(paths) == 0 && !ioFailed {
		// Not a failure (status 0, as Ruff and markdownlint-cli2 do): a
		// repository without MCP files passes. But say so, so that a
		// mistyped path or a file mcp-lsp does not know is not mistaken
		// for a clean result.
		fmt.Fprintf(stderr, "mcp-lsp check: no MCP configuration files found in %s\n", strings.Join(roots, ", "))
	}

	var settings analysis.Settings
	if *tools != "" {
		settings.Tools = strings.Split(*tools, ",")
	}
	// Each directory given is a launch directory for the cross-file
	// analysis (which definition each tool uses), as a workspace folder
	// is in the editor.
	var folders []cache.Folder
	for _, root := range roots {
		if info, err := os.Stat(root); err == nil && info.IsDir() {
			dir := absPath(root)
			folders = append(folders, cache.Folder{Path: dir, GitRoot: discovery.GitRoot(os.DirFS("/"), dir)})
		}
	}
	opts := cache.DiagnoseOptions{
		Registry: reg, Env: env,
		Base:     rules.Config{CommandLookup: *commandLookup},
		Settings: settings,
		Folders:  folders,
	}
	if *fixFlag || *diffFlag {
		fixed, fixFailed, blocked := computeFixes(paths, opts, *unsafeFlag, stderr)
		ioFailed = ioFailed || fixFailed
		if *diffFlag {
			return printFixDiff(stdout, stderr, fixed, blocked, ioFailed)
		}
		total := 0
		for _, ff := range fixed {
			if err := writeFixed(ff.abs, ff.old, ff.new); err != nil {
				fmt.Fprintf(stderr, "mcp-lsp check: %s: not fixed: %v\n", ff.path, err)
				ioFailed = true
				continue
			}
			total += ff.fixes
		}
		if total > 0 {
			fmt.Fprintf(stderr, "mcp-lsp check: fixed %d %s\n", total, plural(total, "problem", "problems"))
		}
	}
	// After --fix, a new session reads the files as they are now: the
	// report and the exit status say what is left.
	snap := cache.NewSession(nil, reg).Snapshot()
	reported := map[string]bool{}
	for _, root := range roots {
		dir := absPath(root)
		if info, err := os.Stat(dir); err == nil && !info.IsDir() {
			dir = filepath.Dir(dir)
		}
		_, project, problems := snap.Config(dir, opts)
		for _, p := range problems {
			where := project
			if where == "" {
				where = "settings"
			}
			if msg := where + ": " + p; !reported[msg] {
				reported[msg] = true
				fmt.Fprintf(stderr, "mcp-lsp check: %s\n", msg)
			}
		}
	}
	results := []checkResult{}
	failed := false
	for _, p := range paths {
		f, found, ok := snap.Diagnose(absPath(p), opts)
		if !ok {
			continue
		}
		if f.ReadErr != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", f.ReadErr)
			ioFailed = true
			if len(found) == 0 { // a file too large to read still gets its finding
				continue
			}
		}
		m := lsp.NewMapper(f.Content)
		tree := snap.Parse(f)
		for _, d := range found {
			r, err := toCheckResult(snap, m, p, d)
			if err != nil {
				fmt.Fprintf(stderr, "mcp-lsp check: %s: internal error: %v\n", p, err)
				ioFailed = true
				continue
			}
			if n := tree.NodeAt(d.Span.Start); n != nil {
				r.pointer = n.Pointer()
			}
			// Severities count down from error (1): "at least as severe".
			failed = failed || failLevel != 0 && d.Severity <= failLevel
			results = append(results, r)
		}
	}

	if err := report(stdout, results); err != nil {
		fmt.Fprintf(stderr, "mcp-lsp check: %v\n", err)
		return 2
	}
	switch {
	case ioFailed:
		return 2
	case failed:
		return 1
	}
	return 0
}

// writeText prints one line per finding in the file:line:col form that
// editors and terminals turn into links (byte columns, as Go tools do).
func writeText(w io.Writer, results []checkResult) error {
	for _, r := range results {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", r.Path, r.Line, r.Column, r.Severity, r.Message, r.Code); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w io.Writer, results []checkResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(results)
}

func toCheckResult(snap *cache.Snapshot, m *lsp.Mapper, path string, d rules.Diagnostic) (checkResult, error) {
	r := checkResult{Path: path, Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
	r.Server, _ = d.Data["server"].(string)
	r.Tools, _ = d.Data["tools"].([]string)
	r.LoadedBy, _ = d.Data["loadedBy"].([]string)
	var err1, err2, err3 error
	r.Line, r.Column, err1 = m.LineColumn(d.Span.Start)
	r.EndLine, r.EndColumn, err2 = m.LineColumn(d.Span.End)
	r.Range, err3 = m.Range(d.Span)
	if err := errors.Join(err1, err2, err3); err != nil {
		return r, err
	}
	for _, rel := range d.Related {
		relPath, rm := path, m
		if rel.Path != "" && rel.Path != absPath(path) {
			relPath = rel.Path
			rm = lsp.NewMapper(snap.File(rel.Path).Content)
		}
		line, col, err := rm.LineColumn(rel.Span.Start)
		if err != nil {
			continue
		}
		rng, err := rm.Range(rel.Span)
		if err != nil {
			continue
		}
		r.Related = append(r.Related, checkRelated{Path: relPath, Line: line, Column: col, Range: rng, Message: rel.Message})
	}
	return r, nil
}

// printFixDiff is `check --diff`: the unified diff of every file the
// fixes change, and nothing else. Its status is 1 when there is something
// to fix (as `ruff --diff`), so that CI can ask "is everything fixed?",
// or a fix that is not made because its file does not parse (blocked).
// A literal secret on a line of the diff is shown masked, as everywhere
// else mcp-lsp prints (such a hunk is then for reading; --fix applies it).
func printFixDiff(stdout, stderr io.Writer, fixed []*fixedFile, blocked, ioFailed bool) int {
	for _, ff := range fixed {
		name := filepath.ToSlash(ff.path)
		if filepath.IsAbs(ff.path) {
			name = strings.TrimPrefix(name, "/")
		}
		var b bytes.Buffer
		if err := writeUnifiedDiff(&b, name, ff.old, ff.diffEdits()); err != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", err)
			return 2
		}
		if _, err := stdout.Write(maskSecrets(b.Bytes(), ff.secrets)); err != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", err)
			return 2
		}
	}
	switch {
	case ioFailed:
		return 2
	case len(fixed) > 0 || blocked:
		return 1
	}
	return 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func absPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}
