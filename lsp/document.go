package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// document is an MCP configuration file a request is about, resolved in
// the snapshot the request answers from: what the per-file features
// (code lens, inlay hints, links, rename) start from.
type document struct {
	path   string
	snap   *cache.Snapshot
	opts   cache.DiagnoseOptions
	kind   *registry.FileKind
	file   *cache.File
	parsed *jsonc.File
	m      *Mapper
}

// resolveDocument finds uri in the request's snapshot; ok is false when
// it is not a readable MCP configuration file the registry knows.
func (s *Server) resolveDocument(ctx context.Context, uri protocol.DocumentURI) (*document, bool) {
	path, ok := uriToPath(uri)
	if !ok {
		return nil, false
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	if !ok {
		return nil, false
	}
	f := snap.File(path)
	if !f.Exists || f.ReadErr != nil {
		return nil, false
	}
	if _, _, tooLarge := snap.TooLarge(f); tooLarge {
		return nil, false
	}
	return &document{path: path, snap: snap, opts: opts, kind: kind, file: f, parsed: snap.Parse(f), m: s.mappers.of(f)}, true
}

// launch is where the tools are assumed launched for this file.
func (d *document) launch() cache.Folder {
	return cache.LaunchDir(d.path, d.kind, d.opts.Folders)
}

// display shortens a path for the user (~/.claude.json).
func (d *document) display(p string) string { return cache.DisplayPath(p, d.opts) }
