package rules

import (
	"bytes"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The per-server semantic rules (names, transports, keys, secrets,
// interpolation) depend on nothing but:
//
//   - the server's member text, name included ("name": {...}): a JSON value
//     is context-free, so the same bytes give the same subtree, and the
//     rules never look above the entry (no Parent, no Path);
//   - the readers of its server map, by tool and dialect (Config.Tools is
//     already applied to them), and the registry that describes their tools;
//   - for VS Code readers, the ids the file's "inputs" declares.
//
// They read neither the path, nor the Config, nor the Resolver. The one
// per-server rule that does, command-not-found, runs outside the memo on
// what the memo remembers of the entry (which readers start it as a local
// process, whether it sets cwd). An edit changes one entry of a large
// file, so the findings of the others are memoised by text, as the schema
// verdicts are (schema_memo.go, which explains why this state is
// acceptable in an otherwise pure package: a hit returns exactly what the
// rules would, spans re-based, Data shared read-only; no I/O, no
// goroutines, bounded, mutex-guarded).
//
// Entries near a syntax error bypass the memo: there the parser's error
// recovery and its suppression of consequential errors depend on what
// precedes the entry, so the same bytes need not give the same tree.

// entryMemoKey is everything outside an entry's text that the memoised
// findings depend on. The registry pointer keeps the registry alive while
// cached, so it cannot be confused with a later one at the same address.
type entryMemoKey struct {
	reg *registry.Registry
	ctx string // the readers (tool, dialect) and, for VS Code, the input ids
}

// semMemoResult is what the memo keeps of one entry.
type semMemoResult struct {
	ds []Diagnostic // spans relative to the member's start; Data never handed out
	// stdio has bit i set when reader i reads the entry as a local
	// (stdio) server: the readers command-not-found speaks for.
	stdio uint64
	cwd   bool // the definition sets "cwd"
}

// appendReaderKey appends the identity of reader r as the memoised rules
// see it: what its verdicts depend on (verdict.AppendReaderKey).
func appendReaderKey(b []byte, r *registry.Reader) []byte { return verdict.AppendReaderKey(b, r) }

// appendKeyString appends s to a memo key, length first, so that no two
// lists of strings give the same key.
func appendKeyString(b []byte, s string) []byte { return verdict.AppendKeyString(b, s) }

// memoKey is the key of a server map's entries. ok is false when the
// memo cannot be used for this run at all.
func (c *semantic) memoKey(g *semMap) (entryMemoKey, bool) {
	if len(g.readers) > 64 || !bytes.Equal(c.in.Content, c.f.Src) {
		// More readers than stdio has bits, or spans that would be mapped
		// through other text than the parse's (refSpan reads Content).
		return entryMemoKey{}, false
	}
	var b []byte
	vscode := false
	for _, r := range g.readers {
		b = appendReaderKey(b, r)
		vscode = vscode || r.Dialect == "vscode"
	}
	if vscode {
		b = append(b, '|')
		for _, id := range c.inputIDs() {
			b = appendKeyString(b, id)
		}
	}
	return entryMemoKey{reg: c.in.Registry, ctx: string(b)}, true
}

// server runs every per-server rule on the server m of g (the last member
// with its name), through the memo when it can.
func (c *semantic) server(m *jsonc.Member, g *semMap, k entryMemoKey, memo bool) {
	c.stored = nil
	typing := c.syntaxErrorIn(m.Value.Span)
	if !memo || typing || !memoSafe(c.f, c.in.index, m) {
		c.serverRules(c.newSemEntry(Server{Name: m.Key.Str, Map: g.sm, Member: m}, g.readers, typing, memo))
		return
	}
	at := m.Span.Start
	text := c.f.Src[at:m.Span.End]
	r, ok := c.in.Cache.sem.Get(k, text)
	var s *Server // the same for the entry's rules and the machine's
	var e *semEntry
	if ok {
		for _, d := range r.ds {
			c.add(rebase(d, at))
		}
	} else {
		e = c.newSemEntry(Server{Name: m.Key.Str, Map: g.sm, Member: m}, g.readers, false, true)
		s = e.s
		before := len(c.ds)
		c.entryRules(e)
		r = &semMemoResult{cwd: e.has("cwd")}
		for i := range e.defs {
			if semTransportOf(e.defs[i]) == semStdio {
				r.stdio |= 1 << i
			}
		}
		r.ds = memoDiagnostics(c.ds[before:], at)
		c.in.Cache.sem.Put(k, text, r)
	}
	c.stored = r.ds
	if c.stored == nil {
		c.stored = []Diagnostic{}
	}
	if c.in.Resolver != nil && r.stdio != 0 {
		var starters []*registry.Reader
		for i, rd := range g.readers {
			if r.stdio&(1<<i) != 0 {
				starters = append(starters, rd)
			}
		}
		if s == nil {
			s = &Server{Name: m.Key.Str, Map: g.sm, Member: m}
		}
		c.machineRules(s, starters, r.cwd)
	}
	if e != nil {
		// Nothing the rules made holds e (findings copy what they
		// quote): the next server's entry reuses it.
		c.spare = e
	}
}

// memoSafe reports whether the findings on member m of f may come from a
// memo keyed by its text: no syntax error on any line the member touches
// (an error's recovery, or the suppression of its consequences, may reach
// into the entry), and a value that is closed. Beyond MaxErrors errors are
// no longer reported at all, so nothing is safe.
func memoSafe(f *jsonc.File, x *parseIndex, m *jsonc.Member) bool {
	if v := m.Value; (v.Kind == jsonc.Object || v.Kind == jsonc.Array) && !v.Closed {
		return false
	}
	switch {
	case len(f.Errors) == 0:
		return true
	case len(f.Errors) > jsonc.MaxErrors:
		return false
	}
	// The first error line ending at or after the member's start must
	// start after its end (a line ends with its line break).
	lines := x.errorLines(f)
	i, _ := slices.BinarySearchFunc(lines, m.Span.Start, func(l span.Span, at int) int { return l.End - at })
	return i == len(lines) || lines[i].Start > m.Span.End
}

// memoDiagnostics is what a memo keeps of ds, findings on an entry
// starting at offset at: spans relative to it. Data and Tags are shared
// with ds, as rebase shares them on every hit: a finding's Data is
// read-only once made (Diagnostic.Data), and copying it for the memo was
// a twentieth of the allocations of a file's first analysis. nil for
// none.
func memoDiagnostics(ds []Diagnostic, at int) []Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = rebase(d, -at)
	}
	return out
}

// rebase returns d moved by delta bytes. Its Data and Tags are shared
// with the memo, as every finding's are with whoever else holds it
// (Diagnostic.Data is read-only); only Related, whose spans move, is a
// copy. A hit on a 1,000-server file re-bases about 1,300 findings per
// edit: a copy of each one's Data was a tenth of the edit's CPU.
func rebase(d Diagnostic, delta int) Diagnostic {
	d.Span = span.New(d.Span.Start+delta, d.Span.End+delta)
	if slices.ContainsFunc(d.Related, func(r Related) bool { return r.Path == "" }) {
		rel := slices.Clone(d.Related)
		for i := range rel {
			if rel[i].Path == "" {
				rel[i].Span = span.New(rel[i].Span.Start+delta, rel[i].Span.End+delta)
			}
		}
		d.Related = rel
	}
	return d
}
