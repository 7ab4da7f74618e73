package effective

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// GateBlocked: the tool's own settings exclude the server (Gemini CLI's
// mcp.excluded, or a name missing from mcp.allowed): "Blocked".
const GateBlocked GateState = "blocked"

// profileGates are the gates a profile puts on every server, whatever its
// layer (registry.Profile.Trust, Lists, Enablement: Gemini CLI), read once
// per computation. In the tool's order: a blocked server is blocked even in
// an untrusted folder (exclusion is decided before trust); in an untrusted
// folder nothing starts; a server disabled with `gemini mcp disable` does
// not start.
type profileGates struct {
	// untrusted is the gate of an untrusted folder, nil when trusted or
	// when the profile has no trust check.
	untrusted *Gate
	// unread are the ids of the layers an untrusted folder's files are
	// not read for (registry FolderTrust.Layers: Qwen Code's workspace).
	unread []string
	// allowed is the intersection of the allow lists (lower case when the
	// lists compare without case); nil: no allow list.
	allowed  map[string]bool
	excluded map[string]string // name -> the file that excludes it
	disabled map[string]string // name -> the enablement file
	fold     bool
	foldOff  bool
}

// readProfileGates reads the profile's trust, lists and enablement.
func readProfileGates(in Input) *profileGates {
	p := in.Tool.Profile
	if p.Trust == nil && p.Lists == nil && p.Enablement == nil {
		return nil
	}
	g := &profileGates{}
	if p.Trust != nil && !trusted(in, p.Trust) {
		if len(p.Trust.Layers) > 0 {
			g.unread = p.Trust.Layers
		} else {
			g.untrusted = &Gate{State: GateUntrusted, Why: p.Trust.Why}
		}
	}
	if l := p.Lists; l != nil {
		g.fold = l.CaseInsensitive
		g.readLists(in, l)
	}
	if e := p.Enablement; e != nil {
		g.foldOff = e.CaseInsensitive
		g.readEnablement(in, e)
	}
	return g
}

// gate is the profile's gate for server name, GateOpen when none holds it.
func (g *profileGates) gate(name string) Gate {
	if g == nil {
		return Gate{}
	}
	key := name
	if g.fold {
		key = strings.ToLower(name)
	}
	if from, ok := g.excluded[key]; ok {
		return Gate{State: GateBlocked, Why: "blocked: listed in mcp.excluded in " + from}
	}
	if g.allowed != nil && !g.allowed[key] {
		return Gate{State: GateBlocked, Why: "blocked: not in mcp.allowed"}
	}
	if g.untrusted != nil {
		return *g.untrusted
	}
	off := name
	if g.foldOff {
		off = strings.ToLower(name)
	}
	if from, ok := g.disabled[off]; ok {
		return Gate{State: GateRejected, Why: "disabled in " + from + " (gemini mcp disable)"}
	}
	return Gate{}
}

// trusted applies a folder-trust file: the rule with the longest path
// whose folder holds the launch directory decides (a TRUST_PARENT rule's
// folder is the parent of its path); no rule, or DO_NOT_TRUST, is not
// trusted. The off switch (false) in its file turns the check off.
func trusted(in Input, t *registry.FolderTrust) bool {
	if t.OptIn && !switchIs(in, t.Off, jsonc.True) {
		return true // the check is off unless turned on (Qwen Code)
	}
	if !t.OptIn && t.Off != nil {
		if _, root, ok := objectFile(in, t.Off.File); ok && len(t.Off.Key) > 0 {
			if obj := lookup(root, t.Off.Key[:len(t.Off.Key)-1]...); obj != nil {
				if m := obj.Get(t.Off.Key[len(t.Off.Key)-1]); m != nil && m.Value != nil && m.Value.Kind == jsonc.False {
					return true
				}
			}
		}
	}
	_, root, ok := objectFile(in, t.File)
	if !ok {
		return false
	}
	dir := filepath.Clean(in.LaunchDir)
	longest, level := -1, ""
	for _, m := range root.Members() {
		if m.Key == nil || m.Value == nil || m.Value.Kind != jsonc.String {
			continue
		}
		rule := filepath.Clean(filepath.FromSlash(m.Key.Str))
		folder := rule
		if m.Value.Str == t.TrustParent {
			folder = filepath.Dir(rule)
		}
		if within(dir, folder) && len(m.Key.Str) > longest {
			longest, level = len(m.Key.Str), m.Value.Str
		}
	}
	if level == "" && t.UnlistedTrusted {
		return true
	}
	return level == t.TrustFolder || level == t.TrustParent
}

