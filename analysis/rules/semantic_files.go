package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// File-level rules: servers in a file a tool does not read, in a settings
// file that ignores them, under another tool's top-level key, or none at
// all. Which tool reads which file is registry data (kinds[].readers and
// kinds[].notRead), so these rules hold no list of file names.

// notReadFiles reports, per tool the registry says does not read this
// kind of file (kinds[].notRead), servers it will not load: in a settings
// file of the tool's that ignores them (servers-in-settings), or in a file
// it does not read at all (file-not-read, file-not-read-by).
func (c *semantic) notReadFiles() {
	k := c.in.Kind
	if k == nil {
		return
	}
	for i := range k.NotRead {
		n := &k.NotRead[i]
		if !c.in.Config.applies(n.Tool) {
			continue
		}
		if r, reads := k.Reader(n.Tool); reads && len(r.ServerMaps) == 0 {
			c.serversInSettings(n)
		} else {
			c.notRead(n, r)
		}
	}
}

// settingsIgnoredHere reports settings a tool reading this file reads
// from another of its files only.
func (c *semantic) settingsIgnoredHere() {
	c.trustSwitchElsewhere()
	c.keysReadElsewhere()
}

// keysReadElsewhere reports a top-level key a reader of the file takes
// from another file only (registry: readers[].elsewhere): VS Code reads
// "inputs" from .vscode/mcp.json, never from .mcp.json, so an
// ${input:id} there is never asked for (verified in VS Code 1.139's code).
func (c *semantic) keysReadElsewhere() {
	root := c.f.Root
	if c.in.Kind == nil || root == nil || root.Kind != jsonc.Object {
		return
	}
	for _, r := range c.in.Kind.Readers {
		if !c.in.Config.applies(r.Tool) {
			continue
		}
		for _, e := range r.Elsewhere {
			m := root.Get(e.Key)
			if m == nil {
				continue
			}
			msg := fmt.Sprintf("%s reads %q only from %s: here it has no effect", toolName(c.in, r.Tool), e.Key, e.Instead)
			if e.Message != "" {
				msg += fmt.Sprintf(" (%q)", e.Message)
			}
			c.add(Diagnostic{
				Span:     m.Key.Span,
				Severity: SeverityWarning,
				Code:     CodeSettingIgnoredHere,
				Message:  msg,
				Data:     map[string]any{"tools": []string{string(r.Tool)}, "field": e.Key},
			})
		}
	}
}

// trustSwitchElsewhere reports the switch that turns a tool's folder
// trust off (registry: profile.trust.off) in a file of the tool's other
// than the one it is read from: Gemini CLI reads
// security.folderTrust.enabled from the user settings only, and the same
// key in the workspace file has no effect (verified with 0.61.0).
func (c *semantic) trustSwitchElsewhere() {
	root := c.f.Root
	if c.in.Kind == nil || root == nil || root.Kind != jsonc.Object || c.in.Kind.Scope == registry.ScopeUser {
		return
	}
	for _, r := range c.in.Kind.Readers {
		t, ok := c.in.Registry.Tool(r.Tool)
		// Only where the tool is known to ignore the key there (Gemini
		// CLI); an opt-in switch (Qwen Code) was not observed elsewhere.
		if !ok || t.Profile == nil || t.Profile.Trust == nil || t.Profile.Trust.Off == nil || t.Profile.Trust.OptIn || !c.in.Config.applies(r.Tool) {
			continue
		}
		off := t.Profile.Trust.Off
		n := root
		var m *jsonc.Member
		for _, seg := range off.Key {
			if n == nil || n.Kind != jsonc.Object {
				m = nil
				break
			}
			if m = n.Get(seg); m == nil {
				break
			}
			n = m.Value
		}
		if m == nil {
			continue
		}
		where := "another file"
		for _, k := range c.in.Registry.Kinds() {
			if slices.Contains(k.Paths, off.File) {
				where = "the " + k.Name
			}
		}
		c.add(Diagnostic{
			Span:     m.Key.Span,
			Severity: SeverityWarning,
			Code:     CodeSettingIgnoredHere,
			Message: fmt.Sprintf("%s reads %s only from %s: here it has no effect on folder trust", t.Name,
				strings.Join(off.Key, "."), where),
			Data: map[string]any{"tools": []string{string(r.Tool)}, "field": strings.Join(off.Key, ".")},
		})
	}
}

