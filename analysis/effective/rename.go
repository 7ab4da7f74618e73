package effective

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Rename of a server: a server name is the only identifier of these files,
// and it is used in several places that must stay in step: the entry's
// key, the same server in the other files the tools launched here read
// (one server to a tool: shadowed, merged, or kept in sync by hand), and
// the lists that name servers to approve or block them (Claude Code's
// enabledMcpjsonServers and disabledMcpjsonServers, Gemini CLI's
// mcp.allowed and mcp.excluded). Every place is found through the
// effective engine's own readers of those files (gateObjects, the
// profile's lists), so rename edits what the tools read, nothing else.

// RenameInput is the file under the cursor, the effective configurations
// of the tools launched where it applies, and the snapshot's files.
type RenameInput struct {
	Path     string
	File     *jsonc.File
	Kind     *registry.FileKind
	Offset   int
	Results  []*Result
	Registry *registry.Registry
	Env      registry.Env
	// Files returns a parsed file of the snapshot, nil if absent.
	Files func(path string) *jsonc.File
	// Kind returns the registry kind of a path, nil if none.
	KindOf func(path string) *registry.FileKind
	// Display shortens a path for messages.
	Display func(path string) string
}

// RenameEdit replaces the string at Span (quotes included: a key or a
// list element) with the new name, quoted for the file's syntax.
type RenameEdit struct {
	Path string
	Span span.Span
}

// PrepareRename returns the server name under the cursor and the span of
// its text inside the quotes; ok is false when the cursor is on no name.
func PrepareRename(in RenameInput) (name string, sp span.Span, ok bool) {
	defs, ok := DefinitionsAt(NavigationInput{Path: in.Path, File: in.File, Kind: in.Kind, Offset: in.Offset, Results: in.Results})
	if !ok {
		return "", span.Span{}, false
	}
	key := in.File.NodeAt(defs.Here.Span.Start)
	if key == nil || key.Kind != jsonc.String {
		return "", span.Span{}, false
	}
	return defs.Name, key.SourceSpan(in.File.Src, 0, len(key.Str)), true
}

// Rename returns the edits renaming the server under the cursor to
// newName, or an error for the user: the cursor is on no server name, the
// new name is empty, some tool reading an edited file rejects or reserves
// it, or a server of that name already exists where one would be renamed.
func Rename(in RenameInput, newName string) ([]RenameEdit, error) {
	defs, ok := DefinitionsAt(NavigationInput{Path: in.Path, File: in.File, Kind: in.Kind, Offset: in.Offset, Results: in.Results})
	if !ok {
		return nil, fmt.Errorf("only a server's name can be renamed")
	}
	old := defs.Name
	if strings.TrimSpace(newName) == "" {
		return nil, fmt.Errorf("a server name cannot be empty")
	}
	if newName == old {
		return nil, nil
	}
	var edits []RenameEdit
	for _, p := range defs.All {
		if err := in.checkName(p, old, newName); err != nil {
			return nil, err
		}
		edits = append(edits, RenameEdit{Path: p.Path, Span: p.Span})
	}
	for _, p := range in.listReferences(old) {
		edits = append(edits, RenameEdit{Path: p.Path, Span: p.Span})
	}
	slices.SortFunc(edits, func(a, b RenameEdit) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Span.Start - b.Span.Start
	})
	return slices.Compact(edits), nil
}

// checkName refuses newName for the definition at p when a reader of its
// file rejects or reserves it, or when its server map already has a
// server of that name.
func (in RenameInput) checkName(p Place, old, newName string) error {
	kind := in.KindOf(p.Path)
	f := in.Files(p.Path)
	if kind == nil || f == nil {
		return nil
	}
	for i := range kind.Readers {
		r := &kind.Readers[i]
		if reasons := verdict.NameReasons(in.Registry, r, newName); len(reasons) > 0 {
			why := reasons[0]
			return fmt.Errorf("cannot rename %q to %q: %s (%s, in %s)", old, newName, why.Detail, toolName(in.Registry, r.Tool), in.Display(p.Path))
		}
	}
	for i := range kind.Readers {
		for _, sm := range rules.FindServerMaps(f, &kind.Readers[i]) {
			servers := sm.Servers()
			if !slices.ContainsFunc(servers, func(s *rules.Server) bool { return s.Key().Span == p.Span }) {
				continue
			}
			if slices.ContainsFunc(servers, func(s *rules.Server) bool { return s.Name == newName }) {
				return fmt.Errorf("cannot rename %q to %q: %s already has a server named %q", old, newName, in.Display(p.Path), newName)
			}
		}
	}
	return nil
}

// listReferences are the elements naming the server in the approval and
// block lists the tools read here: Claude Code's approval keys in its
// gate files, and a profile's allow and exclude lists in its layer files.
func (in RenameInput) listReferences(name string) []Place {
	var out []Place
	seen := map[Place]bool{}
	add := func(path string, m *jsonc.Member, fold bool) {
		if m == nil || m.Value == nil || m.Value.Kind != jsonc.Array {
			return
		}
		for _, e := range m.Value.Elements() {
			if e.Kind == jsonc.String && (e.Str == name || fold && strings.EqualFold(e.Str, name)) {
				if p := (Place{Path: path, Span: e.Span}); !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	for _, res := range in.Results {
		if res.Tool.Profile == nil {
			continue
		}
		x := Input{Tool: res.Tool, Env: in.Env, LaunchDir: res.LaunchDir, GitRoot: res.GitRoot, Files: in.Files, Registry: in.Registry}
		g := newGateReader(x)
		for li := range res.Tool.Profile.Layers {
			layer := &res.Tool.Profile.Layers[li]
			for _, gf := range g.gateObjects(layer) {
				for _, key := range approvalLists {
					add(gf.path, gf.obj.Get(key), false)
				}
			}
			l := res.Tool.Profile.Lists
			if l == nil {
				continue
			}
			for _, c := range layerFiles(x, layer) {
				f := in.Files(c.path)
				if f == nil || f.Root == nil {
					continue
				}
				for _, list := range [][]string{l.Allowed, l.Excluded} {
					if len(list) == 0 {
						continue
					}
					if obj := lookup(f.Root, list[:len(list)-1]...); obj != nil {
						add(c.path, obj.Get(list[len(list)-1]), l.CaseInsensitive)
					}
				}
			}
		}
	}
	return out
}
