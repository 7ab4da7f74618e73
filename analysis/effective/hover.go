package effective

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// HoverInput is what hover needs: the file under the cursor, the effective
// configurations of the tools launched where the file applies, and ways to
// print other files' places.
type HoverInput struct {
	Path     string
	File     *jsonc.File
	Kind     *registry.FileKind
	Offset   int
	Results  []*Result
	Registry *registry.Registry
	// Verdicts is the session's verdict cache (nil: none).
	Verdicts *verdict.Cache
	// Display shortens a path for the reader (~/.claude.json).
	Display func(path string) string
	// Line returns the 1-based line of offset in path.
	Line func(path string, offset int) int
	// RuleURL is the documentation page of a rule code (nil: rules are
	// not linked).
	RuleURL func(code string) string
}

// Hover is protocol-neutral hover content: Markdown for a span.
type Hover struct {
	Span     span.Span
	Markdown string
}

// HoverAt returns the hover for the cursor: a server's effective
// definition per tool on its name, a field's documentation on a field.
func HoverAt(in HoverInput) (*Hover, bool) {
	n := in.File.NodeAt(in.Offset)
	if n == nil || in.Kind == nil {
		return nil, false
	}
	for i := range in.Kind.Readers {
		r := &in.Kind.Readers[i]
		for _, sm := range rules.FindServerMaps(in.File, r) {
			for _, s := range sm.Servers() {
				if n == s.Key() {
					return serverHover(in, s), true
				}
				if field := fieldAt(s, n); field != nil {
					if h, ok := fieldHover(in, s, field); ok {
						return h, true
					}
				}
			}
		}
	}
	if s := profileServer(in.Path, n, in.Results); s != nil {
		return serverHover(in, s), true
	}
	return nil, false
}

// profileServer returns the server named by the key n of the file at path
// when some tool reads it through its profile only, in a file whose kind
// has no reader taking servers from it: Atomic TUI's ~/.claude/.mcp.json,
// which Claude Code does not read. nil if no result defines a server there.
func profileServer(path string, n *jsonc.Node, results []*Result) *rules.Server {
	if n == nil {
		return nil
	}
	for _, r := range results {
		for _, s := range r.Servers {
			for _, d := range s.Definitions {
				if d.Source.Path != path {
					continue
				}
				if m := r.Member(d); m.Key == n {
					return &rules.Server{Name: s.Name, Member: m}
				}
			}
		}
	}
	return nil
}

// fieldAt returns the server field whose key is n (or whose value holds n
// directly), nil otherwise.
func fieldAt(s *rules.Server, n *jsonc.Node) *jsonc.Member {
	v := s.Value()
	if v == nil || v.Kind != jsonc.Object {
		return nil
	}
	for _, m := range v.Members() {
		if m.Key == n || m.Value == n {
			return m
		}
	}
	return nil
}

// fieldHover documents a server field from each reader's schema, and
// says which readers accept it.
func fieldHover(in HoverInput, s *rules.Server, field *jsonc.Member) (*Hover, bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (server %q)\n\n", field.Key.Str, s.Name)
	v := s.Value()
	if v == nil {
		return nil, false
	}
	cache := in.Verdicts
	if len(in.File.Errors) > 0 {
		cache = nil // a tree near a syntax error depends on more than its text
	}
	entry := verdict.Entry{Name: s.Name, Value: v, Text: in.File.Src[v.Span.Start:v.Span.End]}
	var accepted, ignored []string
	docs := map[string][]string{}
	var order []string
	for i := range in.Kind.Readers {
		r := &in.Kind.Readers[i]
		name := toolName(in.Registry, r.Tool)
		def := verdict.Of(cache, in.Registry, r, entry).Def
		if def == "" {
			continue
		}
		doc, known := schemas.PropertyDoc(string(r.Dialect), def, field.Key.Str)
		if !known {
			ignored = append(ignored, name)
			continue
		}
		accepted = append(accepted, name)
		if _, seen := docs[doc]; !seen {
			order = append(order, doc)
		}
		docs[doc] = append(docs[doc], name)
	}
	if len(accepted) == 0 && len(ignored) == 0 {
		return nil, false
	}
	for _, doc := range order {
		if len(order) > 1 {
			fmt.Fprintf(&b, "_%s:_ ", strings.Join(docs[doc], ", "))
		}
		b.WriteString(doc + "\n\n")
	}
	if len(accepted) > 0 {
		fmt.Fprintf(&b, "Used by %s.", strings.Join(accepted, ", "))
	}
	if len(ignored) > 0 {
		fmt.Fprintf(&b, " Ignored by %s.", strings.Join(ignored, ", "))
	}
	return &Hover{Span: field.Key.Span, Markdown: strings.TrimSpace(b.String())}, true
}

