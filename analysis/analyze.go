package analysis

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
}

// AnalyzeFile returns every single-file finding for in, sorted by position.
func AnalyzeFile(in FileInput) []Diagnostic {
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	if in.Parsed == nil {
		in.Parsed = jsonc.Parse(in.Content)
	}
	var ds []Diagnostic
	ds = append(ds, checkSyntax(in)...)
	SortDiagnostics(ds)
	return ds
}
