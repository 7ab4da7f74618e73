package lsp

import (
	"context"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/format"
)

// Formatting formats a JSON or JSONC config file the registry knows, with
// hujson's layout and the editor's indentation, as one edit per changed
// hunk of lines so cursors and folds elsewhere survive. TOML files, files
// with syntax errors and unknown files get no edits; the answer is never
// null.
func (s *Server) Formatting(ctx context.Context, params *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	edits := []protocol.TextEdit{}
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok || strings.EqualFold(filepath.Ext(path), ".toml") {
		return edits, nil
	}
	snap, opts := s.view(ctx)
	_, ok = snap.Match(path, opts)
	f := snap.File(path)
	if !ok || !f.Exists {
		return edits, nil
	}
	m := s.mappers.of(f)
	for _, e := range format.Edits(f.Content, format.Options{
		TabSize:            int(params.Options.TabSize),
		InsertSpaces:       params.Options.InsertSpaces,
		InsertFinalNewline: params.Options.InsertFinalNewline,
	}) {
		rng, err := m.Range(e.Span)
		if err != nil {
			return []protocol.TextEdit{}, err
		}
		edits = append(edits, protocol.TextEdit{Range: rng, NewText: e.NewText})
	}
	return edits, nil
}
