package cache

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// DiagnoseOptions are the inputs of analysis besides the snapshot itself.
type DiagnoseOptions struct {
	Registry *registry.Registry
	Env      registry.Env
	// Base is the configuration before any settings: the server enables
	// command lookup by default, the check CLI only when asked.
	Base rules.Config
	// Settings are the editor's settings, layered over the project file.
	Settings analysis.Settings
	// Folders are where the tools are launched, for cross-file analysis:
	// the workspace folders, or the roots given to check.
	Folders []Folder
}

// Diagnose analyses path in this snapshot. ok is false when the file is not
// an MCP configuration file the registry knows, or does not exist: such
// files get no diagnostics at all. Both the language server and the check
// CLI call this, so they can never disagree. found may be the memo's
// list: callers must not modify it.
func (s *Snapshot) Diagnose(path string, opts DiagnoseOptions) (f *File, found []rules.Diagnostic, ok bool) {
	kind, known := s.Match(path, opts)
	if !known {
		return nil, nil, false
	}
	f = s.File(path)
	if size, limit, tooLarge := s.TooLarge(f); tooLarge {
		return f, []rules.Diagnostic{rules.TooLarge(size, limit)}, true
	}
	if !f.Exists || f.ReadErr != nil {
		return f, nil, f.Exists
	}
	cfg, _, _ := s.Config(filepath.Dir(path), opts)
	parsed := s.Parse(f)
	// The file's own findings and the workspace's effective configurations
	// (the cross-file findings) depend on the same parse and on nothing
	// of each other, so they run on both cores at once, on an edit and on
	// the file's first analysis alike. There both need every entry's
	// verdicts; an entry the two miss at once is judged once, the other
	// waiting for it (verdict.Cache), so nothing is judged twice. Run one
	// after the other, the workspace's pass was a phase on one core after
	// the file's own: on the minified 20,000-server file, 0.43 s of wall
	// time (0.18 s of CPU) between the analysis and the publication.
	var crossFile func() *WorkspaceAnalysis
	if len(opts.Folders) > 0 {
		crossFile = s.workspaceAsync(opts)
	}
	key := analysisKey{hash: f.Hash, registry: opts.Registry, env: opts.Env, kind: kind, config: fmt.Sprint(cfg)}
	own := s.analyses.get(s, path, key, func(exists *existsLog) []rules.Diagnostic {
		return rules.AnalyzeFile(rules.FileInput{
			Path:     path,
			Content:  f.Content,
			Parsed:   parsed,
			Kind:     kind,
			Registry: opts.Registry,
			Config:   cfg,
			Cache:    s.analysis,
			Resolver: resolver{snap: s, lookups: s.lookups, home: opts.Env.Home, lookup: cfg.CommandLookup, exists: exists},
		})
	})
	// own is sorted and shared with the memo: the cross-file findings
	// are merged into a copy (MergeSorted), not appended and sorted.
	// Without any, found is own itself: a copy of the 1,000-server
	// file's 1,670 findings per edit was 184 KB allocated, and kept.
	var cross []rules.Diagnostic
	if crossFile != nil {
		cross = cfg.Filter(crossFile().CrossFile[path])
		rules.SortDiagnostics(cross)
	}
	found = own
	if len(cross) > 0 {
		found = rules.MergeSorted(own, cross)
	}
	found = cfg.Suppress(rules.SuppressInput{Path: path, Content: f.Content, Parsed: parsed, Kind: kind, CrossFile: len(opts.Folders) > 0}, found)
	return f, found, true
}

