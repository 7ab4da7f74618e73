package effective

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
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
	path    string
	file    *jsonc.File
	reader  *registry.Reader
	members []*jsonc.Member
	// whole says that members are one map's, every one, in the parse's
	// order (serverMembers).
	whole    bool
	verdicts []*verdict.Verdict
	// refusing are the places of the members whose verdict refuses the
	// whole file, in order.
	refusing []int32
	src      *Source       // nil: dropped
	defs     []*Definition // nil: dropped
}

// priorRead is a sourceRead as one computation consults it, with the
// place of each member read now among the members read then. The
// sourceRead itself is shared, read-only.
type priorRead struct {
	*sourceRead
	*matching
}

// matching maps the members read now to those read then (Shared.match).
type matching struct {
	// match is, for each member now, the place of the same entry then
	// (-1: none).
	match []int32
	// changed are the places now where the entry then was another one
	// (match[i] != i), in order.
	changed []int32
}

// aligned reports whether as many members are read now as then, each
// the same entry at the same place but those changed: an edit inside
// servers, none added, removed or moved.
func (sr *priorRead) aligned() bool {
	return sr != nil && len(sr.members) == len(sr.match)
}

// refusingNow returns the places of the refusing members now, of an
// aligned read whose changed members have their verdicts now.
func (sr *priorRead) refusingNow(verdicts []*verdict.Verdict) []int32 {
	var out []int32
	c := sr.changed
	for _, i := range sr.refusing {
		for len(c) > 0 && c[0] < i {
			if refuses(verdicts[c[0]]) {
				out = append(out, c[0])
			}
			c = c[1:]
		}
		if len(c) > 0 && c[0] == i {
			continue // changed: judged below
		}
		out = append(out, i)
	}
	for _, i := range c {
		if refuses(verdicts[i]) {
			out = append(out, i)
		}
	}
	return out
}

