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

// CrossFile returns the cross-file findings per file path: shadowed and
// duplicate definitions, one server started under two names, the winners' list of what they override, deep
// merges that mix transports, and fallback files ignored because the file
// they stand in for exists. Each finding names the tool.
func CrossFile(results []*Result, displayPath func(string) string) map[string][]rules.Diagnostic {
	out := map[string][]rules.Diagnostic{}
	seen := map[string]bool{} // dedupe findings repeated across launch dirs
	add := func(path string, d rules.Diagnostic) {
		key := fmt.Sprintf("%s|%d|%s|%s", path, d.Span.Start, d.Code, d.Message)
		if !seen[key] {
			seen[key] = true
			out[path] = append(out[path], d)
		}
	}
	readers := &launchReaders{results: results}
	var twice twice
	for _, r := range results {
		twice.add(r)
		for _, src := range r.Sources {
			if src.Preferred != "" {
				add(src.Path, fallbackIgnored(r, src, displayPath))
			}
		}
		deep := r.Tool.Merge.Value == "deep-merge"
		for _, s := range r.Servers {
			if s.Merged != nil {
				// Said already in the file, where one definition alone is
				// refused (the schema diagnostics); here only what the
				// merge makes of valid parts.
				if !slices.ContainsFunc(s.Definitions, func(d *Definition) bool {
					return d.Verdict != nil && d.Verdict.Outcome == verdict.RefusesFile
				}) {
					d, path := mergedRefused(r, s, displayPath)
					add(path, d)
				}
				continue
			}
			if len(s.Definitions) < 2 {
				continue
			}
			if deep {
				if d, path, ok := mergedTransport(r, s, displayPath); ok {
					add(path, d)
				}
				continue
			}
			if s.Winner == nil {
				continue
			}
			var overridden []rules.Related
			wm := r.Member(s.Winner)
			for _, d := range s.Definitions[1:] {
				m := r.Member(d)
				if sameFile(d, s.Winner) && m == wm {
					continue
				}
				// An identical copy that another tool (or this one from
				// another directory) reads without the winning one is not
				// a spare copy: removing it would take the server from
				// that tool, so duplicate-server does not offer it.
				if !identical(m.Value, wm.Value) || readers.seeBoth(keyOf(r, d), keyOf(r, s.Winner)) {
					add(d.Source.Path, shadowed(r, s, d, displayPath))
				}
				overridden = append(overridden, rules.Related{
					Path:    d.Source.Path,
					Span:    m.Key.Span,
					Message: fmt.Sprintf("overridden: %s (%s)", displayPath(d.Source.Path), d.Source.Layer.Label),
				})
			}
			if len(overridden) > 0 {
				what := fmt.Sprintf("%d other definitions", len(overridden))
				if len(overridden) == 1 {
					d := s.Definitions[1]
					what = fmt.Sprintf("the one in %s (%s)", displayPath(d.Source.Path), d.Source.Layer.Label)
				}
				add(s.Winner.Source.Path, rules.Diagnostic{
					Span:     wm.Key.Span,
					Severity: rules.SeverityHint,
					Code:     rules.CodeOverridesServer,
					Message:  fmt.Sprintf("%s uses this definition of %q (%s); it overrides %s%s", r.Tool.Name, s.Name, s.Winner.Source.Layer.Label, what, disabledNote(r, s)),
					Related:  overridden,
					Data:     map[string]any{"server": s.Name, "tool": string(r.Tool.ID)},
				})
			}
		}
	}
	for p, ds := range twice.diagnostics(displayPath, readers) {
		for _, d := range ds {
			add(p, d)
		}
	}
	for p := range out {
		rules.SortDiagnostics(out[p])
	}
	return out
}

// defKey names one definition: its file and its name's span there.
type defKey struct {
	path string
	span span.Span
}

// keyOf is the key of r's definition d.
func keyOf(r *Result, d *Definition) defKey { return defKey{d.Source.Path, r.Member(d).Key.Span} }

// readerKey is one tool launched in one directory.
type readerKey struct {
	tool      registry.ToolID
	launchDir string
}

// readersOf maps each definition to the tool launches that read it (gated
// or not).
type readersOf map[defKey]map[readerKey]bool