// workspaceAsync starts s.Workspace(opts) in another goroutine unless it
// is already computed, and returns the function that waits for it. A
// panic in it is raised again in the caller of the returned function, as
// if Workspace had been called there.
func (s *Snapshot) workspaceAsync(opts DiagnoseOptions) func() *WorkspaceAnalysis {
	key := workspaceKey(opts)
	s.mu.Lock()
	w, done := s.workspaces[key]
	s.mu.Unlock()
	if done {
		return func() *WorkspaceAnalysis { return w }
	}
	ch := make(chan func() *WorkspaceAnalysis, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- func() *WorkspaceAnalysis { panic(r) }
			}
		}()
		w := s.Workspace(opts)
		ch <- func() *WorkspaceAnalysis { return w }
	}()
	return sync.OnceValue(func() *WorkspaceAnalysis { return (<-ch)() })
}

// Config returns the analysis configuration for files in dir: the base,
// then the nearest project file (.mcp-lsp.json in dir or an ancestor; an
// open buffer of it counts), then the editor settings. It also returns the
// project file's path ("" if none) and the problems found in the settings.
func (s *Snapshot) Config(dir string, opts DiagnoseOptions) (rules.Config, string, []string) {
	cfg := opts.Base
	cfg.OnWindows = opts.Env.GOOS == "windows" // the user's own files are read on Windows
	var problems []string
	projectPath := ""
	for d := dir; ; d = filepath.Dir(d) {
		candidate := filepath.Join(d, rules.ProjectConfigName)
		if f := s.File(candidate); f.Exists {
			projectPath = candidate
			if f.ReadErr != nil {
				problems = append(problems, fmt.Sprintf("%s is not read: %v", rules.ProjectConfigName, errors.Unwrap(f.ReadErr)))
				break
			}
			if _, limit, tooLarge := s.TooLarge(f); tooLarge {
				problems = append(problems, fmt.Sprintf("%s is not read: larger than %d bytes", rules.ProjectConfigName, limit))
				break
			}
			settings, p := analysis.ParseSettings(f.Content)
			settings.Source = candidate
			problems = append(problems, p...)
			var p2 []string
			cfg, p2 = settings.Apply(cfg, opts.Registry)
			problems = append(problems, p2...)
			for _, ig := range cfg.Ignores {
				if !s.Exists(ig.Path) {
					problems = append(problems, fmt.Sprintf("ignore: %s does not exist", DisplayPath(ig.Path, opts)))
				}
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	cfg, p := opts.Settings.Apply(cfg, opts.Registry)
	return cfg, projectPath, append(problems, p...)
}

// analysisMemo keeps each file's last per-file findings (everything but
// the cross-file ones) with what they were computed from, so that an edit
// in one file re-analyses that file only: the others' findings are
// reused while their content and their configuration stay the same, and
// what the analysis asked of the machine would get the same answers.
//
// Those answers are the command lookups (the session's lookupCache, until
// ForgetLookups replaces it) and whether files exist (FileExists). Within
// one generation they cannot differ. Across generations the findings are
// still reused when the lookups are the same and every file the analysis
// asked about still exists or not as it did: re-reading the disk (on
// every open, and after the workspace discovery) must not analyse again
// a file nothing changed for. On a 20,000-server file that second
// analysis was more than a second.
type analysisMemo struct {
	mu      sync.Mutex
	entries map[string]analysisEntry
	// running holds the analysis in progress of each path (get).
	running map[string]*analysisCall
	// computed counts the analyses made, for tests.
	computed int
}

type analysisEntry struct {
	key        analysisKey
	generation uint64
	lookups    *lookupCache
	exists     map[string]bool // the FileExists answers the analysis used
	found      []rules.Diagnostic
}

// analysisCall is an analysis in progress; done is closed when it ends.
type analysisCall struct {
	key        analysisKey
	generation uint64
	done       chan struct{}
}

// analysisKey is what a file's findings are computed from, besides the
// answers of the machine (analysisEntry).
type analysisKey struct {
	hash     [sha256.Size]byte
	registry *registry.Registry
	env      registry.Env
	// kind is the file's kind with its readers: the same file has fewer
	// of them outside every workspace folder (registry.MatchIn).
	kind   *registry.FileKind
	config string // the rules.Config, printed (maps print sorted)
}

// existsLog records the FileExists answers of one analysis.
type existsLog struct {
	mu     sync.Mutex
	answer map[string]bool
}

func (l *existsLog) record(path string, exists bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.answer == nil {
		l.answer = map[string]bool{}
	}
	l.answer[path] = exists
}

// get returns path's findings for key in snap, computing them when the
// memo holds none that still hold. The result is shared: callers must not
// modify it.
//
// Callers asking at once for the same path, key and generation share one
// computation: the diagnostics worker and a code action request Diagnose
// the same file of the same snapshot right after each edit (VS Code asks
// for code actions on every change), and each used to run the whole
// analysis. The others wait for the first; if it panics, they compute
// their own.
func (m *analysisMemo) get(snap *Snapshot, path string, key analysisKey, compute func(*existsLog) []rules.Diagnostic) []rules.Diagnostic {
	for {
		m.mu.Lock()
		e, ok := m.entries[path]
		m.mu.Unlock()
		if ok && e.key == key && e.stillHolds(snap) {
			if e.generation != snap.generation {
				m.mu.Lock()
				if cur, ok := m.entries[path]; ok && cur.key == key && cur.lookups == e.lookups {
					cur.generation = max(cur.generation, snap.generation)
					m.entries[path] = cur
				}
				m.mu.Unlock()
			}
			return e.found
		}
		m.mu.Lock()
		if c := m.running[path]; c != nil && c.key == key && c.generation == snap.generation {
			m.mu.Unlock()
			<-c.done
			continue // its entry, or, if it panicked, nothing: compute here
		}
		if e, ok := m.entries[path]; ok && e.key == key && e.generation == snap.generation {
			m.mu.Unlock() // finished since the first look
			return e.found
		}
		c := &analysisCall{key: key, generation: snap.generation, done: make(chan struct{})}
		if m.running == nil {
			m.running = map[string]*analysisCall{}
		}
		m.running[path] = c
		m.mu.Unlock()
		return m.compute(snap, path, c, compute)
	}
}

// compute runs the analysis c stands for and records its findings, then
// releases the callers waiting for c, even if the analysis panics.
func (m *analysisMemo) compute(snap *Snapshot, path string, c *analysisCall, compute func(*existsLog) []rules.Diagnostic) []rules.Diagnostic {
	defer func() {
		m.mu.Lock()
		if m.running[path] == c {
			delete(m.running, path)
		}
		m.mu.Unlock()
		close(c.done)
	}()
	var exists existsLog
	found := compute(&exists)
	m.mu.Lock()
	m.entries[path] = analysisEntry{key: c.key, generation: c.generation, lookups: snap.lookups, exists: exists.answer, found: found}
	m.computed++
	m.mu.Unlock()
	return found
}

// stillHolds reports whether the machine would answer the entry's
// analysis as it did, in snap.
func (e *analysisEntry) stillHolds(snap *Snapshot) bool {
	if e.generation == snap.generation {
		return true
	}
	if e.lookups != snap.lookups {
		return false
	}
	for path, exists := range e.exists {
		if snap.Exists(path) != exists {
			return false
		}
	}
	return true
}

// Match returns the kind of the file at path as the tools see it from
// opts' workspace folders in this snapshot: a reader that reads the file
// only directly in a workspace folder (VS Code's .mcp.json) counts only
// there, and a reader that reads it only as a fallback (Kilo Code's
// .mcp.json) only while the files it prefers do not exist
// (registry.MatchIn).
func (s *Snapshot) Match(path string, opts DiagnoseOptions) (*registry.FileKind, bool) {
	return opts.Registry.MatchIn(path, opts.Env, opts.folderPaths(), s.Exists)
}

// folderPaths are the paths of the workspace folders (never nil).
func (o DiagnoseOptions) folderPaths() []string {
	folders := make([]string, len(o.Folders))
	for i, f := range o.Folders {
		folders[i] = f.Path
	}
	return folders
}
