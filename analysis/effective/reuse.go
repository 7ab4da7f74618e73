package effective

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Reuse across computations (Input.Prev). An edit inside one server of a
// 1,000-server .mcp.json computes the effective configuration of every
// tool that reads it again; all but one of its entries are the same bytes
// at other offsets. Compute takes from the previous result, per source:
//
//   - an entry's verdict, where the entry at the same place (or, after an
//     insertion, of the same name) has the same name and bytes under the
//     same reader: a verdict is a function of those (verdict.Cache), and
//     its spans are relative to the entry, so nothing needs rebasing;
//   - a definition, where it is the same member of the same parse, with
//     the same source, gate and verdict;
//   - a server, where its definitions are the same ones; else resolve
//     takes the winner's merged fields from the previous server of that
//     name when its winner had the same verdict in the same layer.
//
// Everything else (gates, switches, preferred files, trust) is read again
// from the files, so a change of any of them counts; a definition whose
// member moved is a new one, pointing into the new parse, which is how
// its spans are rebased. Nothing shared is modified: a result that must
// rewrite its definitions (a stopped or refused configuration) copies
// them, and is not offered for reuse.

// sourceRead is what a computation read of one file it took servers
// from: the parse, the reader, the members it read, their verdicts, and,
// when it did not drop the file for them, its source and the definition
// of each member.
type sourceRead struct {
	path     string
	file     *jsonc.File
	reader   *registry.Reader
	members  []*jsonc.Member
	verdicts []*verdict.Verdict
	src      *Source       // nil: dropped
	defs     []*Definition // nil: dropped
}

// priorRead is a sourceRead as one computation consults it, with the
// place of each member read now among the members read then (match).
// The sourceRead itself is shared, read-only.
type priorRead struct {
	*sourceRead
	match []int32
}

// reusable returns in.Prev when it can serve the computation: the same
// tool launched in the same place with the same environment and
// workspace folders, over the same registry and verdict cache, and not
// rewritten after the fact.
func reusable(in Input) *Result {
	p := in.Prev
	if p == nil || p.Tool != in.Tool || p.LaunchDir != in.LaunchDir || p.GitRoot != in.GitRoot ||
		p.registry != in.Registry || p.verdicts != in.Verdicts || p.stopped ||
		p.env != in.Env || !slices.Equal(p.folders, in.Folders) {
		return nil
	}
	return p
}

// sourceRead returns what r read of the file f at path with the same
// reader, as members now reads it; nil if nothing.
func (r *Result) sourceRead(path string, reader *registry.Reader, f *jsonc.File, members []*jsonc.Member, shared *Shared) *priorRead {
	if r == nil {
		return nil
	}
	for _, sr := range r.read {
		if sr.path == path && sr.reader == reader {
			return &priorRead{sourceRead: sr, match: shared.match(sr.file, sr.members, f, members)}
		}
	}
	return nil
}

// verdict is the earlier verdict on the i-th member read, nil if there
// is none to reuse.
func (sr *priorRead) verdict(i int) *verdict.Verdict {
	if sr == nil || sr.match[i] < 0 {
		return nil
	}
	return sr.verdicts[sr.match[i]]
}

// Shared is what the computations of several tools over one set of files
// (one snapshot) have in common: which entries of a file are the same as
// in the parse the previous results read. Every tool reading a
// 1,000-server .mcp.json compares the same entries otherwise. Safe for
// concurrent use; a nil *Shared shares nothing.
type Shared struct {
	mu      sync.Mutex
	matches map[matchKey][]int32
}

type matchKey struct {
	before, now *jsonc.Member // the first members
	nb, nn      int
}

// match maps each of the members now (of the parse fn) to the index of
// the same entry among the members before (of fb): the same name and the
// same bytes, at the same place or, after an insertion or a removal, the
// same name. -1: none.
func (sh *Shared) match(fb *jsonc.File, before []*jsonc.Member, fn *jsonc.File, now []*jsonc.Member) []int32 {
	var key matchKey
	if sh != nil && len(before) > 0 && len(now) > 0 {
		key = matchKey{before[0], now[0], len(before), len(now)}
		sh.mu.Lock()
		m, ok := sh.matches[key]
		sh.mu.Unlock()
		if ok {
			return m
		}
	}
	out := make([]int32, len(now))
	var byName map[string]int32 // built on first use
	for i, m := range now {
		out[i] = -1
		if m.Key == nil {
			continue
		}
		j := int32(i)
		if i >= len(before) || before[i].Key.Str != m.Key.Str {
			if byName == nil {
				byName = make(map[string]int32, len(before))
				for k, o := range before {
					byName[o.Key.Str] = int32(k)
				}
			}
			var ok bool
			if j, ok = byName[m.Key.Str]; !ok {
				continue
			}
		}
		if o := before[j]; o == m || sameBytes(fb, o.Value, fn, m.Value) {
			out[i] = j
		}
	}
	if key != (matchKey{}) {
		sh.mu.Lock()
		if sh.matches == nil {
			sh.matches = map[matchKey][]int32{}
		}
		sh.matches[key] = out
		sh.mu.Unlock()
	}
	return out
}

