package rules

import (
	"bytes"
	"fmt"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Suppression: silencing one finding in one place.
//
// In a file that may hold comments (JSONC; TOML), a comment of its own
// line
//
//	// mcp-lsp-ignore <code> [reason]      (# in TOML)
//
// silences the findings of <code> that start on the next line (the next
// one that is not itself such a comment, so several stack). In a strict
// JSON file a comment is itself an error for the tools that read it, so
// there the project file .mcp-lsp.json lists what to ignore:
//
//	{"ignore": [{"path": ".mcp.json", "server": "x", "code": "literal-secret", "reason": "..."}]}
//
// (path relative to the project file; server optional). An ignore that
// silences nothing is reported (CodeUnusedIgnore), so stale ones surface.
//
// Both kinds are applied in one place, [Config.Suppress], to every finding
// of a file (its own and the cross-file ones), by the language server and
// by `mcp-lsp check` alike.

// CodeUnusedIgnore is an ignore comment or entry that silences nothing.
const CodeUnusedIgnore = "unused-ignore"

// ignoreDirective starts an ignore comment.
const ignoreDirective = "mcp-lsp-ignore"

// suppressRules are the rules of this file.
var suppressRules = []Rule{
	{CodeUnusedIgnore, SeverityHint, "An `mcp-lsp-ignore` comment, or an `ignore` entry of `.mcp-lsp.json`, that silences no finding (or names no rule): remove it.", reportedIn("Config.Suppress, over every finding of a file")},
}

// Ignore is one entry of the "ignore" list of the project file.
type Ignore struct {
	// Path is the file the entry is about, absolute and clean.
	Path string
	// Server limits the entry to one server's findings ("" for all).
	Server string
	Code   string
	Reason string
	// Source and Span locate the entry in the project file, for the
	// finding that reports it unused.
	Source string
	Span   span.Span
}

// SuppressInput is the file whose findings Suppress filters.
type SuppressInput struct {
	Path    string
	Content []byte
	Parsed  *jsonc.File
	Kind    *registry.FileKind
	// CrossFile is true when the findings include the cross-file ones:
	// otherwise an ignore of a cross-file rule may well be in use, and is
	// not reported.
	CrossFile bool
}

// ignoreComment is one mcp-lsp-ignore comment.
type ignoreComment struct {
	span span.Span // the comment
	code string
	line int // the line whose findings it silences (0-based)
	used bool
}

// Suppress removes the findings that an ignore comment in the file or an
// entry of c.Ignores silences, and adds a CodeUnusedIgnore finding for
// each ignore that silences nothing. The input is not modified.
func (c *Config) Suppress(in SuppressInput, ds []Diagnostic) []Diagnostic {
	comments := ignoreComments(in, ds)
	var entries []int
	for i, ig := range c.Ignores {
		if ig.Path == filepath.Clean(in.Path) {
			entries = append(entries, i)
		}
	}
	if len(comments) == 0 && len(entries) == 0 {
		return ds
	}
	lines := lineStarts(in.Content)
	used := make([]bool, len(c.Ignores))
	var servers []serverSpan
	if len(entries) > 0 && in.Parsed != nil {
		servers = serverSpans(in.Parsed, in.Kind)
	}
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		silenced := false
		line := lineOf(lines, d.Span.Start)
		for i := range comments {
			if comments[i].code == d.Code && comments[i].line == line {
				comments[i].used, silenced = true, true
			}
		}
		for _, i := range entries {
			ig := c.Ignores[i]
			if ig.Code == d.Code && (ig.Server == "" || ig.Server == serverOf(d, servers)) {
				used[i], silenced = true, true
			}
		}
		if !silenced || d.Code == CodeUnusedIgnore {
			out = append(out, d)
		}
	}
	var unused []Diagnostic
	for _, ic := range comments {
		if ic.used || !in.CrossFile && isCrossFileCode(ic.code) {
			continue
		}
		d := Diagnostic{Span: ic.span, Severity: SeverityHint, Code: CodeUnusedIgnore}
		if _, ok := RuleByCode(ic.code); !ok {
			d.Message = fmt.Sprintf("%s %s: there is no rule %q (see docs/rules.md)", ignoreDirective, ic.code, ic.code)
		} else {
			d.Message = fmt.Sprintf("%s %s silences nothing: no %s finding starts on the next line; remove the comment", ignoreDirective, ic.code, ic.code)
		}
		if in.Parsed != nil && slices.Contains(in.Parsed.Comments, ic.span) {
			d.Data = map[string]any{FixKey: Fix{Kind: FixRemoveText}}
		}
		unused = append(unused, d)
	}
	for _, i := range entries {
		ig := c.Ignores[i]
		if used[i] || !in.CrossFile && isCrossFileCode(ig.Code) {
			continue
		}
		what := ig.Code
		if ig.Server != "" {
			what += fmt.Sprintf(" for server %q", ig.Server)
		}
		d := Diagnostic{
			Severity: SeverityHint, Code: CodeUnusedIgnore,
			Message: fmt.Sprintf("%s ignores %s in this file, but there is no such finding; remove the entry", ProjectConfigName, what),
			Related: []Related{{Path: ig.Source, Span: ig.Span, Message: "the ignore entry"}},
		}
		if _, ok := RuleByCode(ig.Code); !ok {
			d.Message = fmt.Sprintf("%s ignores %q in this file, which is no rule (see docs/rules.md)", ProjectConfigName, ig.Code)
		}
		if s, ok := serverNamed(servers, ig.Server); ok {
			d.Span = s.key
		}
		unused = append(unused, d)
	}
	if len(unused) == 0 {
		return out
	}
	out = append(out, c.apply(unused)...)
	SortDiagnostics(out)
	return out
}

