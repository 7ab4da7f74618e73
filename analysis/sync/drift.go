package sync

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Drift in the editor: an entry sync wrote (a Record) that no longer has
// the content it was written with was changed by hand; sync leaves it
// alone until --force. The editor says so where the entry is, with the
// rule sync-drift, rather than let the user find out at the next sync.

// TargetOf is the target a record names, under root: its file, dialect,
// server map and switch keys, read from the registry (not from the file
// sync would pick today, so a record keeps pointing at the file it was
// written into). ok is false when the registry no longer knows the file
// or the tool.
func TargetOf(reg *registry.Registry, env registry.Env, root string, r Record) (Target, bool) {
	path := filepath.FromSlash(r.Target)
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	dialect, ok := DialectOf(reg, r.Tool)
	if !ok {
		return Target{}, false
	}
	kind, ok := reg.Match(path, env)
	if !ok {
		return Target{}, false
	}
	mapPath, ok := serverMap(kind, dialect)
	if !ok {
		return Target{}, false
	}
	return Target{Tool: r.Tool, Dialect: dialect, Path: path, Rel: r.Target, MapPath: mapPath, Keep: switchKeys(reg, r.Tool)}, true
}

// DriftInput is what Drift needs: the records, the target file (its
// content and parse, parsed nil to parse it here) and the project root.
type DriftInput struct {
	Records *Records
	Target  Target
	Content []byte
	Parsed  *jsonc.File
	// SourcePath resolves a record's source to the file's path, for the
	// related location; SourceSpan finds the server there (zero if not).
	SourcePath func(rel string) string
	SourceSpan func(path, server string) (span.Span, bool)
}

// DriftFindings reports, for each server of t that sync recorded, whether its
// entry differs from what sync wrote: one sync-drift finding at the
// entry's name: a [mcp_servers.<name>] table of Codex CLI's config.toml
// as much as a member of a JSON file (the TOML parse is the same tree).
// An entry that is gone is not reported (there is nothing to point at;
// sync reports it).
func DriftFindings(in DriftInput) []rules.Diagnostic {
	t := in.Target
	if in.Records == nil {
		return nil
	}
	f := in.Parsed
	if f == nil {
		f = parseTarget(t.Path, in.Content)
	}
	if f == nil || f.Root == nil || len(f.Errors) > 0 {
		return nil
	}
	rule, _ := rules.RuleByCode(rules.CodeSyncDrift)
	var out []rules.Diagnostic
	for _, r := range in.Records.Entries {
		if r.Target != t.Rel {
			continue
		}
		m := memberAt(f.Root, append(slices.Clone(t.MapPath), r.Server))
		if m == nil || m.Key == nil {
			continue
		}
		v, ok := fix.NodeValue(m.Value)
		if !ok {
			continue
		}
		bare, _ := withoutKeys(v, t.Keep)
		if HashEntry(bare) == r.Hash {
			continue
		}
		d := rules.Diagnostic{
			Span:     m.Key.Span,
			Severity: rule.Severity,
			Code:     rules.CodeSyncDrift,
			Message: fmt.Sprintf("%q was changed by hand since mcp-lsp sync wrote it from %s: sync leaves it alone (drift) until it is updated from %s or synced with --force",
				r.Server, r.Source, r.Source),
			Data: map[string]any{"server": r.Server, "source": r.Source, "tool": r.Tool},
		}
		if in.SourcePath != nil && in.SourceSpan != nil {
			p := in.SourcePath(r.Source)
			if sp, ok := in.SourceSpan(p, r.Server); ok {
				d.Related = append(d.Related, rules.Related{Path: p, Span: sp, Message: "the source of " + fmt.Sprintf("%q", r.Server)})
			}
		}
		out = append(out, d)
	}
	return out
}

// parseTarget parses a target file in its syntax.
func parseTarget(path string, content []byte) *jsonc.File {
	if isTOML(path) {
		return toml.Parse(content)
	}
	return jsonc.Parse(content)
}

// memberAt walks objects along path and returns the last member.
func memberAt(n *jsonc.Node, path []string) *jsonc.Member {
	var m *jsonc.Member
	for _, k := range path {
		if n == nil || n.Kind != jsonc.Object {
			return nil
		}
		if m = n.Get(k); m == nil {
			return nil
		}
		n = m.Value
	}
	return m
}

// entryValue is the entry a target holds for server, as sync compares it
// (switch keys left out); ok is false when there is none.
func entryValue(t Target, content []byte, server string) (any, bool) {
	v, found, err := editorFor(t.Path).lookup(content, append(slices.Clone(t.MapPath), server))
	if err != nil || !found {
		return nil, false
	}
	bare, _ := withoutKeys(v, t.Keep)
	return bare, true
}

// Entry is the entry the plan leaves in its target for server (switch
// keys left out), for hover; ok is false when there is none.
func (t *TargetPlan) Entry(server string) (any, bool) {
	if t.New == nil {
		return nil, false
	}
	return entryValue(t.Target, t.New, server)
}

// CurrentEntry is the entry the target holds now for server.
func (t Target) CurrentEntry(server string) (any, bool) {
	if !t.Exists {
		return nil, false
	}
	return entryValue(t, t.Content, server)
}

// RenderEntry writes server's entry v the way target t holds it, for
// hover: the [mcp_servers.<name>] tables of a TOML file (Codex CLI's
// config.toml, in the layout sync writes), else JSON with two-space
// indentation. lang is the Markdown code block's language.
func (t Target) RenderEntry(server string, v any) (text, lang string) {
	if o, ok := v.(convert.Object); ok && isTOML(t.Path) {
		return strings.TrimRight(string(convert.RenderCodexFile(convert.Object{{Key: server, Value: o}}, "\n")), "\n"), "toml"
	}
	return string(convert.RenderEntry(v, "  ", "\n")), "json"
}

// secretMaps are the entry keys whose values may be secrets: shown in
// hover only when they are references to variables.
var secretMaps = []string{"env", "environment", "headers", "http_headers", "env_http_headers"}

// MaskEntry returns a copy of an entry fit for hover: values of env and
// headers masked unless they only reference variables, other strings
// through effective.MaskIfSecret (tokens, URL query values).
func MaskEntry(v any) any { return mask(v, false) }

func mask(v any, secret bool) any {
	switch v := v.(type) {
	case convert.Object:
		out := make(convert.Object, len(v))
		for i, m := range v {
			out[i] = convert.Member{Key: m.Key, Value: mask(m.Value, secret || slices.Contains(secretMaps, m.Key))}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mask(e, secret)
		}
		return out
	case string:
		if secret && !strings.Contains(v, "${") && !strings.Contains(v, "{env:") {
			return rules.Masked
		}
		return effective.MaskIfSecret(v)
	}
	return v
}

// KeySpan is where the name of server's entry is in a target's parse.
func KeySpan(f *jsonc.File, t Target, server string) (span.Span, bool) {
	if f == nil || f.Root == nil {
		return span.Span{}, false
	}
	m := memberAt(f.Root, append(slices.Clone(t.MapPath), server))
	if m == nil || m.Key == nil {
		return span.Span{}, false
	}
	return m.Key.Span, true
}
