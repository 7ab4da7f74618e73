package rules

import (
	"bytes"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Rules about what a server entry will do on another machine or to the
// user's security, whatever tool reads it: a home directory path in a
// file the team shares, a credential sent in clear text. Each looks at the values of
// every server entry of every reader's server maps once.

const (
	CodeHomeDirectoryPath  = "home-directory-path"
	CodeCredentialOverHTTP = "credential-over-http"
	CodeUnpinnedPackage    = "unpinned-package"
	CodeWindowsCmdWrapper  = "windows-cmd-wrapper"
	CodeToolNameBudget     = "tool-name-budget"
	CodeApproveEverything  = "approve-everything"
	CodeTemplateLeft       = "template-placeholder"
	CodeTemplateVariable   = "template-variable"
)

// projectRulesCheck is the one check of the rules of this file: one pass
// over the server entries, memoised per entry, finds them all.
var projectRulesCheck = fileCheck(checkProjectRules)

// projectRules are the rules of this file.
var projectRules = []Rule{
	{CodeHomeDirectoryPath, SeverityWarning, "An absolute path under a home directory (`/Users/<name>/`, `/home/<name>/`, `C:\\Users\\<name>\\`) in a project-level file: it will not exist on a teammate's machine.", projectRulesCheck},
	{CodeCredentialOverHTTP, SeverityWarning, "A credential header (`Authorization`, `*-API-Key`, `*token*`) sent to a plain `http://` URL that is not loopback: anyone on the network path can read it.", projectRulesCheck},
	{CodeApproveEverything, SeverityWarning, "An approve-everything setting committed to the project (`autoApprove: [\"*\"]`, `alwaysAllow` with `*`, Gemini CLI's `trust: true`, `enableAllProjectMcpServers` in `.claude/settings.json`): every tool call, and every server a later commit adds, runs without asking anyone who clones it.", projectRulesCheck},
	{CodeToolNameBudget, SeverityWarning, "A server name that leaves fewer than 32 characters for tool names: `mcp__<server>__<tool>` (each tool's pattern) must fit the 64 characters model APIs allow for a tool name, or calls fail with an API error.", projectRulesCheck},
	{CodeWindowsCmdWrapper, SeverityInformation, "`npx`, `pnpm dlx` or `yarn dlx` as the command in a file Claude Code reads for someone on Windows (a project file, or this machine's own files on Windows): there they are batch scripts, which Claude Code starts only through `cmd /c`. Off with `\"windows\": false` when the project is not used on Windows.", projectRulesCheck},
	{CodeTemplateLeft, SeverityWarning, "A template placeholder such as `{{root}}` or `{{runtime.python}}` left in a tool's own file: no tool expands `{{...}}`, so the server gets the text literally. Resolve the template with `mcp-lsp sync SOURCE`, or write the value.", projectRulesCheck},
	{CodeTemplateVariable, SeverityError, "A `{{...}}` in a sync template (a file no tool reads that `mcp-lsp sync` takes as a source: recorded in `.mcp-lsp/sync.json`, or a JSON file with a server map and a `{{` in it) that sync cannot resolve: an unknown variable, or `{{runtime.python}}` with no Python found. Sync refuses the template with the same words; give the value with `--var NAME=VALUE`. Reported in the editor; hover shows each variable's value.", reportedIn("lsp: templateFindings, with analysis/sync: TemplateFindings")},
	{CodeUnpinnedPackage, SeverityHint, "A package runner (`npx`, `pnpm dlx`, `yarn dlx`, `bunx`, `uvx`, `pipx run`) fetching a package without a pinned version (none, or a tag such as `@latest`): each start may run a release nobody reviewed (supply chain), and machines may run different code (reproducibility).", projectRulesCheck},
}

// checkProjectRules runs the rules of this file over every server entry.
// Their findings depend on nothing but the member's text (name included),
// whether the file is shared with the project, its readers' tools and the
// Windows settings (projectMemoKey), so they are memoised
// by text like the semantic rules (semantic_memo.go): an edit of a large
// file runs them on the edited entry only.
func checkProjectRules(in FileInput) []Diagnostic {
	if in.Kind == nil || in.Parsed == nil {
		return nil
	}
	p := newProjectPass(in)
	var ds []Diagnostic
	seen := map[*jsonc.Member]bool{}
	for i := range in.Kind.Readers {
		for _, sm := range FindServerMaps(in.Parsed, &in.Kind.Readers[i]) {
			if sm.Node == nil || sm.Node.Kind != jsonc.Object {
				continue
			}
			if p.memo {
				in.Cache.fit(len(sm.Node.Members()), 1)
			}
			// About one finding per server in a large file of npx servers.
			ds = slices.Grow(ds, len(sm.Node.Members()))
			for _, m := range sm.Node.Members() {
				if seen[m] || !projectRulesApply(m) {
					continue
				}
				seen[m] = true
				ds = p.entry(ds, m)
			}
		}
	}
	return append(ds, approveAllProjectServers(in)...)
}

// projectRulesApply reports whether the project rules look at the member
// m of a server map: a server whose definition is an object.
func projectRulesApply(m *jsonc.Member) bool {
	return m.Key != nil && m.Value != nil && m.Value.Kind == jsonc.Object
}

// projectPass is what the project rules of one file share between its
// entries: the memo's key and whether it may be used.
type projectPass struct {
	in      FileInput
	project bool // the file is shared with the project
	key     entryMemoKey
	memo    bool
}

func newProjectPass(in FileInput) *projectPass {
	project := in.Kind.Scope == registry.ScopeProject
	return &projectPass{
		in: in, project: project, key: projectMemoKey(in, project),
		// Spans are re-based on the parse's text: a memo is only usable
		// when that is the text analysed.
		memo: in.Cache != nil && bytes.Equal(in.Content, in.Parsed.Src),
	}
}

// entry appends the project rules' findings on the server m to ds,
// through the memo where it can.
func (p *projectPass) entry(ds []Diagnostic, m *jsonc.Member) []Diagnostic {
	ds, _ = p.entryStored(ds, m)
	return ds
}

// entryStored is entry, also returning the findings as the memo keeps
// them (spans relative to the member, Data the memo's own); nil when the
// memo is not used.
func (p *projectPass) entryStored(ds []Diagnostic, m *jsonc.Member) (_, stored []Diagnostic) {
	in := p.in
	if !p.memo || !memoSafe(in.Parsed, in.index, m) {
		return append(ds, projectRulesOf(in, m, p.project)...), nil
	}
	at := m.Span.Start
	text := in.Parsed.Src[at:m.Span.End]
	found, ok := in.Cache.proj.Get(p.key, text)
	if !ok {
		mine := projectRulesOf(in, m, p.project)
		found = memoDiagnostics(mine, at)
		in.Cache.proj.Put(p.key, text, found)
		return append(ds, mine...), storedOrEmpty(found)
	}
	for _, d := range found {
		ds = append(ds, rebase(d, at))
	}
	return ds, storedOrEmpty(found)
}

// storedOrEmpty is a memo's findings, never nil: nil says the memo was
// not used.
func storedOrEmpty(ds []Diagnostic) []Diagnostic {
	if ds == nil {
		return []Diagnostic{}
	}
	return ds
}

// projectRulesOf is what the rules of this file find on the server m, in
// a file shared with the project or not. Besides m's text it depends only
// on what projectMemoKey holds.
func projectRulesOf(in FileInput, m *jsonc.Member, project bool) []Diagnostic {
	name, _ := stringOf(m.Key)
	// A server has a finding or two here, if any: they are gathered on
	// the stack and copied out once.
	var buf [4]Diagnostic
	ds := buf[:0]
	if project {
		ds = append(ds, homePaths(name, m.Value)...)
		ds = append(ds, approveEverything(in, name, m.Value)...)
	}
	ds = append(ds, credentialOverHTTP(name, m.Value)...)
	ds = append(ds, templatesLeft(in, name, m.Value)...)
	ds = append(ds, toolNameBudget(in, m)...)
	// Both rules read the command line as a package runner: it is parsed
	// once.
	call, ok := runnerOf(m.Value)
	ds = appendWindowsCmdWrapper(ds, in, name, m.Value, call, ok)
	ds = appendUnpinnedPackages(ds, name, call, ok)
	if len(ds) == 0 {
		return nil
	}
	return slices.Clone(ds)
}

// projectMemoKey is the context of the memoised project rules: the
// file's scope, its readers' tools (tool-name-budget, windows-cmd-wrapper
// and Gemini CLI's trust depend on them) and the Windows settings.
func projectMemoKey(in FileInput, project bool) entryMemoKey {
	b := []byte("project-rules")
	if project {
		b = append(b, "|project-scope"...)
	}
	if in.Config.NotOnWindows {
		b = append(b, "|not-on-windows"...)
	}
	if in.Config.OnWindows {
		b = append(b, "|on-windows"...)
	}
	for _, r := range in.Kind.Readers {
		b = appendKeyString(b, string(r.Tool))
	}
	return entryMemoKey{reg: in.Registry, ctx: string(b)}
}

// homeDir matches a home directory at the start of a value or after a
// separator ("--root=/home/ann/src"), not inside a URL path.
var homeDir = regexp.MustCompile(`(?i)(?:^|[\s=,;:'"])((?:/Users|/home)/([^/\s]+)/|[a-z]:[\\/]Users[\\/]([^\\/\s]+)[\\/])`)

// mayNameHome is false when s cannot match homeDir, whose every match
// holds "home" or "users" (in any case): most strings are neither, and
// are spared the regular expression.
func mayNameHome(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		switch s[i] | 0x20 {
		case 'h':
			if strings.EqualFold(s[i:i+4], "home") {
				return true
			}
		case 'u':
			if i+5 <= len(s) && strings.EqualFold(s[i:i+5], "users") {
				return true
			}
		}
	}
	return false
}

