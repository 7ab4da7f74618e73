package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
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

// templateHover is hover on a {{...}} of a sync template, a file no tool
// reads (an extension's mcp.json, as in the VaultSpec ADR): the value
// `mcp-lsp sync` substitutes there, from the one place it takes them
// (mcpsync.TemplateValues: the project root, the Python found, the --var
// values recorded at the template's last sync), or why there is none.
// The project is the workspace folder holding the file. A value that
// looks like a secret is never recorded, so never shown.
func (s *Server) templateHover(snap *cache.Snapshot, opts cache.DiagnoseOptions, f *cache.File, offset int) (*protocol.Hover, bool) {
	var ph mcpsync.Placeholder
	found := false
	for _, p := range mcpsync.Placeholders(f.Content) {
		if p.Start <= offset && offset <= p.End {
			ph, found = p, true
			break
		}
	}
	if !found {
		return nil, false
	}
	t, ok := templateOf(snap, opts, f)
	if !ok {
		return nil, false
	}
	values := t.values
	var md string
	v, ok := values[ph.Name]
	switch {
	case ok && ph.Name == mcpsync.VarRoot:
		md = fmt.Sprintf("`{{%s}}` is `%s`: the project root.", ph.Name, v)
	case ok && ph.Name == mcpsync.VarPython:
		md = fmt.Sprintf("`{{%s}}` is `%s`: the Python `mcp-lsp sync` finds (a `.venv` beside the template, else the project's, else `python3` on PATH; looked up, never run).", ph.Name, v)
	case ok:
		md = fmt.Sprintf("`{{%s}}` is `%s`: the value given with `--var` at the last `mcp-lsp sync` of this file, recorded in %s.", ph.Name, v, mcpsync.RecordsFile)
	case ph.Name == mcpsync.VarPython:
		md = fmt.Sprintf("`{{%s}}` has no value here: no `.venv` beside the template or in the project, and no `python3` on PATH. Give one with `mcp-lsp sync --var %s=PATH`.", ph.Name, ph.Name)
	default:
		md = fmt.Sprintf("`{{%s}}` has no value here: `mcp-lsp sync` refuses the template until it is given with `--var %s=VALUE` (then recorded, unless it looks like a secret).", ph.Name, ph.Name)
	}
	rng, err := s.mappers.of(f).Range(span.New(ph.Start, ph.End))
	if err != nil {
		return nil, false
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &rng}, true
}

// template is what the editor knows of a file as a sync template: its
// project root, the values `mcp-lsp sync` would substitute
// (mcpsync.TemplateValues, the one place), and whether .mcp-lsp/sync.json
// records it as a sync source.
type template struct {
	root     string
	values   mcpsync.Vars
	recorded bool
}

// templateOf reads f as a sync template of the workspace folder holding
// it (the innermost); ok is false outside every folder.
func templateOf(snap *cache.Snapshot, opts cache.DiagnoseOptions, f *cache.File) (template, bool) {
	var root string
	for _, fo := range opts.Folders {
		if rel := mcpsync.RelName(fo.Path, f.Path); !filepath.IsAbs(filepath.FromSlash(rel)) && len(fo.Path) > len(root) {
			root = fo.Path
		}
	}
	if root == "" {
		return template{}, false
	}
	t := template{root: root}
	var recorded mcpsync.Vars
	if rf := snap.File(filepath.Join(root, filepath.FromSlash(mcpsync.RecordsFile))); rf.Exists && rf.ReadErr == nil {
		if recs, err := mcpsync.ParseRecords(rf.Content); err == nil {
			rel := mcpsync.RelName(root, f.Path)
			recorded = recs.Vars[rel]
			_, t.recorded = recs.Vars[rel]
			for _, e := range recs.Entries {
				t.recorded = t.recorded || e.Source == rel
			}
		}
	}
	t.values = mcpsync.TemplateValues(root, f.Path, recorded, nil, cache.SyncHost())
	return t, true
}
