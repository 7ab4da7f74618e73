package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// Definition jumps from a server's name to every definition of that name
// the tools launched where the file applies read, the winning one first:
// the same name in another file is the same server to a tool, and knowing
// which definition shadows which is the question users have.
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) ([]protocol.Location, error) {
	snap, defs, err := s.definitionsAt(ctx, params.TextDocument.URI, params.Position)
	if err != nil || defs == nil {
		return []protocol.Location{}, err
	}
	return s.locations(snap, defs.All), nil
}

// definitionsAt finds the server name at pos in the current snapshot and
// its definitions in the effective configurations of every tool launched
// where the file applies. defs is nil when pos is not on a server name,
// or the document is not an MCP configuration file.
func (s *Server) definitionsAt(ctx context.Context, uri protocol.DocumentURI, pos protocol.Position) (*cache.Snapshot, *effective.Definitions, error) {
	path, ok := uriToPath(uri)
	if !ok {
		return nil, nil, nil
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	f := snap.File(path)
	if !ok || !f.Exists || f.ReadErr != nil {
		return nil, nil, nil
	}
	offset, err := s.mappers.of(f).PositionOffset(pos)
	if err != nil {
		return nil, nil, err
	}
	launch := cache.LaunchDir(path, kind, opts.Folders)
	defs, ok := effective.DefinitionsAt(effective.NavigationInput{
		Path:    path,
		File:    snap.Parse(f),
		Kind:    kind,
		Offset:  offset,
		Results: snap.Effective(launch.Path, launch.GitRoot, opts),
	})
	if !ok {
		return nil, nil, nil
	}
	return snap, defs, nil
}

// locations converts places (in any file of snap) to LSP locations.
func (s *Server) locations(snap *cache.Snapshot, places []effective.Place) []protocol.Location {
	conv := newLocator(snap, s.mappers)
	out := make([]protocol.Location, 0, len(places))
	for _, p := range places {
		loc, err := conv.location(p.Path, p.Span)
		if err != nil {
			// A span outside its file is a bug; drop the one place.
			s.logger.Error("navigation span out of range", "path", p.Path, "error", err)
			continue
		}
		out = append(out, loc)
	}
	return out
}

// locator converts spans of a snapshot's files to locations, with one
// Mapper per file version: those of the session's cache when given one,
// else one per file for the locator's life.
type locator struct {
	snap    *cache.Snapshot
	cache   *mapperCache
	mappers map[string]*Mapper
}

func newLocator(snap *cache.Snapshot, c *mapperCache) *locator {
	return &locator{snap: snap, cache: c, mappers: map[string]*Mapper{}}
}

// mapper returns the Mapper of path's content in the snapshot.
func (l *locator) mapper(path string) *Mapper {
	m, ok := l.mappers[path]
	if !ok {
		m = l.cache.of(l.snap.File(path))
		l.mappers[path] = m
	}
	return m
}

// location is the Location of sp in path. An open file keeps the URI the
// client sent, so the editor recognises its own buffer.
func (l *locator) location(path string, sp span.Span) (protocol.Location, error) {
	rng, err := l.mapper(path).Range(sp)
	if err != nil {
		return protocol.Location{}, err
	}
	return protocol.Location{URI: l.uri(path), Range: rng}, nil
}

func (l *locator) uri(path string) protocol.DocumentURI {
	if o, ok := l.snap.Overlay(path); ok {
		return protocol.DocumentURI(o.URI)
	}
	return pathToURI(path)
}
