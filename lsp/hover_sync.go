package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
)

// syncHover is the part of a server's hover about sync: for an entry
// mcp-lsp sync wrote (it has a record) that no longer matches its source,
// both versions, the entry here and what the source gives, masked like
// the rest of hover. It says whether the entry was changed by hand (drift:
// sync leaves it alone) or the source changed (the next sync updates it).
// "" when the entry is not synced or matches its source, or the cursor
// is not on its name.
func (s *Server) syncHover(ctx context.Context, uri protocol.DocumentURI, offset int) string {
	af, ok := s.resolveActionFile(ctx, uri)
	if !ok {
		return ""
	}
	name, ok := fix.ServerAt(af.doc, offset, offset)
	if !ok {
		return ""
	}
	v, ok := newSyncView(af)
	if !ok {
		return ""
	}
	u, ok := v.planUpdate(name)
	if !ok {
		return ""
	}
	rec := u.rec
	if sp, ok := mcpsync.KeySpan(af.doc.Parsed, u.target, name); !ok || !sp.ContainsInclusive(offset) {
		return "" // on the server's name only, where the finding is
	}
	here, ok := u.target.CurrentEntry(name)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n---\n\n")
	if u.plan == nil {
		drift := ""
		if mcpsync.HashEntry(here) != rec.Hash {
			drift = ", changed by hand since (drift)"
		}
		fmt.Fprintf(&b, "**Synced from %s**%s. %s.\n", rec.Source, drift, u.unresolvedReason())
		return b.String()
	}
	source, ok := u.plan.Targets[0].Entry(name)
	if !ok {
		return ""
	}
	if mcpsync.HashEntry(here) != rec.Hash {
		fmt.Fprintf(&b, "**Synced from %s**, changed by hand since (drift): `mcp-lsp sync` leaves it alone; the quick fix \"Update from %s\" writes the source's version again.\n\n", rec.Source, rec.Source)
	} else {
		fmt.Fprintf(&b, "**Synced from %s**, which has changed since: the next `mcp-lsp sync %s` updates it.\n\n", rec.Source, rec.Source)
	}
	hereText, lang := u.target.RenderEntry(name, mcpsync.MaskEntry(here))
	sourceText, _ := u.target.RenderEntry(name, mcpsync.MaskEntry(source))
	fmt.Fprintf(&b, "Here:\n\n```%s\n%s\n```\n\nFrom %s:\n\n```%s\n%s\n```\n", lang, hereText, rec.Source, lang, sourceText)
	return b.String()
}
