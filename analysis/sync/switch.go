package sync

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Enabling and disabling a server per tool, the way each tool does it
// (read from the registry, each switch verified with the tool itself):
//
//   - a layer with an EnabledKey (OpenCode's and Zed's "enabled": false,
//     Codex CLI's enabled = false) or a DisabledKey (Roo Code's "disabled":
//     true): the key in the entry that defines the server;
//   - a Switch covering the server's layer (Claude Code's
//     disabledMcpjsonServers / enabledMcpjsonServers in
//     .claude/settings.local.json for .mcp.json servers, its
//     projects["<git root>"].disabledMcpServers in ~/.claude.json for the
//     others; Copilot CLI's disabledMcpServers in ~/.copilot/settings.json):
//     the server's name in the list;
//   - the tool's exclude list (Gemini CLI's mcp.excluded) in the project's
//     settings file, and, to enable, its enablement file too;
//   - otherwise the tool has no switch in a file, and [PlanSwitch] says so
//     ([ErrNoSwitch]).

// ErrNoSwitch is returned (wrapped, with the reason) for a tool that has
// no file-level switch: an editor does not offer the action.
var ErrNoSwitch = errors.New("no switch in a file")

// SwitchInput is what PlanSwitch needs.
type SwitchInput struct {
	// Result is the tool's effective configuration where it is launched.
	Result *effective.Result
	Server string
	Enable bool
	Env    registry.Env
	// File reads a file (an open buffer over the disk).
	File func(path string) (content []byte, exists bool, err error)
}

// FileChange is one file a switch writes.
type FileChange struct {
	Path     string
	Old, New []byte
	Exists   bool
}

// Change is the FileChange as a code action's edit.
func (c FileChange) Change() fix.Change {
	if !c.Exists {
		return fix.Change{Creates: []fix.Create{{Path: c.Path, Content: c.New}}}
	}
	return fix.Change{Edits: fix.DiffEdits(c.Path, c.Old, c.New)}
}

// SwitchPlan is what enabling or disabling one server in one tool writes.
type SwitchPlan struct {
	// How says where the switch is, for the output: `"enabled": false in
	// opencode.json`, `disabledMcpjsonServers in .claude/settings.local.json`.
	How string
	// Files are the files that change; none when the server is already
	// in the state asked for.
	Files []FileChange
}

