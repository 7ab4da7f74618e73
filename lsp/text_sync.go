package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// DidOpen layers the buffer over the disk. Files that are not MCP configs
// are tracked too (cheaply) but never get diagnostics: the registry, not
// the language id, decides what mcp-lsp serves.
func (s *Server) DidOpen(_ context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil // untitled: and other schemes have no place in a project
	}
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{
		Path:    path,
		URI:     string(params.TextDocument.URI),
		Version: params.TextDocument.Version,
		Content: []byte(params.TextDocument.Text),
	}}}, nil)
	// Re-read files from disk: user-level files may have changed outside
	// the editor, and clients without relative-pattern watchers do not
	// report them.
	s.session.ForgetDisk()
	s.diags.track(path)
	return nil
}

// DidClose drops the buffer: the file's diagnostics fall back to its
// content on disk, or disappear if it no longer exists.
func (s *Server) DidClose(_ context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.session.Modify([]cache.Modification{{Path: path}}, []string{path})
	s.diags.trigger()
	return nil
}

// DidSave re-reads files from disk the next time a closed view needs them.
func (s *Server) DidSave(_ context.Context, params *protocol.DidSaveTextDocumentParams) error {
	if _, ok := uriToPath(params.TextDocument.URI); !ok {
		return nil
	}
	// Other files may have changed too (a save-all, a tool rewriting its
	// config): re-read everything from disk, which is cheap at this size.
	s.session.ForgetDisk()
	s.diags.trigger()
	return nil
}

// DidChangeWatchedFiles forgets the disk content of the changed files.
func (s *Server) DidChangeWatchedFiles(_ context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	var paths []string
	for _, ev := range params.Changes {
		if path, ok := uriToPath(ev.URI); ok {
			paths = append(paths, path)
			s.diags.track(path)
		}
	}
	s.session.Modify(nil, paths)
	if len(paths) == 0 {
		s.session.ForgetDisk()
	}
	s.diags.trigger()
	return nil
}

// didChangeParams is textDocument/didChange decoded with a pointer range:
// go.lsp.dev/protocol's TextDocumentContentChangeEvent has a value Range,
// which cannot tell a full-text change (no range) from an insertion at
// 0:0, so the method is decoded here instead (see extraHandler).
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range,omitempty"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

func (s *Server) didChange(params *didChangeParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil
	}
	snap := s.session.Snapshot()
	o, ok := snap.Overlay(path)
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", params.TextDocument.URI)
	}
	content := o.Content
	for _, ch := range params.ContentChanges {
		if ch.Range == nil {
			content = []byte(ch.Text)
			continue
		}
		sp, err := NewMapper(content).Span(*ch.Range)
		if err != nil {
			// The client and server disagree on the text; applying the
			// edit anyway would corrupt every later position.
			return fmt.Errorf("didChange %s: %w", params.TextDocument.URI, err)
		}
		next := make([]byte, 0, len(content)-sp.Len()+len(ch.Text))
		next = append(next, content[:sp.Start]...)
		next = append(next, ch.Text...)
		content = append(next, content[sp.End:]...)
	}
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{
		Path: path, URI: o.URI, Version: params.TextDocument.Version, Content: content,
	}}}, nil)
	s.diags.trigger()
	return nil
}

// extraHandler serves the methods that go.lsp.dev/protocol v0.12.0 cannot
// decode or does not know, before protocol.ServerHandler sees them.
func (s *Server) extraHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if s.opts.testHook != nil {
			s.opts.testHook(ctx, req.Method())
		}
		switch req.Method() {
		case protocol.MethodInitialize:
			s.captureRawCapabilities(req.Params())
		case methodEffective:
			return s.serveEffective(ctx, reply, req)
		case protocol.MethodTextDocumentDidChange:
			var params didChangeParams
			if err := json.Unmarshal(req.Params(), &params); err != nil {
				return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
			}
			if err := s.didChange(&params); err != nil {
				s.logger.Warn("didChange rejected", "error", err)
				return reply(ctx, nil, err)
			}
			return reply(ctx, nil, nil)
		case protocol.MethodTextDocumentCodeAction:
			return s.serveCodeAction(ctx, reply, req)
		case methodCodeActionResolve:
			return s.serveCodeActionResolve(ctx, reply, req)
		}
		return next(ctx, reply, req)
	}
}
