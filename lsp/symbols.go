package lsp

import (
	"context"
	"maps"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// DocumentSymbol outlines a file's servers, one per name and map, with
// the projects of ~/.claude.json as parents of their servers. The result
// is never null: some clients treat null as a failed request.
func (s *Server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) ([]interface{}, error) {
	out := []interface{}{}
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	f := snap.File(path)
	if !ok || !f.Exists || f.ReadErr != nil {
		return out, nil
	}
	m := s.mappers.of(f)
	for _, sym := range effective.Symbols(snap.Parse(f), kind) {
		ds, err := documentSymbol(m, sym)
		if err != nil {
			s.logger.Error("symbol span out of range", "path", path, "error", err)
			continue
		}
		out = append(out, ds)
	}
	return out, nil
}

// documentSymbol converts a symbol and its children.
func documentSymbol(m *Mapper, sym effective.Symbol) (protocol.DocumentSymbol, error) {
	rng, err := m.Range(sym.Span)
	if err != nil {
		return protocol.DocumentSymbol{}, err
	}
	sel, err := m.Range(sym.NameSpan)
	if err != nil {
		return protocol.DocumentSymbol{}, err
	}
	ds := protocol.DocumentSymbol{Name: sym.Name, Detail: sym.Detail, Kind: symbolKind(sym.Kind), Range: rng, SelectionRange: sel}
	for _, c := range sym.Children {
		cs, err := documentSymbol(m, c)
		if err != nil {
			return protocol.DocumentSymbol{}, err
		}
		ds.Children = append(ds.Children, cs)
	}
	return ds, nil
}

func symbolKind(k effective.SymbolKind) protocol.SymbolKind {
	if k == effective.SymbolGroup {
		return protocol.SymbolKindNamespace
	}
	return protocol.SymbolKindModule
}

// Symbols (workspace/symbol) finds servers by name, ignoring case, in
// every file the server knows: the files tracked for diagnostics, and
// every file a tool reads when launched in a workspace folder, so that
// user-level files (~/.claude.json) are searched without being open. An
// empty query lists every server. The container is the file's display
// path, which tells the same name in two files apart.
func (s *Server) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	snap, opts := s.view(ctx)
	out := []protocol.SymbolInformation{}
	loc := newLocator(snap, s.mappers)
	for _, path := range s.knownFiles(snap, opts) {
		kind, ok := snap.Match(path, opts)
		f := snap.File(path)
		if !ok || !f.Exists || f.ReadErr != nil {
			continue
		}
		container := cache.DisplayPath(path, opts)
		for _, sym := range effective.MatchServers(effective.Symbols(snap.Parse(f), kind), params.Query) {
			l, err := loc.location(path, sym.NameSpan)
			if err != nil {
				s.logger.Error("symbol span out of range", "path", path, "error", err)
				continue
			}
			out = append(out, protocol.SymbolInformation{Name: sym.Name, Kind: symbolKind(sym.Kind), Location: l, ContainerName: container})
		}
	}
	return out, nil
}

// knownFiles lists, sorted, the files tracked for diagnostics and the
// files the tools read for each workspace folder (snap.Workspace caches
// those per snapshot).
func (s *Server) knownFiles(snap *cache.Snapshot, opts cache.DiagnoseOptions) []string {
	set := map[string]bool{}
	s.diags.mu.Lock()
	for p := range s.diags.tracked {
		set[p] = true
	}
	s.diags.mu.Unlock()
	for _, r := range snap.Workspace(opts).Results {
		for _, src := range r.Sources {
			set[src.Path] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
