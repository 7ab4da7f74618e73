package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// varFlags is a repeatable --var NAME=VALUE.
type varFlags map[string]string

func (v varFlags) String() string { return "" }
func (v varFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return errors.New("want NAME=VALUE")
	}
	v[name] = value
	return nil
}

// syncEnv is what sync and enable/disable share: the registry, the
// user's environment and the project root.
type syncEnv struct {
	reg  *registry.Registry
	env  registry.Env
	root string // absolute
}

// workspace is the fix.Workspace over the real files.
func (e *syncEnv) workspace() *fix.Workspace {
	return &fix.Workspace{Registry: e.reg, Env: e.env, ProjectDir: e.root, File: readForSync}
}

// readForSync reads a file sync may edit: a configuration file up to the
// size analysis takes, a tool's state file (~/.claude.json) up to what is
// ever read.
func readForSync(path string) ([]byte, bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	limit := int64(rules.MaxConfigSize)
	if registry.Default().SkimPaths(path) != nil {
		limit = cache.MaxFileSize
	}
	content, err := cache.ReadFile(path, limit)
	if err != nil {
		return nil, true, err
	}
	return content, true, nil
}

// runSync implements `mcp-lsp sync`: see usage.
func runSync(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("sync", flag.ContinueOnError)
	fset.SetOutput(stderr)
	to := fset.String("to", "", "comma-separated tool `ids` to write (default: every tool the project already uses)")
	scope := fset.String("scope", "project", "write the `project`'s files or the user's")
	vars := varFlags{}
	fset.Var(vars, "var", "a template value, `NAME=VALUE` (repeatable)")
	from := fset.String("from", "", "the source's `dialect` (default: from its name; claude-code for an extension's mcp.json)")
	project := fset.String("project", ".", "the project root `dir`")
	dryRun := fset.Bool("dry-run", false, "print the changes as a unified diff; write nothing")
	check := fset.Bool("check", false, "write nothing; exit 1 when any target is out of date")
	force := fset.Bool("force", false, "overwrite entries changed by hand and servers of the same name sync did not write")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }
	files, ok := parseInterleaved(fset, args)
	if !ok {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mcp-lsp sync: "+format+"\n", a...)
		return 2
	}
	switch {
	case len(files) != 1:
		return fail("give exactly one SOURCE (see mcp-lsp help)")
	case *dryRun && *check:
		return fail("--dry-run and --check do not go together")
	case *scope != string(mcpsync.ScopeProject) && *scope != string(mcpsync.ScopeUser):
		return fail("--scope is project or user, not %q", *scope)
	case *from != "" && !slices.Contains(convert.Dialects(), *from):
		return fail("unknown dialect %q for --from: one of %s", *from, strings.Join(convert.Dialects(), ", "))
	}
	root, err := filepath.Abs(*project)
	if err != nil {
		return fail("%v", err)
	}
	se := &syncEnv{reg: registry.Default(), env: registry.OSEnv(), root: root}
	ws := se.workspace()
	srcPath, err := filepath.Abs(files[0])
	if err != nil {
		return fail("%v", err)
	}
	src := mcpsync.Source{Path: srcPath, Rel: mcpsync.RelName(root, srcPath)}

	// The records: the project's, or the user's for --scope user.
	recPath := filepath.Join(root, filepath.FromSlash(mcpsync.RecordsFile))
	if *scope == string(mcpsync.ScopeUser) {
		recPath = userRecordsFile(se.env)
		src.Rel = filepath.ToSlash(srcPath)
	}
	recContent, _, err := readForSync(recPath)
	if err != nil {
		return fail("%v", err)
	}
	records, err := mcpsync.ParseRecords(recContent)
	if err != nil {
		return fail("%v", err)
	}

	content, exists, err := readForSync(srcPath)
	if err != nil {
		return fail("%v", err)
	}
	kind, isToolFile := se.reg.Match(srcPath, se.env)
	src.Dialect = *from
	if src.Dialect == "" {
		src.Dialect = schemasClaudeCode
		if isToolFile {
			if d, err := dialectOf(srcPath); err == nil {
				src.Dialect = d
			}
		}
	}
	src.Auto = !isToolFile || kind == nil
	values := mcpsync.TemplateValues(root, srcPath, records.Vars[src.Rel], mcpsync.Vars(vars), cache.SyncHost())
	var remember mcpsync.Vars
	var subs []mcpsync.Substitution
	if !exists {
		if !slices.ContainsFunc(records.Entries, func(r mcpsync.Record) bool { return r.Source == src.Rel }) {
			return fail("%s: no such file", files[0])
		}
		fmt.Fprintf(stderr, "mcp-lsp sync: %s is gone: removing the servers synced from it\n", src.Rel)
	} else {
		resolved, s, errs := mcpsync.Resolve(content, values)
		if len(errs) > 0 {
			for _, e := range errs {
				fmt.Fprintf(stderr, "mcp-lsp sync: %s:%v\n", src.Rel, e)
			}
			return 2
		}
		src.Content, subs = resolved, s
		remember = mcpsync.RememberedVars(content, records.Vars[src.Rel], mcpsync.Vars(vars))
	}

	tools, err := syncTools(ctx, se, *to, mcpsync.Scope(*scope))
	if err != nil {
		return fail("%v", err)
	}
	var targets []mcpsync.Target
	status := 0
	for _, tool := range tools {
		t, err := mcpsync.TargetFor(ws, tool, mcpsync.Scope(*scope), root)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp sync: %v\n", err)
			status = 2
			continue
		}
		if !slices.ContainsFunc(targets, func(x mcpsync.Target) bool { return x.Path == t.Path }) {
			targets = append(targets, t)
		}
	}
	plan, err := mcpsync.Compute(src, values, targets, records, mcpsync.Options{Force: *force, Remember: remember})
	if err != nil {
		return fail("%v", err)
	}
	subs = append(subs, plan.Subs...)

	report := stdout
	if *dryRun {
		report = stderr // stdout is the patch alone
		session := cache.NewSession(nil, se.reg)
		for _, tp := range plan.Targets {
			if !tp.Changed() {
				continue
			}
			old := tp.Target.Content
			if !tp.Target.Exists {
				old = nil
			}
			var b bytes.Buffer
			if err := writeUnifiedDiff(&b, tp.Target.Rel, old, fix.DiffEdits(tp.Target.Path, old, tp.New)); err != nil {
				return fail("%v", err)
			}
			secrets := fileSecrets(session, cache.DiagnoseOptions{Registry: se.reg, Env: se.env}, tp.Target.Path, old, tp.New)
			if _, err := stdout.Write(maskSecrets(b.Bytes(), secrets)); err != nil {
				return fail("%v", err)
			}
		}
	}
	writeSyncReport(report, plan, subs)

	blocked := false
	for _, tp := range plan.Targets {
		if tp.Err != nil {
			status = 2
		}
		for _, a := range tp.Actions {
			blocked = blocked || a.Kind.Blocking()
		}
	}
	if *check {
		if plan.OutOfDate() || plan.Changed(records) {
			fmt.Fprintln(report, "out of date: run mcp-lsp sync "+files[0])
			return max(status, 1)
		}
		return status
	}
	if *dryRun {
		if blocked {
			return max(status, 1)
		}
		return status
	}
	for _, tp := range plan.Targets {
		if !tp.Changed() {
			continue
		}
		var err error
		if tp.Target.Exists {
			err = writeFixed(tp.Target.Path, tp.Target.Content, tp.New)
		} else {
			err = writeNew(tp.Target.Path, tp.New)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp sync: %s: %v; not written\n", tp.Target.Rel, err)
			status = 2
		}
	}
	if newRecs := plan.Records.Marshal(); string(newRecs) != string(recContent) && (plan.Changed(records) || len(recContent) > 0) {
		var err error
		if len(recContent) > 0 {
			err = writeFixed(recPath, recContent, newRecs)
		} else {
			err = writeNew(recPath, newRecs)
		}
		if err != nil {
			return fail("%s: %v", recPath, err)
		}
	}
	if blocked {
		return max(status, 1)
	}
	return status
}

