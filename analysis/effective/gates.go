package effective

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// gateReader evaluates a layer's gate from the files that hold its state
// (the layer's GateFiles and GateTrust), read once per computation.
type gateReader struct {
	in       Input
	approval map[*registry.Layer]*approval
	trusted  map[*registry.Layer]*Gate
	trust    map[*registry.Layer]*Gate
	projects map[string]Gate // directory -> trusted-project gate
}

func newGateReader(in Input) *gateReader {
	return &gateReader{in: in, approval: map[*registry.Layer]*approval{}, trusted: map[*registry.Layer]*Gate{}, trust: map[*registry.Layer]*Gate{}, projects: map[string]Gate{}}
}

// gate is the state of the layer's gate for a server. A rejection stands
// whatever the trust; otherwise, while the layer's GateTrust is not given,
// the server stays gated by it.
func (g *gateReader) gate(layer *registry.Layer, server string) Gate {
	st := g.gateState(layer, server)
	if st.State == GateRejected || layer.GateTrust == nil {
		return st
	}
	t, ok := g.trust[layer]
	if !ok {
		t = g.readGateTrust(layer)
		g.trust[layer] = t
	}
	if t != nil {
		return *t
	}
	return st
}

func (g *gateReader) gateState(layer *registry.Layer, server string) Gate {
	switch layer.Gate {
	case registry.GateApproval:
		a, ok := g.approval[layer]
		if !ok {
			a = g.readApproval(layer)
			g.approval[layer] = a
		}
		return a.gate(server)
	case registry.GateTrustedFolder:
		if len(layer.GateFiles) == 0 {
			// The profile's folder trust holds every layer (Gemini
			// CLI): see profileGates.
			return Gate{}
		}
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
// disabledMcpjsonServers, read from the gate files: the settings files,
// and the project's entry in ~/.claude.json (the registry says where in
// each file: projects["<git root>"] there). A rejection anywhere wins.
type approval struct {
	all      bool
	enabled  map[string]string // name -> file that enables it
	disabled map[string]string
	allFrom  string
}

// approvalLists are the keys of Claude Code's approval lists in a gate
// object, the enabled then the disabled one; rename edits them too.
var approvalLists = [2]string{"enabledMcpjsonServers", "disabledMcpjsonServers"}

// gateObject is one of a layer's gate files that exists and holds an
// object, with the object at the gate's place in it (the file's At).
type gateObject struct {
	path string
	obj  *jsonc.Node
}

// gateObjects returns the layer's readable gate objects, in the layer's
// order: approval lists and trust tables are read from them alike.
func (g *gateReader) gateObjects(layer *registry.Layer) []gateObject {
	var out []gateObject
	for _, gf := range layer.GateFiles {
		path, root, ok := objectFile(g.in, gf.Path)
		if !ok {
			continue
		}
		if obj := lookup(root, expandSegments(g.in, gf.At)...); obj != nil {
			out = append(out, gateObject{path, obj})
		}
	}
	return out
}

func (g *gateReader) readApproval(layer *registry.Layer) *approval {
	a := &approval{enabled: map[string]string{}, disabled: map[string]string{}}
	for _, gf := range g.gateObjects(layer) {
		path, obj := gf.path, gf.obj
		if m := obj.Get("enableAllProjectMcpServers"); m != nil && m.Value != nil && m.Value.Kind == jsonc.True {
			a.all, a.allFrom = true, path
		}
		for _, name := range stringList(obj.Get(approvalLists[0])) {
			a.enabled[name] = path
		}
		for _, name := range stringList(obj.Get(approvalLists[1])) {
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
	for _, gf := range layer.GateFiles {
		_, settings, ok := objectFile(g.in, gf.Path)
		if !ok {
			continue
		}
		for _, folder := range stringList(settings.Get("trustedFolders")) {
			folder = filepath.Clean(folder)
			if folder == root || strings.HasPrefix(root, folder+string(filepath.Separator)) {
				return &Gate{}
			}
		}
	}
	return &Gate{State: GateUntrusted, Why: "folder not trusted: " + root + " is not in trustedFolders"}
}

// readGateTrust returns nil when the layer's GateTrust key is true, else
// the gate that holds the servers back, naming the key and the file. A
// "{launchDirUpToGitRoot}" segment of the key stands for each directory
// from the launch directory up to its git root (the launch directory
// alone outside a repository): the key true for any of them is enough.
func (g *gateReader) readGateTrust(layer *registry.Layer) *Gate {
	gt := layer.GateTrust
	path, ok := expand(g.in, gt.File)
	var root *jsonc.Node
	if ok {
		if f := g.in.Files(path); f != nil {
			root = f.Root
		}
	}
	var first []string
	for _, key := range trustKeys(g.in, gt.Key) {
		if first == nil {
			first = key
		}
		if obj := lookup(root, key[:len(key)-1]...); obj != nil {
			if m := obj.Get(key[len(key)-1]); m != nil && m.Value != nil && m.Value.Kind == jsonc.True {
				return nil
			}
		}
	}
	why := fmt.Sprintf("%s: %s is not true in %s", gt.Why, jsonPath(first), homeShort(g.in.Env, path))
	if slices.Contains(gt.Key, "{launchDirUpToGitRoot}") && g.in.GitRoot != "" && filepath.Clean(g.in.GitRoot) != filepath.Clean(g.in.LaunchDir) {
		why += ", nor for a directory above it up to the git root " + filepath.ToSlash(g.in.GitRoot)
	}
	return &Gate{State: GatePendingApproval, Why: why}
}

// trustKeys expands a trust key: one key per directory for a
// "{launchDirUpToGitRoot}" segment (the launch directory first), else the
// key with its {launchDir} and {gitRoot} segments resolved.
func trustKeys(in Input, key []string) [][]string {
	i := slices.Index(key, "{launchDirUpToGitRoot}")
	if i < 0 {
		return [][]string{expandSegments(in, key)}
	}
	dirs := walkDirs(in, "git-root")
	slices.Reverse(dirs)
	var out [][]string
	for _, d := range dirs {
		k := expandSegments(in, key)
		k[i] = filepath.ToSlash(d)
		out = append(out, k)
	}
	return out
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// jsonPath prints a key path the way JavaScript would reach it:
// projects["/home/me/app"].hasTrustDialogAccepted.
func jsonPath(key []string) string {
	var b strings.Builder
	for i, k := range key {
		switch {
		case !identifier.MatchString(k):
			fmt.Fprintf(&b, "[%q]", k)
		case i > 0:
			b.WriteString("." + k)
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// objectFile reads the settings file the path template tmpl names: its
// path and its top-level object, ok false when the template does not
// expand here or the file is missing or not an object. Gate files,
// switches, trust and enablement files are all read through it.
func objectFile(in Input, tmpl string) (path string, root *jsonc.Node, ok bool) {
	if path, ok = expand(in, tmpl); !ok {
		return "", nil, false
	}
	f := in.Files(path)
	if f == nil || f.Root == nil || f.Root.Kind != jsonc.Object {
		return "", nil, false
	}
	return path, f.Root, true
}

func lookup(n *jsonc.Node, path ...string) *jsonc.Node {
	if n = n.Lookup(path...); n == nil || n.Kind != jsonc.Object {
		return nil
	}
	return n
}

func stringList(m *jsonc.Member) []string {
	if m == nil || m.Value == nil || m.Value.Kind != jsonc.Array {
		return nil
	}
	var out []string
	for _, e := range m.Value.Elements() {
		if e.Kind == jsonc.String {
			out = append(out, e.Str)
		}
	}
	slices.Sort(out)
	return out
}

// homeShort writes a path under the home directory as ~/...
func homeShort(env registry.Env, path string) string {
	if env.Home == "" {
		return path
	}
	rel, err := filepath.Rel(env.Home, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return "~/" + filepath.ToSlash(rel)
}

// dirGate is the gate of one directory's files where the layer's trust is
// looked up per directory (registry.GateTrustedProject, Codex CLI); open
// for any other gate, which gate decides per server.
func (g *gateReader) dirGate(layer *registry.Layer, dir string) Gate {
	if layer.Gate != registry.GateTrustedProject {
		return Gate{}
	}
	if st, ok := g.projects[dir]; ok {
		return st
	}
	st := g.readProjectTrust(layer, dir)
	g.projects[dir] = st
	return st
}

// readProjectTrust reads Codex CLI's trust of dir: the gate file's table
// of directories ([projects."<dir>"] in ~/.codex/config.toml) gives each a
// trust_level; the closest listed ancestor of dir (or dir itself)
// decides, and only "trusted" opens the gate (verified with Codex CLI
// 0.169.0: trust keyed on proj/sub reads proj/sub/.codex/config.toml, not
// proj/.codex/config.toml; "untrusted" is like no entry).
func (g *gateReader) readProjectTrust(layer *registry.Layer, dir string) Gate {
	dir = filepath.Clean(dir)
	best, level, from := "", "", ""
	for _, gf := range g.gateObjects(layer) {
		path, table := gf.path, gf.obj
		for _, m := range table.Members() {
			if m.Key == nil || m.Value == nil || m.Value.Kind != jsonc.Object {
				continue
			}
			k := filepath.Clean(filepath.FromSlash(m.Key.Str))
			if k != dir && !strings.HasPrefix(dir, strings.TrimSuffix(k, string(filepath.Separator))+string(filepath.Separator)) {
				continue
			}
			if len(k) < len(best) {
				continue
			}
			best, level, from = k, "", path
			if t := m.Value.Get("trust_level"); t != nil && t.Value != nil && t.Value.Kind == jsonc.String {
				level = t.Value.Str
			}
		}
	}
	if level == "trusted" {
		return Gate{}
	}
	if best == "" {
		return Gate{State: GateUntrusted, Why: fmt.Sprintf("project not trusted: no [projects.%q] with trust_level = \"trusted\" for %s or a parent", filepath.ToSlash(dir), filepath.ToSlash(dir))}
	}
	return Gate{State: GateUntrusted, Why: fmt.Sprintf("project not trusted: [projects.%q] has trust_level = %q in %s", filepath.ToSlash(best), level, homeShort(g.in.Env, from))}
}