// serverHover shows, for each tool that reads this file, what that tool
// will start under this name: the winning definition's fields with their
// sources, the gate, and what shadows or is shadowed.
func serverHover(in HoverInput, s *rules.Server) *Hover {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: MCP server\n", s.Name)
	shown := map[registry.ToolID]bool{}
	for _, res := range in.Results {
		if why := droppedHere(res, in.Path); why != "" {
			shown[res.Tool.ID] = true
			fmt.Fprintf(&b, "\n---\n%s ignores this whole file (%s), so it does not start this server\n", toolHeading(res.Tool), why)
			if res.Tool.Docs != "" {
				b.WriteString("\n")
				writeDocs(&b, res.Tool)
			}
			continue
		}
		es := findServer(res, s.Name)
		if es == nil || !definesHere(res, es, in.Path, s.Member) {
			continue
		}
		shown[res.Tool.ID] = true
		writeToolSection(&b, in, res, es, s)
	}
	for _, r := range in.Kind.Readers {
		if shown[r.Tool] {
			continue
		}
		shown[r.Tool] = true
		if res, maps := unreadMap(in, r.Tool, s); res != nil {
			fmt.Fprintf(&b, "\n---\n%s: does not read this entry when launched in %s; in this file it reads %s\n\n", toolHeading(res.Tool), res.LaunchDir, joinCode(maps))
			writeFields(&b, in, fieldsHere(s.Member, in.Path))
			writeDocs(&b, res.Tool)
			continue
		}
		fmt.Fprintf(&b, "\n---\n**%s** reads this file", toolName(in.Registry, r.Tool))
		if t, ok := in.Registry.Tool(r.Tool); ok && t.Profile == nil {
			b.WriteString(" (mcp-lsp does not model its other files yet)")
		}
		b.WriteString("\n\n")
		writeFields(&b, in, fieldsHere(s.Member, in.Path))
		writeToolNames(&b, in, r.Tool, s.Name)
		if t, ok := in.Registry.Tool(r.Tool); ok {
			writeDocs(&b, t)
		}
	}
	return &Hover{Span: s.Key().Span, Markdown: strings.TrimSpace(b.String())}
}

func writeToolSection(b *strings.Builder, in HoverInput, res *Result, es *Server, here *rules.Server) {
	mine := definitionOf(res, es, in.Path, here.Member)
	fmt.Fprintf(b, "\n---\n%s: ", toolHeading(res.Tool))
	switch {
	case es.Winner == nil:
		fmt.Fprintf(b, "not started: %s\n\n", mine.Gate.Why)
	case es.Winner == mine || (res.Tool.Merge.Value == registry.DeepMerge && mine.Gate.State == GateOpen):
		state := "uses this definition"
		if res.Tool.Merge.Value == registry.DeepMerge && len(es.Definitions) > 1 {
			state = "merges this definition with others, field by field"
		}
		if !es.Enabled {
			state += ", but the result is disabled (`enabled: false`)"
		}
		fmt.Fprintf(b, "%s (%s)\n\n", state, mine.Source.Layer.Label)
	default:
		why := ""
		if mine.Gate.State != GateOpen {
			why = " (" + mine.Gate.Why + ")"
		}
		fmt.Fprintf(b, "uses the definition in %s (%s) instead%s\n\n", place(in, es.Winner.Source.Path, res.Member(es.Winner).Key.Span.Start), es.Winner.Source.Layer.Label, why)
	}
	if es.Winner != nil {
		writeFields(b, in, shownOf(res, es.Fields))
	} else {
		writeFields(b, in, fieldsHere(here.Member, in.Path))
	}
	if len(es.Variables) > 0 {
		fmt.Fprintf(b, "- depends on %s\n", joinCode(prefixed("$", es.Variables)))
	}
	if len(es.Ignored) > 0 && es.Winner != nil {
		them := "them"
		if len(es.Ignored) == 1 {
			them = "it"
		}
		fmt.Fprintf(b, "- ignores %s: the server starts without %s\n", joinCode(es.Ignored), them)
	}
	var others []string
	for _, d := range es.Definitions {
		if d == mine {
			continue
		}
		state := ""
		switch {
		case d == es.Winner:
			state = ", used"
		case d.Gate.State != GateOpen:
			state = ", " + string(d.Gate.State)
		case res.Tool.Merge.Value != registry.DeepMerge:
			state = ", shadowed"
		}
		others = append(others, fmt.Sprintf("%s (%s%s)", place(in, d.Source.Path, res.Member(d).Key.Span.Start), d.Source.Layer.Label, state))
	}
	if len(others) > 0 {
		fmt.Fprintf(b, "- also defined in %s\n", strings.Join(others, "; "))
	}
	writeToolNames(b, in, res.Tool.ID, es.Name)
	writeDocs(b, res.Tool)
}