// refuses reports whether the verdict refuses the whole file.
func refuses(v *verdict.Verdict) bool {
	return v != nil && v.Outcome == verdict.RefusesFile
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
func (r *Result) sourceRead(path string, reader *registry.Reader, f *jsonc.File, members []*jsonc.Member, whole bool, shared *Shared) *priorRead {
	if r == nil {
		return nil
	}
	for _, sr := range r.read {
		if sr.path == path && sr.reader == reader {
			return &priorRead{sourceRead: sr, matching: shared.match(sr.file, sr.members, f, members, whole && sr.whole)}
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
	matches map[matchKey]*matching
}

type matchKey struct {
	before, now *jsonc.Member // the first members
	nb, nn      int
}

// match maps each of the members now (of the parse fn) to the index of
// the same entry among the members before (of fb): the same name and the
// same bytes, at the same place or, after an insertion or a removal, the
// same name. -1: none. whole says that both lists are one map's members,
// every one, as the parses list them: then the texts' common prefix and
// suffix tell which are the same without a look at most of them.
func (sh *Shared) match(fb *jsonc.File, before []*jsonc.Member, fn *jsonc.File, now []*jsonc.Member, whole bool) *matching {
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
	var res *matching
	if whole {
		res = matchByText(fb, before, fn, now)
	}
	if res == nil {
		res = matchMembers(fb, before, fn, now, 0, len(now), 0, len(before))
	}
	if key != (matchKey{}) {
		sh.mu.Lock()
		if sh.matches == nil {
			sh.matches = map[matchKey]*matching{}
		}
		sh.matches[key] = res
		sh.mu.Unlock()
	}
	return res
}

// matchByText matches the members of two parses of texts that differ in
// one stretch: every member now that ends (with the byte after it) in the
// texts' common prefix is the one at its place before, and every member
// from the first that starts in their common suffix is the one as many
// places from the end before. A parse is a function of the text: what
// precedes a member in the prefix is the same, and, the texts being
// without syntax errors (a file with any is not read), what follows the
// start of a member in the suffix parses alike too. The members at the
// two boundaries are checked; those between are compared (matchMembers).
// nil when the boundaries do not line up.
func matchByText(fb *jsonc.File, before []*jsonc.Member, fn *jsonc.File, now []*jsonc.Member) *matching {
	a, b := fb.Src, fn.Src
	p, s := span.CommonEnds(a, b)
	// The first member now that does not end before the prefix does.
	kp, _ := slices.BinarySearchFunc(now, p, func(m *jsonc.Member, p int) int {
		if m.Span.End < p {
			return -1
		}
		return 1
	})
	if kp > len(before) || kp > 0 && before[kp-1].Span != now[kp-1].Span {
		return nil
	}
	// The first member now that starts in the suffix.
	from := len(b) - s
	ks, _ := slices.BinarySearchFunc(now, from, func(m *jsonc.Member, from int) int {
		if m.Span.Start < from {
			return -1
		}
		return 1
	})
	ks = max(ks, kp)
	shift, delta := len(before)-len(now), len(a)-len(b)
	if js := ks + shift; js < kp || js > len(before) {
		return nil
	} else if ks < len(now) {
		if o, m := before[js], now[ks]; o.Span.Start != m.Span.Start+delta || o.Span.End != m.Span.End+delta {
			return nil
		}
	}
	res := matchMembers(fb, before, fn, now, kp, ks, kp, ks+shift)
	for i := range kp {
		res.match[i] = int32(i)
	}
	for i := ks; i < len(now); i++ {
		res.match[i] = int32(i + shift)
	}
	res.changed = res.changed[:0]
	for i, j := range res.match {
		if j != int32(i) {
			res.changed = append(res.changed, int32(i))
		}
	}
	return res
}

// matchMembers matches the members now[lo:hi] among before[blo:bhi]
// (Shared.match), the others -1; changed lists every i with match[i] !=
// i.
func matchMembers(fb *jsonc.File, before []*jsonc.Member, fn *jsonc.File, now []*jsonc.Member, lo, hi, blo, bhi int) *matching {
	out := make([]int32, len(now))
	for i := range out {
		out[i] = -1
	}
	var byName map[string]int32 // built on first use
	for i := lo; i < hi; i++ {
		m := now[i]
		if m.Key == nil {
			continue
		}
		j := int32(i)
		if i >= blo && i < bhi {
			// Most entries are where they were, written alike: the
			// members' own bytes say so, without a look at their nodes.
			o := before[i]
			if o == m || sameText(fb, o.Span, fn, m.Span) {
				out[i] = j
				continue
			}
			if o.Key != nil && o.Key.Str == m.Key.Str {
				if sameBytes(fb, o.Value, fn, m.Value) {
					out[i] = j
				}
				continue
			}
		}
		if byName == nil {
			byName = make(map[string]int32, bhi-blo)
			for k := blo; k < bhi; k++ {
				if o := before[k]; o.Key != nil {
					byName[o.Key.Str] = int32(k)
				}
			}
		}
		var ok bool
		if j, ok = byName[m.Key.Str]; !ok {
			continue
		}
		if o := before[j]; o == m || sameBytes(fb, o.Value, fn, m.Value) {
			out[i] = j
		}
	}
	res := &matching{match: out}
	for i, j := range out {
		if j != int32(i) {
			res.changed = append(res.changed, int32(i))
		}
	}
	return res
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

// sameText reports whether the text at a in fa is the text at b in fb. A
// member's span runs from its key to the end of its value: the same text
// is the same name and value.
func sameText(fa *jsonc.File, a span.Span, fb *jsonc.File, b span.Span) bool {
	return a.End-a.Start == b.End-b.Start && bytes.Equal(fa.Src[a.Start:a.End], fb.Src[b.Start:b.End])
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

func (s *slabs) server() *Server         { return next(&s.servers, &s.madeServers) }
func (s *slabs) definition() *Definition { return next(&s.defs, &s.madeDefs) }

// next takes the first element of *free, refilling it with a new chunk
// (sized by chunk from *made, which counts what was allocated) when empty.
func next[T any](free *[]T, made *int) *T {
	if len(*free) == 0 {
		*free = make([]T, chunk(*made))
		*made += len(*free)
	}
	x := &(*free)[0]
	*free = (*free)[1:]
	return x
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

// fileRead is a file a computation read, as it read it (nil: none).
type fileRead struct {
	path string
	file *jsonc.File
}

// gateFiles records the files the gates are read from (Input.Files
// through it).
type gateFiles struct {
	files func(string) *jsonc.File
	read  []fileRead
}

func (g *gateFiles) get(path string) *jsonc.File {
	f := g.files(path)
	if !slices.ContainsFunc(g.read, func(r fileRead) bool { return r.path == path }) {
		g.read = append(g.read, fileRead{path, f})
	}
	return f
}

// gatesStillRead reports whether every file r's gates were read from is
// the same parse now (the files are asked for again, so a caller that
// records what a computation reads sees them).
func (r *Result) gatesStillRead(in Input) bool {
	if r == nil {
		return false
	}
	same := true
	for _, g := range r.gateReads {
		if in.Files(g.path) != g.file {
			same = false
		}
	}
	return same
}

// sameServers returns the servers of defs when they are prev's defs
// (whose servers were before, one each, in order) but a few, none of which
// changes the order of the names: before's servers, but those of the
// changed definitions resolved again. nil, false when the names are not
// strictly increasing any more.
func sameServers(res *Result, c *verdict.Cache, slab *slabs, prev []*Definition, before []*Server, defs []*Definition, deep bool) ([]*Server, bool) {
	var changed []int
	for i, d := range defs {
		if d == prev[i] {
			continue
		}
		if i > 0 && defs[i-1].Name >= d.Name || i+1 < len(defs) && d.Name >= defs[i+1].Name {
			return nil, false
		}
		changed = append(changed, i)
	}
	out := slices.Clone(before)
	for _, i := range changed {
		var was *Server
		if before[i].Name == defs[i].Name {
			was = before[i]
		}
		out[i] = resolve(res, c, slab, was, defs[i].Name, defs[i:i+1:i+1], deep)
	}
	return out, true
}
