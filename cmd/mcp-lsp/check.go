package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis"
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
	Related   []checkRelated `json:"related,omitempty"`
}

type checkRelated struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func runCheck(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	format := fset.String("format", "text", "output `format`: text or json")
	tools := fset.String("tools", "", "comma-separated tool `ids` to check for (default: every tool that reads each file)")
	commandLookup := fset.Bool("command-lookup", false, "check that each server's command exists on PATH (looked up, never run)")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "mcp-lsp check: unknown --format %q (want text or json)\n", *format)
		return 2
	}
	roots := fset.Args()
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
		Base:     analysis.Config{CommandLookup: *commandLookup},
		Settings: settings,
		Folders:  folders,
	}
	snap := cache.NewSession(nil).Snapshot()
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
	hasError := false
	for _, p := range paths {
		f, found, ok := snap.Diagnose(absPath(p), opts)
		if !ok {
			continue
		}
		if f.ReadErr != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", f.ReadErr)
			ioFailed = true
			continue
		}
		m := lsp.NewMapper(f.Content)
		for _, d := range found {
			r, err := toCheckResult(snap, m, p, d)
			if err != nil {
				fmt.Fprintf(stderr, "mcp-lsp check: %s: internal error: %v\n", p, err)
				ioFailed = true
				continue
			}
			hasError = hasError || d.Severity == analysis.SeverityError
			results = append(results, r)
		}
	}

	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			fmt.Fprintf(stderr, "mcp-lsp check: %v\n", err)
			return 2
		}
	} else {
		for _, r := range results {
			fmt.Fprintf(stdout, "%s:%d:%d: %s: %s [%s]\n", r.Path, r.Line, r.Column, r.Severity, r.Message, r.Code)
		}
	}
	switch {
	case ioFailed:
		return 2
	case hasError:
		return 1
	}
	return 0
}

func toCheckResult(snap *cache.Snapshot, m *lsp.Mapper, path string, d analysis.Diagnostic) (checkResult, error) {
	r := checkResult{Path: path, Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
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
		r.Related = append(r.Related, checkRelated{Path: relPath, Line: line, Column: col, Message: rel.Message})
	}
	return r, nil
}

func absPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}
