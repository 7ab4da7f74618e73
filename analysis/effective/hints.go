package effective

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Inlay hints: after each environment variable reference of a server
// (${VAR}, ${VAR:-default}, ${env:VAR}, {env:VAR}), whether the variable
// is set where mcp-lsp runs (the environment the editor, and so a tool
// started from it, inherits); after each server name, how much of the
// tool-name limit its prefix leaves (Claude Code names a tool
// mcp__<server>__<tool>). A variable's value, and a default's, are never
// shown: either may be a secret.

// HintInput is the file and how to look a variable up.
type HintInput struct {
	File     *jsonc.File
	Kind     *registry.FileKind
	Registry *registry.Registry
	// IsSet reports whether an environment variable is set (to anything,
	// empty included).
	IsSet func(name string) bool
	// Within limits the hints to the servers that overlap it (an editor
	// asks for the visible lines); the zero span means the whole file.
	Within span.Span
}

// HintKind tells what a hint is about.
type HintKind int

const (
	// HintVariable follows a variable reference.
	HintVariable HintKind = iota
	// HintToolNames follows a server name.
	HintToolNames
)

// Hint is one inlay hint: Label shown at Offset (the end of what it is
// about), Tooltip on hover.
type Hint struct {
	Offset  int
	Kind    HintKind
	Label   string
	Tooltip string
}

// InlayHints returns the hints of the file's servers, in file order.
func InlayHints(in HintInput) []Hint {
	if in.File == nil || in.Kind == nil {
		return nil
	}
	readers := hintReaders(in)
	interps := make([]*registry.Interpolation, len(readers))
	forms := make([]interp.Forms, len(readers))
	for i, t := range readers {
		rd, _ := in.Kind.Reader(t.ID)
		interps[i] = t.InterpolationFor(rd)
		forms[i] = interp.FormsOf(interps[i].Forms)
	}
	servers := fileServers(in.File, in.Kind)
	out := make([]Hint, 0, len(servers)*2)
	v := &varHinter{in: in, readers: interps, readerForms: forms}
	for _, s := range servers {
		if in.Within != (span.Span{}) && (s.Member.Span.End < in.Within.Start || s.Member.Span.Start > in.Within.End) {
			continue
		}
		out = toolNameHints(out, readers, s)
		out = v.hints(out, s)
	}
	slices.SortStableFunc(out, func(a, b Hint) int { return a.Offset - b.Offset })
	return out
}

