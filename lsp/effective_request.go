package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// methodEffective is mcp-lsp's own request behind the VS Code command
// "MCP: Show effective configuration": what each tool will start when
// launched where the given document applies (or in the first workspace
// folder), in the same shape as `mcp-lsp effective --format json`.
const methodEffective = "mcp-lsp/effective"

type effectiveParams struct {
	TextDocument *protocol.TextDocumentIdentifier `json:"textDocument,omitempty"`
}

// effectiveRequest serves methodEffective. User-level files are re-read
// first: without a relative-pattern file watcher, edits to them outside
// the editor would otherwise go unseen.
func (s *Server) effectiveRequest(raw json.RawMessage) ([]EffectiveTool, error) {
	var params effectiveParams
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &params); err != nil {
			return nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err)
		}
	}
	snap, opts := s.session.ForgetDisk(), s.diagnoseOptions()
	s.diags.trigger() // what was re-read may change diagnostics too
	var launch cache.Folder
	switch {
	case params.TextDocument != nil:
		path, ok := uriToPath(params.TextDocument.URI)
		if !ok {
			return []EffectiveTool{}, nil
		}
		kind, _ := snap.Match(path, opts)
		launch = cache.LaunchDir(path, kind, opts.Folders)
	case len(opts.Folders) > 0:
		launch = opts.Folders[0]
	default:
		return []EffectiveTool{}, nil
	}
	out := []EffectiveTool{}
	for _, r := range snap.Effective(launch.Path, launch.GitRoot, opts) {
		out = append(out, EffectiveView(snap, r, opts))
	}
	return out, nil
}

// serveEffective is the extraHandler hook for methodEffective.
func (s *Server) serveEffective(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	res, err := s.effectiveRequest(req.Params())
	return reply(ctx, res, err)
}
