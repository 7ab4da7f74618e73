package lsp

import (
	"context"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
)

// References lists the definitions of the server name under the cursor,
// as Definition does: MCP configurations have no uses of a name other
// than its definitions, and a name defined in several files is one server
// to a tool. The definition under the cursor is the declaration.
func (s *Server) References(ctx context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	snap, defs, err := s.definitionsAt(ctx, params.TextDocument.URI, params.Position)
	if err != nil || defs == nil {
		return []protocol.Location{}, err
	}
	places := defs.All
	if !params.Context.IncludeDeclaration {
		places = slices.DeleteFunc(slices.Clone(places), func(p effective.Place) bool { return p == defs.Here })
	}
	return s.locations(snap, places), nil
}
