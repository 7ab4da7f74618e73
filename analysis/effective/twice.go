package effective

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
)

// server-started-twice: two names of one tool's effective configuration
// start the same server (the same program, arguments, environment and
// working directory; or the same URL with the same headers). The tool
// starts both, and the model sees every tool of it twice under two
// prefixes. A copy under another name is a leftover of a rename, or of a
// server pasted into both a project and a user file. The environment and
// the headers are part of the identity: the same package with another
// token is another account, started twice on purpose.

// identityFields are the merged fields that make two servers the same.
var identityFields = []string{"command", "args", "env", "environment", "cwd", "url", "httpUrl", "serverUrl", "headers"}

// identity is a server's identity as its tool starts it; "" when it has
// neither a command nor a url.
func identity(s *Server) string {
	vals := map[string]any{}
	for _, f := range s.Fields {
		if slices.Contains(identityFields, f.Key) {
			vals[f.Key] = verdict.Decode(f.Member.Value)
		}
	}
	_, cmd := vals["command"]
	if !cmd && vals["url"] == nil && vals["httpUrl"] == nil && vals["serverUrl"] == nil {
		return ""
	}
	if c, ok := vals["command"].([]any); ok { // OpenCode: program and arguments in one array
		args, _ := vals["args"].([]any)
		vals["command"], vals["args"] = c[0:min(1, len(c))], append(slices.Clone(c[min(1, len(c)):]), args...)
	}
	return fmt.Sprint(vals) // fmt sorts map keys
}

// programOrURL is the program a server starts or the URL it connects to,
// as written; "" for neither.
func programOrURL(s *Server) string {
	for _, f := range s.Fields {
		v := f.Member.Value
		switch {
		case f.Key == "command" && v.Kind == jsonc.String:
			return "command " + v.Str
		case f.Key == "command" && v.Kind == jsonc.Array && len(v.Elements) > 0:
			return "command " + v.Elements[0].Str
		case (f.Key == "url" || f.Key == "httpUrl" || f.Key == "serverUrl") && v.Kind == jsonc.String:
			return "url " + v.Str
		}
	}
	return ""
}

// twice collects server-started-twice findings across tools, so that a
// file two tools read (.mcp.json) gets one finding naming both.
type twice struct {
	order []string
	found map[string]*twiceFinding
}

type twiceFinding struct {
	path  string
	d     rules.Diagnostic
	tools []string // names
	ids   []string
	other string // the server it duplicates
	first *Definition
	dup   *Definition
	what  string
}

// add records the servers r starts twice: in each group of the same
// identity, every one after the first (by precedence, then position)
// is reported, naming the first.
func (t *twice) add(r *Result) {
	if r.Stopped != nil || len(r.Refused) > 0 {
		return
	}
	// Candidates first, by program or URL alone (a string already
	// decoded): the full identity decodes every field, which only servers
	// sharing one are worth (an edit of a 1,000-server file recomputes
	// this).
	byProgram := map[string][]*Server{}
	for _, s := range r.Servers {
		if s.Winner == nil || !s.Enabled || s.Merged != nil {
			continue
		}
		if p := programOrURL(s); p != "" {
			byProgram[p] = append(byProgram[p], s)
		}
	}
	groups := map[string][]*Server{}
	var keys []string
	for _, s := range r.Servers {
		p := programOrURL(s)
		if p == "" || len(byProgram[p]) < 2 || s.Winner == nil || !s.Enabled || s.Merged != nil {
			continue
		}
		id := identity(s)
		if id == "" {
			continue
		}
		if groups[id] == nil {
			keys = append(keys, id)
		}
		groups[id] = append(groups[id], s)
	}
	for _, id := range keys {
		g := groups[id]
		if len(g) < 2 {
			continue
		}
		slices.SortFunc(g, func(a, b *Server) int {
			return cmp.Or(
				cmp.Compare(b.Winner.Source.Rank, a.Winner.Source.Rank),
				cmp.Compare(a.Winner.Source.Path, b.Winner.Source.Path),
				cmp.Compare(a.Winner.Member.Key.Span.Start, b.Winner.Member.Key.Span.Start))
		})
		what := "the same command, arguments and environment"
		if !strings.Contains(id, "command:") {
			what = "the same URL and headers"
		}
		first := g[0]
		for _, s := range g[1:] {
			key := fmt.Sprintf("%s|%d|%s", s.Winner.Source.Path, s.Winner.Member.Key.Span.Start, first.Name)
			f := t.found[key]
			if f == nil {
				if t.found == nil {
					t.found = map[string]*twiceFinding{}
				}
				f = &twiceFinding{path: s.Winner.Source.Path, other: first.Name, first: first.Winner, dup: s.Winner, what: what}
				t.found[key] = f
				t.order = append(t.order, key)
			}
			if !slices.Contains(f.ids, string(r.Tool.ID)) {
				f.tools = append(f.tools, r.Tool.Name)
				f.ids = append(f.ids, string(r.Tool.ID))
			}
		}
	}
}

// diagnostics returns the findings, each in the file of the copy.
func (t *twice) diagnostics(displayPath func(string) string) map[string][]rules.Diagnostic {
	out := map[string][]rules.Diagnostic{}
	for _, key := range t.order {
		f := t.found[key]
		name := f.dup.Member.Key.Str
		where := "in this file"
		if f.first.Source.Path != f.path {
			where = "in " + displayPath(f.first.Source.Path)
		}
		verb := "starts"
		if len(f.tools) > 1 {
			verb = "start"
		}
		out[f.path] = append(out[f.path], rules.Diagnostic{
			Span:     f.dup.Member.Key.Span,
			Severity: rules.SeverityWarning,
			Code:     rules.CodeServerStartedTwice,
			Message: fmt.Sprintf("%s %s this server twice: %q is %s as %q %s, so every tool of it appears twice; remove one of the two names",
				rules.JoinAnd(f.tools), verb, name, f.what, f.other, where),
			Related: []rules.Related{{Path: f.first.Source.Path, Span: f.first.Member.Key.Span, Message: fmt.Sprintf("the same server, as %q", f.other)}},
			// Not safe: another tool, or another launch directory, may
			// read only one of the two files.
			Data: map[string]any{"server": name, "tools": f.ids, rules.FixKey: rules.Fix{Kind: rules.FixRemoveMember, Key: name}},
		})
	}
	return out
}
