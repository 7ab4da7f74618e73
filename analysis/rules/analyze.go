package rules

import (
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
	var ds []Diagnostic
	for _, k := range fileChecks {
		ds = append(ds, k.file(in)...)
	}
	ds = append(ds, checkSemantics(in)...)
	ds = dropGenericDuplicates(ds)
	ds = in.Config.apply(ds)
	SortDiagnostics(ds)
	return ds
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
	specific := map[[2]int]bool{}
	for _, d := range ds {
		if !genericCodes[d.Code] {
			specific[[2]int{d.Span.Start, d.Span.End}] = true
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if genericCodes[d.Code] && specific[[2]int{d.Span.Start, d.Span.End}] {
			continue
		}
		out = append(out, d)
	}
	return out
}
