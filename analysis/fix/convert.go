package fix

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Conversion is one "Convert to <tool>" action: a server, or every server
// of a file, written in another tool's format into that tool's file (see
// Workspace.targetFile). Its title is known when it is listed; its edits
// are computed by Change, which a language server may defer until the
// user picks the action.
type Conversion struct {
	// Title says what the conversion does, what it replaces and what it
	// loses: `Convert to OpenCode (replaces "fs" in opencode.json;
	// drops: oauth.clientSecret)`. It names fields, never values.
	Title  string
	To     string // the target dialect
	Server string // the converted server; "" for a whole file
	// Target is the file written; Create says it does not exist yet.
	Target string
	Create bool
	// Replaces are the servers of the target file the conversion
	// overwrites (the same names).
	Replaces []string
	// Disabled says why the conversion cannot be applied as things are
	// (the target file has syntax errors); "" when it can.
	Disabled string
	Losses   []convert.Loss

	ws       *Workspace
	src      *Document
	target   *Document   // the existing target file, nil for Create
	mapKey   string      // the target's server map key
	mapNode  *jsonc.Node // the target's server map, nil if absent
	jsonc    bool        // every reader of the target takes comments
	userFile bool        // the target is a per-user file, not the project's
	members  []newMember // the converted servers
	created  []byte      // a whole converted file (ConvertFile into a new file)
}

// ServerAt returns the name of the server whose entry holds both offsets
// (the cursor on its name or anywhere inside its definition).
func ServerAt(doc *Document, start, end int) (string, bool) {
	for _, s := range servers(doc) {
		if sp := s.server.Member.Span; sp.ContainsInclusive(start) && sp.ContainsInclusive(end) {
			return s.server.Name, true
		}
	}
	return "", false
}

// ServerNameAt returns the name of the server whose key (its name, with
// the quotes) holds off: hover's per-server sections show there only.
func ServerNameAt(doc *Document, off int) (string, bool) {
	for _, s := range servers(doc) {
		if k := s.server.Member.Key; k != nil && k.Span.ContainsInclusive(off) {
			return s.server.Name, true
		}
	}
	return "", false
}

