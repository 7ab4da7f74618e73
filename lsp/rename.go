package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Rename a server everywhere the tools launched here see its name: its
// entry, the same server in the other files they read, and the approval
// and block lists (effective.Rename). A name some tool rejects or
// reserves, or one already taken in a map being edited, is refused with
// the reason. In a TOML file (Codex CLI's config.toml) a server is named
// in every header and dotted key under its table, and all of them are
// renamed. textDocument/rename is served in extraHandler, so its edit can
// carry the buffers' versions (workspaceEdit, codeaction_edit.go).

// renameInput is the effective.RenameInput of a request.
func (s *Server) renameInput(d *document, pos protocol.Position) (effective.RenameInput, error) {
	offset, err := d.m.PositionOffset(pos)
	if err != nil {
		return effective.RenameInput{}, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err)
	}
	if isTOML(d.path) {
		if def, _, ok := tomlNameOffset(d.parsed, offset); ok {
			offset = def
		}
	}
	launch := d.launch()
	return effective.RenameInput{
		Path:     d.path,
		File:     d.parsed,
		Kind:     d.kind,
		Offset:   offset,
		Results:  d.snap.Effective(launch.Path, launch.GitRoot, d.opts),
		Registry: d.opts.Registry,
		Env:      d.opts.Env,
		Files: func(p string) *jsonc.File {
			f := d.snap.File(p)
			if !f.Exists || f.ReadErr != nil {
				return nil
			}
			return d.snap.Parse(f)
		},
		KindOf: func(p string) *registry.FileKind {
			k, _ := d.snap.Match(p, d.opts)
			return k
		},
		Display: d.display,
	}, nil
}

// PrepareRename answers with the range of the server name under the
// cursor, or an error saying what can be renamed.
func (s *Server) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (*protocol.Range, error) {
	d, ok := s.resolveDocument(ctx, params.TextDocument.URI)
	if !ok {
		return nil, fmt.Errorf("only a server's name in an MCP configuration file can be renamed")
	}
	in, err := s.renameInput(d, params.Position)
	if err != nil {
		return nil, err
	}
	_, sp, ok := effective.PrepareRename(in)
	if !ok {
		return nil, fmt.Errorf("only a server's name can be renamed")
	}
	if offset, err := d.m.PositionOffset(params.Position); err == nil && isTOML(d.path) {
		// The name under the cursor, which may be another key naming
		// the server's table than the one that defined it.
		if _, seg, ok := tomlNameOffset(d.parsed, offset); ok && !seg.ContainsInclusive(sp.Start) {
			if q := d.parsed.Src[seg.Start]; (q == '"' || q == '\'') && seg.Len() >= 2 {
				seg = span.New(seg.Start+1, seg.End-1)
			}
			sp = seg
		}
	}
	rng, err := d.m.Range(sp)
	if err != nil {
		return nil, err
	}
	return &rng, nil
}

// serveRename decodes and answers textDocument/rename.
func (s *Server) serveRename(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params protocol.RenameParams
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	edit, err := s.rename(ctx, &params)
	if err != nil {
		return reply(ctx, nil, err)
	}
	return reply(ctx, edit, nil)
}

func (s *Server) rename(ctx context.Context, params *protocol.RenameParams) (*workspaceEdit, error) {
	d, ok := s.resolveDocument(ctx, params.TextDocument.URI)
	if !ok {
		return nil, fmt.Errorf("only a server's name in an MCP configuration file can be renamed")
	}
	in, err := s.renameInput(d, params.Position)
	if err != nil {
		return nil, err
	}
	edits, err := effective.Rename(in, params.NewName)
	if err != nil {
		return nil, err
	}
	ch := &fix.Change{}
	seen := map[fix.Edit]bool{}
	add := func(e fix.Edit) {
		if !seen[e] {
			seen[e] = true
			ch.Edits = append(ch.Edits, e)
		}
	}
	for _, e := range edits {
		if !isTOML(e.Path) {
			add(fix.Edit{Path: e.Path, Span: e.Span, NewText: jsonString(params.NewName)})
			continue
		}
		tes, err := renameInTOML(in.Files(e.Path), e.Span, params.NewName)
		if err != nil {
			return nil, fmt.Errorf("cannot rename in %s: %v", d.display(e.Path), err)
		}
		for _, te := range tes {
			add(fix.Edit{Path: e.Path, Span: te.Span, NewText: te.Text})
		}
	}
	if old, _, ok := effective.PrepareRename(in); ok {
		for _, e := range renameSyncRecords(d, ch.Edits, old, params.NewName) {
			add(e)
		}
	}
	caps := s.codeActionCaps().edits
	return toWorkspaceEdit(d.snap, ch, caps)
}