// schemasClaudeCode is the dialect an extension's mcp.json is read in:
// Claude Code's mcpServers format, which the ADR's file uses.
const schemasClaudeCode = "claude-code"

// writeSyncReport prints, per target, what happened to each server, the
// losses, and the values substituted.
func writeSyncReport(w io.Writer, plan *mcpsync.Plan, subs []mcpsync.Substitution) {
	changed, blocked := false, false
	for _, tp := range plan.Targets {
		name := fmt.Sprintf("%s (%s)", tp.Target.Rel, toolDisplay(tp.Target.Tool))
		if tp.Err != nil {
			fmt.Fprintf(w, "%s: not touched: %v\n", name, tp.Err)
			continue
		}
		var parts []string
		if tp.Changed() && !tp.Target.Exists {
			parts = append(parts, "created")
		}
		for _, a := range tp.Actions {
			parts = append(parts, fmt.Sprintf("%s %s", displayServer(a.Server), a.Kind))
		}
		if len(parts) == 0 {
			parts = append(parts, "nothing to write")
		}
		fmt.Fprintf(w, "%s: %s\n", name, strings.Join(parts, ", "))
		for _, a := range tp.Actions {
			if a.Reason != "" && a.Kind != mcpsync.Removed && a.Kind != mcpsync.Unchanged {
				fmt.Fprintf(w, "  %s: %s\n", displayServer(a.Server), a.Reason)
			}
			for _, l := range a.Losses {
				fmt.Fprintf(w, "  %s\n", l.String())
			}
		}
		changed = changed || tp.Changed()
		blocked = blocked || slices.ContainsFunc(tp.Actions, func(a mcpsync.Action) bool { return a.Kind.Blocking() })
	}
	for _, s := range subs {
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf(" (line %d)", s.Line)
		}
		if s.Server != "" {
			where = " in " + displayServer(s.Server)
		}
		value := s.Value // a secret given with --var is written, never shown
		if rules.LooksLikeSecret(strings.Trim(s.What, "{} "), value) {
			value = rules.Masked
		}
		fmt.Fprintf(w, "substituted %s%s: %s\n", s.What, where, value)
	}
	if !changed && !blocked {
		fmt.Fprintln(w, "up to date: nothing to change")
	}
}

