package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
)

// Inlay hints (LSP 3.17 textDocument/inlayHint, which go.lsp.dev/protocol
// v0.12.0 lacks, hence the types here and extraHandler): after each
// environment variable reference, whether it is set where mcp-lsp runs
// (never its value); after each server name, the tool-name budget its
// prefix leaves. See effective.InlayHints.

const methodInlayHint = "textDocument/inlayHint"

type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHint is LSP 3.17's InlayHint with a plain-string label and tooltip.
type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        string            `json:"label"`
	Kind         int               `json:"kind,omitempty"` // 1: type, 2: parameter
	Tooltip      string            `json:"tooltip,omitempty"`
	PaddingLeft  bool              `json:"paddingLeft,omitempty"`
	PaddingRight bool              `json:"paddingRight,omitempty"`
}

// serveInlayHint decodes and answers textDocument/inlayHint.
func (s *Server) serveInlayHint(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params inlayHintParams
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	hints, err := s.inlayHints(ctx, &params)
	return reply(ctx, hints, err)
}

// inlayHints lists the hints in the requested range: none (an empty list,
// never null) when the setting mcpLsp.inlayHints is off.
func (s *Server) inlayHints(ctx context.Context, params *inlayHintParams) ([]inlayHint, error) {
	out := []inlayHint{}
	if !s.editorSettings().inlayHints {
		return out, nil
	}
	d, ok := s.resolveDocument(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	within, err := d.m.Span(clampRange(d.m, params.Range))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err)
	}
	isSet := s.opts.LookupEnv
	if isSet == nil {
		isSet = os.LookupEnv
	}
	for _, h := range effective.InlayHints(effective.HintInput{
		File:     d.parsed,
		Kind:     d.kind,
		Registry: d.opts.Registry,
		IsSet:    func(name string) bool { _, ok := isSet(name); return ok },
		Within:   within,
	}) {
		if h.Offset < within.Start || h.Offset > within.End {
			continue
		}
		pos, err := d.m.OffsetPosition(h.Offset)
		if err != nil {
			s.logger.Error("inlay hint offset out of range", "path", d.path, "error", err)
			continue
		}
		kind := 1 // type: what the reference resolves to
		if h.Kind == effective.HintToolNames {
			kind = 0
		}
		out = append(out, inlayHint{Position: pos, Label: h.Label, Kind: kind, Tooltip: h.Tooltip, PaddingLeft: true})
	}
	return out, nil
}