// writeDocs links the tool's own documentation of its MCP configuration
// (registry.Tool.Docs), so the reader can check what the hover says
// against the source. Nothing is fetched: it is a link for the reader.
func writeDocs(b *strings.Builder, t *registry.Tool) {
	if t.Docs == "" {
		return
	}
	fmt.Fprintf(b, "- docs: [%s MCP configuration](%s)\n", t.Name, t.Docs)
}

// toolHeading names the tool in bold, with the release its profile was
// verified against: tools change how they assemble their servers between
// releases (Claude Code 2.1.328 began to require the trust dialog), so
// the reader knows which behaviour the hover describes.
func toolHeading(t *registry.Tool) string {
	if t.Profile != nil && t.Profile.Version != "" {
		return fmt.Sprintf("**%s** (modelled on %s)", t.Name, t.Profile.Version)
	}
	return "**" + t.Name + "**"
}

// writeFields lists the merged fields: transport, command, url and the
// rest, each with the file and line it comes from. Values of env and
// headers are never shown, only their names.
func writeFields(b *strings.Builder, in HoverInput, fields []shownField) {
	for _, f := range fields {
		v := f.member.Value
		var val string
		switch f.key {
		case "env", "environment", "headers", "http_headers":
			val = "names " + joinCode(objectKeys(v)) + " (values hidden)"
		case "bearer_token":
			// Codex CLI refuses it, but it is still a token.
			val = "(value hidden)"
		default:
			val = "`" + render(v) + "`"
		}
		fmt.Fprintf(b, "- %s: %s (%s)\n", f.key, val, place(in, f.path, f.member.Key.Span.Start))
	}
}

func writeToolNames(b *strings.Builder, in HoverInput, tool registry.ToolID, server string) {
	t, _ := in.Registry.Tool(tool)
	prefix, limit, left, ok := rules.ToolNameRoom(t, server)
	if !ok {
		return
	}
	fmt.Fprintf(b, "- tool names: `%s<tool>`", prefix)
	if left <= 0 {
		fmt.Fprintf(b, ": **no room left** under the %d-character limit", limit)
		if in.RuleURL != nil {
			// The same finding as the tool-name-budget diagnostic.
			fmt.Fprintf(b, " ([%s](%s))", rules.CodeToolNameBudget, in.RuleURL(rules.CodeToolNameBudget))
		}
	} else {
		fmt.Fprintf(b, ", %d characters left for tool names under the %d-character limit", left, limit)
	}
	b.WriteString("\n")
}

