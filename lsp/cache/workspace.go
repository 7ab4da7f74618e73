package cache

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Folder is a directory a tool is launched in: a workspace folder (or the
// root given to `mcp-lsp check`), with its git root.
type Folder struct {
	Path    string
	GitRoot string // "" when the folder is not in a git repository
}

// WorkspaceAnalysis is what this snapshot's files add up to: for each tool
// and each folder, the effective configuration, and the cross-file
// findings per file.
type WorkspaceAnalysis struct {
	Results   []*effective.Result
	CrossFile map[string][]rules.Diagnostic
}

// Effective computes the effective configuration of every tool with a
// profile, launched in dir, over this snapshot's files (open buffers
// included). Tools excluded by the settings are left out, and so, unless
// the settings name them, are tools not in use here: those that found
// files but none of their own (effective.Survey; Nyzhi where there is a
// .mcp.json but no config.toml), and those that have no files of their own
// at all (Atomic TUI reads only other tools' files). Their view of those
// files matters only to those who run them.
//
// Results are memoized per snapshot, directory and tool selection: the
// diagnostics of a snapshot, hover, definition, references, code actions
// and the effective view all share one computation. Callers must not
// modify them.
func (s *Snapshot) Effective(dir, gitRoot string, opts DiagnoseOptions) []*effective.Result {
	key := dir + "\x00" + gitRoot + "\x00" + strings.Join(opts.Settings.Tools, ",") + "\x00" + strings.Join(opts.folderPaths(), "\x00")
	s.mu.Lock()
	out, ok := s.effective[key]
	s.mu.Unlock()
	if ok {
		return out
	}
	memoKey := effectiveMemoKey(key, opts)
	if s.effectives == nil {
		out = s.computeEffective(dir, gitRoot, opts, nil)
	} else if out, ok = s.effectives.get(memoKey, s); !ok {
		// An earlier snapshot's results with the same options, which some
		// file read since makes stale: what of them the files still say
		// is reused (effective.Input.Prev), so that an edit of one entry
		// costs that entry.
		prev := s.effectives.stale(memoKey)
		log := s.startLog()
		out = s.computeEffective(dir, gitRoot, opts, prev)
		s.stopLog(log)
		s.effectives.put(memoKey, out, log)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.effective == nil {
		s.effective = map[string][]*effective.Result{}
	}
	s.effective[key] = out
	return out
}

func (s *Snapshot) computeEffective(dir, gitRoot string, opts DiagnoseOptions, prev []*effective.Result) []*effective.Result {
	cfg, _, _ := s.Config(dir, opts)
	var out []*effective.Result
	shared := &effective.Shared{}
	for _, tool := range opts.Registry.Tools() {
		named := slices.Contains(cfg.Tools, tool.ID)
		if tool.Profile == nil || (len(cfg.Tools) > 0 && !named) {
			continue
		}
		in := effective.Input{
			Tool:      tool,
			Env:       opts.Env,
			LaunchDir: dir,
			GitRoot:   gitRoot,
			Folders:   opts.folderPaths(),
			Files:     s.parsed,
			Registry:  opts.Registry,
			Verdicts:  s.analysis.Verdicts,
			Shared:    shared,
		}
		for _, p := range prev {
			if p.Tool == tool {
				in.Prev = p
			}
		}
		if found, own := effective.Survey(in); !named && !own && (found || !readsAnyKind(opts.Registry, tool.ID)) {
			continue
		}
		out = append(out, effective.Compute(in))
	}
	return out
}

// readsAnyKind reports whether the tool is a registered reader of some
// file kind. One that is not (Atomic TUI) can never be in use by its own
// files, so it is shown only when the settings name it.
func readsAnyKind(reg *registry.Registry, id registry.ToolID) bool {
	return slices.ContainsFunc(reg.Kinds(), func(k *registry.FileKind) bool {
		_, ok := k.Reader(id)
		return ok
	})
}

// parsed returns the parse of path in this snapshot, nil if it does not
// exist or cannot be read.
func (s *Snapshot) parsed(path string) *jsonc.File {
	f := s.File(path)
	if !f.Exists || f.ReadErr != nil {
		return nil
	}
	return s.Parse(f)
}

// Workspace computes (once per snapshot and folder set) the effective
// configurations of every folder and the cross-file findings.
//
// Callers asking at once share one computation: the diagnostics worker
// (through workspaceAsync) and a code action request on the same
// snapshot each used to compute it. The others wait for the first; if it
// panics, they compute their own.
func (s *Snapshot) Workspace(opts DiagnoseOptions) *WorkspaceAnalysis {
	key := workspaceKey(opts)
	for {
		s.mu.Lock()
		if w, ok := s.workspaces[key]; ok {
			s.mu.Unlock()
			return w
		}
		if done, ok := s.workspacing[key]; ok {
			s.mu.Unlock()
			<-done
			continue
		}
		if s.workspacing == nil {
			s.workspacing = map[string]chan struct{}{}
		}
		done := make(chan struct{})
		s.workspacing[key] = done
		s.mu.Unlock()
		return s.computeWorkspace(key, opts, done)
	}
}

// computeWorkspace computes and records the workspace analysis for key,
// then closes done, even if it panics.
func (s *Snapshot) computeWorkspace(key string, opts DiagnoseOptions, done chan struct{}) *WorkspaceAnalysis {
	defer func() {
		s.mu.Lock()
		delete(s.workspacing, key)
		s.mu.Unlock()
		close(done)
	}()
	w := &WorkspaceAnalysis{}
	for _, f := range opts.Folders {
		w.Results = append(w.Results, s.Effective(f.Path, f.GitRoot, opts)...)
	}
	w.CrossFile = effective.CrossFile(w.Results, func(p string) string { return DisplayPath(p, opts) })
	for _, f := range opts.Folders {
		for path, ds := range s.syncDrift(f.Path, opts) {
			if w.CrossFile == nil {
				w.CrossFile = map[string][]rules.Diagnostic{}
			}
			w.CrossFile[path] = append(w.CrossFile[path], ds...)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.workspaces == nil {
		s.workspaces = map[string]*WorkspaceAnalysis{}
	}
	s.workspaces[key] = w
	return w
}

func workspaceKey(opts DiagnoseOptions) string {
	var b strings.Builder
	for _, f := range opts.Folders {
		b.WriteString(f.Path + "\x00" + f.GitRoot + "\x00")
	}
	b.WriteString(strings.Join(opts.Settings.Tools, ","))
	return b.String()
}

// DisplayPath shortens a path for messages: relative to the workspace
// folder or the home directory (as ~/...), whichever is closer.
func DisplayPath(p string, opts DiagnoseOptions) string {
	best, bestLen := p, strings.Count(p, string(filepath.Separator))+1
	try := func(base, prefix string) {
		if base == "" {
			return
		}
		rel, err := filepath.Rel(base, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return
		}
		if n := strings.Count(rel, string(filepath.Separator)) + 1; n < bestLen {
			best, bestLen = prefix+filepath.ToSlash(rel), n
		}
	}
	for _, f := range opts.Folders {
		try(f.Path, "")
	}
	try(opts.Env.Home, "~/")
	return best
}

// LaunchDir is where hover, definition and the effective view assume the
// tools are launched for a config file: for a user-level file (kind in the
// home directory, or of user scope), the first workspace folder; for a
// project file, the workspace folder holding it, or, for a file nested
// deeper, its project directory (the file's directory, above a tool
// directory such as .vscode, .github or .opencode). Files outside every
// folder use the first folder.
func LaunchDir(path string, kind *registry.FileKind, folders []Folder) Folder {
	if kind != nil && (kind.Location == registry.Home || kind.Scope == registry.ScopeUser) && len(folders) > 0 {
		return folders[0]
	}
	dir := filepath.Dir(path)
	if base := filepath.Base(dir); strings.HasPrefix(base, ".") && base != "." {
		dir = filepath.Dir(dir)
	}
	var best *Folder
	for i, f := range folders {
		rel, err := filepath.Rel(f.Path, dir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if best == nil || len(f.Path) > len(best.Path) {
			best = &folders[i]
		}
	}
	switch {
	case best != nil:
		return Folder{Path: dir, GitRoot: best.GitRoot}
	case len(folders) > 0:
		return folders[0]
	}
	return Folder{Path: dir}
}
