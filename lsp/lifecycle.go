package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// Initialize answers at once with the server's capabilities; anything slow
// (discovery of files) happens after initialized, in the background.
func (s *Server) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	s.clientCap = params.Capabilities
	s.lifecycle = stateInitialized
	s.mu.Unlock()
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: false},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "mcp-lsp", Version: s.opts.Version},
	}, nil
}

// Initialized pulls the user's settings in the background.
func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	go s.fetchConfiguration(ctx)
	return nil
}

// SetTrace is accepted and ignored: logs go to stderr or --log-file.
func (s *Server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// WorkDoneProgressCancel is accepted; nothing cancellable is reported yet.
func (s *Server) WorkDoneProgressCancel(context.Context, *protocol.WorkDoneProgressCancelParams) error {
	return nil
}
