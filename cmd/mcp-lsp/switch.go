package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// runSwitch implements `mcp-lsp enable` and `mcp-lsp disable`: turn one
// server on or off in one tool, the way that tool does it (see
// analysis/sync's PlanSwitch). Exit status: 0 done (or already so), 1 the
// tool has no switch in a file, 2 usage or I/O error.
func runSwitch(_ context.Context, enable bool, args []string, stdout, stderr io.Writer) int {
	verb := "disable"
	if enable {
		verb = "enable"
	}
	fset := flag.NewFlagSet(verb, flag.ContinueOnError)
	fset.SetOutput(stderr)
	toolFlag := fset.String("tool", "", "the tool `id` (claude-code, opencode, codex-cli, gemini-cli, copilot-cli, ...)")
	project := fset.String("project", ".", "the `dir` the tool is launched in")
	dryRun := fset.Bool("dry-run", false, "print the change as a unified diff; write nothing")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	names, ok := parseInterleaved(fset, args)
	if !ok {
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "mcp-lsp "+verb+": "+format+"\n", a...)
		return code
	}
	reg, env := registry.Default(), registry.OSEnv()
	switch {
	case len(names) != 1:
		return fail(2, "give exactly one server NAME (see mcp-lsp help)")
	case *toolFlag == "":
		return fail(2, "--tool is required: one of %s", strings.Join(profiledTools(reg), ", "))
	}
	tool, ok := reg.Tool(registry.ToolID(*toolFlag))
	switch {
	case !ok:
		return fail(2, "unknown tool %q (known: %s)", *toolFlag, strings.Join(profiledTools(reg), ", "))
	case tool.Profile == nil || !mcpsync.HasSwitch(tool):
		return fail(1, "%v", mcpsync.NoSwitch(tool))
	}
	launch := absPath(*project)
	opts := cache.DiagnoseOptions{Registry: reg, Env: env, Folders: []cache.Folder{{Path: launch, GitRoot: findGitRoot(launch)}}}
	opts.Settings.Tools = []string{*toolFlag}
	snap := cache.NewSession(nil, reg).Snapshot()
	var plan *mcpsync.SwitchPlan
	var err error
	found := false
	for _, r := range snap.Effective(launch, findGitRoot(launch), opts) {
		if r.Tool.ID != tool.ID {
			continue
		}
		found = true
		plan, err = mcpsync.PlanSwitch(mcpsync.SwitchInput{Result: r, Server: names[0], Enable: enable, Env: env, File: readForSync})
	}
	switch {
	case !found:
		return fail(2, "%s reads no file here", tool.Name)
	case errors.Is(err, mcpsync.ErrNoSwitch):
		return fail(1, "%v", err)
	case err != nil:
		return fail(2, "%v", err)
	}
	how := rel(launch, plan.How)
	if !plan.Changed() {
		fmt.Fprintf(stdout, "%s: %s is already %sd (%s)\n", tool.Name, names[0], verb, how)
		return 0
	}
	status := 0
	for _, f := range plan.Files {
		name := rel(launch, f.Path)
		if *dryRun {
			old := f.Old
			var b bytes.Buffer
			if err := writeUnifiedDiff(&b, filepath.ToSlash(name), old, fix.DiffEdits(f.Path, old, f.New)); err != nil {
				return fail(2, "%v", err)
			}
			secrets := fileSecrets(cache.NewSession(nil, reg), cache.DiagnoseOptions{Registry: reg, Env: env}, f.Path, old, f.New)
			if _, err := stdout.Write(maskSecrets(b.Bytes(), secrets)); err != nil {
				return fail(2, "%v", err)
			}
			continue
		}
		var err error
		if f.Exists {
			err = writeFixed(f.Path, f.Old, f.New)
		} else {
			err = writeNew(f.Path, f.New)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp %s: %s: %v; not written\n", verb, name, err)
			status = 2
		}
	}
	out := stdout
	if *dryRun {
		out = stderr
	}
	if status == 0 {
		fmt.Fprintf(out, "%s: %s %sd (%s)\n", tool.Name, names[0], verb, how)
	}
	return status
}

// rel shortens the paths inside s that are under dir.
func rel(dir, s string) string {
	return strings.ReplaceAll(s, dir+string(filepath.Separator), "")
}