// definition is the earlier definition of the i-th member read, nil
// unless that member was the i-th then too, with the same name and bytes:
// a definition says where its member is by that place (Definition.at), so
// it holds in the new parse, wherever the entry moved.
func (sr *priorRead) definition(i int) *Definition {
	if sr == nil || i >= len(sr.defs) || sr.match[i] != int32(i) {
		return nil
	}
	return sr.defs[i]
}

// Member returns the member of the definition d as r read it: Key is the
// server's name, Value its definition, at their places in the parse r
// read. d is one of r's definitions (of its Servers, or one they hold).
func (r *Result) Member(d *Definition) *jsonc.Member {
	for _, sr := range r.read {
		if sr.src == d.Source {
			return sr.members[d.at]
		}
	}
	panic("effective: a definition of another result")
}

// FieldMember returns the member of the field f of one of r's servers.
func (r *Result) FieldMember(f Field) *jsonc.Member {
	return r.Member(f.From).Value.Members()[f.at]
}

// FieldsOf lists the fields of one definition of r alone (for a server
// that is not started, to show what it would be), sorted by key, the last
// of a repeated key counting.
func (r *Result) FieldsOf(d *Definition) []Field {
	v := r.Member(d).Value
	if v == nil || v.Kind != jsonc.Object {
		return nil
	}
	var out []Field
	for i, f := range v.Members() {
		if f.Key != nil && v.Get(f.Key.Str) == f {
			out = append(out, Field{Key: f.Key.Str, From: d, at: int32(i)})
		}
	}
	slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// sameBytes reports whether the values a of fa and b of fb are written
// alike.
func sameBytes(fa *jsonc.File, a *jsonc.Node, fb *jsonc.File, b *jsonc.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if fa == fb && a == b {
		return true
	}
	return bytes.Equal(fa.Src[a.Span.Start:a.Span.End], fb.Src[b.Span.Start:b.Span.End])
}

// sameSource reports whether two sources say the same.
func sameSource(a, b *Source) bool {
	return a.Path == b.Path && a.Layer == b.Layer && a.Rank == b.Rank && a.Dropped == b.Dropped && a.Own == b.Own &&
		a.Preferred == b.Preferred && a.Top == b.Top && a.Interpolation == b.Interpolation
}

// slabs allocates a computation's definitions, servers and fields in
// chunks: one allocation per chunk, not per server. Chunks double from
// a few up to slabChunk: the first analysis of a file makes thousands,
// an edit that reuses the others' a handful.
type slabs struct {
	servers []Server
	defs    []Definition
	spare   []Field
	// made counts the servers and definitions allocated so far.
	madeServers, madeDefs int
}

const slabChunk = 256

// chunk is the size of the next chunk after made items.
func chunk(made int) int { return min(slabChunk, max(4, made)) }

func (s *slabs) server() *Server {
	if len(s.servers) == 0 {
		s.servers = make([]Server, chunk(s.madeServers))
		s.madeServers += len(s.servers)
	}
	srv := &s.servers[0]
	s.servers = s.servers[1:]
	return srv
}

func (s *slabs) definition() *Definition {
	if len(s.defs) == 0 {
		s.defs = make([]Definition, chunk(s.madeDefs))
		s.madeDefs += len(s.defs)
	}
	d := &s.defs[0]
	s.defs = s.defs[1:]
	return d
}

// fields returns a slice of n fields; appending to it never writes into
// another's.
func (s *slabs) fields(n int) []Field {
	if n > slabChunk/4 {
		return make([]Field, n)
	}
	if len(s.spare) < n {
		s.spare = make([]Field, max(n, chunk(s.madeServers)))
	}
	out := s.spare[:n:n]
	s.spare = s.spare[n:]
	return out
}