// PlanSwitch plans turning a server on or off in one tool.
func PlanSwitch(in SwitchInput) (*SwitchPlan, error) {
	res := in.Result
	tool := res.Tool
	name := tool.Name
	var srv *effective.Server
	for _, s := range res.Servers {
		if s.Name == in.Server {
			srv = s
		}
	}
	if srv == nil || len(srv.Definitions) == 0 {
		return nil, fmt.Errorf("%s has no server %q here (mcp-lsp effective --tool %s lists them)", name, in.Server, tool.ID)
	}
	def := srv.Winner
	if def == nil {
		def = srv.Definitions[0]
	}
	layer := def.Source.Layer
	p := &SwitchPlan{}
	w := &writer{in: in, plan: p}

	// 1. The entry's own key.
	if layer.EnabledKey != "" {
		path := memberPath(res.Member(def))
		key := append(path, layer.EnabledKey)
		p.How = fmt.Sprintf("%q: false in %s", layer.EnabledKey, def.Source.Path)
		if isTOML(def.Source.Path) {
			p.How = fmt.Sprintf("%s = false in %s", layer.EnabledKey, def.Source.Path)
		}
		if in.Enable {
			// Back to the default, unless another definition the tool
			// merges with this one turns it off: then say true.
			explicit := slices.ContainsFunc(srv.Definitions, func(d *effective.Definition) bool {
				return d != def && res.Member(d).Value.Get(layer.EnabledKey) != nil
			})
			p.How = fmt.Sprintf("%q taken out of %s", layer.EnabledKey, def.Source.Path)
			if explicit {
				p.How = fmt.Sprintf("%q set to true in %s, over the false of another file", layer.EnabledKey, def.Source.Path)
			}
			return p, w.edit(def.Source.Path, func(c []byte) ([]byte, error) {
				if explicit {
					return setValue(def.Source.Path, c, key, true)
				}
				return removeValue(def.Source.Path, c, key)
			})
		}
		return p, w.edit(def.Source.Path, func(c []byte) ([]byte, error) { return setValue(def.Source.Path, c, key, false) })
	}

	// 1b. The entry's own key, the other way round (Roo Code "disabled").
	if layer.DisabledKey != "" {
		key := append(memberPath(res.Member(def)), layer.DisabledKey)
		if in.Enable {
			p.How = fmt.Sprintf("%q taken out of %s", layer.DisabledKey, def.Source.Path)
			return p, w.edit(def.Source.Path, func(c []byte) ([]byte, error) { return removeValue(def.Source.Path, c, key) })
		}
		p.How = fmt.Sprintf("%q: true in %s", layer.DisabledKey, def.Source.Path)
		return p, w.edit(def.Source.Path, func(c []byte) ([]byte, error) { return setValue(def.Source.Path, c, key, true) })
	}

	// 2. Lists of names in a settings file.
	var covering []registry.Switch
	for _, sw := range tool.Profile.Switches {
		if slices.Contains(sw.Layers, layer.ID) {
			covering = append(covering, sw)
		}
	}
	if len(covering) > 0 {
		for i, sw := range covering {
			file, ok := expandTemplate(res, in.Env, sw.File)
			if !ok {
				continue
			}
			at := expandSegs(res, sw.At)
			off, on := append(slices.Clone(at), sw.Off), append(slices.Clone(at), sw.On)
			if i == 0 {
				p.How = fmt.Sprintf("%s in %s", sw.Off, file)
				if in.Enable && sw.On != "" {
					p.How = fmt.Sprintf("%s in %s", sw.On, file)
				}
			} else if !in.Enable {
				continue // one list turns it off; enabling clears them all
			}
			err := w.edit(file, func(c []byte) ([]byte, error) {
				var err error
				if in.Enable {
					if c, err = fix.RemoveFromJSONList(c, off, in.Server); err != nil || sw.On == "" || i > 0 {
						return c, err
					}
					return fix.AddToJSONList(c, on, in.Server)
				}
				if c, err = fix.AddToJSONList(c, off, in.Server); err != nil || sw.On == "" {
					return c, err
				}
				return fix.RemoveFromJSONList(c, on, in.Server)
			})
			if err != nil {
				return nil, err
			}
		}
		return p, nil
	}

	// 3. The exclude list (and, to enable, the enablement file).
	if l := tool.Profile.Lists; l != nil {
		file, ok := projectSettings(res, in.Env)
		if !ok {
			return nil, fmt.Errorf("%s: no project settings file to write %s in", name, strings.Join(l.Excluded, "."))
		}
		p.How = fmt.Sprintf("%s in %s", strings.Join(l.Excluded, "."), file)
		lookup := in.Server
		if l.CaseInsensitive {
			lookup = strings.ToLower(in.Server)
		}
		if !in.Enable {
			return p, w.edit(file, func(c []byte) ([]byte, error) { return fix.AddToJSONList(c, l.Excluded, in.Server) })
		}
		// Enabling takes the name out of every exclude list the tool
		// reads here, and out of its enablement file.
		for _, src := range res.Sources {
			if err := w.edit(src.Path, func(c []byte) ([]byte, error) {
				for _, n := range listed(c, l.Excluded, lookup, l.CaseInsensitive) {
					var err error
					if c, err = fix.RemoveFromJSONList(c, l.Excluded, n); err != nil {
						return nil, err
					}
				}
				return c, nil
			}); err != nil {
				return nil, err
			}
		}
		if e := tool.Profile.Enablement; e != nil {
			if file, ok := expandTemplate(res, in.Env, e.File); ok {
				if err := w.edit(file, func(c []byte) ([]byte, error) { return fix.RemoveJSON(c, []string{lookup}) }); err != nil {
					return nil, err
				}
			}
		}
		return p, nil
	}
	return nil, NoSwitch(tool)
}

// NoSwitchReason says why a tool cannot be switched in a file: the error
// of `mcp-lsp disable`, and hover where the editor offers no "Disable in".
func NoSwitchReason(t *registry.Tool) string {
	return t.Name + " has no per-server switch in its files (it keeps it in the app's own state, if anywhere); remove the entry, or use " + t.Name + " itself"
}

// HasSwitch reports whether some server of tool can be switched in a
// file: an editor offers "Enable/Disable in <tool>" only then.
func HasSwitch(t *registry.Tool) bool {
	if t.Profile == nil {
		return false
	}
	if len(t.Profile.Switches) > 0 || t.Profile.Lists != nil {
		return true
	}
	return slices.ContainsFunc(t.Profile.Layers, func(l registry.Layer) bool { return l.EnabledKey != "" || l.DisabledKey != "" })
}

