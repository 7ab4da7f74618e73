// Package complete computes completions inside the server entries of MCP
// configuration files: the fields a server may have (from each reading
// tool's schema branch for the entry) and the enumerated values of a field
// such as "type". Results are protocol-neutral: byte spans of the source
// and the text to put there; the lsp package converts them to UTF-16.
package complete

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Kind is what an Item completes.
type Kind uint8

const (
	// Property is a field name of a server entry.
	Property Kind = iota + 1
	// EnumMember is one allowed value of a field.
	EnumMember
)

// Input is what completion needs: the parsed file, its kind (whose readers
// decide what is valid), the cursor's byte offset and the registry for
// tool names.
type Input struct {
	File     *jsonc.File
	Kind     *registry.FileKind
	Offset   int
	Registry *registry.Registry
	// TOML says File was parsed from TOML (Codex CLI's config.toml):
	// candidates are then written `key = ` and `true`, and the entry is
	// the [mcp_servers.<name>] table the cursor's line belongs to.
	TOML bool
}

// Item is one completion candidate.
type Item struct {
	Label string
	Kind  Kind
	// Detail names the tools that accept the candidate.
	Detail string
	// Doc is Markdown documentation from the schemas (may be empty).
	Doc string
	// Preferred marks a value every reader of the file accepts when some
	// other candidate is accepted by only some of them.
	Preferred bool
	// Span is the source range the candidate replaces (empty: an insertion
	// at the cursor).
	Span span.Span
	// Text is the plain replacement; Snippet the same as an LSP snippet
	// (with a $0 tab stop), or "" when it has none.
	Text    string
	Snippet string
}

// At returns the completions for the cursor, nil when there are none.
func At(in Input) []Item {
	if in.File == nil || in.Kind == nil {
		return nil
	}
	if in.TOML {
		return atTOML(in)
	}
	entry := entryAt(in)
	if entry == nil {
		return nil
	}
	readers := schemaReaders(in.Kind)
	if len(readers) == 0 {
		return nil
	}
	c := &ctx{in: in, entry: entry, readers: readers}
	if m, rng, ok := c.valuePosition(); ok {
		return c.values(m.Key.Str, m, rng)
	}
	if m, rng, ok := c.keyPosition(); ok {
		return c.keys(m, rng)
	}
	return nil
}

type ctx struct {
	in      Input
	entry   *jsonc.Node // the server's definition object
	readers []*registry.Reader
}

// keyText is how a key candidate is written: "key": in JSON, key = in
// TOML.
func (c *ctx) keyText(k string) (text, snippet string) {
	if c.in.TOML {
		return k + " = ", k + " = $0"
	}
	q := strconv.Quote(k)
	return q + ": ", q + ": $0"
}

// schemaReaders are the kind's readers with a schema and a server map.
func schemaReaders(k *registry.FileKind) []*registry.Reader {
	known := schemas.Dialects()
	var out []*registry.Reader
	for i := range k.Readers {
		r := &k.Readers[i]
		if len(r.ServerMaps) > 0 && slices.Contains(known, string(r.Dialect)) {
			out = append(out, r)
		}
	}
	return out
}

// entryAt returns the innermost server definition object (of any reader)
// whose braces hold the cursor.
func entryAt(in Input) *jsonc.Node {
	var best *jsonc.Node
	for i := range in.Kind.Readers {
		for _, sm := range rules.FindServerMaps(in.File, &in.Kind.Readers[i]) {
			for _, s := range sm.Servers() {
				v := s.Value()
				if v == nil || v.Kind != jsonc.Object || !inside(v, in.Offset) {
					continue
				}
				if best == nil || v.Span.Start > best.Span.Start {
					best = v
				}
			}
		}
	}
	return best
}

// inside reports whether offset is after n's opening delimiter and before
// its closing one (or at its end, when it is unclosed).
func inside(n *jsonc.Node, offset int) bool {
	if offset <= n.Span.Start {
		return false
	}
	if n.Closed {
		return offset < n.Span.End
	}
	return offset <= n.Span.End
}

// valuePosition finds a member of the entry whose value the cursor is in:
// inside its string, on a missing or bare-word value, or between the colon
// and the value. rng is what a candidate replaces.
func (c *ctx) valuePosition() (*jsonc.Member, span.Span, bool) {
	off := c.in.Offset
	for _, m := range c.entry.Members() {
		v := m.Value
		if m.Colon < 0 || off <= m.Colon {
			continue
		}
		switch {
		case v.Kind == jsonc.String && inside(v, off):
			return m, v.Span, true
		case v.Kind == jsonc.Invalid && off >= v.Span.Start && off <= v.Span.End:
			return m, v.Span, true
		case off < v.Span.Start && onlySpace(c.in.File.Src[m.Colon+1:off]):
			if v.Kind == jsonc.Invalid {
				return m, span.Span{Start: off, End: off}, true
			}
			return nil, span.Span{}, false
		}
	}
	return nil, span.Span{}, false
}

