package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// go.lsp.dev/protocol v0.12.0 stops at LSP 3.16: its ServerCapabilities
// has no positionEncoding, inlayHintProvider or diagnosticProvider. The
// initialize reply is therefore its InitializeResult with those members
// added (serveInitialize), and the client's side of them is read raw
// (rawClientCaps).

// refreshSupport is a workspace client capability of LSP 3.16-3.17
// (codeLens, inlayHint, diagnostics): the client re-requests the view
// when the server sends <view>/refresh.
type refreshSupport struct {
	RefreshSupport bool `json:"refreshSupport"`
}

// serverCapabilities is protocol.ServerCapabilities with LSP 3.17's
// members.
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding   string             `json:"positionEncoding,omitempty"`
	InlayHintProvider  bool               `json:"inlayHintProvider,omitempty"`
	DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider,omitempty"`
}

// diagnosticOptions (LSP 3.17) says the server serves pulled diagnostics.
type diagnosticOptions struct {
	Identifier            string `json:"identifier,omitempty"`
	InterFileDependencies bool   `json:"interFileDependencies"`
	WorkspaceDiagnostics  bool   `json:"workspaceDiagnostics"`
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// serveInitialize decodes initialize, records the capabilities
// go.lsp.dev/protocol cannot decode, and answers with Initialize's result
// plus the LSP 3.17 members.
func (s *Server) serveInitialize(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params protocol.InitializeParams
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	s.captureRawCapabilities(req.Params())
	s.negotiate()
	res, err := s.Initialize(ctx, &params)
	if err != nil {
		return reply(ctx, nil, err)
	}
	s.mu.Lock()
	enc, pull := s.encoding, s.pullDiagnostics
	s.mu.Unlock()
	out := initializeResult{
		Capabilities: serverCapabilities{ServerCapabilities: res.Capabilities, InlayHintProvider: true},
		ServerInfo:   res.ServerInfo,
	}
	if enc == EncodingUTF8 {
		out.Capabilities.PositionEncoding = string(enc)
	}
	if pull {
		out.Capabilities.DiagnosticProvider = &diagnosticOptions{Identifier: "mcp-lsp", InterFileDependencies: true, WorkspaceDiagnostics: true}
	}
	return reply(ctx, out, nil)
}

// negotiate settles what depends on the client's capabilities, before
// any document arrives: the position encoding (UTF-8 when offered), and
// whether diagnostics are pulled by the client or pushed by the server.
func (s *Server) negotiate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.encoding = NegotiateEncoding(s.rawCaps.General.PositionEncodings)
	s.mappers.setEncoding(s.encoding)
	s.pullDiagnostics = s.rawCaps.offersPull()
}

// newMapper indexes content in the session's position encoding.
func (s *Server) newMapper(content []byte) *Mapper {
	s.mu.Lock()
	enc := s.encoding
	s.mu.Unlock()
	return NewMapperEncoding(content, enc)
}

// refreshEditorViews asks the client to re-request code lenses and inlay
// hints, where it supports being asked: after a settings change or a
// change on disk, which the views of open files do not see otherwise. It
// never waits for the client.
func (s *Server) refreshEditorViews(ctx context.Context) {
	s.mu.Lock()
	caps := s.rawCaps.Workspace
	s.mu.Unlock()
	for method, ok := range map[string]bool{
		"workspace/codeLens/refresh":  caps.CodeLens.RefreshSupport,
		"workspace/inlayHint/refresh": caps.InlayHint.RefreshSupport,
	} {
		if ok {
			go func() {
				if err := s.callClient(ctx, method, nil, nil); err != nil {
					s.logger.Debug("refresh failed", "method", method, "error", err)
				}
			}()
		}
	}
}