// homePaths reports each string of the entry naming a path in somebody's
// home directory. macOS's shared /Users/Shared is no one's home.
func homePaths(server string, entry *jsonc.Node) []Diagnostic {
	var ds []Diagnostic
	walkStrings(entry, func(n *jsonc.Node, s string) {
		if !mayNameHome(s) {
			return
		}
		for _, m := range homeDir.FindAllStringSubmatch(s, -1) {
			user := m[2] + m[3]
			if strings.EqualFold(user, "Shared") || strings.EqualFold(user, "Public") {
				continue
			}
			ds = append(ds, Diagnostic{
				Span: n.Span, Severity: SeverityWarning, Code: CodeHomeDirectoryPath,
				Message: fmt.Sprintf("server %q names %s, a path in %s's home directory: this file is shared with the project, and the path will not exist on a teammate's machine; use a path relative to the project, or an environment variable", server, m[1], user),
				Data:    map[string]any{"server": server},
			})
			return
		}
	})
	return ds
}

// templatesLeft reports each string of the entry holding a {{...}}
// placeholder, which every reader passes through as text (the template
// syntax of mcp-lsp sync and the VaultSpec ADR; see interp.Placeholders).
func templatesLeft(in FileInput, server string, entry *jsonc.Node) []Diagnostic {
	var ds []Diagnostic
	walkStrings(entry, func(n *jsonc.Node, s string) {
		ps := interp.Placeholders([]byte(s))
		if len(ps) == 0 {
			return
		}
		reg := in.Registry
		if reg == nil {
			reg = registry.Default()
		}
		var tools []string
		for _, r := range in.Kind.Readers {
			if t, ok := reg.Tool(r.Tool); ok && !slices.Contains(tools, t.Name) {
				tools = append(tools, t.Name)
			}
		}
		ds = append(ds, Diagnostic{
			Span: n.Span, Severity: SeverityWarning, Code: CodeTemplateLeft,
			Message: fmt.Sprintf("server %q: {{%s}} is a template placeholder, which %s pass%s through as text; resolve the template with mcp-lsp sync SOURCE, or write the value", server, ps[0].Name, strings.Join(tools, " and "), map[bool]string{true: "", false: "es"}[len(tools) > 1]),
			Data:    map[string]any{"server": server},
		})
	})
	return ds
}

