package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// Hover shows, on a server's name, what each tool that reads the file will
// start under that name (its effective, merged definition and where each
// part comes from), and, for an entry sync wrote that differs from its
// source, both versions (hover_sync.go), and why a tool reading it has no
// "Disable in" action (hover_switch.go); on a server's field, the field's
// documentation.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	f := snap.File(path)
	if !f.Exists {
		return nil, nil
	}
	m := s.mappers.of(f)
	offset, err := m.PositionOffset(params.Position)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Not a tool's file: a sync template's {{...}} (hover_sync.go).
		if h, ok := s.templateHover(snap, opts, f, offset); ok && f.ReadErr == nil {
			return h, nil
		}
		return nil, nil
	}
	launch := cache.LaunchDir(path, kind, opts.Folders)
	loc := newLocator(snap, s.mappers)
	h, ok := effective.HoverAt(effective.HoverInput{
		Path:     path,
		File:     snap.Parse(f),
		Kind:     kind,
		Offset:   offset,
		Results:  snap.Effective(launch.Path, launch.GitRoot, opts),
		Registry: opts.Registry,
		Verdicts: snap.Analysis().Verdicts,
		Display:  func(p string) string { return cache.DisplayPath(p, opts) },
		Line:     func(p string, off int) int { return lineOf(loc, p, off) },
		RuleURL:  ruleDocURL,
	})
	if !ok {
		return nil, nil
	}
	rng, err := m.Range(h.Span)
	if err != nil {
		return nil, err
	}
	if s.leavesSchemaToClient(kind) {
		h.Markdown += schemaLeftToClientNote
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: h.Markdown + s.syncHover(ctx, params.TextDocument.URI, offset) + s.switchHover(ctx, params.TextDocument.URI, offset)},
		Range:    &rng,
	}, nil
}

// lineOf is the 1-based line of offset in path, for "file:line" in hover.
func lineOf(loc *locator, path string, offset int) int {
	line, _, err := loc.mapper(path).LineColumn(offset)
	if err != nil {
		return 0
	}
	return line
}
