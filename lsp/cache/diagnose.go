package cache

import (
	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Diagnose analyses path in this snapshot. ok is false when the file is not
// an MCP configuration file the registry knows, or does not exist: such
// files get no diagnostics at all. Both the language server and the check
// CLI call this, so they can never disagree.
func (s *Snapshot) Diagnose(path string, reg *registry.Registry, env registry.Env) (f *File, found []analysis.Diagnostic, ok bool) {
	kind, known := reg.Match(path, env)
	if !known {
		return nil, nil, false
	}
	f = s.File(path)
	if !f.Exists || f.ReadErr != nil {
		return f, nil, f.Exists
	}
	found = analysis.AnalyzeFile(analysis.FileInput{
		Path:    path,
		Content: f.Content,
		Parsed:  s.Parse(f),
		Kind:    kind,
	})
	return f, found, true
}