// NoSwitch is the error for a tool without a switch in a file.
func NoSwitch(t *registry.Tool) error { return fmt.Errorf("%w: %s", ErrNoSwitch, NoSwitchReason(t)) }

// writer applies edits to files, each read once and edited in turn.
type writer struct {
	in   SwitchInput
	plan *SwitchPlan
}

// edit runs f over the current content of path (nil when the file does
// not exist; f may create it) and records the change.
func (w *writer) edit(path string, f func([]byte) ([]byte, error)) error {
	for i := range w.plan.Files {
		if w.plan.Files[i].Path == path {
			next, err := f(w.plan.Files[i].New)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			w.plan.Files[i].New = next
			return nil
		}
	}
	old, exists, err := w.in.File(path)
	if err != nil {
		return err
	}
	if !exists {
		old = nil
	}
	next, err := f(old)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if exists && string(next) == string(old) || !exists && next == nil {
		return nil
	}
	w.plan.Files = append(w.plan.Files, FileChange{Path: path, Old: old, New: next, Exists: exists})
	return nil
}

// Changed reports whether the plan writes anything.
func (p *SwitchPlan) Changed() bool {
	for _, f := range p.Files {
		if !f.Exists || string(f.New) != string(f.Old) {
			return true
		}
	}
	return false
}

// setValue and removeValue edit JSON(C) or TOML by the file's name.
func setValue(path string, c []byte, key []string, v bool) ([]byte, error) {
	if isTOML(path) {
		return fix.SetTOMLKey(c, key[:len(key)-1], key[len(key)-1], fmt.Sprint(v))
	}
	return fix.SetJSON(c, key, v)
}

func removeValue(path string, c []byte, key []string) ([]byte, error) {
	if isTOML(path) {
		return fix.RemoveTOMLKey(c, key[:len(key)-1], key[len(key)-1])
	}
	return fix.RemoveJSON(c, key)
}

func isTOML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".toml") }

// memberPath is the path of keys from the root to m.
func memberPath(m *jsonc.Member) []string {
	var out []string
	for n := m.Value; n != nil; n = n.Parent {
		if mm := n.Member(); mm != nil && mm.Value == n && mm.Key != nil {
			out = append(out, mm.Key.Str)
		}
	}
	slices.Reverse(out)
	return out
}

// listed returns the entries of the list at path equal to name (without
// case when fold).
func listed(c []byte, path []string, name string, fold bool) []string {
	var out []string
	items, _ := fix.JSONList(c, path)
	for _, it := range items {
		if it == name || fold && strings.EqualFold(it, name) {
			out = append(out, it)
		}
	}
	return out
}

// expandTemplate resolves a registry path template where the tool runs.
func expandTemplate(res *effective.Result, env registry.Env, tmpl string) (string, bool) {
	for v, val := range map[string]string{"{launchDir}": res.LaunchDir, "{gitRoot}": cmpOr(res.GitRoot, res.LaunchDir)} {
		if rest, ok := strings.CutPrefix(tmpl, v); ok {
			return filepath.Clean(val + filepath.FromSlash(rest)), val != ""
		}
	}
	k := registry.FileKind{Paths: []string{tmpl}}
	paths := k.ResolvePaths(env)
	if len(paths) == 0 {
		return "", false
	}
	return filepath.FromSlash(paths[0]), true
}

// expandSegs resolves {launchDir} and {gitRoot} segments of a JSON path,
// as the keys of ~/.claude.json's projects spell directories.
func expandSegs(res *effective.Result, segs []string) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		switch s {
		case "{launchDir}":
			s = filepath.ToSlash(res.LaunchDir)
		case "{gitRoot}":
			s = filepath.ToSlash(cmpOr(res.GitRoot, res.LaunchDir))
		}
		out[i] = s
	}
	return out
}

// projectSettings is the project-level file of the tool's layers: the
// first layer file under the launch directory (Gemini CLI's
// .gemini/settings.json).
func projectSettings(res *effective.Result, env registry.Env) (string, bool) {
	for _, l := range res.Tool.Profile.Layers {
		for _, f := range l.Files {
			if strings.HasPrefix(f.Path, "{launchDir}") {
				return expandTemplate(res, env, f.Path)
			}
		}
	}
	return "", false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