// notRead reports a file a tool users expect to read servers from does
// not read (r == nil), or reads only when named on its command line. It is
// a warning when no tool the user runs takes servers from the file, and a
// note when another does (.vscode/mcp.json is VS Code's, not Copilot
// CLI's: github/copilot-cli#1629) or the tool does with a flag (a project
// .copilot/mcp-config.json: github/copilot-cli#3642).
func (c *semantic) notRead(n *registry.NotRead, r *registry.Reader) {
	file := c.fileLabel()
	tool := toolName(c.in, n.Tool)
	var others []*registry.Reader
	for i := range c.in.Kind.Readers {
		if o := &c.in.Kind.Readers[i]; o.Tool != n.Tool && len(o.ServerMaps) > 0 {
			others = append(others, o)
		}
	}
	at := c.fileSpan()
	if r == nil && len(others) > 0 {
		// Another tool reads the file: say so only when it is written in
		// the format of the tool that does not (a .vscode/mcp.json with
		// "mcpServers" was meant for Copilot CLI; one with "servers" is VS
		// Code's own).
		key := c.rootKeyOf(n.Tool, others)
		if key == nil {
			return
		}
		at = key.Span
	}
	var msg string
	switch {
	case r != nil:
		msg = fmt.Sprintf("%s does not load %s by itself, only when it is named on the command line", tool, file)
		if g := semExplicitFlag(r); g != "" {
			msg += " (" + g + ")"
		}
	case len(others) > 0:
		msg = fmt.Sprintf("%s does not read %s (%s %s it)", tool, file, readerNames(c.in, others), plural(len(others), "reads", "read"))
	default:
		msg = fmt.Sprintf("%s does not read %s, so the servers in it are not loaded", tool, file)
	}
	if n.Instead != "" {
		msg += fmt.Sprintf("; for %s, use %s", tool, n.Instead)
	}
	code, sev := CodeFileNotReadBy, SeverityInformation
	if r == nil && len(others) == 0 {
		code, sev = CodeFileNotRead, SeverityWarning
	}
	c.add(Diagnostic{
		Span:     at,
		Severity: sev,
		Code:     code,
		Message:  msg,
		Data:     map[string]any{"tools": []string{string(n.Tool)}, "instead": n.Instead},
	})
}

// rootKeyOf returns the top-level key under which tool keeps servers in
// its own files, when the file has one that none of others reads.
func (c *semantic) rootKeyOf(tool registry.ToolID, others []*registry.Reader) *jsonc.Node {
	root := c.f.Root
	if root == nil || root.Kind != jsonc.Object {
		return nil
	}
	for _, m := range root.Members() {
		key := m.Key.Str
		if slices.ContainsFunc(others, func(o *registry.Reader) bool { return semPrimaryMap(o) == key }) {
			continue
		}
		for _, k := range c.in.Registry.Kinds() {
			if r, ok := k.Reader(tool); ok && semPrimaryMap(r) == key {
				return m.Key
			}
		}
	}
	return nil
}

// semPrimaryMap is the first top-level server map a reader names: the key
// its own format uses ("servers" for VS Code, which also reads a
// deprecated "mcpServers"). "" when it has none.
func semPrimaryMap(r *registry.Reader) string {
	for _, p := range r.ServerMaps {
		if len(p) == 1 {
			return p[0]
		}
	}
	return ""
}

// semReadsRootKey reports whether r takes servers from the top-level key.
func semReadsRootKey(r *registry.Reader, key string) bool {
	return slices.ContainsFunc(r.ServerMaps, func(p []string) bool { return len(p) == 1 && p[0] == key })
}

// semExplicitFlag returns the note of a reader's explicit-flag gate: how to
// name the file on the command line.
func semExplicitFlag(r *registry.Reader) string {
	for _, g := range r.Gates {
		if g.ID == registry.GateExplicitFlag {
			return g.Note
		}
	}
	return ""
}

// serversInSettings reports a server map in a file its tool reads for
// other settings only: Claude Code ignores mcpServers in settings.json
// silently (anthropics/claude-code#24477).
func (c *semantic) serversInSettings(n *registry.NotRead) {
	root := c.f.Root
	if root == nil || root.Kind != jsonc.Object {
		return
	}
	for _, m := range root.Members() {
		if m.Key == nil || !slices.Contains(c.registryMapKeys(), m.Key.Str) || root.Get(m.Key.Str) != m {
			continue
		}
		tool := toolName(c.in, n.Tool)
		msg := fmt.Sprintf("%s ignores %q in %s: it reads no MCP servers from this file", tool, m.Key.Str, filepath.Base(c.in.Path))
		if n.Instead != "" {
			msg += "; use " + n.Instead
		}
		c.add(Diagnostic{
			Span:     m.Key.Span,
			Severity: SeverityWarning,
			Code:     CodeServersInSettings,
			Message:  msg,
			Data:     map[string]any{"field": m.Key.Str, "tools": []string{string(n.Tool)}, "instead": n.Instead},
		})
	}
}

