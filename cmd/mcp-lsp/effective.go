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

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// effectiveTool is one tool's effective configuration as `effective
// --format json` prints it. Env and header values are analysis.Secret:
// they print as a mask, whatever the format.
type effectiveTool struct {
	Tool      string            `json:"tool"`
	Name      string            `json:"name"`
	LaunchDir string            `json:"launchDir"`
	Servers   []effectiveServer `json:"servers"`
	Dropped   []droppedFile     `json:"dropped,omitempty"`
}

// droppedFile is a file the tool would read but ignores as a whole.
type droppedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type effectiveServer struct {
	Name        string                     `json:"name"`
	Started     bool                       `json:"started"`
	Gate        string                     `json:"gate,omitempty"`
	GateWhy     string                     `json:"gateWhy,omitempty"`
	Enabled     bool                       `json:"enabled"`
	Transport   string                     `json:"transport,omitempty"`
	Command     []string                   `json:"command,omitempty"`
	URL         string                     `json:"url,omitempty"`
	Env         map[string]analysis.Secret `json:"env,omitempty"`
	Headers     map[string]analysis.Secret `json:"headers,omitempty"`
	DependsOn   []string                   `json:"dependsOn,omitempty"`
	Source      *effectivePlace            `json:"source,omitempty"`
	Definitions []effectivePlace           `json:"definitions"`
	Fields      map[string]effectivePlace  `json:"fields,omitempty"`
}

type effectivePlace struct {
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Layer string `json:"layer"`
	State string `json:"state,omitempty"` // used, shadowed, pending-approval...
}

func runEffective(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("effective", flag.ContinueOnError)
	fset.SetOutput(stderr)
	toolFlag := fset.String("tool", "", "show only this tool `id` (claude-code, copilot-cli, opencode)")
	cwd := fset.String("cwd", "", "the `directory` the tools are launched in (default: DIR)")
	format := fset.String("format", "text", "output `format`: text or json")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() > 1 || (*format != "text" && *format != "json") {
		fmt.Fprint(stderr, usage)
		return 2
	}
	dir := "."
	if fset.NArg() == 1 {
		dir = fset.Arg(0)
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
	snap := cache.NewSession(nil).Snapshot()
	var out []effectiveTool
	for _, r := range snap.Effective(launch, findGitRoot(launch), opts) {
		if *toolFlag != "" && string(r.Tool.ID) != *toolFlag {
			continue
		}
		out = append(out, toEffectiveTool(snap, r, opts))
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

func toEffectiveTool(snap *cache.Snapshot, r *effective.Result, opts cache.DiagnoseOptions) effectiveTool {
	t := effectiveTool{Tool: string(r.Tool.ID), Name: r.Tool.Name, LaunchDir: r.LaunchDir, Servers: []effectiveServer{}}
	for _, src := range r.Sources {
		if src.Dropped != "" {
			t.Dropped = append(t.Dropped, droppedFile{Path: cache.DisplayPath(src.Path, opts), Reason: src.Dropped})
		}
	}
	place := func(d *effective.Definition, state string) effectivePlace {
		line, _, _ := lsp.NewMapper(snap.File(d.Source.Path).Content).LineColumn(d.Member.Key.Span.Start)
		return effectivePlace{Path: cache.DisplayPath(d.Source.Path, opts), Line: line, Layer: d.Source.Layer.Label, State: state}
	}
	for _, s := range r.Servers {
		es := effectiveServer{Name: s.Name, Started: s.Winner != nil && s.Enabled, Enabled: s.Enabled, DependsOn: s.Variables, Definitions: []effectivePlace{}}
		for _, d := range s.Definitions {
			state := "shadowed"
			switch {
			case d == s.Winner:
				state = "used"
			case d.Gate.State != effective.GateOpen:
				state = string(d.Gate.State)
			case r.Tool.Merge.Value == registry.DeepMerge:
				state = "merged"
			}
			es.Definitions = append(es.Definitions, place(d, state))
		}
		fields := s.Fields
		if s.Winner == nil {
			// Not started: show what would be, from the best definition.
			es.Gate, es.GateWhy = string(s.Definitions[0].Gate.State), s.Definitions[0].Gate.Why
			fields = effective.FieldsOf(s.Definitions[0])
		} else {
			src := place(s.Winner, "used")
			es.Source = &src
		}
		es.Fields = map[string]effectivePlace{}
		for _, f := range fields {
			es.Fields[f.Key] = place(f.From, "")
			v := analysis.Decode(f.Member.Value)
			switch f.Key {
			case "type":
				es.Transport, _ = v.(string)
			case "command":
				switch c := v.(type) {
				case string:
					es.Command = append([]string{c}, es.Command...)
				case []any:
					es.Command = append(strings_(c), es.Command...)
				}
			case "args":
				if a, ok := v.([]any); ok {
					es.Command = append(es.Command, strings_(a)...)
				}
			case "url":
				es.URL, _ = v.(string)
			case "env", "environment":
				es.Env = secrets(v)
			case "headers":
				es.Headers = secrets(v)
			}
		}
		if es.Transport == "" {
			es.Transport = inferTransport(es)
		}
		t.Servers = append(t.Servers, es)
	}
	return t
}

func inferTransport(es effectiveServer) string {
	if es.URL != "" && len(es.Command) == 0 {
		return "http?"
	}
	return "stdio"
}

func strings_(items []any) []string {
	var out []string
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func secrets(v any) map[string]analysis.Secret {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]analysis.Secret{}
	for k, val := range m {
		s, _ := val.(string)
		out[k] = analysis.NewSecret(s)
	}
	return out
}

func printEffectiveText(w io.Writer, t effectiveTool) {
	fmt.Fprintf(w, "%s, launched in %s:\n", t.Name, t.LaunchDir)
	for _, d := range t.Dropped {
		fmt.Fprintf(w, "  ignores %s: %s\n", d.Path, d.Reason)
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

func sortedNames(m map[string]analysis.Secret) []string {
	var names []string
	for k := range m {
		names = append(names, k+"="+analysis.Masked)
	}
	slices.Sort(names)
	return names
}

// maskArgs hides credential-looking parts of a command line or URL.
func maskArgs(s string) string { return effective.MaskIfSecret(s) }

// findGitRoot returns the nearest directory at or above dir holding .git.
func findGitRoot(dir string) string { return discovery.GitRoot(os.DirFS("/"), dir) }