// render prints a field value compactly, masking what may be secret.
func render(n *jsonc.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case jsonc.String:
		return MaskIfSecret(n.Str)
	case jsonc.Array:
		parts := make([]string, 0, len(n.Elements()))
		for _, e := range n.Elements() {
			parts = append(parts, render(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case jsonc.Object:
		return "{" + strings.Join(objectKeys(n), ", ") + "}"
	case jsonc.Number:
		return n.Str
	case jsonc.True:
		return "true"
	case jsonc.False:
		return "false"
	case jsonc.Null:
		return "null"
	}
	return "…"
}

// shownField is a field as hover lists it: its key, and its member in the
// file at path.
type shownField struct {
	key, path string
	member    *jsonc.Member
}

// shownOf lists the fields of one of r's servers.
func shownOf(r *Result, fields []Field) []shownField {
	out := make([]shownField, len(fields))
	for i, f := range fields {
		out[i] = shownField{f.Key, f.From.Source.Path, r.FieldMember(f)}
	}
	return out
}

// fieldsHere lists the fields of the server m of the file at path alone,
// sorted by key, the last of a repeated key counting.
func fieldsHere(m *jsonc.Member, path string) []shownField {
	var out []shownField
	if m.Value == nil || m.Value.Kind != jsonc.Object {
		return nil
	}
	for _, f := range m.Value.Members() {
		if f.Key != nil && m.Value.Get(f.Key.Str) == f {
			out = append(out, shownField{f.Key.Str, path, f})
		}
	}
	slices.SortFunc(out, func(a, b shownField) int { return strings.Compare(a.key, b.key) })
	return out
}

func droppedHere(r *Result, path string) string {
	for _, src := range r.Sources {
		if src.Path == path {
			return src.Dropped
		}
	}
	return ""
}

// unreadMap returns the tool's result and the server maps it reads in
// this file (as JSON paths) when the server lies in a map the tool does
// not read from this launch directory: a projects entry of ~/.claude.json
// other than the one of the launch directory's git root. nil otherwise.
func unreadMap(in HoverInput, tool registry.ToolID, s *rules.Server) (*Result, []string) {
	if s.Map == nil {
		return nil, nil
	}
	for _, res := range in.Results {
		if res.Tool.ID != tool {
			continue
		}
		x := Input{LaunchDir: res.LaunchDir, GitRoot: res.GitRoot}
		var read [][]string
		for _, src := range res.Sources {
			if src.Path != in.Path {
				continue
			}
			for _, lf := range src.Layer.Files {
				read = append(read, expandMaps(x, lf.ServerMaps)...)
			}
			if w := src.Layer.Walk; w != nil {
				read = append(read, expandMaps(x, w.ServerMaps)...)
			}
		}
		if len(read) == 0 || slices.ContainsFunc(read, func(m []string) bool { return slices.Equal(m, s.Map.Path) }) {
			return nil, nil
		}
		var names []string
		for _, m := range read {
			if p := jsonPath(m); !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
		return res, names
	}
	return nil, nil
}

func findServer(r *Result, name string) *Server {
	for _, s := range r.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func definesHere(r *Result, s *Server, path string, m *jsonc.Member) bool {
	return definitionOf(r, s, path, m) != nil
}

// definitionOf returns the definition of r's server s that is the member m
// of the file at path, nil if none.
func definitionOf(r *Result, s *Server, path string, m *jsonc.Member) *Definition {
	for _, d := range s.Definitions {
		if d.Source.Path != path {
			continue
		}
		// The same member when r read the parse m is of (lenses ask
		// for every server of a file), else at the same place.
		if dm := r.Member(d); dm == m || dm.Key.Span == m.Key.Span {
			return d
		}
	}
	return nil
}

func place(in HoverInput, path string, offset int) string {
	return fmt.Sprintf("%s:%d", in.Display(path), in.Line(path, offset))
}

func objectKeys(n *jsonc.Node) []string {
	if n == nil || n.Kind != jsonc.Object {
		return nil
	}
	var keys []string
	for _, m := range n.Members() {
		if !slices.Contains(keys, m.Key.Str) {
			keys = append(keys, m.Key.Str)
		}
	}
	return keys
}

func joinCode(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return "`" + strings.Join(items, "`, `") + "`"
}

func prefixed(p string, items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = p + s
	}
	return out
}

func toolName(reg *registry.Registry, id registry.ToolID) string {
	if t, ok := reg.Tool(id); ok {
		return t.Name
	}
	return string(id)
}