func definitionReaders(results []*Result) readersOf {
	out := readersOf{}
	for _, r := range results {
		rk := readerKey{r.Tool.ID, r.LaunchDir}
		for _, s := range r.Servers {
			for _, d := range s.Definitions {
				k := keyOf(r, d)
				if out[k] == nil {
					out[k] = map[readerKey]bool{}
				}
				out[k][rk] = true
			}
		}
	}
	return out
}

// launchReaders is readersOf, built on first use: only a duplicate asks,
// and building it for every definition of every tool was a twentieth of
// an edit of a 1,000-server file without any.
type launchReaders struct {
	results []*Result
	of      readersOf
}

func (l *launchReaders) seeBoth(copy, winner defKey) bool {
	if l.of == nil {
		l.of = definitionReaders(l.results)
	}
	return l.of.seeBoth(copy, winner)
}

// seeBoth reports whether every tool launch that reads the copy also
// reads the winner, so that the copy can go without any tool losing the
// server: a .mcp.json server that VS Code overrides with an identical one
// in .vscode/mcp.json is still the one Claude Code starts.
func (ro readersOf) seeBoth(copy, winner defKey) bool {
	w := ro[winner]
	for rk := range ro[copy] {
		if !w[rk] {
			return false
		}
	}
	return true
}

// fallbackIgnored tells the person editing a fallback file that the tool
// does not read it at all while the preferred file exists, and which one.
func fallbackIgnored(r *Result, src *Source, displayPath func(string) string) rules.Diagnostic {
	pref := displayPath(src.Preferred)
	return rules.Diagnostic{
		Span:     src.Top,
		Severity: rules.SeverityInformation,
		Code:     rules.CodeFallbackIgnored,
		Message: fmt.Sprintf("%s ignores this file: it reads %s only when no %s exists, and %s does",
			r.Tool.Name, displayPath(src.Path), PreferredName(r.LaunchDir, src.Preferred), pref),
		Related: []rules.Related{{Path: src.Preferred, Span: span.Span{}, Message: fmt.Sprintf("the file %s reads instead", r.Tool.Name)}},
		Data:    map[string]any{"tool": string(r.Tool.ID)},
	}
}

func shadowed(r *Result, s *Server, d *Definition, displayPath func(string) string) rules.Diagnostic {
	w := s.Winner
	dm, wm := r.Member(d), r.Member(w)
	why := ""
	if d.Gate.State != GateOpen {
		why = " (" + d.Gate.Why + ")"
	}
	msg := fmt.Sprintf("%s uses the definition of %q in %s (%s) instead%s", r.Tool.Name, s.Name, displayPath(w.Source.Path), w.Source.Layer.Label, why)
	diag := rules.Diagnostic{
		Span:     dm.Key.Span,
		Severity: rules.SeverityWarning,
		Code:     rules.CodeShadowedServer,
		Related: []rules.Related{{
			Path: w.Source.Path, Span: wm.Key.Span,
			Message: fmt.Sprintf("the definition %s uses", r.Tool.Name),
		}},
		Data: map[string]any{"server": s.Name, "tool": string(r.Tool.ID)},
	}
	if identical(dm.Value, wm.Value) {
		diag.Severity = rules.SeverityHint
		diag.Code = rules.CodeDuplicateServer
		diag.Tags = []rules.Tag{rules.TagUnnecessary}
		// Not safe: the file may be read by other tools, or from other
		// launch directories, that do not see the winning copy.
		diag.Data[rules.FixKey] = rules.Fix{Kind: rules.FixRemoveMember, Key: s.Name}
		msg = fmt.Sprintf("identical to the definition of %q in %s (%s), which %s uses: this copy can be removed", s.Name, displayPath(w.Source.Path), w.Source.Layer.Label, r.Tool.Name)
	} else if diff := differences(r.Tool.ID, dm.Value, wm.Value); diff != "" {
		msg += "; they differ in " + diff
	}
	diag.Message = msg + disabledNote(r, s)
	return diag
}

// disabledNote tells, when the winning definition turns the server off
// (Atomic TUI filters out an OpenCode entry with enabled: false after the
// merge), that the override leaves the tool without the server at all.
func disabledNote(r *Result, s *Server) string {
	if s.Enabled {
		return ""
	}
	return fmt.Sprintf("; the definition used says enabled: false, so %s starts no %q", r.Tool.Name, s.Name)
}

