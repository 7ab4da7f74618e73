package effective

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Navigation: go to definition, references and symbols over server names.
// A server name is the only identifier MCP configuration files have, and
// the same name in different files is the same server to a tool (one
// definition wins, the others are shadowed or merged), so "definition"
// means every definition of the name that the tools launched in one
// directory read, the one that wins first.

// NavigationInput is the file under the cursor and the effective
// configurations of the tools launched where the file applies.
type NavigationInput struct {
	Path    string
	File    *jsonc.File
	Kind    *registry.FileKind
	Offset  int
	Results []*Result
}

// Place is a server's name in a file: its key's span.
type Place struct {
	Path string
	Span span.Span
}

// Definitions are the definitions of the server name under the cursor.
type Definitions struct {
	Name string
	// Here is the definition under the cursor.
	Here Place
	// All are every definition of Name: those of the first tool that
	// reads this file (its winner first, then by precedence), then the
	// other tools' ones, each place once. Here is always among them, last
	// when no tool reads this file.
	All []Place
}

// DefinitionsAt returns the definitions of the server whose name is under
// the cursor; ok is false when the cursor is not on a server name.
func DefinitionsAt(in NavigationInput) (*Definitions, bool) {
	s, ok := ServerAt(in.File, in.Kind, in.Offset)
	if !ok && in.File != nil {
		// A file read through a profile only (Atomic TUI's
		// ~/.claude/.mcp.json): its servers are the results' definitions.
		s = profileServer(in.Path, in.File.NodeAt(in.Offset), in.Results)
		ok = s != nil
	}
	if !ok {
		return nil, false
	}
	here := Place{Path: in.Path, Span: s.Key().Span}
	d := &Definitions{Name: s.Name, Here: here}
	seen := map[Place]bool{}
	add := func(p Place) {
		if !seen[p] {
			seen[p] = true
			d.All = append(d.All, p)
		}
	}
	// The tool that reads this file comes first, so that the first
	// location (where an editor jumps when it does not list them) is the
	// definition that tool really starts.
	results := slices.Clone(in.Results)
	if i := slices.IndexFunc(results, func(r *Result) bool {
		es := findServer(r, s.Name)
		return es != nil && definesHere(r, es, in.Path, s.Member)
	}); i > 0 {
		first := results[i]
		results = append([]*Result{first}, slices.Delete(results, i, i+1)...)
	}
	for _, r := range results {
		if es := findServer(r, s.Name); es != nil {
			for _, def := range es.Definitions {
				add(Place{Path: def.Source.Path, Span: r.Member(def).Key.Span})
			}
		}
	}
	add(here)
	return d, true
}

// ServerAt returns the server whose name (the key of an entry of one of
// the file's server maps, for any reader of its kind) is under offset.
func ServerAt(f *jsonc.File, kind *registry.FileKind, offset int) (*rules.Server, bool) {
	if f == nil || kind == nil {
		return nil, false
	}
	n := f.NodeAt(offset)
	if n == nil {
		return nil, false
	}
	for i := range kind.Readers {
		for _, sm := range rules.FindServerMaps(f, &kind.Readers[i]) {
			for _, s := range sm.Servers() {
				if s.Key() == n {
					return s, true
				}
			}
		}
	}
	return nil, false
}

// SymbolKind tells servers from the entries that group them.
type SymbolKind int

const (
	// SymbolServer is one server of a server map.
	SymbolServer SymbolKind = iota
	// SymbolGroup is the entry a server map belongs to when the map's
	// path has a wildcard: a project of ~/.claude.json.
	SymbolGroup
)

// Symbol is one entry of a file's outline.
type Symbol struct {
	// Name is the server name (or the group's key), never blank: editors
	// reject a symbol without a name, and "" is a valid JSON key.
	Name string
	// Detail summarizes a server: its transport, what it starts or
	// reaches, and whether it is disabled. It never holds an env or header
	// value, and credential-looking parts of a command or URL are masked,
	// because outlines are shown everywhere (breadcrumbs, pickers).
	Detail string
	Kind   SymbolKind
	// Span is the whole member, key to value; NameSpan is the key.
	Span, NameSpan span.Span
	Children       []Symbol
}

