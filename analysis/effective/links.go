package effective

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Document links: the places of a file that name another file or a
// directory (an OpenCode {file:...} reference, a server's envFile, cwd, a
// script in its command or args, a headersHelper script, a local
// $schema). They are candidates: the caller links only those that exist as
// a regular file or a directory (a stat, never an open: a path may name a
// FIFO or a device). URLs are never links here: following one would fetch
// it.

// LinkInput is the file and the directories its relative paths start from.
type LinkInput struct {
	Path string
	File *jsonc.File
	Kind *registry.FileKind
	// Registry says which readers expand {file:...}.
	Registry *registry.Registry
	Home     string
	// LaunchDir is where the tools start the servers: a relative cwd,
	// envFile or script is taken from there.
	LaunchDir string
}

// Link is a span of the file naming Target, an absolute path.
type Link struct {
	Span   span.Span
	Target string
}

// scriptExts mark an argument without a slash as a script path
// ("server.py").
var scriptExts = []string{".js", ".mjs", ".cjs", ".ts", ".py", ".sh", ".rb", ".jar", ".ps1", ".bat", ".cmd"}

// Links returns the candidate links of the file, in file order.
func Links(in LinkInput) []Link {
	if in.File == nil || in.File.Root == nil || in.File.Root.Kind != jsonc.Object {
		return nil
	}
	var out []Link
	add := func(n *jsonc.Node, p, base string, whole bool) {
		if target, ok := in.resolve(p, base); ok {
			sp := n.SourceSpan(in.File.Src, 0, len(n.Str))
			if !whole {
				sp = n.SourceSpan(in.File.Src, strings.Index(n.Str, p), strings.Index(n.Str, p)+len(p))
			}
			out = append(out, Link{Span: sp, Target: target})
		}
	}
	dir := filepath.Dir(in.Path)
	if m := in.File.Root.Get("$schema"); m != nil && m.Value.Kind == jsonc.String && !strings.Contains(m.Value.Str, "://") {
		add(m.Value, m.Value.Str, dir, true)
	}
	if in.Kind != nil {
		for _, s := range fileServers(in.File, in.Kind) {
			in.serverLinks(s, add)
		}
	}
	if in.expandsFiles() {
		walkStrings(in.File.Root, func(n *jsonc.Node) {
			for _, r := range interp.ScanString(in.File.Src, n, interp.NewForms(interp.BraceFile)) {
				if target, ok := in.resolve(r.Name, dir); ok {
					out = append(out, Link{Span: r.Span, Target: target})
				}
			}
		})
	}
	slices.SortStableFunc(out, func(a, b Link) int { return a.Span.Start - b.Span.Start })
	return slices.CompactFunc(out, func(a, b Link) bool { return a == b })
}

// serverLinks are a server's cwd, envFile, headersHelper script and the
// scripts of its command line, given to add.
func (in LinkInput) serverLinks(s *rules.Server, add func(n *jsonc.Node, p, base string, whole bool)) {
	v := s.Value()
	if v == nil || v.Kind != jsonc.Object {
		return
	}
	base := in.LaunchDir
	if m := v.Get("cwd"); m != nil && m.Value.Kind == jsonc.String {
		add(m.Value, m.Value.Str, in.LaunchDir, true)
		if cwd, ok := in.resolve(m.Value.Str, in.LaunchDir); ok {
			base = cwd
		}
	}
	if m := v.Get("envFile"); m != nil && m.Value.Kind == jsonc.String {
		add(m.Value, m.Value.Str, in.LaunchDir, true)
	}
	if m := v.Get("headersHelper"); m != nil && m.Value.Kind == jsonc.String {
		// A shell command: its first word is the script.
		if first, _, _ := strings.Cut(strings.TrimSpace(m.Value.Str), " "); looksLikePath(first) {
			add(m.Value, first, in.LaunchDir, false)
		}
	}
	var words []*jsonc.Node
	for _, key := range []string{"command", "args"} {
		m := v.Get(key)
		if m == nil {
			continue
		}
		switch m.Value.Kind {
		case jsonc.String:
			words = append(words, m.Value)
		case jsonc.Array:
			words = append(words, m.Value.Elements()...)
		}
	}
	for _, w := range words {
		if w.Kind == jsonc.String && looksLikePath(w.Str) {
			add(w, w.Str, base, true)
		}
	}
}

// looksLikePath reports whether a command-line word names a file: it has
// a slash (and is not a URL or an option), or a script's extension.
func looksLikePath(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "://") {
		return false
	}
	if strings.ContainsAny(w, `/\`) {
		return true
	}
	return slices.Contains(scriptExts, strings.ToLower(filepath.Ext(w)))
}

// expandsFiles reports whether a reader of the file expands {file:...}.
func (in LinkInput) expandsFiles() bool {
	if in.Kind == nil || in.Registry == nil {
		return false
	}
	for _, r := range in.Kind.Readers {
		if t, ok := in.Registry.Tool(r.Tool); ok && slices.Contains(t.Interpolation.Forms, "{file:path}") {
			return true
		}
	}
	return false
}

// resolve makes p absolute: "~/" and ${userHome} from the home directory,
// ${workspaceFolder} from the launch directory, a relative path from
// base. A path with any other variable in it cannot be resolved here.
func (in LinkInput) resolve(p, base string) (string, bool) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", false
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if in.Home == "" {
			return "", false
		}
		p = filepath.Join(in.Home, p[1:])
	default:
		p = strings.ReplaceAll(p, "${workspaceFolder}", in.LaunchDir)
		p = strings.ReplaceAll(p, "${userHome}", in.Home)
	}
	if strings.Contains(p, "$") || strings.Contains(p, "{env:") || strings.Contains(p, "{file:") {
		return "", false
	}
	if !filepath.IsAbs(p) {
		if base == "" {
			return "", false
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p), true
}
