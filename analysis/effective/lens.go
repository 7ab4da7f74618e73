package effective

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Code lens: above each server of a file, one line per tool saying what
// that tool does with this definition when launched where the file
// applies: "Claude Code: starts", "Copilot CLI: shadowed by
// ~/.copilot/mcp-config.json", "OpenCode: not read here", "Claude Code:
// pending approval", "Gemini CLI: skipped: args must be an array". It is
// read off the effective configurations (the Results the diagnostics and
// hover use), so the three never disagree, and nothing is computed that
// the snapshot has not already memoized.

// LensInput is the file and the effective configurations of the tools
// launched where it applies.
type LensInput struct {
	Path     string
	File     *jsonc.File
	Kind     *registry.FileKind
	Results  []*Result
	Registry *registry.Registry
	// Display shortens a path for the reader (~/.claude.json).
	Display func(path string) string
}

// Lens is one tool's treatment of one server definition.
type Lens struct {
	// Span is the server's name in the file.
	Span span.Span
	// Server is the server's name.
	Server string
	Tool   registry.ToolID
	// Title is "<tool>: <what it does>".
	Title string
	// Winner is set when another definition wins for this tool: where it
	// is, for a jump to it. Nil otherwise.
	Winner *Place
}

// Lenses returns the lenses of every server of the file, in file order
// and, for each server, in the order of the tools in Results, then the
// file's readers that mcp-lsp does not model.
func Lenses(in LensInput) []Lens {
	if in.File == nil || in.Kind == nil {
		return nil
	}
	servers := fileServers(in.File, in.Kind)
	l := lenser{in: in, dropped: make([]string, len(in.Results)), titles: map[lensTitle]string{}}
	for i, res := range in.Results {
		if why := droppedHere(res, in.Path); why != "" {
			l.dropped[i] = "ignores this file (" + why + ")"
		}
	}
	out := make([]Lens, 0, len(servers)*len(in.Kind.Readers))
	for _, s := range servers {
		out = l.serverLenses(out, s)
	}
	return out
}

// lenser computes the lenses of one file: a file of 1,000 servers asks
// for each tool's state of each, and most titles are the same few
// strings ("Claude Code: starts"), made once.
type lenser struct {
	in LensInput
	// dropped is, for each result, the state of a tool that ignores the
	// file, saying why ("" if it reads it).
	dropped []string
	titles  map[lensTitle]string
}

type lensTitle struct {
	tool  *registry.Tool
	state string
}

func (l *lenser) title(tool *registry.Tool, state string) string {
	k := lensTitle{tool, state}
	t, ok := l.titles[k]
	if !ok {
		t = tool.Name + ": " + state
		l.titles[k] = t
	}
	return t
}

func (l *lenser) serverLenses(out []Lens, s *rules.Server) []Lens {
	first := len(out)
	add := func(tool *registry.Tool, state string, winner *Place) {
		out = append(out, Lens{Span: s.Key().Span, Server: s.Name, Tool: tool.ID, Title: l.title(tool, state), Winner: winner})
	}
	for i, res := range l.in.Results {
		if state, winner := lensState(l.in, res, l.dropped[i], serverNamed(res, s.Name), s); state != "" {
			add(res.Tool, state, winner)
		}
	}
	for _, r := range l.in.Kind.Readers {
		if slices.ContainsFunc(out[first:], func(x Lens) bool { return x.Tool == r.Tool }) {
			continue
		}
		if t, ok := l.in.Registry.Tool(r.Tool); ok {
			// A reader without a profile: mcp-lsp knows it reads this
			// file, not what else it reads.
			add(t, "reads this entry", nil)
		}
	}
	return out
}

// fileServers are the servers of every server map of the file's readers,
// each key once, in file order.
func fileServers(f *jsonc.File, kind *registry.FileKind) []*rules.Server {
	// The readers of a kind mostly read the same maps ("mcpServers"):
	// each map once, then its servers, sorted and deduplicated only when
	// several maps hold them.
	var maps []*rules.ServerMap
	for i := range kind.Readers {
		for _, sm := range rules.FindServerMaps(f, &kind.Readers[i]) {
			if !slices.ContainsFunc(maps, func(o *rules.ServerMap) bool { return o.Node == sm.Node }) {
				maps = append(maps, sm)
			}
		}
	}
	if len(maps) == 1 {
		return maps[0].Servers()
	}
	var out []*rules.Server
	seen := map[*jsonc.Node]bool{}
	for _, sm := range maps {
		for _, s := range sm.Servers() {
			if !seen[s.Key()] {
				seen[s.Key()] = true
				out = append(out, s)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *rules.Server) int { return a.Key().Span.Start - b.Key().Span.Start })
	return out
}

// serverNamed returns res's server of that name, nil if none (Servers
// are sorted by name).
func serverNamed(res *Result, name string) *Server {
	i, ok := slices.BinarySearchFunc(res.Servers, name, func(s *Server, name string) int { return strings.Compare(s.Name, name) })
	if !ok {
		return nil
	}
	return res.Servers[i]
}

// lensState is what res's tool does with the definition s (es is the
// tool's server of that name, nil if none; dropped, the state when the
// tool ignores the file, else ""): the same
// states, in the same words, as the effective view and hover.
func lensState(in LensInput, res *Result, dropped string, es *Server, s *rules.Server) (string, *Place) {
	if dropped != "" {
		return dropped, nil
	}
	mine := (*Definition)(nil)
	if es != nil {
		mine = definitionOf(res, es, in.Path, s.Member)
	}
	if mine == nil {
		if len(res.Sources) == 0 {
			return "", nil // the tool has no file here at all: not in use
		}
		if readsFile(res, in.Path) {
			return "not read from " + in.Display(res.LaunchDir), nil
		}
		return "not read here", nil
	}
	var winner *Place
	if w := es.Winner; w != nil && w != mine {
		winner = &Place{Path: w.Source.Path, Span: res.Member(w).Key.Span}
	}
	deep := res.Tool.Merge.Value == registry.DeepMerge
	switch {
	case mine.Gate.State == GateInvalid:
		return mine.Gate.Why, winner // "skipped: why", in the tool's terms
	case mine.Gate.State != GateOpen:
		return gateTitles[mine.Gate.State], winner
	case es.Winner == nil:
		return "not started", nil
	case es.Winner == mine || deep:
		state := "starts"
		if deep && len(es.Definitions) > 1 {
			state = "starts, merged with " + plural(len(es.Definitions)-1, "other definition")
		}
		if !es.Enabled {
			state = "disabled (enabled: false)"
		}
		return state, nil
	}
	return "shadowed by " + in.Display(es.Winner.Source.Path), winner
}

// gateTitles are the lens's words for a gate that holds a definition
// back; hover and the effective view give the why in full.
var gateTitles = map[GateState]string{
	GatePendingApproval: "pending approval",
	GateRejected:        "disabled by the user",
	GateUntrusted:       "folder not trusted",
	GateToolStopped:     "does not start: the tool stops at start-up",
}

// readsFile reports whether the tool's result read the file at all.
func readsFile(res *Result, path string) bool {
	return slices.ContainsFunc(res.Sources, func(src *Source) bool { return src.Path == path })
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