// stringOf is verdict.Decode(n).(string) without boxing the string in an
// interface (an allocation per string of every server).
func stringOf(n *jsonc.Node) (string, bool) {
	if n == nil || n.Kind != jsonc.String {
		return "", false
	}
	return n.Str, true
}

// walkStrings calls f with every string value under n (keys excluded).
func walkStrings(n *jsonc.Node, f func(*jsonc.Node, string)) {
	switch n.Kind {
	case jsonc.String:
		if s, ok := stringOf(n); ok {
			f(n, s)
		}
	case jsonc.Array:
		for _, e := range n.Elements() {
			walkStrings(e, f)
		}
	case jsonc.Object:
		for _, m := range n.Members() {
			if m.Value != nil {
				walkStrings(m.Value, f)
			}
		}
	}
}

// credentialOverHTTP reports credential headers of a server whose URL is
// plain http to a host other than this machine.
func credentialOverHTTP(server string, entry *jsonc.Node) []Diagnostic {
	var raw string
	for _, key := range []string{"url", "httpUrl", "serverUrl"} {
		if m := entry.Get(key); m != nil && m.Value != nil {
			if s, ok := stringOf(m.Value); ok {
				raw = s
				break
			}
		}
	}
	raw = strings.TrimSpace(raw)
	if len(raw) < len("http:") || !strings.EqualFold(raw[:len("http:")], "http:") {
		// Not plain http (url.Parse would find another scheme, or none):
		// most servers, without parsing a URL each.
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "http") || u.Hostname() == "" || isLoopback(u.Hostname()) || strings.ContainsAny(u.Hostname(), "${}") {
		return nil
	}
	h := entry.Get("headers")
	if h == nil || h.Value == nil || h.Value.Kind != jsonc.Object {
		return nil
	}
	var ds []Diagnostic
	for _, m := range h.Value.Members() {
		name, _ := stringOf(m.Key)
		if !isCredentialHeader(name) {
			continue
		}
		ds = append(ds, Diagnostic{
			Span: m.Key.Span, Severity: SeverityWarning, Code: CodeCredentialOverHTTP,
			Message: fmt.Sprintf("header %q of server %q is a credential sent to %s over plain http: anyone on the network path can read and reuse it; use https", name, server, u.Hostname()),
			Data:    map[string]any{"server": server, "key": name},
		})
	}
	return ds
}

func isCredentialHeader(name string) bool {
	n := strings.ToLower(name)
	return n == "authorization" || n == "proxy-authorization" || strings.HasSuffix(n, "-api-key") || n == "api-key" || strings.Contains(n, "token")
}

// isLoopback reports whether host is this machine.
func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
