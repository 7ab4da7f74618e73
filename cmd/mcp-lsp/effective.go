package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

func runEffective(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("effective", flag.ContinueOnError)
	fset.SetOutput(stderr)
	toolFlag := fset.String("tool", "", "show only this tool `id` (claude-code, copilot-cli, opencode)")
	cwd := fset.String("cwd", "", "the `directory` the tools are launched in (default: DIR)")
	format := fset.String("format", "text", "output `format`: text or json")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	dirs, ok := parseInterleaved(fset, args)
	if !ok {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "mcp-lsp effective: unknown --format %q (want text or json)\n", *format)
		return 2
	}
	if len(dirs) > 1 {
		fmt.Fprintf(stderr, "mcp-lsp effective: one directory at most, got %d: %s\n", len(dirs), strings.Join(dirs, " "))
		return 2
	}
	dir := "."
	if len(dirs) == 1 {
		dir = dirs[0]
	}
	dir = absPath(dir)
	launch := dir
	if *cwd != "" {
		launch = absPath(*cwd)
	}
	if info, err := os.Stat(launch); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "mcp-lsp effective: %s is not a directory\n", launch)
		return 2
	}
	reg, env := registry.Default(), registry.OSEnv()
	if *toolFlag != "" {
		t, ok := reg.Tool(registry.ToolID(*toolFlag))
		if !ok || t.Profile == nil {
			fmt.Fprintf(stderr, "mcp-lsp effective: unknown tool %q (known: %s)\n", *toolFlag, strings.Join(profiledTools(reg), ", "))
			return 2
		}
	}
	opts := cache.DiagnoseOptions{Registry: reg, Env: env, Folders: []cache.Folder{{Path: dir, GitRoot: findGitRoot(dir)}}}
	if *toolFlag != "" {
		// Named, the tool is shown even where it reads only other tools'
		// files (Atomic TUI), which Effective leaves out otherwise.
		opts.Settings.Tools = []string{*toolFlag}
	}
	snap := cache.NewSession(nil, reg).Snapshot()
	var out []lsp.EffectiveTool
	for _, r := range snap.Effective(launch, findGitRoot(launch), opts) {
		if *toolFlag != "" && string(r.Tool.ID) != *toolFlag {
			continue
		}
		out = append(out, lsp.EffectiveView(snap, r, opts))
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "mcp-lsp effective: %v\n", err)
			return 2
		}
		return 0
	}
	for i, t := range out {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		printEffectiveText(stdout, t)
	}
	return 0
}

func profiledTools(reg *registry.Registry) []string {
	var ids []string
	for _, t := range reg.Tools() {
		if t.Profile != nil {
			ids = append(ids, string(t.ID))
		}
	}
	return ids
}

func printEffectiveText(w io.Writer, t lsp.EffectiveTool) {
	name := t.Name
	if t.ModelVersion != "" {
		name += " (modelled on " + t.ModelVersion + ")"
	}
	fmt.Fprintf(w, "%s, launched in %s:\n", name, t.LaunchDir)
	for _, d := range t.Dropped {
		fmt.Fprintf(w, "  ignores %s: %s\n", d.Path, d.Reason)
	}
	for _, why := range t.Refused {
		fmt.Fprintf(w, "  refuses its whole configuration: %s\n", why)
	}
	if len(t.Servers) == 0 {
		fmt.Fprintln(w, "  no servers")
	}
	for _, s := range t.Servers {
		what := s.URL
		if len(s.Command) > 0 {
			what = strings.Join(s.Command, " ")
		}
		state := ""
		switch {
		case s.Source == nil:
			state = "  [not started: " + s.GateWhy + "]"
		case !s.Enabled:
			state = "  [disabled]"
		}
		if len(s.DependsOn) > 0 {
			state += "  [depends on $" + strings.Join(s.DependsOn, ", $") + "]"
		}
		fmt.Fprintf(w, "  %s  %s  %s%s\n", s.Name, s.Transport, maskArgs(what), state)
		for _, d := range s.Definitions {
			fmt.Fprintf(w, "      %s:%d (%s, %s)\n", d.Path, d.Line, d.Layer, d.State)
		}
		if len(s.Env) > 0 {
			fmt.Fprintf(w, "      env: %s\n", strings.Join(sortedNames(s.Env), ", "))
		}
		if len(s.Headers) > 0 {
			fmt.Fprintf(w, "      headers: %s\n", strings.Join(sortedNames(s.Headers), ", "))
		}
	}
}

func sortedNames(m map[string]rules.Secret) []string {
	var names []string
	for k := range m {
		names = append(names, k+"="+rules.Masked)
	}
	slices.Sort(names)
	return names
}

// maskArgs hides credential-looking parts of a command line or URL.
func maskArgs(s string) string { return effective.MaskIfSecret(s) }

// findGitRoot returns the nearest directory at or above dir holding .git.
func findGitRoot(dir string) string { return discovery.GitRoot(os.DirFS("/"), dir) }