// FileConversions lists the conversions of the whole file into every
// other tool's format that can hold all its servers.
func FileConversions(doc *Document, ws *Workspace) []*Conversion {
	var out []*Conversion
	for _, to := range convert.Dialects() {
		if c, err := ConvertFile(doc, ws, to); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// ConvertFile converts every server of the file into dialect to: a new
// file (convert.ConvertFile's output, in the source's indentation), or,
// when the target exists, its servers added to it (same names replaced).
func ConvertFile(doc *Document, ws *Workspace, to string) (*Conversion, error) {
	if doc.Kind == nil || !doc.isJSON() || readsFile(ws.Registry, doc.Kind, to) {
		return nil, fmt.Errorf("%s already reads this file, or no tool does", ws.toolName(to))
	}
	var from string
	var out []byte
	var losses []convert.Loss
	err := errors.New("no tool takes servers from this file")
	for _, r := range doc.Kind.Readers {
		if len(r.ServerMaps) == 0 {
			continue
		}
		if out, losses, err = convert.ConvertFile(string(r.Dialect), to, doc.Content); err == nil {
			from = string(r.Dialect)
			break
		}
	}
	if err != nil {
		return nil, err
	}
	c := &Conversion{To: to, Losses: losses, ws: ws, src: doc}
	if err := c.locate(); err != nil {
		return nil, err
	}
	if c.Create {
		c.created = reindent(out, doc.Layout())
	} else if err := c.fileMembers(from); err != nil {
		return nil, err
	}
	c.replaced()
	c.Title = c.title("Convert this file to " + ws.toolName(to))
	return c, nil
}

// fileMembers converts each server of the source (the map dialect from
// reads, the last definition of each name) for insertion into an
// existing target.
func (c *Conversion) fileMembers(from string) error {
	r, _ := readerFor(c.src.Kind, from)
	maps := rules.FindServerMaps(c.src.parsed(), r)
	if len(maps) == 0 {
		return nil
	}
	for _, s := range maps[0].Servers() {
		model, _, err := convert.FromEntry(from, s.Name, s.Value())
		if err != nil {
			return err
		}
		entry, _, err := convert.ToEntry(c.To, model)
		if errors.Is(err, convert.ErrEnabledOnly) {
			continue
		}
		if err != nil {
			return err
		}
		c.members = append(c.members, newMember{key: s.Name, value: entry})
	}
	return nil
}

// locate finds the target file and, if it exists, its server map.
func (c *Conversion) locate() error {
	ws := c.ws
	path := ws.targetFile(c.To)
	if path == "" || path == c.src.Path {
		return errors.New("no file to convert into")
	}
	kind, ok := ws.Registry.Match(path, ws.Env)
	if !ok {
		return fmt.Errorf("%s is not a file the registry knows", path)
	}
	r, ok := readerFor(kind, c.To)
	if !ok {
		return fmt.Errorf("%s does not read %s", ws.toolName(c.To), path)
	}
	c.Target = path
	c.userFile = kind.Scope != registry.ScopeProject
	c.jsonc = true
	for _, kr := range kind.Readers {
		c.jsonc = c.jsonc && kr.JSONC.Value
	}
	var keys []string
	for _, p := range r.ServerMaps {
		if len(p) == 1 {
			keys = append(keys, p[0])
		}
	}
	if len(keys) == 0 {
		return fmt.Errorf("%s keeps no top-level server map in %s", ws.toolName(c.To), path)
	}
	c.mapKey = keys[0]
	content, exists, err := ws.File(path)
	switch {
	case !exists:
		c.Create = true
		return nil
	case err != nil:
		c.Disabled = fmt.Sprintf("%s cannot be read", ws.display(path))
		return nil
	}
	srcLayout := c.src.Layout()
	c.target = &Document{Path: path, Content: content, Kind: kind, fallback: &srcLayout}
	f := c.target.parsed()
	switch {
	case len(f.Errors) > 0:
		c.Disabled = fmt.Sprintf("%s has syntax errors; fix them first", ws.display(path))
	case f.Root == nil:
		// An empty file: written whole.
	case f.Root.Kind != jsonc.Object:
		c.Disabled = fmt.Sprintf("%s does not hold a JSON object", ws.display(path))
	default:
		for _, k := range keys {
			if m := f.Root.Get(k); m != nil {
				c.mapKey = k
				if m.Value.Kind != jsonc.Object {
					c.Disabled = fmt.Sprintf("%q in %s is not an object", k, ws.display(path))
				} else {
					c.mapNode = m.Value
				}
				break
			}
		}
	}
	return nil
}

// replaced records which converted servers overwrite one of the target.
func (c *Conversion) replaced() {
	if c.mapNode == nil {
		return
	}
	for _, m := range c.members {
		if c.mapNode.Get(m.key) != nil {
			c.Replaces = append(c.Replaces, m.key)
		}
	}
}

// maxTitleFields caps the fields a title lists; the rest are counted.
const maxTitleFields = 4

// title adds to base what the conversion replaces, where it writes when
// that is outside the project, and what it loses.
func (c *Conversion) title(base string) string {
	var parts []string
	where := c.ws.display(c.Target)
	switch {
	case len(c.Replaces) > 0:
		q := make([]string, len(c.Replaces))
		for i, r := range c.Replaces {
			q[i] = quote(r)
		}
		parts = append(parts, fmt.Sprintf("replaces %s in %s", strings.Join(limit(q), ", "), where))
	case c.userFile:
		parts = append(parts, "in "+where)
	}
	parts = append(parts, LossSummary(c.Losses, c.Server == "")...)
	if len(parts) == 0 {
		return base
	}
	return base + " (" + strings.Join(parts, "; ") + ")"
}

// LossSummary is what a conversion loses, for a title: "drops: <fields>"
// and "changes: <fields>" (fields, never values; each named once, at most
// maxTitleFields of them). perServer adds each field's server, for a
// conversion of several. "Convert to", "Add to" and "Copy to every tool"
// describe their losses with it.
func LossSummary(losses []convert.Loss, perServer bool) []string {
	var drops, changes, parts []string
	for _, l := range losses {
		f := l.Field
		switch {
		case perServer && l.Server != "" && f != "":
			f += " (" + quote(l.Server) + ")"
		case f == "" && l.Server != "":
			f = quote(l.Server)
		case f == "":
			continue
		}
		if l.Kind == convert.Changed {
			if !slices.Contains(changes, f) {
				changes = append(changes, f)
			}
		} else if !slices.Contains(drops, f) {
			drops = append(drops, f)
		}
	}
	if len(drops) > 0 {
		parts = append(parts, "drops: "+strings.Join(limit(drops), ", "))
	}
	if len(changes) > 0 {
		parts = append(parts, "changes: "+strings.Join(limit(changes), ", "))
	}
	return parts
}

// limit shortens a list for a title: "a, b, c, d, 3 more".
func limit(items []string) []string {
	if len(items) <= maxTitleFields {
		return items
	}
	return append(slices.Clone(items[:maxTitleFields]), fmt.Sprintf("%d more", len(items)-maxTitleFields))
}

// sourceServer is one server of the source file with the dialects of the
// readers that read it, in the registry's order.
type sourceServer struct {
	server   *rules.Server
	dialects []string
}

// servers lists the servers of doc as its readers find them, each
// definition once.
func servers(doc *Document) []*sourceServer {
	if doc.Kind == nil {
		return nil
	}
	if doc.sources == nil {
		out := listServers(doc)
		doc.sources = &out
	}
	return *doc.sources
}

func listServers(doc *Document) []*sourceServer {
	var out []*sourceServer
	index := map[*jsonc.Member]int{} // a linear search made this quadratic in the servers
	for i := range doc.Kind.Readers {
		r := &doc.Kind.Readers[i]
		for _, sm := range rules.FindServerMaps(doc.parsed(), r) {
			for _, s := range sm.Servers() {
				j, ok := index[s.Member]
				if !ok {
					out = append(out, &sourceServer{server: s})
					j = len(out) - 1
					index[s.Member] = j
				}
				if !slices.Contains(out[j].dialects, string(r.Dialect)) {
					out[j].dialects = append(out[j].dialects, string(r.Dialect))
				}
			}
		}
	}
	return out
}

// readsFile reports whether the dialect's own tool reads kind in it: then
// converting into that dialect is pointless. Another tool sharing the
// dialect does not count (Kilo Code reads .mcp.json in Roo Code's
// dialect; Roo Code does not read it).
func readsFile(reg *registry.Registry, kind *registry.FileKind, dialect string) bool {
	if kind == nil {
		return false
	}
	d, ok := reg.Dialect(registry.DialectID(dialect))
	return ok && slices.ContainsFunc(kind.Readers, func(r registry.Reader) bool { return r.Dialect == d.ID && r.Tool == d.Tool })
}

// readerFor returns the reader of kind that reads it in dialect.
func readerFor(kind *registry.FileKind, dialect string) (*registry.Reader, bool) {
	if kind == nil {
		return nil, false
	}
	for i := range kind.Readers {
		if string(kind.Readers[i].Dialect) == dialect {
			return &kind.Readers[i], true
		}
	}
	return nil, false
}
