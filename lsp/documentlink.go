package lsp

import (
	"context"
	"os"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
)

// DocumentLink links the paths a file names ({file:...}, envFile, cwd,
// scripts in command, args and headersHelper, a local $schema) to what
// they name, when that exists as a regular file or a directory. Each
// candidate is a stat, never an open: a path may name a FIFO or a device,
// and an editor following a link to one would hang. URLs are never
// linked (the client would fetch them).
func (s *Server) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	out := []protocol.DocumentLink{}
	d, ok := s.resolveDocument(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	for _, l := range effective.Links(effective.LinkInput{
		Path:      d.path,
		File:      d.parsed,
		Kind:      d.kind,
		Registry:  d.opts.Registry,
		Home:      d.opts.Env.Home,
		LaunchDir: d.launch().Path,
	}) {
		if !linkable(l.Target) {
			continue
		}
		rng, err := d.m.Range(l.Span)
		if err != nil {
			s.logger.Error("document link span out of range", "path", d.path, "error", err)
			continue
		}
		out = append(out, protocol.DocumentLink{Range: rng, Target: pathToURI(l.Target), Tooltip: d.display(l.Target)})
	}
	return out, nil
}

// linkable reports whether path is a regular file or a directory (after
// links), from a stat.
func linkable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && (fi.Mode().IsRegular() || fi.IsDir())
}