// keyPosition finds where a key is being typed: inside a key string (m is
// its member, rng its span), or where a new member can start (m nil, rng
// empty at the cursor).
func (c *ctx) keyPosition() (*jsonc.Member, span.Span, bool) {
	off := c.in.Offset
	for _, m := range c.entry.Members() {
		if inside(m.Key, off) {
			return m, m.Key.Span, true
		}
		if m.Span.Start < off && off < m.Span.End {
			return nil, span.Span{}, false // inside another member
		}
		if k := m.Value.Kind; (k == jsonc.Object || k == jsonc.Array) && inside(m.Value, off) {
			return nil, span.Span{}, false // in a nested value
		}
	}
	if p := c.prevByte(off); p == '{' || p == ',' {
		return nil, span.Span{Start: off, End: off}, true
	}
	return nil, span.Span{}, false
}

// prevByte is the last byte before offset that is neither white space nor
// part of a comment, 0 at the start of the input.
func (c *ctx) prevByte(off int) byte {
	src := c.in.File.Src
	for i := off - 1; i >= 0; i-- {
		if cm := commentEndingAt(c.in.File.Comments, i+1); cm != nil {
			i = cm.Start
			continue
		}
		switch src[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return src[i]
	}
	return 0
}

func commentEndingAt(cs []span.Span, end int) *span.Span {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End >= end })
	if i < len(cs) && cs[i].End == end {
		return &cs[i]
	}
	return nil
}

func onlySpace(b []byte) bool {
	return strings.TrimSpace(string(b)) == ""
}

// decoded is the entry as a tool decodes it, without the member being
// edited (a half-typed "url" must not change the branch).
func (c *ctx) decoded(editing *jsonc.Member) map[string]any {
	entry := map[string]any{}
	for _, m := range c.entry.Members() {
		if m == editing || m.Value.Kind == jsonc.Invalid {
			continue
		}
		entry[m.Key.Str] = verdict.Decode(m.Value)
	}
	return entry
}

func (c *ctx) toolName(id registry.ToolID) string {
	if c.in.Registry != nil {
		if t, ok := c.in.Registry.Tool(id); ok {
			return t.Name
		}
	}
	return string(id)
}

// properties returns the properties of s, following its $ref chain.
func properties(s *jsonschema.Schema) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	for i := 0; s != nil && i < 8; i, s = i+1, s.Ref {
		for k, p := range s.Properties {
			if _, ok := out[k]; !ok {
				out[k] = p
			}
		}
	}
	return out
}

type keyInfo struct {
	tools []string
	docs  []string // distinct, in reader order
	by    map[string][]string
}

