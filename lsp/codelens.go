package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Code lens: above each server, what each tool does with it (starts,
// shadowed by, pending approval, skipped: why, not read here), from the
// effective configurations the snapshot has memoized for diagnostics and
// hover (effective.Lenses). Nothing is executed or connected.
//
// Clicking a lens opens the effective view (the VS Code extension's
// command mcpLsp.showEffective), or, for a shadowed definition, jumps to
// the winning one: the server command openDefinitionCommand, which asks
// the client to show it (window/showDocument), so it works in any client
// that executes server commands.

const (
	// showEffectiveCommand is the VS Code extension's command that opens
	// the effective view of the active file.
	showEffectiveCommand = "mcpLsp.showEffective"
	// openDefinitionCommand is served by the server (ExecuteCommand): its
	// argument is a Location, which the client is asked to show.
	openDefinitionCommand = "mcp-lsp.openDefinition"
)

// CodeLens answers textDocument/codeLens; the list is empty (never null)
// when the setting mcpLsp.codeLens is off.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	out := []protocol.CodeLens{}
	if !s.editorSettings().codeLens {
		return out, nil
	}
	d, ok := s.resolveDocument(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	launch := d.launch()
	lenses := effective.Lenses(effective.LensInput{
		Path:     d.path,
		File:     d.parsed,
		Kind:     d.kind,
		Results:  d.snap.Effective(launch.Path, launch.GitRoot, d.opts),
		Registry: d.opts.Registry,
		Display:  d.display,
	})
	loc := newLocator(d.snap, s.mappers)
	// A server's lenses (one per tool) share its name's span: converted
	// once.
	var (
		last   span.Span
		rng    protocol.Range
		rngErr error
	)
	for i, l := range lenses {
		if i == 0 || l.Span != last {
			last = l.Span
			rng, rngErr = d.m.Range(l.Span)
		}
		if rngErr != nil {
			s.logger.Error("code lens span out of range", "path", d.path, "error", rngErr)
			continue
		}
		cmd := &protocol.Command{Title: l.Title, Command: showEffectiveCommand}
		if l.Winner != nil {
			if target, err := loc.location(l.Winner.Path, l.Winner.Span); err == nil {
				cmd = &protocol.Command{Title: l.Title, Command: openDefinitionCommand, Arguments: []any{target}}
			}
		}
		out = append(out, protocol.CodeLens{Range: rng, Command: cmd})
	}
	return out, nil
}

// ExecuteCommand serves the server's commands: openDefinitionCommand.
func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	switch params.Command {
	case openDefinitionCommand:
		if len(params.Arguments) != 1 {
			return nil, fmt.Errorf("%w: %s takes one location", jsonrpc2.ErrInvalidParams, openDefinitionCommand)
		}
		raw, _ := json.Marshal(params.Arguments[0])
		var target protocol.Location
		if err := json.Unmarshal(raw, &target); err != nil || target.URI == "" {
			return nil, fmt.Errorf("%w: %s takes a location", jsonrpc2.ErrInvalidParams, openDefinitionCommand)
		}
		show := map[string]any{"uri": target.URI, "takeFocus": true, "selection": target.Range}
		var res struct {
			Success bool `json:"success"`
		}
		if err := s.callClient(ctx, "window/showDocument", show, &res); err != nil {
			return nil, fmt.Errorf("the editor could not show %s: %v", target.URI, err)
		}
		return nil, nil
	}
	return nil, fmt.Errorf("%w: unknown command %q", jsonrpc2.ErrMethodNotFound, params.Command)
}