// mayHoldDirective says cheaply whether the file can hold an ignore
// comment. In JSON(C) a directive counts only inside a comment the parser
// found, so only the comments are searched: a tool's state file of tens of
// megabytes (~/.claude.json, strict JSON, no comments) is re-diagnosed on
// every edit of another file and must not be scanned whole each time.
func mayHoldDirective(in SuppressInput, toml bool) bool {
	if toml || in.Parsed == nil {
		return bytes.Contains(in.Content, []byte(ignoreDirective))
	}
	for _, c := range in.Parsed.Comments {
		if c.Start >= 0 && c.End <= len(in.Content) && bytes.Contains(in.Content[c.Start:c.End], []byte(ignoreDirective)) {
			return true
		}
	}
	return false
}

// ignoreComments finds the mcp-lsp-ignore comments of the file: each on
// a line of its own, in a file where a comment is not itself a finding.
func ignoreComments(in SuppressInput, ds []Diagnostic) []ignoreComment {
	toml := strings.EqualFold(filepath.Ext(in.Path), ".toml")
	if !mayHoldDirective(in, toml) {
		return nil
	}
	lines := lineStarts(in.Content)
	// A comment-only line: the text of the comment, or false.
	commentLine := func(i int) (span.Span, string, bool) {
		start, end := lines[i], len(in.Content)
		if i+1 < len(lines) {
			end = lines[i+1]
		}
		text := in.Content[start:end]
		trimmed := bytes.TrimLeft(text, " \t")
		at := start + len(text) - len(trimmed)
		trimmed = bytes.TrimRight(trimmed, " \t\r\n")
		var body []byte
		switch {
		case toml && bytes.HasPrefix(trimmed, []byte("#")):
			body = trimmed[1:]
		case !toml && bytes.HasPrefix(trimmed, []byte("//")):
			body = trimmed[2:]
		case !toml && bytes.HasPrefix(trimmed, []byte("/*")) && bytes.HasSuffix(trimmed, []byte("*/")) && len(trimmed) >= 4:
			body = trimmed[2 : len(trimmed)-2]
		default:
			return span.Span{}, "", false
		}
		sp := span.New(at, at+len(trimmed))
		if !toml && (in.Parsed == nil || !slices.Contains(in.Parsed.Comments, sp)) {
			return span.Span{}, "", false // inside a string, or not one comment
		}
		return sp, strings.TrimSpace(string(body)), true
	}
	var out []ignoreComment
	for i := range lines {
		sp, body, ok := commentLine(i)
		if !ok {
			continue
		}
		rest, ok := strings.CutPrefix(body, ignoreDirective)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		// A comment that is itself an error (strict JSON) silences
		// nothing: the tools reading the file refuse it.
		if slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Code == CodeCommentInJSON && d.Span == sp }) {
			continue
		}
		target := i + 1
		for target < len(lines) {
			if _, b, ok := commentLine(target); ok && strings.HasPrefix(b, ignoreDirective) {
				target++
				continue
			}
			break
		}
		out = append(out, ignoreComment{span: sp, code: fields[0], line: target})
	}
	return out
}

// isCrossFileCode reports whether code is one of package effective's.
func isCrossFileCode(code string) bool {
	return slices.ContainsFunc(crossFileRules, func(r Rule) bool { return r.Code == code })
}

// serverSpan is one server entry of the file: its name and where its
// member (key to end of value) and key are.
type serverSpan struct {
	name   string
	member span.Span
	key    span.Span
}

// serverSpans lists every server entry of every reader's server maps,
// duplicates included (an ignore may be about the ignored copy).
func serverSpans(f *jsonc.File, kind *registry.FileKind) []serverSpan {
	if kind == nil {
		return nil
	}
	var out []serverSpan
	for i := range kind.Readers {
		for _, sm := range FindServerMaps(f, &kind.Readers[i]) {
			if sm.Node == nil || sm.Node.Kind != jsonc.Object {
				continue
			}
			for _, m := range sm.Node.Members() {
				if m.Key == nil || m.Value == nil {
					continue
				}
				name, _ := verdict.Decode(m.Key).(string)
				out = append(out, serverSpan{name: name, member: span.New(m.Key.Span.Start, m.Value.Span.End), key: m.Key.Span})
			}
		}
	}
	return out
}

// serverOf names the server a finding is about: the one its Data names,
// else the entry its start lies in.
func serverOf(d Diagnostic, servers []serverSpan) string {
	if s, ok := d.Data["server"].(string); ok && s != "" {
		return s
	}
	for _, s := range servers {
		if s.member.Start <= d.Span.Start && d.Span.Start < s.member.End {
			return s.name
		}
	}
	return ""
}

func serverNamed(servers []serverSpan, name string) (serverSpan, bool) {
	if name == "" {
		return serverSpan{}, false
	}
	for _, s := range servers {
		if s.name == name {
			return s, true
		}
	}
	return serverSpan{}, false
}

// lineStarts returns the offset of each line of src.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the index of the line holding off.
func lineOf(starts []int, off int) int {
	i, _ := slices.BinarySearch(starts, off+1)
	return max(i-1, 0)
}
