package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/complete"
)

// Completion offers, inside a server entry of a known file kind, the
// fields its readers accept (on a key) and the allowed values of a field
// such as "type" (on its value), except, in a file VS Code completes from
// its own schema, what VS Code offers already (vscodeschema.go). Anywhere
// else the list is empty, never null.
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (*protocol.CompletionList, error) {
	list := &protocol.CompletionList{IsIncomplete: false, Items: []protocol.CompletionItem{}}
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return list, nil
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	f := snap.File(path)
	if !ok || !f.Exists {
		return list, nil
	}
	m := s.mappers.of(f)
	offset, err := m.PositionOffset(params.Position)
	if err != nil {
		return nil, err
	}
	parsed := snap.Parse(f)
	items := complete.At(complete.Input{
		File:     parsed,
		Kind:     kind,
		Offset:   offset,
		Registry: opts.Registry,
		TOML:     strings.EqualFold(filepath.Ext(path), ".toml"),
	})
	if s.leavesSchemaToClient(kind) {
		// VS Code completes its own files from its schema: do not offer
		// the same items a second time.
		items = withoutClientCompletions(parsed, offset, items)
	}
	snippets := s.snippetSupport()
	preselected := false
	for i, it := range items {
		rng, err := m.Range(it.Span)
		if err != nil {
			return nil, err
		}
		ci := protocol.CompletionItem{
			Label:            it.Label,
			Detail:           it.Detail,
			FilterText:       it.Text,
			InsertText:       it.Text,
			InsertTextFormat: protocol.InsertTextFormatPlainText,
			TextEdit:         &protocol.TextEdit{Range: rng, NewText: it.Text},
			SortText:         sortText(i, it.Preferred),
		}
		if snippets && it.Snippet != "" {
			ci.InsertText, ci.TextEdit.NewText = it.Snippet, it.Snippet
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		switch it.Kind {
		case complete.Property:
			ci.Kind = protocol.CompletionItemKindProperty
		case complete.EnumMember:
			ci.Kind = protocol.CompletionItemKindEnumMember
		}
		if it.Doc != "" {
			ci.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Doc}
		}
		if it.Preferred && !preselected {
			ci.Preselect, preselected = true, true
		}
		list.Items = append(list.Items, ci)
	}
	return list, nil
}

// sortText keeps the analysis order, preferred candidates first.
func sortText(i int, preferred bool) string {
	rank := 1
	if preferred {
		rank = 0
	}
	return fmt.Sprintf("%d%04d", rank, i)
}

// snippetSupport reports whether the client accepts snippet completions.
func (s *Server) snippetSupport() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.clientCap.TextDocument
	return td != nil && td.Completion != nil && td.Completion.CompletionItem != nil &&
		td.Completion.CompletionItem.SnippetSupport
}
