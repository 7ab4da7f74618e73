package lsp

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// templateFindings are the diagnostics of a sync template, a file no tool
// reads that `mcp-lsp sync` takes as a source (an extension's mcp.json
// with {{root}} and {{runtime.python}}, as in the VaultSpec ADR): an
// error on each {{...}} sync would refuse, decided by mcpsync.Resolve
// with the values of mcpsync.TemplateValues, as sync and hover do.
//
// A file is a template when .mcp-lsp/sync.json records it as a source, or
// when it is a JSON file in a workspace folder with a {{ in it and a
// server map at its top (not, say, an i18n file's "{{count}} items"); ok is
// false for every other file no tool reads, which keep getting no
// publication. A file that stops being a template gets an empty one, so
// its errors do not linger.
func (d *diagnoser) templateFindings(snap *cache.Snapshot, opts cache.DiagnoseOptions, f *cache.File) ([]rules.Diagnostic, bool) {
	if f.ReadErr != nil {
		return nil, false
	}
	t, ok := templateOf(snap, opts, f)
	ext := strings.ToLower(filepath.Ext(f.Path))
	looksLike := (ext == ".json" || ext == ".jsonc") && bytes.Contains(f.Content, []byte("{{")) && declaresServers(snap.Parse(f))
	if !ok || !(t.recorded || looksLike) {
		d.mu.Lock()
		_, shown := d.published[f.Path]
		d.mu.Unlock()
		return nil, ok && shown
	}
	return mcpsync.TemplateFindings(f.Content, t.values), true
}

// declaresServers reports whether a JSON file has a server map at its
// top, under a name some tool's dialect uses.
func declaresServers(f *jsonc.File) bool {
	if f == nil || f.Root == nil {
		return false
	}
	for _, k := range []string{"mcpServers", "servers", "mcp", "context_servers"} {
		if n := f.Root.Lookup(k); n != nil && n.Kind == jsonc.Object {
			return true
		}
	}
	return false
}
