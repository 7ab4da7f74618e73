package cache

import (
	"path/filepath"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
)

// syncDrift is the sync-drift findings of the project at root: for each
// file named in its sync records (.mcp-lsp/sync.json), the entries
// changed by hand since sync wrote them (mcpsync.DriftFindings). A
// project without records, or with records that do not parse, has none
// (`mcp-lsp sync` reports unreadable records).
func (s *Snapshot) syncDrift(root string, opts DiagnoseOptions) map[string][]rules.Diagnostic {
	rf := s.File(filepath.Join(root, filepath.FromSlash(mcpsync.RecordsFile)))
	if !rf.Exists || rf.ReadErr != nil {
		return nil
	}
	recs, err := mcpsync.ParseRecords(rf.Content)
	if err != nil {
		return nil
	}
	out := map[string][]rules.Diagnostic{}
	done := map[string]bool{}
	for _, r := range recs.Entries {
		t, ok := mcpsync.TargetOf(opts.Registry, opts.Env, root, r)
		if !ok || done[t.Path] {
			continue
		}
		done[t.Path] = true
		f := s.File(t.Path)
		if !f.Exists || f.ReadErr != nil {
			continue
		}
		t.Content, t.Exists = f.Content, true
		out[t.Path] = append(out[t.Path], mcpsync.DriftFindings(mcpsync.DriftInput{
			Records: recs, Target: t, Content: f.Content, Parsed: s.Parse(f),
			SourcePath: func(rel string) string {
				if filepath.IsAbs(filepath.FromSlash(rel)) {
					return filepath.FromSlash(rel)
				}
				return filepath.Join(root, filepath.FromSlash(rel))
			},
			SourceSpan: s.serverSpan,
		})...)
	}
	return out
}

// serverSpan finds the name of server in a source file: a member of any
// top-level object (the source's server map, whichever key it uses).
func (s *Snapshot) serverSpan(path, server string) (span.Span, bool) {
	f := s.parsed(path)
	if f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
		return span.Span{}, false
	}
	for _, m := range f.Root.Members() {
		if m.Value == nil || m.Value.Kind != jsonc.Object {
			continue
		}
		if sm := m.Value.Get(server); sm != nil && sm.Key != nil {
			return sm.Key.Span, true
		}
	}
	return span.Span{}, false
}