// renameSyncRecords keeps .mcp-lsp/sync.json in step with a rename: a
// record of the server whose source and target files the rename both
// edits gets the new name, else the next `mcp-lsp sync` would find the
// recorded entry gone, write the old name again and report the renamed
// one as an entry of nobody's. The hash stays: it covers the entry, not
// its name. A record with only one side renamed keeps the old name: with
// the source renamed alone, sync replaces the target's entry as the
// source now says; with the target renamed alone, a new name in the
// record would make sync delete the renamed entry (its source has no
// such server). In each workspace folder's records file; one that does
// not parse is left alone.
func renameSyncRecords(d *document, edits []fix.Edit, old, newName string) []fix.Edit {
	var out []fix.Edit
	for _, fo := range d.opts.Folders {
		rf := d.snap.File(filepath.Join(fo.Path, filepath.FromSlash(mcpsync.RecordsFile)))
		if !rf.Exists || rf.ReadErr != nil {
			continue
		}
		if _, err := mcpsync.ParseRecords(rf.Content); err != nil {
			continue
		}
		edited := map[string]bool{}
		for _, e := range edits {
			edited[mcpsync.RelName(fo.Path, e.Path)] = true
		}
		entries := d.snap.Parse(rf).Root.Lookup("entries")
		if entries == nil || entries.Kind != jsonc.Array {
			continue
		}
		for _, e := range entries.Elements() {
			server, source, target := e.Lookup("server"), e.Lookup("source"), e.Lookup("target")
			if server == nil || source == nil || target == nil || server.Kind != jsonc.String || source.Kind != jsonc.String || target.Kind != jsonc.String {
				continue
			}
			if server.Str == old && edited[source.Str] && edited[target.Str] {
				out = append(out, fix.Edit{Path: rf.Path, Span: server.Span, NewText: jsonString(newName)})
			}
		}
	}
	return out
}

func isTOML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".toml") }

// tomlNameOffset returns, for a cursor on any key naming a table of a
// TOML file ([mcp_servers.x], [mcp_servers.x.env], mcp_servers.x.args),
// the offset of the key that defined the table, the only one the tree
// (and so the effective engine) knows, and the segment under the cursor.
func tomlNameOffset(f *jsonc.File, offset int) (int, span.Span, bool) {
	if f == nil || f.Root == nil {
		return offset, span.Span{}, false
	}
	path, seg, ok := toml.KeySegmentAt(f.Src, offset)
	if !ok {
		return offset, span.Span{}, false
	}
	n := f.Root
	for _, k := range path {
		if n == nil || n.Kind != jsonc.Object {
			return offset, span.Span{}, false
		}
		m := n.Get(k)
		if m == nil {
			return offset, span.Span{}, false
		}
		n = m.Value
	}
	m := n.Member()
	if m == nil {
		return offset, span.Span{}, false
	}
	return m.Key.Span.Start, seg, true
}

// renameInTOML is the rename of the name at sp in a TOML file (Codex
// CLI's config.toml): a server's key is renamed in every header and
// dotted key naming its table (toml.RenameKey, which checks the result);
// a name in a list of names becomes a TOML string.
func renameInTOML(f *jsonc.File, sp span.Span, newName string) ([]toml.KeyEdit, error) {
	if f == nil {
		return nil, fmt.Errorf("the file cannot be read")
	}
	n := f.NodeAt(sp.Start)
	if n == nil || n.Kind != jsonc.String || n.Span != sp {
		return nil, fmt.Errorf("the name is not where it was")
	}
	if m := n.Member(); m != nil && m.Key == n {
		return toml.RenameKey(f.Src, n.Path(), newName)
	}
	return []toml.KeyEdit{{Span: sp, Text: toml.String(newName)}}, nil
}

// jsonString quotes s as a JSON string, leaving <, > and & as they are.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