// mergedRefused reports a server the tool refuses as merged from its
// layers (Codex CLI validates after the merge, and stops), on the
// definition that counts most, naming the files merged.
func mergedRefused(r *Result, s *Server, displayPath func(string) string) (rules.Diagnostic, string) {
	d := s.Definitions[0]
	var rel []rules.Related
	for _, o := range s.Definitions[1:] {
		rel = append(rel, rules.Related{Path: o.Source.Path, Span: r.Member(o).Key.Span, Message: fmt.Sprintf("merged: %s (%s)", displayPath(o.Source.Path), o.Source.Layer.Label)})
	}
	what := "as written"
	if len(rel) > 0 {
		what = "as merged field by field with " + rel[0].Message[len("merged: "):]
		if len(rel) > 1 {
			what = fmt.Sprintf("as merged field by field with %d other definitions", len(rel))
		}
	}
	return rules.Diagnostic{
		Span:     r.Member(d).Key.Span,
		Severity: rules.SeverityError,
		Code:     rules.CodeMergedInvalid,
		Message:  fmt.Sprintf("%s refuses its whole configuration because of server %q %s: %s", r.Tool.Name, s.Name, what, why(s.Merged)),
		Related:  rel,
		Data:     map[string]any{"server": s.Name, "tool": string(r.Tool.ID)},
	}, d.Source.Path
}

// mergedTransport reports OpenCode's deep merge of a remote entry over a
// local one (or the reverse): the merged server has both command and url,
// and OpenCode does not complain.
func mergedTransport(r *Result, s *Server, displayPath func(string) string) (rules.Diagnostic, string, bool) {
	var cmd, url *Field
	for i := range s.Fields {
		switch s.Fields[i].Key {
		case "command":
			cmd = &s.Fields[i]
		case "url":
			url = &s.Fields[i]
		}
	}
	if cmd == nil || url == nil || cmd.From == url.From {
		return rules.Diagnostic{}, "", false
	}
	later := cmd
	if url.From.Source.Rank > cmd.From.Source.Rank {
		later = url
	}
	earlier := cmd
	if later == cmd {
		earlier = url
	}
	return rules.Diagnostic{
		Span:     r.Member(later.From).Key.Span,
		Severity: rules.SeverityWarning,
		Code:     rules.CodeMergedTransport,
		Message: fmt.Sprintf("%s merges this %q field by field into the one in %s: the result keeps its %q as well as this %q",
			r.Tool.Name, s.Name, displayPath(earlier.From.Source.Path), earlier.Key, later.Key),
		Related: []rules.Related{{Path: earlier.From.Source.Path, Span: r.FieldMember(*earlier).Key.Span, Message: "the field that is kept"}},
		Data:    map[string]any{"server": s.Name, "tool": string(r.Tool.ID)},
	}, later.From.Source.Path, true
}

func sameFile(a, b *Definition) bool { return a.Source.Path == b.Source.Path }

// identical compares two definitions as values (formatting, comments and
// key order do not matter).
func identical(a, b *jsonc.Node) bool {
	return fmt.Sprint(verdict.Decode(a)) == fmt.Sprint(verdict.Decode(b))
}

// differences names the transport-relevant fields that differ, the ones
// that make two definitions really conflict. Types are compared as the
// tool reads them: a missing type and "local" are the same to Copilot CLI.
func differences(tool registry.ToolID, a, b *jsonc.Node) string {
	av, _ := verdict.Decode(a).(map[string]any)
	bv, _ := verdict.Decode(b).(map[string]any)
	var diff []string
	if transport(tool, av) != transport(tool, bv) {
		diff = append(diff, "type")
	}
	for _, k := range []string{"command", "args", "url"} {
		if fmt.Sprint(av[k]) != fmt.Sprint(bv[k]) {
			diff = append(diff, k)
		}
	}
	slices.Sort(diff)
	return strings.Join(diff, ", ")
}

// transport is the transport a tool reads an entry as: aliases folded
// (local = stdio, streamable-http = http) and a missing type inferred the
// way the tool infers it (Claude Code: always stdio; others: http for a
// url without a command).
func transport(tool registry.ToolID, entry map[string]any) string {
	t, _ := entry["type"].(string)
	switch t {
	case "local":
		return "stdio"
	case "streamable-http":
		return "http"
	case "":
		_, hasURL := entry["url"]
		_, hasCmd := entry["command"]
		if hasURL && !hasCmd && tool != "claude-code" {
			return "http"
		}
		return "stdio"
	}
	return t
}
