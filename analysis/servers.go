package analysis

import (
	"encoding/json"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
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
		for i := len(n.Members) - 1; i >= 0; i-- { // the last duplicate wins
			mm := n.Members[i]
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
func (sm *ServerMap) Servers() []*Server {
	if sm.Node == nil || sm.Node.Kind != jsonc.Object {
		return nil
	}
	// The last member of each name wins; a map (not Node.Get, a linear
	// scan) keeps this linear for maps of thousands of servers.
	last := make(map[string]*jsonc.Member, len(sm.Node.Members))
	for _, m := range sm.Node.Members {
		if m.Key != nil {
			last[m.Key.Str] = m
		}
	}
	out := make([]*Server, 0, len(last))
	for _, m := range sm.Node.Members {
		if m.Key == nil || last[m.Key.Str] != m {
			continue
		}
		out = append(out, &Server{Name: m.Key.Str, Map: sm, Member: m})
	}
	return out
}

// Decode converts a node to the value encoding/json would produce with
// UseNumber (maps, slices, strings, json.Number, bools, nil), without
// re-encoding the text: this is what schema validation consumes. Invalid
// nodes (recovered syntax errors) decode to nil. Duplicate keys keep the
// last value, as every tool does.
func Decode(n *jsonc.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case jsonc.Object:
		obj := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			if m.Key != nil {
				obj[m.Key.Str] = Decode(m.Value)
			}
		}
		return obj
	case jsonc.Array:
		arr := make([]any, len(n.Elements))
		for i, e := range n.Elements {
			arr[i] = Decode(e)
		}
		return arr
	case jsonc.String:
		return n.Str
	case jsonc.Number:
		return json.Number(n.Str)
	case jsonc.True:
		return true
	case jsonc.False:
		return false
	}
	return nil
}
