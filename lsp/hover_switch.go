package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
)

// switchHover is the part of a server's hover about the tools that read
// this file (the registry's readers) but cannot turn a server off from a
// file. The code actions offer
// "Disable in <Tool>" only for tools with a switch (codeaction_switch.go);
// hover says why the others are missing, in the words `mcp-lsp disable`
// uses. "" when every such tool has a switch, or the cursor is not on a
// server's name.
func (s *Server) switchHover(ctx context.Context, uri protocol.DocumentURI, offset int) string {
	af, ok := s.resolveActionFile(ctx, uri)
	if !ok {
		return ""
	}
	_, ok = fix.ServerNameAt(af.doc, offset)
	if !ok {
		return ""
	}
	if af.doc.Kind == nil {
		return ""
	}
	var lines []string
	for _, rd := range af.doc.Kind.Readers {
		t, ok := af.opts.Registry.Tool(rd.Tool)
		if !ok || mcpsync.HasSwitch(t) {
			continue
		}
		lines = append(lines, fmt.Sprintf("- No \"Disable in %s\": %s.", t.Name, mcpsync.NoSwitchReason(t)))
	}
	if len(lines) == 0 {
		return ""
	}
	return "\n\n---\n\n" + strings.Join(lines, "\n") + "\n"
}