// wrongMapKeys reports servers under a top-level key of another tool's
// format: "servers" (VS Code) in .mcp.json, "mcpServers" in opencode.json.
// Without the right key the tools load no server from the file (Claude
// Code rejects a .mcp.json without mcpServers); beside it, the other key
// is ignored, or, for OpenCode, whose top level is strict, it refuses the
// configuration. A secondary map a reader still reads (VS Code's
// top-level "mcpServers", deprecated: "only for rough cross-compat",
// microsoft/vscode mcpPlatformTypes.ts) is a hint.
func (c *semantic) wrongMapKeys() {
	root := c.f.Root
	if c.in.Kind == nil || root == nil || root.Kind != jsonc.Object {
		return
	}
	want, readers := c.rootMapReaders()
	if want == "" {
		return
	}
	hasWant := root.Get(want) != nil
	for _, m := range root.Members() {
		key := m.Key.Str
		if key == want || root.Get(key) != m || !slices.Contains(c.registryMapKeys(), key) {
			continue
		}
		if slices.IndexFunc(readers, func(r *registry.Reader) bool { return !semKnowsTopKey(r, key) }) < 0 {
			// A setting of every reader's own format (Gemini CLI's "mcp"
			// holds its allowed and excluded lists), not misplaced servers.
			continue
		}
		var vs semVerdicts
		for _, r := range readers {
			switch {
			case semReadsRootKey(r, key):
				vs = append(vs, semVerdict{r, outAccepted})
			case hasWant:
				vs = append(vs, semVerdict{r, semOutcomeOf(verdict.UnknownTopKey(r))})
			default:
				vs = append(vs, semVerdict{r, outSkipped})
			}
		}
		owners := c.mapKeyOwners(key, readers)
		d := Diagnostic{Span: m.Key.Span, Code: CodeWrongServerMapKey, Data: semData("", readers, "field", key, FixKey, Fix{Kind: FixRenameKey, Key: key, Value: want, Safe: true})}
		blamed := vs.readers(outSkipped, outIgnored, outRefused)
		switch {
		case len(blamed) == 0:
			d.Severity, d.Tags = SeverityHint, []Tag{TagDeprecated}
			d.Message = fmt.Sprintf("%s %s %q only for compatibility with other tools (deprecated); use %q",
				readerNames(c.in, readers), plural(len(readers), "reads", "read"), key, want)
		case !hasWant:
			d.Severity = SeverityError
			d.Message = fmt.Sprintf("%s %s servers from %q, not %q%s, so %s none of these servers; rename it to %q",
				readerNames(c.in, blamed), plural(len(blamed), "reads", "read"), want, key, owners, plural(len(blamed), "it loads", "they load"), want)
		case vs.any(outRefused):
			rs := vs.readers(outRefused)
			d.Severity = SeverityError
			d.Message = fmt.Sprintf("%s %s the whole configuration: %q is not one of its keys%s; move the servers into %q",
				readerNames(c.in, rs), plural(len(rs), "refuses", "refuse"), key, owners, want)
		default:
			d.Severity = SeverityWarning
			d.Message = fmt.Sprintf("%s %s %q%s: the servers in it are not loaded; move them into %q",
				readerNames(c.in, blamed), plural(len(blamed), "ignores", "ignore"), key, owners, want)
		}
		c.add(d)
	}
}

// rootMapReaders returns the top-level key the file's readers take
// servers from, with those readers ("" when no reader has a top-level
// server map).
func (c *semantic) rootMapReaders() (string, []*registry.Reader) {
	var want string
	var readers []*registry.Reader
	for i := range c.in.Kind.Readers {
		r := &c.in.Kind.Readers[i]
		if p := semPrimaryMap(r); p != "" && (want == "" || want == p) {
			want = p
			readers = append(readers, r)
		}
	}
	return want, readers
}

// registryMapKeys are the top-level server-map keys of every file kind:
// "mcpServers", "mcp", "servers".
func (c *semantic) registryMapKeys() []string {
	if c.mapKeys != nil {
		return c.mapKeys
	}
	keys := []string{}
	for _, k := range c.in.Registry.Kinds() {
		for _, r := range k.Readers {
			for _, p := range r.ServerMaps {
				if len(p) == 1 && !slices.Contains(keys, p[0]) {
					keys = append(keys, p[0])
				}
			}
		}
	}
	c.mapKeys = keys
	return keys
}

