package sync

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Scope is where sync writes: the project's files or the user's.
type Scope string

const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
)

// DialectOf returns the convert dialect that writes tool's servers, if
// sync can write that tool's files.
func DialectOf(reg *registry.Registry, tool string) (string, bool) {
	for _, d := range convert.Dialects() {
		if rd, ok := reg.Dialect(registry.DialectID(d)); ok && string(rd.Tool) == tool {
			return d, true
		}
	}
	return "", false
}

// Tools lists the tools sync can write, in the registry's order.
func Tools(reg *registry.Registry) []string {
	var out []string
	for _, t := range reg.Tools() {
		if _, ok := DialectOf(reg, string(t.ID)); ok {
			out = append(out, string(t.ID))
		}
	}
	return out
}

// TargetFor finds the file tool keeps servers in at scope: in the
// project, the file conversions write (fix.Workspace.TargetFile); for the
// user, the tool's user-level file (the first that exists, else the one
// named like the project's file, else the first the registry lists). It
// reads the file through ws.File. root is the project root records are
// relative to.
func TargetFor(ws *fix.Workspace, tool string, scope Scope, root string) (Target, error) {
	reg := ws.Registry
	dialect, ok := DialectOf(reg, tool)
	if !ok {
		return Target{}, fmt.Errorf("sync cannot write %s files (it writes: %s)", toolName(reg, tool), strings.Join(Tools(reg), ", "))
	}
	var path string
	switch {
	case scope == ScopeUser:
		path = userFile(ws, dialect)
	case dialect == schemas.CodexCLI:
		// Not fix.Workspace.TargetFile: the conversion code actions
		// write JSON only, and Codex's file is TOML.
		path = filepath.Join(ws.ProjectDir, ".codex", "config.toml")
	default:
		path = ws.TargetFile(dialect)
	}
	if path == "" {
		return Target{}, fmt.Errorf("%s has no %s-level file here", toolName(reg, tool), scope)
	}
	kind, ok := reg.Match(path, ws.Env)
	if !ok {
		return Target{}, fmt.Errorf("%s: not a file the registry knows", path)
	}
	mapPath, ok := serverMap(kind, dialect)
	if !ok {
		return Target{}, fmt.Errorf("%s keeps no server map in %s", toolName(reg, tool), path)
	}
	content, exists, err := ws.File(path)
	if err != nil {
		return Target{}, err
	}
	if exists {
		mapPath = existingMap(kind, dialect, path, content, mapPath)
	}
	return Target{Tool: tool, Dialect: dialect, Path: path, Rel: RelName(root, path), MapPath: mapPath,
		Keep: switchKeys(reg, tool), Content: content, Exists: exists}, nil
}

// switchKeys are the entry keys that switch tool's servers on or off.
func switchKeys(reg *registry.Registry, tool string) []string {
	t, ok := reg.Tool(registry.ToolID(tool))
	if !ok || t.Profile == nil {
		return nil
	}
	var out []string
	for _, l := range t.Profile.Layers {
		for _, k := range []string{l.EnabledKey, l.DisabledKey} {
			if k != "" && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// userFile is the user-level file of dialect.
func userFile(ws *fix.Workspace, dialect string) string {
	var candidates []string
	for _, k := range ws.Registry.Kinds() {
		if k.Scope != registry.ScopeUser || len(k.Paths) == 0 {
			continue
		}
		if _, ok := serverMap(k, dialect); ok {
			candidates = append(candidates, k.ResolvePaths(ws.Env)...)
		}
	}
	for _, c := range candidates {
		if _, ok, _ := ws.File(filepath.FromSlash(c)); ok {
			return filepath.FromSlash(c)
		}
	}
	project := filepath.Base(ws.TargetFile(dialect))
	for _, c := range candidates {
		if filepath.Base(c) == project {
			return filepath.FromSlash(c)
		}
	}
	if len(candidates) > 0 {
		return filepath.FromSlash(candidates[0])
	}
	return ""
}

// serverMap is the path of the server map dialect's reader finds in kind,
// the first one without a wildcard.
func serverMap(kind *registry.FileKind, dialect string) ([]string, bool) {
	for _, r := range kind.Readers {
		if string(r.Dialect) != dialect {
			continue
		}
		for _, p := range r.ServerMaps {
			if !slices.Contains(p, "*") {
				return p, true
			}
		}
	}
	return nil, false
}

// existingMap is the server map a file already has, of those dialect's
// reader finds in kind (VS Code's .vscode/mcp.json may still use the
// older "mcpServers"): a server goes beside the others, not into a second
// map. def when the file has none of them.
func existingMap(kind *registry.FileKind, dialect, path string, content []byte, def []string) []string {
	ed := editorFor(path)
	for _, r := range kind.Readers {
		if string(r.Dialect) != dialect {
			continue
		}
		for _, p := range r.ServerMaps {
			if slices.Contains(p, "*") {
				continue
			}
			if _, found, err := ed.lookup(content, p); err == nil && found {
				return p
			}
		}
	}
	return def
}

// RelName is how records and output name path: slash-separated relative
// to root when inside it, else absolute.
func RelName(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

func toolName(reg *registry.Registry, tool string) string {
	if t, ok := reg.Tool(registry.ToolID(tool)); ok {
		return t.Name
	}
	return tool
}