// hintReaders are the tools that read the file.
func hintReaders(in HintInput) []*registry.Tool {
	var out []*registry.Tool
	for _, r := range in.Kind.Readers {
		if t, ok := in.Registry.Tool(r.Tool); ok && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// toolNameHints: one hint per distinct naming scheme, "mcp__db__… 55 of
// 64 left", naming the tools in the tooltip. The room is counted as the
// tool-name-budget rule counts it (rules.ToolNameRoom).
func toolNameHints(out []Hint, readers []*registry.Tool, s *rules.Server) []Hint {
	// A handful of readers, a scheme or two: found by a scan of the
	// readers before it, not a map.
	type scheme struct {
		prefix    string
		max, left int
	}
	var sbuf [8]scheme
	var obuf [8]bool
	schemes, ok := sbuf[:0], obuf[:0]
	if len(readers) > len(sbuf) {
		schemes, ok = make([]scheme, 0, len(readers)), make([]bool, 0, len(readers))
	}
	schemes, ok = schemes[:len(readers)], ok[:len(readers)]
	for i, t := range readers {
		schemes[i].prefix, schemes[i].max, schemes[i].left, ok[i] = rules.ToolNameRoom(t, s.Name)
	}
	for i, k := range schemes {
		if !ok[i] || firstOf(schemes, ok, k) < i {
			continue // not a reader that names tools, or its scheme is shown
		}
		tools, n := "", 0
		for j, o := range schemes[i:] {
			if ok[i+j] && o == k {
				if n > 0 {
					tools += " and "
				}
				tools += readers[i+j].Name
				n++
			}
		}
		left, limit := strconv.Itoa(max(k.left, 0)), strconv.Itoa(k.max)
		label := k.prefix + "… " + left + " of " + limit + " left"
		verb := "names"
		if n > 1 {
			verb = "name"
		}
		tip := tools + " " + verb + " this server's tools " + k.prefix + "<tool>: " + left + " of the " + limit + " characters a tool name may have are left for the tool's own name"
		if k.left <= 0 {
			label = k.prefix + "… no room left (" + limit + " max)"
		}
		out = append(out, Hint{Offset: s.Key().Span.End, Kind: HintToolNames, Label: label, Tooltip: tip})
	}
	return out
}

// firstOf is the index of the first reader with scheme k, -1 if none.
func firstOf[K comparable](schemes []K, ok []bool, k K) int {
	for i, o := range schemes {
		if ok[i] && o == k {
			return i
		}
	}
	return -1
}

// variableHints marks the environment variable references in the fields
// some reader of the file expands, in that reader's syntax.
func (v *varHinter) hints(out []Hint, s *rules.Server) []Hint {
	val := s.Value()
	if val == nil || val.Kind != jsonc.Object || v.in.IsSet == nil {
		return out
	}
	v.out, v.seen = out, v.seen[:0]
	for _, m := range val.Members() {
		if m.Key == nil {
			continue
		}
		v.forms = v.forms[:0]
		for i, t := range v.readers {
			if !v.readerForms[i].Empty() && (slices.Contains(t.Fields, "*") || slices.Contains(t.Fields, m.Key.Str)) {
				v.forms = append(v.forms, v.readerForms[i])
			}
		}
		if len(v.forms) > 0 {
			v.walk(m.Value)
		}
	}
	return v.out
}

// varHinter finds the variable hints of one file's servers, reusing its
// buffers from one server to the next.
type varHinter struct {
	in          HintInput
	readers     []*registry.Interpolation
	readerForms []interp.Forms
	forms       []interp.Forms // of the field walked
	seen        []int          // the ends of the references hinted in the server
	out         []Hint
}

// walk hints the references in every string under n.
func (v *varHinter) walk(n *jsonc.Node) {
	if n == nil {
		return
	}
	switch n.Kind {
	case jsonc.String:
		if !strings.ContainsAny(n.Str, "${") {
			return // no reference in any syntax (interp.Scan)
		}
		for _, f := range v.forms {
			for _, r := range interp.ScanString(v.in.File.Src, n, f) {
				name := r.EnvName()
				if name == "" || r.Syntax == interp.Predefined || slices.Contains(v.seen, r.Span.End) {
					continue
				}
				v.seen = append(v.seen, r.Span.End)
				v.out = append(v.out, variableHint(v.in, r, name))
			}
		}
	case jsonc.Object:
		for _, m := range n.Members() {
			v.walk(m.Value)
		}
	case jsonc.Array:
		for _, e := range n.Elements() {
			v.walk(e)
		}
	}
}

func variableHint(in HintInput, r interp.Ref, name string) Hint {
	h := Hint{Offset: r.Span.End, Kind: HintVariable}
	switch {
	case in.IsSet(name):
		h.Label = "set"
		h.Tooltip = fmt.Sprintf("%s is set in mcp-lsp's environment (the value is not shown); a tool started from the same environment sees it", name)
	case r.HasDefault():
		h.Label = "unset: default used"
		h.Tooltip = fmt.Sprintf("%s is not set in mcp-lsp's environment, so the default after :- is used", name)
	default:
		h.Label = "unset"
		h.Tooltip = fmt.Sprintf("%s is not set in mcp-lsp's environment; a tool started from the same environment does not see it", name)
	}
	return h
}

// walkStrings calls fn on every string under n.
func walkStrings(n *jsonc.Node, fn func(*jsonc.Node)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case jsonc.String:
		fn(n)
	case jsonc.Object:
		for _, m := range n.Members() {
			walkStrings(m.Value, fn)
		}
	case jsonc.Array:
		for _, e := range n.Elements() {
			walkStrings(e, fn)
		}
	}
}