// mapKeyOwners is " (VS Code's key)": the tools, other than readers',
// whose files keep servers under key.
func (c *semantic) mapKeyOwners(key string, readers []*registry.Reader) string {
	var names []string
	for _, k := range c.in.Registry.Kinds() {
		for _, r := range k.Readers {
			name := toolName(c.in, r.Tool)
			if slices.Contains(names, name) || slices.ContainsFunc(readers, func(o *registry.Reader) bool { return o.Tool == r.Tool }) {
				continue
			}
			if semPrimaryMap(&r) == key {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) == 1 {
		return fmt.Sprintf(" (%s's key)", names[0])
	}
	return fmt.Sprintf(" (the key of %s)", JoinAnd(names))
}

// semSettingsDialects are the dialects of files that hold a tool's general
// settings, servers being one section among others: opencode.json (model,
// agents, themes...), Claude Desktop's config (preferences; the app writes
// "mcpServers": {} itself). An empty server map there is no mistake.
var semSettingsDialects = []registry.DialectID{"opencode", "claude-desktop"}

// emptyServerMap notes a file that exists only to declare servers and
// declares none, once, on its first server map. Files that hold other
// settings are left alone (Claude Code itself writes "mcpServers": {} into
// ~/.claude.json), and so is a file every reader drops for its syntax: the
// syntax error says it all.
func (c *semantic) emptyServerMap() {
	maps := c.groups
	if len(maps) == 0 {
		return
	}
	for _, g := range maps {
		if len(g.sm.Node.Members()) > 0 || len(g.sm.Path) != 1 || g.sm.Member == nil {
			return
		}
		if slices.ContainsFunc(g.readers, func(r *registry.Reader) bool { return slices.Contains(semSettingsDialects, r.Dialect) }) {
			return
		}
	}
	for _, m := range c.f.Root.Members() {
		if k := m.Key.Str; k != "$schema" && k != "inputs" && !slices.Contains(c.registryMapKeys(), k) {
			return
		}
	}
	g := maps[0]
	if !slices.ContainsFunc(g.readers, c.parses) {
		return
	}
	c.add(Diagnostic{
		Span:     g.sm.Member.Key.Span,
		Severity: SeverityHint,
		Code:     CodeEmptyServerMap,
		Message: fmt.Sprintf("%q is empty: %s %s no servers from this file", g.sm.Path[0],
			readerNames(c.in, g.readers), plural(len(g.readers), "loads", "load")),
		Data: semData("", g.readers, "field", g.sm.Path[0]),
	})
}

// parses reports whether reader r can parse the file at all: no syntax
// error, and no byte order mark, comment or trailing comma it rejects.
func (c *semantic) parses(r *registry.Reader) bool {
	f := c.f
	switch {
	case len(f.Errors) > 0:
		return false
	case f.BOM && !r.BOM.Value:
		return false
	case !r.AcceptsComments() && len(f.Comments) > 0:
		return false
	case !r.AcceptsTrailingCommas() && len(f.TrailingCommas) > 0:
		return false
	}
	return true
}

// fileLabel names the file as users know it: ".claude/.mcp.json",
// ".vscode/mcp.json", ".claude.json".
func (c *semantic) fileLabel() string {
	p := filepath.ToSlash(c.in.Path)
	if p == "" {
		return "this file"
	}
	dir, base := filepath.ToSlash(filepath.Dir(p)), filepath.Base(p)
	if parent := filepath.Base(dir); strings.HasPrefix(parent, ".") && parent != "." && parent != ".." {
		return parent + "/" + base
	}
	return base
}

// fileSpan is where a file-level finding goes: the key that holds the
// servers, else the opening brace, else the start of the file.
func (c *semantic) fileSpan() span.Span {
	root := c.f.Root
	if root == nil {
		return span.New(0, 0)
	}
	if root.Kind == jsonc.Object {
		for _, m := range root.Members() {
			if slices.Contains(c.registryMapKeys(), m.Key.Str) {
				return m.Key.Span
			}
		}
	}
	return span.New(root.Span.Start, root.Span.Start+1)
}

// semKnowsTopKey reports whether the reader's dialect schema describes
// key at the top level of the file as something other than servers.
func semKnowsTopKey(r *registry.Reader, key string) bool {
	if semReadsRootKey(r, key) {
		return false
	}
	_, ok := schemas.PropertyDoc(string(r.Dialect), "", key)
	return ok
}
