package lsp

import (
	"context"
	"os"
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// Initialize answers at once with the server's capabilities; anything slow
// (discovery of files) happens after initialized, in the background.
func (s *Server) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	folders := workspaceFolders(params)
	s.mu.Lock()
	s.clientCap = params.Capabilities
	if params.ClientInfo != nil {
		s.clientName = params.ClientInfo.Name
	}
	s.lifecycle = stateInitialized
	s.folders = folders
	s.mu.Unlock()
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: false},
			},
			HoverProvider:           true,
			CompletionProvider:      &protocol.CompletionOptions{TriggerCharacters: []string{"\"", ":"}},
			DefinitionProvider:      true,
			ReferencesProvider:      true,
			DocumentSymbolProvider:  true,
			WorkspaceSymbolProvider: true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: codeActionKinds,
				ResolveProvider: true,
			},
			DocumentFormattingProvider: true,
			CodeLensProvider:           &protocol.CodeLensOptions{},
			DocumentLinkProvider:       &protocol.DocumentLinkOptions{},
			RenameProvider:             &protocol.RenameOptions{PrepareProvider: true},
			ExecuteCommandProvider:     &protocol.ExecuteCommandOptions{Commands: []string{openDefinitionCommand}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "mcp-lsp", Version: s.opts.Version},
	}, nil
}

// Initialized pulls the user's settings and discovers the workspace's
// config files, both in the background: initialize has already answered.
func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	go s.fetchConfiguration(ctx)
	go s.discover(ctx)
	return nil
}

// SetTrace is accepted and ignored: logs go to stderr or --log-file.
func (s *Server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// WorkDoneProgressCancel is accepted; nothing cancellable is reported yet.
func (s *Server) WorkDoneProgressCancel(context.Context, *protocol.WorkDoneProgressCancelParams) error {
	return nil
}

// workspaceFolders reads the folders from initialize: workspaceFolders,
// or the older rootUri / rootPath. Non-file folders are skipped.
func workspaceFolders(params *protocol.InitializeParams) []cache.Folder {
	var paths []string
	for _, f := range params.WorkspaceFolders {
		if p, ok := uriToPath(protocol.DocumentURI(f.URI)); ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		if p, ok := uriToPath(params.RootURI); ok {
			paths = append(paths, p)
		} else if params.RootPath != "" {
			paths = append(paths, filepath.Clean(params.RootPath))
		}
	}
	var out []cache.Folder
	for _, p := range paths {
		out = append(out, cache.Folder{Path: p, GitRoot: gitRoot(p)})
	}
	return out
}

// gitRoot returns the nearest directory at or above dir that holds a .git
// entry (a directory, or a file in worktrees and submodules).
func gitRoot(dir string) string { return discovery.GitRoot(os.DirFS("/"), dir) }
