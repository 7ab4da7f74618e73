package rules

import (
	"bytes"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// ServerMap is one object of a file whose members are MCP servers, as a
// reader locates it (registry.Reader.ServerMaps), e.g. "mcpServers" in
// .mcp.json or "projects./abs/path.mcpServers" in ~/.claude.json.
type ServerMap struct {
	// Path is the concrete key path from the root, "*" segments resolved.
	Path []string
	// Member is the member holding the map (its key names it); nil only
	// when the map is the root itself.
	Member *jsonc.Member
	// Node is the map's value. It may be something other than an object
	// (a user's mistake that rules report).
	Node *jsonc.Node
}

// Server is one server definition in a file. Servers with a duplicate name
// in the same map are represented once, by the last definition: that is
// the one every tool reads (the earlier ones are reported as ignored
// duplicates by the syntax checks).
type Server struct {
	Name   string
	Map    *ServerMap
	Member *jsonc.Member // Member.Key is the name, Member.Value the definition
}

// Key is the server's name node, where most whole-entry findings go.
func (s *Server) Key() *jsonc.Node { return s.Member.Key }

// Value is the definition node (usually an object; may be Invalid while
// the user is typing).
func (s *Server) Value() *jsonc.Node { return s.Member.Value }

// Field returns the member named key of the definition (the last one, as
// tools read it), or nil.
func (s *Server) Field(key string) *jsonc.Member {
	if v := s.Value(); v != nil && v.Kind == jsonc.Object {
		return v.Get(key)
	}
	return nil
}

// FindServerMaps resolves the reader's server-map paths in f. A path whose
// objects are missing yields nothing: whether a missing top-level key is a
// problem is a rule's decision.
func FindServerMaps(f *jsonc.File, r *registry.Reader) []*ServerMap {
	if f.Root == nil || f.Root.Kind != jsonc.Object {
		return nil
	}
	var out []*ServerMap
	for _, pattern := range r.ServerMaps {
		out = appendMaps(out, f.Root, nil, nil, pattern)
	}
	return out
}

func appendMaps(out []*ServerMap, n *jsonc.Node, m *jsonc.Member, prefix, pattern []string) []*ServerMap {
	if len(pattern) == 0 {
		return append(out, &ServerMap{Path: append([]string(nil), prefix...), Member: m, Node: n})
	}
	if n == nil || n.Kind != jsonc.Object {
		return out
	}
	seg := pattern[0]
	if seg == "*" {
		seen := map[string]bool{}
		for i := len(n.Members()) - 1; i >= 0; i-- { // the last duplicate wins
			mm := n.Members()[i]
			if mm.Key == nil || seen[mm.Key.Str] {
				continue
			}
			seen[mm.Key.Str] = true
			out = appendMaps(out, mm.Value, mm, append(prefix, mm.Key.Str), pattern[1:])
		}
		return out
	}
	if mm := n.Get(seg); mm != nil {
		out = appendMaps(out, mm.Value, mm, append(prefix, seg), pattern[1:])
	}
	return out
}

// Servers lists the servers of a map in file order, one per name.
func (sm *ServerMap) Servers() []*Server { return sm.servers(nil) }

// servers is Servers with the key maps of one analysis.
func (sm *ServerMap) servers(keys *parseIndex) []*Server {
	if sm.Node == nil || sm.Node.Kind != jsonc.Object {
		return nil
	}
	ms := keys.lastMembers(sm.Node)
	// One allocation for all the servers: a map can hold thousands.
	slab := make([]Server, len(ms))
	out := make([]*Server, len(ms))
	for i, m := range ms {
		slab[i] = Server{Name: m.Key.Str, Map: sm, Member: m}
		out[i] = &slab[i]
	}
	return out
}

// lastMembers returns the members of the object n that are the last with
// their key (the ones every tool reads), in file order. It is n.Members
// itself when no key repeats, the common case; do not modify it.
func lastMembers(n *jsonc.Node) []*jsonc.Member { return (*parseIndex)(nil).lastMembers(n) }

// parseIndex remembers what the syntax, semantic and schema checks each
// need to know about one parse: the key maps of its large objects (a
// server map holds thousands of servers) and the lines holding syntax
// errors. A nil *parseIndex remembers nothing.
type parseIndex struct {
	last     map[*jsonc.Node]map[string]*jsonc.Member
	errLines []span.Span
	errDone  bool
	// judged are the verdicts of this run, by entry and reader: the schema
	// and semantic checks ask for the same ones, and a map too large for
	// the session's cache must not be judged twice.
	judged map[judgedKey]*verdict.Verdict
	// perEntry says the checks ask for one entry's verdicts at a time
	// (judgeServers): they are kept for the last entry only (lastJudged), not
	// in judged.
	perEntry   bool
	lastJudged judgedEntry
}

// judgedEntry is one entry's verdicts, by reader.
type judgedEntry struct {
	value    *jsonc.Node
	readers  []*registry.Reader
	verdicts []*verdict.Verdict
}

type judgedKey struct {
	value  *jsonc.Node
	reader *registry.Reader
}

// errorLines returns the ranges of whole lines holding a syntax error of
// f, in order and disjoint: from the start of the line where an error
// starts to the line break (or the end of the input) ending the line where
// it ends, that break included. Each line is scanned once, so this is
// linear even for a one-line file full of errors.
func (x *parseIndex) errorLines(f *jsonc.File) []span.Span {
	if x != nil && x.errDone {
		return x.errLines
	}
	var out []span.Span
	src := f.Src
	lineEnd := func(at int) int {
		if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
			return at + i
		}
		return len(src)
	}
	for _, e := range f.Errors {
		if n := len(out); n > 0 && e.Span.Start <= out[n-1].End {
			if e.Span.End > out[n-1].End { // an error spanning lines
				out[n-1].End = lineEnd(e.Span.End)
			}
			continue
		}
		floor := 0
		if n := len(out); n > 0 {
			floor = out[n-1].End
		}
		start := floor
		if i := bytes.LastIndexByte(src[floor:e.Span.Start], '\n'); i >= 0 {
			start = floor + i + 1
		}
		out = append(out, span.New(start, lineEnd(max(e.Span.Start, e.Span.End))))
	}
	if x != nil {
		x.errLines, x.errDone = out, true
	}
	return out
}

