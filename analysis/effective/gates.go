package effective

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// gateReader evaluates a layer's gate from the files that hold its state
// (the layer's GateFiles), read once per computation.
type gateReader struct {
	in       Input
	approval map[*registry.Layer]*approval
	trusted  map[*registry.Layer]*Gate
}

func newGateReader(in Input) *gateReader {
	return &gateReader{in: in, approval: map[*registry.Layer]*approval{}, trusted: map[*registry.Layer]*Gate{}}
}

func (g *gateReader) gate(layer *registry.Layer, server string) Gate {
	switch layer.Gate {
	case registry.GateApproval:
		a, ok := g.approval[layer]
		if !ok {
			a = g.readApproval(layer)
			g.approval[layer] = a
		}
		return a.gate(server)
	case registry.GateTrustedFolder:
		t, ok := g.trusted[layer]
		if !ok {
			t = g.readTrust(layer)
			g.trusted[layer] = t
		}
		return *t
	}
	return Gate{}
}

// approval is Claude Code's per-project approval of .mcp.json servers:
// enableAllProjectMcpServers, enabledMcpjsonServers and
// disabledMcpjsonServers, read from the settings files and from the
// project's entry in ~/.claude.json. A rejection anywhere wins.
type approval struct {
	all      bool
	enabled  map[string]string // name -> file that enables it
	disabled map[string]string
	allFrom  string
}

func (g *gateReader) readApproval(layer *registry.Layer) *approval {
	a := &approval{enabled: map[string]string{}, disabled: map[string]string{}}
	for _, tmpl := range layer.GateFiles {
		path, ok := expand(g.in, tmpl)
		if !ok {
			continue
		}
		f := g.in.Files(path)
		if f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
			continue
		}
		obj := f.Root
		if filepath.Base(path) == ".claude.json" {
			obj = lookup(f.Root, "projects", filepath.ToSlash(g.in.LaunchDir))
			if obj == nil {
				continue
			}
		}
		if m := obj.Get("enableAllProjectMcpServers"); m != nil && m.Value != nil && m.Value.Kind == jsonc.True {
			a.all, a.allFrom = true, path
		}
		for _, name := range stringList(obj.Get("enabledMcpjsonServers")) {
			a.enabled[name] = path
		}
		for _, name := range stringList(obj.Get("disabledMcpjsonServers")) {
			a.disabled[name] = path
		}
	}
	return a
}

func (a *approval) gate(server string) Gate {
	if from, ok := a.disabled[server]; ok {
		return Gate{State: GateRejected, Why: "listed in disabledMcpjsonServers in " + from}
	}
	if _, ok := a.enabled[server]; ok || a.all {
		return Gate{}
	}
	return Gate{State: GatePendingApproval, Why: "not approved: not in enabledMcpjsonServers and enableAllProjectMcpServers is not set"}
}

// readTrust reads Copilot CLI's trustedFolders: the workspace is trusted
// when a listed folder is its git root (or the launch directory without a
// git root) or an ancestor of it.
func (g *gateReader) readTrust(layer *registry.Layer) *Gate {
	root := cmpOr(g.in.GitRoot, g.in.LaunchDir)
	for _, tmpl := range layer.GateFiles {
		path, ok := expand(g.in, tmpl)
		if !ok {
			continue
		}
		f := g.in.Files(path)
		if f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
			continue
		}
		for _, folder := range stringList(f.Root.Get("trustedFolders")) {
			folder = filepath.Clean(folder)
			if folder == root || strings.HasPrefix(root, folder+string(filepath.Separator)) {
				return &Gate{}
			}
		}
	}
	return &Gate{State: GateUntrusted, Why: "folder not trusted: " + root + " is not in trustedFolders"}
}

func lookup(n *jsonc.Node, path ...string) *jsonc.Node {
	for _, seg := range path {
		if n == nil || n.Kind != jsonc.Object {
			return nil
		}
		m := n.Get(seg)
		if m == nil {
			return nil
		}
		n = m.Value
	}
	if n == nil || n.Kind != jsonc.Object {
		return nil
	}
	return n
}

func stringList(m *jsonc.Member) []string {
	if m == nil || m.Value == nil || m.Value.Kind != jsonc.Array {
		return nil
	}
	var out []string
	for _, e := range m.Value.Elements {
		if e.Kind == jsonc.String {
			out = append(out, e.Str)
		}
	}
	slices.Sort(out)
	return out
}