// switchIs reports whether the setting k holds a literal of kind want.
func switchIs(in Input, k *registry.SettingKey, want jsonc.Kind) bool {
	if k == nil || len(k.Key) == 0 {
		return false
	}
	path, ok := expand(in, k.File)
	if !ok {
		return false
	}
	f := in.Files(path)
	if f == nil || f.Root == nil {
		return false
	}
	obj := lookup(f.Root, k.Key[:len(k.Key)-1]...)
	if obj == nil {
		return false
	}
	m := obj.Get(k.Key[len(k.Key)-1])
	return m != nil && m.Value != nil && m.Value.Kind == want
}

// skips reports whether the layer's files are not read: its folder-trust
// check found the folder untrusted (Qwen Code's workspace settings).
func (g *profileGates) skips(layer *registry.Layer) bool {
	return g != nil && slices.Contains(g.unread, layer.ID)
}

// within reports whether dir is folder or lies below it.
func within(dir, folder string) bool {
	if dir == folder {
		return true
	}
	rel, err := filepath.Rel(folder, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readLists reads the allow and exclude lists of every layer file the
// tool reads for its settings: a layer gated by folder trust counts only
// in a trusted folder (Gemini CLI ignores the workspace file's lists in an
// untrusted one, and still applies the user file's).
func (g *profileGates) readLists(in Input, l *registry.ServerLists) {
	g.excluded = map[string]string{}
	for li := range in.Tool.Profile.Layers {
		layer := &in.Tool.Profile.Layers[li]
		if layer.Gate == registry.GateTrustedFolder && g.untrusted != nil || g.skips(layer) {
			continue
		}
		for _, c := range layerFiles(in, layer) {
			f := in.Files(c.path)
			if f == nil || f.Root == nil || len(f.Errors) > 0 {
				continue
			}
			if obj := lookup(f.Root, l.Allowed[:len(l.Allowed)-1]...); obj != nil {
				if m := obj.Get(l.Allowed[len(l.Allowed)-1]); m != nil && m.Value != nil && m.Value.Kind == jsonc.Array {
					g.intersect(g.names(stringList(m)))
				}
			}
			if obj := lookup(f.Root, l.Excluded[:len(l.Excluded)-1]...); obj != nil {
				for _, n := range g.names(stringList(obj.Get(l.Excluded[len(l.Excluded)-1]))) {
					if _, ok := g.excluded[n]; !ok {
						g.excluded[n] = homeShort(in.Env, c.path)
					}
				}
			}
		}
	}
}

func (g *profileGates) names(list []string) []string {
	if !g.fold {
		return list
	}
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = strings.ToLower(n)
	}
	return out
}

// intersect narrows the allow list to the names also in list.
func (g *profileGates) intersect(list []string) {
	if g.allowed == nil {
		g.allowed = map[string]bool{}
		for _, n := range list {
			g.allowed[n] = true
		}
		return
	}
	for n := range g.allowed {
		if !slices.Contains(list, n) {
			delete(g.allowed, n)
		}
	}
}

// readEnablement reads {"<server>": {"enabled": false}} switches.
func (g *profileGates) readEnablement(in Input, e *registry.Enablement) {
	path, root, ok := objectFile(in, e.File)
	if !ok {
		return
	}
	g.disabled = map[string]string{}
	for _, m := range root.Members() {
		if m.Key == nil || m.Value == nil || m.Value.Kind != jsonc.Object {
			continue
		}
		if en := m.Value.Get("enabled"); en != nil && en.Value != nil && en.Value.Kind == jsonc.False {
			// Keys as written: Gemini CLI lowers the server's name and
			// looks it up, so a key with a capital letter matches no
			// server (verified with 0.61.0).
			g.disabled[m.Key.Str] = homeShort(in.Env, path)
		}
	}
}

// String is for debugging.
func (g *profileGates) String() string {
	return fmt.Sprintf("untrusted=%v allowed=%v excluded=%v disabled=%v", g.untrusted, g.allowed, g.excluded, g.disabled)
}