// lastByKey is lastByKey(n), remembered for large objects.
func (x *parseIndex) lastByKey(n *jsonc.Node) map[string]*jsonc.Member {
	if x == nil || len(n.Members()) <= 16 {
		return lastByKey(n)
	}
	if last, ok := x.last[n]; ok {
		return last
	}
	last := lastByKey(n)
	if x.last == nil {
		x.last = map[*jsonc.Node]map[string]*jsonc.Member{}
	}
	x.last[n] = last
	return last
}

// lastMembers is lastMembers(n) with x's key maps.
func (x *parseIndex) lastMembers(n *jsonc.Node) []*jsonc.Member {
	last := x.lastByKey(n)
	if last == nil && !slices.ContainsFunc(n.Members(), func(m *jsonc.Member) bool { return m.Key == nil }) {
		return n.Members()
	}
	out := make([]*jsonc.Member, 0, len(n.Members()))
	for _, m := range n.Members() {
		if m.Key != nil && (last == nil || last[m.Key.Str] == m) {
			out = append(out, m)
		}
	}
	return out
}

// lastByKey maps each key of the object n to its last member, or returns
// nil when no key repeats (the common case, found without a map for
// small objects: servers and their fields have a handful of keys).
func lastByKey(n *jsonc.Node) map[string]*jsonc.Member {
	ms := n.Members()
	if n.KeysUnique() { // checked once, by the parser
		return nil
	}
	if len(ms) <= 16 {
		dup := false
	small:
		for i := 1; i < len(ms); i++ {
			if ms[i].Key == nil {
				continue
			}
			for _, o := range ms[:i] {
				if o.Key != nil && o.Key.Str == ms[i].Key.Str {
					dup = true
					break small
				}
			}
		}
		if !dup {
			return nil
		}
	}
	last := make(map[string]*jsonc.Member, len(ms))
	dup := false
	for _, m := range ms {
		if m.Key != nil {
			if _, seen := last[m.Key.Str]; seen {
				dup = true
			}
			last[m.Key.Str] = m
		}
	}
	if !dup {
		return nil
	}
	return last
}

// verdictOf is reader r's verdict on the server name: value of in's file,
// once per run: through the session's cache when cached, else computed
// (a map larger than a memo generation would only churn the cache).
func (in *FileInput) verdictOf(r *registry.Reader, name string, value *jsonc.Node, cached bool) *verdict.Verdict {
	x := in.index
	if v, ok := x.judgedBefore(value, r); ok {
		return v
	}
	cache := in.Cache.Verdicts
	if !cached {
		cache = nil
	}
	v := verdict.Of(cache, in.Registry, r, verdict.Entry{Name: name, Value: value, Text: in.Parsed.Src[value.Span.Start:value.Span.End]})
	x.remember(value, r, v)
	return v
}

// verdictsOf sets vs[i] to verdictOf(rs[i], name, value, true) for every
// reader, asking the session's cache for those it has not judged in this
// run all at once (verdict.OfAll).
func (in *FileInput) verdictsOf(rs []*registry.Reader, name string, value *jsonc.Node, vs []*verdict.Verdict) {
	x := in.index
	missing := false
	for i, r := range rs {
		v, ok := x.judgedBefore(value, r)
		vs[i] = v
		missing = missing || !ok
	}
	if !missing {
		return
	}
	verdict.OfAll(in.Cache.Verdicts, in.Registry, rs, verdict.Entry{Name: name, Value: value, Text: in.Parsed.Src[value.Span.Start:value.Span.End]}, vs)
	for i, r := range rs {
		x.remember(value, r, vs[i])
	}
}

// judgedBefore is this run's verdict of r on the server value, if any:
// the last server's (judged one after the other) or the run's map.
func (x *parseIndex) judgedBefore(value *jsonc.Node, r *registry.Reader) (*verdict.Verdict, bool) {
	if x != nil && x.lastJudged.value == value {
		if i := slices.Index(x.lastJudged.readers, r); i >= 0 {
			return x.lastJudged.verdicts[i], true
		}
	}
	return x.judgedAs(judgedKey{value, r})
}

// remember records v as this run's verdict of r on the server value.
func (x *parseIndex) remember(value *jsonc.Node, r *registry.Reader, v *verdict.Verdict) {
	switch {
	case x == nil:
	case x.perEntry:
		if x.lastJudged.value != value {
			x.lastJudged = judgedEntry{value: value, readers: x.lastJudged.readers[:0], verdicts: x.lastJudged.verdicts[:0]}
		}
		if !slices.Contains(x.lastJudged.readers, r) {
			x.lastJudged.readers = append(x.lastJudged.readers, r)
			x.lastJudged.verdicts = append(x.lastJudged.verdicts, v)
		}
	default:
		if x.judged == nil {
			x.judged = map[judgedKey]*verdict.Verdict{}
		}
		x.judged[judgedKey{value, r}] = v
	}
}

// judgedAs is the verdict of this run for k, if any.
func (x *parseIndex) judgedAs(k judgedKey) (*verdict.Verdict, bool) {
	if x == nil {
		return nil, false
	}
	v, ok := x.judged[k]
	return v, ok
}
