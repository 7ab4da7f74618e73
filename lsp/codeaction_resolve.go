package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
)

// methodCodeActionResolve is LSP 3.16's codeAction/resolve, which
// go.lsp.dev/protocol v0.12.0 does not know; extraHandler serves it.
const methodCodeActionResolve = "codeAction/resolve"

// resolveData identifies a conversion between textDocument/codeAction and
// codeAction/resolve. It holds names only (the file, the server, the
// target dialect), never content: the client keeps it, and may log it.
type resolveData struct {
	URI    protocol.DocumentURI `json:"uri"`
	Server string               `json:"server,omitempty"` // "" converts the whole file
	To     string               `json:"to,omitempty"`
	// Action is a sync action (codeaction_sync.go), for Tool; "" for a
	// conversion.
	Action string `json:"action,omitempty"`
	Tool   string `json:"tool,omitempty"`
}

// serveCodeActionResolve decodes and answers codeAction/resolve.
func (s *Server) serveCodeActionResolve(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var a codeAction
	if err := json.Unmarshal(req.Params(), &a); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	res, err := s.resolveCodeAction(ctx, &a)
	return reply(ctx, res, err)
}

// errStaleAction answers a resolve whose conversion no longer looks as it
// did when it was offered (its title changed, the server went away): the
// client asks for code actions again rather than apply a surprise.
var errStaleAction = jsonrpc2.NewError(protocol.CodeContentModified, "the files changed since this action was offered; request code actions again")

// resolveCodeAction computes the edit of a conversion offered without
// one. The conversion is computed again on the current snapshot, so the
// edit matches the files as they are now; it must still have the title
// the user picked.
func (s *Server) resolveCodeAction(ctx context.Context, a *codeAction) (*codeAction, error) {
	if a.Edit != nil || a.Data == nil {
		return a, nil // nothing to resolve
	}
	af, ok := s.resolveActionFile(ctx, a.Data.URI)
	if !ok {
		return nil, errStaleAction
	}
	if a.Data.Action != "" {
		return s.resolveSyncAction(af, a)
	}
	ws, ok := af.workspace()
	if !ok {
		return nil, errStaleAction
	}
	if a.Data.Server != "" {
		return nil, errStaleAction // a server's actions are sync actions (Action set)
	}
	c, err := fix.ConvertFile(af.doc, ws, a.Data.To)
	if err != nil || c.Title != a.Title || c.Disabled != "" {
		return nil, errStaleAction
	}
	caps := s.codeActionCaps()
	if c.Create && !caps.edits.create {
		return nil, errStaleAction
	}
	edit, err := conversionEdit(af.snap, c, caps.edits)
	if err != nil {
		s.logger.Error("conversion edit", "to", c.To, "error", err)
		return nil, err
	}
	a.Edit = edit
	return a, nil
}