// Symbols returns the outline of a file: its servers, one per name and
// map, in file order; servers of a map under a wildcard (the projects of
// ~/.claude.json) are grouped under the entry the wildcard matched, so
// that two projects' servers of the same name can be told apart. Groups
// without servers are left out: ~/.claude.json has an entry for every
// project ever opened.
func Symbols(f *jsonc.File, kind *registry.FileKind) []Symbol {
	if f == nil || kind == nil {
		return nil
	}
	var top []Symbol
	groups := map[*jsonc.Member]int{} // group member -> index in top
	seenMaps := map[*jsonc.Node]bool{}
	for _, r := range kind.Readers {
		for _, pattern := range r.ServerMaps {
			// One pattern at a time, to know where its wildcard is.
			for _, sm := range rules.FindServerMaps(f, &registry.Reader{ServerMaps: [][]string{pattern}}) {
				if seenMaps[sm.Node] {
					continue // several readers share a map (.mcp.json)
				}
				seenMaps[sm.Node] = true
				servers := serverSymbols(sm)
				if len(servers) == 0 {
					continue
				}
				g := groupMember(f.Root, pattern, sm.Path)
				if g == nil {
					top = append(top, servers...)
					continue
				}
				i, ok := groups[g]
				if !ok {
					i = len(top)
					groups[g] = i
					top = append(top, Symbol{Name: symbolName(g.Key.Str), Kind: SymbolGroup, Span: g.Span, NameSpan: g.Key.Span})
				}
				top[i].Children = append(top[i].Children, servers...)
			}
		}
	}
	for i := range top {
		sortSymbols(top[i].Children)
	}
	sortSymbols(top)
	return top
}

func serverSymbols(sm *rules.ServerMap) []Symbol {
	var out []Symbol
	for _, s := range sm.Servers() {
		out = append(out, Symbol{
			Name:     symbolName(s.Name),
			Detail:   serverDetail(s),
			Kind:     SymbolServer,
			Span:     s.Member.Span,
			NameSpan: s.Key().Span,
		})
	}
	return out
}

// groupMember returns the member matched by the last wildcard of pattern
// along path (a concrete path of that pattern), nil without a wildcard.
func groupMember(root *jsonc.Node, pattern, path []string) *jsonc.Member {
	w := -1
	for i, seg := range pattern {
		if seg == "*" {
			w = i
		}
	}
	if w < 0 || w >= len(path) {
		return nil
	}
	n := root
	var m *jsonc.Member
	for _, seg := range path[:w+1] {
		if n == nil || n.Kind != jsonc.Object {
			return nil
		}
		if m = n.Get(seg); m == nil {
			return nil
		}
		n = m.Value
	}
	return m
}

func sortSymbols(syms []Symbol) {
	slices.SortStableFunc(syms, func(a, b Symbol) int { return a.Span.Start - b.Span.Start })
}

// symbolName quotes a blank name, which editors would otherwise reject.
func symbolName(name string) string {
	if strings.TrimSpace(name) == "" {
		return strconv.Quote(name)
	}
	return name
}

// serverDetail is "transport · target", plus "disabled" when the entry
// says enabled: false: "stdio · npx", "http · https://host/mcp",
// "local · npx · disabled". The transport is the entry's "type" as
// written, else what its fields imply.
func serverDetail(s *rules.Server) string {
	var parts []string
	typ := stringField(s, "type")
	command := commandOf(s)
	u := stringField(s, "url")
	switch {
	case typ != "":
		parts = append(parts, MaskIfSecret(typ))
	case command != "":
		parts = append(parts, "stdio")
	case u != "":
		parts = append(parts, "remote")
	}
	switch {
	case command != "":
		parts = append(parts, MaskIfSecret(command))
	case u != "":
		parts = append(parts, maskURL(u))
	}
	if m := s.Field("enabled"); m != nil && m.Value.Kind == jsonc.False {
		parts = append(parts, "disabled")
	}
	return strings.Join(parts, " · ")
}

// commandOf is the program a stdio server starts: "command" as a string,
// or the first element of OpenCode's command array (the rest are
// arguments, which may hold credentials and are left out).
func commandOf(s *rules.Server) string {
	m := s.Field("command")
	if m == nil {
		return ""
	}
	switch v := m.Value; v.Kind {
	case jsonc.String:
		return v.Str
	case jsonc.Array:
		if len(v.Elements()) > 0 && v.Elements()[0].Kind == jsonc.String {
			return v.Elements()[0].Str
		}
	}
	return ""
}

func stringField(s *rules.Server, key string) string {
	if m := s.Field(key); m != nil && m.Value.Kind == jsonc.String {
		return m.Value.Str
	}
	return ""
}

// maskURL masks a URL's credentials: MaskIfSecret masks the query and
// token-like text, and user information is masked here even when the URL
// has no query.
func maskURL(s string) string {
	const placeholder = "MCPLSPUSERINFO" // url.User would percent-encode Masked
	if u, err := url.Parse(s); err == nil && u.User != nil {
		u.User = url.User(placeholder)
		s = strings.Replace(u.String(), placeholder, rules.Masked, 1)
	}
	return MaskIfSecret(s)
}

// MatchServers returns the servers of syms (groups flattened) whose name
// contains query, ignoring case; an empty query matches every server.
func MatchServers(syms []Symbol, query string) []Symbol {
	query = strings.ToLower(query)
	var out []Symbol
	for _, s := range syms {
		switch s.Kind {
		case SymbolGroup:
			out = append(out, MatchServers(s.Children, query)...)
		case SymbolServer:
			if strings.Contains(strings.ToLower(s.Name), query) {
				out = append(out, s)
			}
		}
	}
	return out
}