func displayServer(name string) string {
	if name == "" || strings.ContainsAny(name, " :\"'()") {
		return fmt.Sprintf("%q", name)
	}
	return name
}

func toolDisplay(tool string) string {
	if t, ok := registry.Default().Tool(registry.ToolID(tool)); ok {
		return t.Name
	}
	return tool
}

// syncTools are the tools to write: --to, or every tool that reads a
// file present at the scope (the project's files, or the user's).
func syncTools(ctx context.Context, se *syncEnv, to string, scope mcpsync.Scope) ([]string, error) {
	known := mcpsync.Tools(se.reg)
	if to != "" {
		var out []string
		for _, t := range strings.Split(to, ",") {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			if !slices.Contains(known, t) {
				return nil, fmt.Errorf("sync cannot write %q; --to takes: %s", t, strings.Join(known, ", "))
			}
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
		return out, nil
	}
	res := discovery.Discover(ctx, discovery.Options{
		Registry: se.reg, Env: se.env, Folders: []string{se.root},
		Limits: discovery.Limits{MaxDepth: 2, MaxFiles: 10_000, Timeout: discovery.DefaultTimeout},
	})
	used := map[string]bool{}
	for _, f := range res.Files {
		if f.Kind == nil || (scope == mcpsync.ScopeUser) != (f.Origin == discovery.OriginUser) {
			continue
		}
		for _, r := range f.Kind.Readers {
			used[string(r.Tool)] = true
		}
	}
	var out []string
	for _, t := range known {
		if used[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no tool's MCP file found at %s level; name the tools with --to (%s)", scope, strings.Join(known, ", "))
	}
	return out, nil
}

// userRecordsFile is where --scope user keeps its records: beside the
// user's configuration, $XDG_CONFIG_HOME/mcp-lsp/sync.json.
func userRecordsFile(env registry.Env) string {
	cfg := env.XDGConfigHome
	if cfg == "" {
		cfg = filepath.Join(env.Home, ".config")
	}
	return filepath.Join(cfg, "mcp-lsp", "sync.json")
}

// writeNew creates path with content, atomically and without replacing
// a file that appeared meanwhile: written to a temporary file in the
// same directory, synced, then hard-linked to its name (which fails if
// the name exists) and the temporary name removed. Missing directories
// (.cursor/, .mcp-lsp/) are created. See writeFixed for files that exist.
func writeNew(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".mcp-lsp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errors.New("appeared on disk while sync ran")
		}
		return err
	}
	return nil
}

// fileSecrets returns the literal secrets the rules find in a target file
// as it is (old) and as sync would write it (next), each text analysed as
// the tool's file at path, so that a dry run's diff masks them (sync,
// enable and disable).
func fileSecrets(session *cache.Session, opts cache.DiagnoseOptions, path string, old, next []byte) []string {
	var out []string
	for i, content := range [][]byte{old, next} {
		if content == nil {
			continue
		}
		ov := &cache.Overlay{Path: path, Version: int32(i + 1), Content: content}
		session.Modify([]cache.Modification{{Path: path, Overlay: ov}}, nil)
		if f, found, ok := session.Snapshot().Diagnose(path, opts); ok && f.Exists {
			out = append(out, literalSecrets(content, found)...)
		}
	}
	return out
}