// keys lists the entry branch's properties for each reader, minus those
// already present.
func (c *ctx) keys(editing *jsonc.Member, rng span.Span) []Item {
	entry := c.decoded(editing)
	present := map[string]bool{}
	for _, m := range c.entry.Members() {
		if m != editing {
			present[m.Key.Str] = true
		}
	}
	infos := map[string]*keyInfo{}
	var order []string
	for _, r := range c.readers {
		def, ok := schemas.ServerDef(string(r.Dialect), entry)
		if !ok {
			// A type still being chosen ("type": "") or unknown to this
			// tool: decide the branch as if there were no type yet, so
			// the keys keep coming while the user types.
			untyped := maps.Clone(entry)
			delete(untyped, "type")
			if def, ok = schemas.ServerDef(string(r.Dialect), untyped); !ok {
				continue
			}
		}
		b, err := schemas.Branch(string(r.Dialect), def)
		if err != nil {
			continue
		}
		props := properties(b)
		names := make([]string, 0, len(props))
		for k, p := range props {
			if !forbidden(p) {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		tool := c.toolName(r.Tool)
		for _, k := range names {
			if present[k] {
				continue
			}
			ki := infos[k]
			if ki == nil {
				ki = &keyInfo{by: map[string][]string{}}
				infos[k] = ki
				order = append(order, k)
			}
			ki.tools = append(ki.tools, tool)
			if d := props[k].Description; d != "" {
				if _, seen := ki.by[d]; !seen {
					ki.docs = append(ki.docs, d)
				}
				ki.by[d] = append(ki.by[d], tool)
			}
		}
	}
	sort.Strings(order)
	items := make([]Item, 0, len(order))
	for _, k := range order {
		ki := infos[k]
		var doc strings.Builder
		for _, d := range ki.docs {
			if len(ki.docs) > 1 {
				fmt.Fprintf(&doc, "_%s:_ ", strings.Join(ki.by[d], ", "))
			}
			doc.WriteString(d + "\n\n")
		}
		text, snippet := c.keyText(k)
		items = append(items, Item{
			Label:   k,
			Kind:    Property,
			Detail:  strings.Join(ki.tools, ", "),
			Doc:     strings.TrimSpace(doc.String()),
			Span:    rng,
			Text:    text,
			Snippet: snippet,
		})
	}
	return items
}

// values lists the enumerated values of key for each reader (m is the
// member being edited, nil if the tree has none yet): those every reader
// accepts first (preferred when some are not), then the others, each in
// reader order. In TOML a boolean field gets true and false too (JSON
// editors offer those themselves).
func (c *ctx) values(key string, m *jsonc.Member, rng span.Span) []Item {
	entry := c.decoded(m)
	accepted := map[string][]string{}
	docs := map[string]string{}
	bare := map[string]bool{} // TOML booleans, written without quotes
	var order []string
	for _, r := range c.readers {
		vals, doc := enumFor(string(r.Dialect), entry, key)
		if c.in.TOML && len(vals) == 0 && isBoolean(string(r.Dialect), entry, key) {
			vals, doc = []string{"true", "false"}, propertyDoc(string(r.Dialect), entry, key)
			bare["true"], bare["false"] = true, true
		}
		tool := c.toolName(r.Tool)
		for _, v := range vals {
			if _, ok := accepted[v]; !ok {
				order = append(order, v)
				docs[v] = doc
			}
			accepted[v] = append(accepted[v], tool)
		}
	}
	if len(order) == 0 {
		return nil
	}
	all := func(v string) bool { return len(accepted[v]) == len(c.readers) }
	someNot := slices.ContainsFunc(order, func(v string) bool { return !all(v) })
	sorted := slices.Clone(order)
	slices.SortStableFunc(sorted, func(a, b string) int {
		switch {
		case all(a) && !all(b):
			return -1
		case !all(a) && all(b):
			return 1
		}
		return 0
	})
	items := make([]Item, 0, len(sorted))
	for _, v := range sorted {
		q := strconv.Quote(v)
		if bare[v] {
			q = v
		}
		items = append(items, Item{
			Label:     q,
			Kind:      EnumMember,
			Detail:    strings.Join(accepted[v], ", "),
			Doc:       docs[v],
			Preferred: someNot && all(v),
			Span:      rng,
			Text:      q,
		})
	}
	return items
}

// enumFor returns the string values the dialect allows for key in a server
// entry, and the property's description. The "server" dispatcher's
// property wins when it has one (it lists every transport type, where a
// branch lists only its own); otherwise the entry's branch decides.
func enumFor(dialect string, entry map[string]any, key string) ([]string, string) {
	if s, err := schemas.Branch(dialect, "server"); err == nil {
		if p, ok := properties(s)[key]; ok {
			if vs := stringValues(p); len(vs) > 0 {
				return vs, p.Description
			}
		}
	}
	if p := property(dialect, entry, key); p != nil {
		return stringValues(p), p.Description
	}
	return nil, ""
}

// property is the schema of key in the entry's branch, nil if none.
func property(dialect string, entry map[string]any, key string) *jsonschema.Schema {
	def, ok := schemas.ServerDef(dialect, entry)
	if !ok {
		return nil
	}
	b, err := schemas.Branch(dialect, def)
	if err != nil {
		return nil
	}
	return properties(b)[key]
}

// forbidden reports whether a property's schema rejects every value
// ("not": {}): a schema lists such a key only to explain why a tool
// refuses it (a field of the other transport), so it is no candidate.
func forbidden(p *jsonschema.Schema) bool {
	if p == nil || p.Not == nil {
		return false
	}
	for _, v := range []any{nil, "", true, map[string]any{}, []any{}} {
		if p.Not.Validate(v) != nil {
			return false
		}
	}
	return true
}

// stringValues are the string members of a schema's enum or const.
func stringValues(s *jsonschema.Schema) []string {
	var out []string
	for i := 0; s != nil && i < 8; i, s = i+1, s.Ref {
		for _, v := range append(slices.Clone(s.Enum), s.Constant...) {
			if str, ok := v.(string); ok && !slices.Contains(out, str) {
				out = append(out, str)
			}
		}
	}
	return out
}
