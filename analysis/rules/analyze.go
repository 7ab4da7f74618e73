package rules

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// FileInput is one MCP configuration file to analyse: its bytes, their
// parse, and what the registry knows about the file (who reads it, how).
type FileInput struct {
	Path    string
	Content []byte
	Parsed  *jsonc.File
	Kind    *registry.FileKind
	// Registry resolves tool names for messages; nil means the default.
	Registry *registry.Registry
	// Config holds the user's rule settings.
	Config Config
	// Cache is the session's memory of verdicts and per-entry findings
	// (see Cache); nil means none is kept between calls.
	Cache *Cache
	// Resolver looks up commands and files on the user's machine for the rules that need it (command-not-found, missing-file-reference); nil turns those rules off.
	Resolver Resolver

	// index holds what the checks of one AnalyzeFile share about the parse
	// (nil: each check builds its own).
	index *parseIndex
}

// AnalyzeFile returns every single-file finding for in, sorted by
// position: it runs the check of every rule in Rules (checksOf), the
// whole-file ones here, the ones that look at server entries through
// checkSemantics.
func AnalyzeFile(in FileInput) []Diagnostic {
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	if in.Parsed == nil {
		in.Parsed = jsonc.Parse(in.Content)
	}
	in.Kind = restrictReaders(in.Kind, &in.Config)
	in.index = &parseIndex{}
	if in.Cache == nil {
		in.Cache = NewCache()
	}
	if ds, ok := analyzeByEntry(in); ok {
		return ds
	}
	return analyzeWhole(in)
}

// analyzeWhole is AnalyzeFile without the file memo: every check over the
// whole file, the servers' findings from the per-entry memos.
func analyzeWhole(in FileInput) []Diagnostic {
	project := projectRulesAside(in)
	var ds []Diagnostic
	for _, k := range fileChecks {
		if k == projectRulesCheck && project != nil {
			ds = append(ds, project()...)
			continue
		}
		ds = append(ds, k.file(in)...)
	}
	ds = append(ds, checkSemantics(in)...)
	ds = dropGenericDuplicates(ds)
	ds = in.Config.apply(ds)
	SortDiagnostics(ds)
	return ds
}

// asideSize is the size from which a file's project rules run on another
// core while the other checks run: a third of a large file's first
// analysis (a 1,000-server file is about 400 KB, a minified 20,000-server
// one 4 MB). Below it a goroutine is not worth its cost.
var asideSize = 32 << 10 // a variable for TestProjectRulesAsideSameFindings

// projectRulesAside starts the project rules' check of in in another
// goroutine, when it is one of the checks and in is large, and returns the
// function that waits for its findings (nil when not started). The check
// shares nothing mutable with the others but the session's memos, which
// are locked, and its parse index, which it gets its own of. Its findings
// are appended where they always were, so the order is the same. A panic
// in it is raised again in the caller of the returned function.
func projectRulesAside(in FileInput) func() []Diagnostic {
	if len(in.Content) < asideSize || !slices.Contains(fileChecks, projectRulesCheck) {
		return nil
	}
	in.index = &parseIndex{}
	ch := make(chan func() []Diagnostic, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- func() []Diagnostic { panic(r) }
			}
		}()
		ds := projectRulesCheck.file(in)
		ch <- func() []Diagnostic { return ds }
	}()
	return func() []Diagnostic { return (<-ch)() }
}

// restrictReaders returns kind with only the readers whose tool the user
// runs, so every rule sees the same, already filtered, list.
func restrictReaders(kind *registry.FileKind, c *Config) *registry.FileKind {
	if kind == nil || len(c.Tools) == 0 {
		return kind
	}
	k := *kind
	k.Readers = nil
	for _, r := range kind.Readers {
		if c.applies(r.Tool) {
			k.Readers = append(k.Readers, r)
		}
	}
	return &k
}

// genericCodes are the schema-derived codes. When a specific rule reports
// on exactly the same span (say "url without type" on a server's name,
// where the schema would say "command is missing"), the specific finding
// explains the problem better and the generic one is dropped.
var genericCodes = map[string]bool{}

// dropGenericDuplicates removes a generic finding that shares its span
// with a specific one.
func dropGenericDuplicates(ds []Diagnostic) []Diagnostic {
	// Generic findings are few (a 1,000-server file has a dozen among
	// 1,300 specific ones): the set is of their spans, and only a
	// specific finding on one of those marks it.
	var generic map[[2]int]bool // span -> a specific finding shares it
	for _, d := range ds {
		if genericCodes[d.Code] {
			if generic == nil {
				generic = map[[2]int]bool{}
			}
			generic[[2]int{d.Span.Start, d.Span.End}] = false
		}
	}
	if generic == nil {
		return ds
	}
	for _, d := range ds {
		at := [2]int{d.Span.Start, d.Span.End}
		if _, ok := generic[at]; ok && !genericCodes[d.Code] {
			generic[at] = true
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if genericCodes[d.Code] && generic[[2]int{d.Span.Start, d.Span.End}] {
			continue
		}
		out = append(out, d)
	}
	return out
}
