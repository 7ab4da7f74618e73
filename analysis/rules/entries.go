package rules

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"slices"
	"strconv"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// An edit of a large file changes one server. analyzeByEntry makes
// AnalyzeFile cost what that server costs, plus a pass over the others
// that reads nothing but their bytes: each server's findings (the project
// rules', the schema's, the semantic rules' and command-not-found's), once
// merged and sorted, are kept per file (fileMemo) under a hash of the
// server's member text, spans relative to its start, and re-based to its
// new offset. The file-level rules (syntax, missing or misplaced server
// maps, inputs, files a tool does not read) run on every analysis, and
// the two lists are merged as AnalyzeFile's one sort would order them.
//
// A server's findings depend on its text and on what the file memo's key
// holds (the registry, the path, the readers, the Windows settings,
// whether a Resolver is given, VS Code's input ids); on which of the file's
// readers read its map, and whether it is the last with its name (the
// entry's key); and on the machine: the command lookups it asked for,
// which are asked again of the Resolver on every analysis (once per
// distinct question) and must get the same answers, else the server is
// judged again. A server near a syntax error is judged on every analysis,
// as by the per-entry memos (memoSafe).
//
// Where the merge cannot reproduce the whole-file order exactly (a server
// map inside another, a finding outside its server, two equal findings of
// the same phase from both lists) AnalyzeFile falls back to analyzeWhole;
// TestByEntrySameAsWhole compares the two on every test file.

// Phases: the order in which analyzeWhole appends findings, which breaks
// ties of its stable sort: each file check in the order of fileChecks (the
// project rules' servers before their file-level finding, the schema's
// file-level findings before its servers), then checkSemantics' file
// checks, then its servers.
var (
	phaseOfCheck  = map[*Check]uint8{}
	phaseProject  uint8 // the project rules' per-server findings
	phaseApprove  uint8 // approveAllProjectServers
	phaseSchemaF  uint8 // missing and bad maps, inputs that are not objects
	phaseSchema   uint8 // the schema's subjects: servers and VS Code's inputs
	phaseSemFile  uint8 // semChecks
	phaseSemEntry uint8 // each server's semantic and machine findings
)

// phaseGeneric marks, in a stored phase, a finding of a generic code
// (genericCodes), so that assembling needs no map lookup to know.
const phaseGeneric = 0x80

func init() {
	p := uint8(0)
	for _, k := range fileChecks {
		switch k {
		case projectRulesCheck:
			phaseProject, phaseApprove = p, p+1
			p += 2
		case schemaValidation:
			phaseSchemaF, phaseSchema = p, p+1
			p += 2
		default:
			phaseOfCheck[k] = p
			p++
		}
	}
	phaseSemFile, phaseSemEntry = p, p+1
	if !(phaseProject < phaseSchema && phaseSchema < phaseSemEntry) || p+1 >= phaseGeneric {
		panic("rules: a server's findings are merged as project, schema, semantic (analyzeByEntry)")
	}
}

// fileMemo keeps one file's per-server findings (see analyzeByEntry), in
// one context: Cache.fileMemo's key.
type fileMemo struct {
	mu sync.Mutex
	// maps are the descriptions of the server maps seen (mapDescription);
	// an entry's key holds the index of its map's.
	maps    []string
	entries map[entryKey]*entryFindings
	run     uint64 // analyses made, for sweeping entries no longer used
	used    uint64 // the Cache's clock at the last analysis, for eviction
	// keys and found are the last analysis' servers in file order: an
	// edit inside a server leaves the others where they were in this
	// list, found without a map lookup.
	keys  []entryKey
	found []*entryFindings
}

// entryKey is what a server's findings are kept under in its file memo:
// besides the member's text (hashed here, compared on a hit), which map
// it is in and whether it is the last member with its name.
type entryKey struct {
	hash uint64
	mp   uint16
	last bool
}

// entryFindings are one server's findings: AnalyzeFile's findings on it,
// generic ones dropped and sorted as AnalyzeFile drops and sorts them,
// before any severity override, spans relative to the member's start.
// Read-only once made.
type entryFindings struct {
	text    string // the member's text
	ds      []Diagnostic
	phases  []uint8 // parallel to ds, phaseGeneric set on generic codes
	queries []machineQuestion
	run     uint64 // the file memo's run that used it last
}

// machineQuestion is one question asked of the Resolver, with its answer.
type machineQuestion struct {
	file   bool // FileExists(a); else LookPath(a, b)
	a, b   string
	answer bool
}

type machineKey struct {
	file bool
	a, b string
}

// machineAnswers asks the Resolver each distinct question once per
// analysis: a 1,000-server file asks a thousand times where npx is.
type machineAnswers struct {
	r    Resolver
	seen map[machineKey]bool
	// last is the last question, answered lastAnswer: most servers of a
	// large file ask the one question their neighbour asked.
	last       machineKey
	lastAnswer bool
	// lastSame is the list of questions same found answered as before.
	lastSame *machineQuestion
}

func (m *machineAnswers) answer(file bool, a, b string) bool {
	k := machineKey{file, a, b}
	if m.seen != nil && k == m.last {
		return m.lastAnswer
	}
	if ans, ok := m.seen[k]; ok {
		m.last, m.lastAnswer = k, ans
		return ans
	}
	var ans bool
	if file {
		ans = m.r.FileExists(a)
	} else {
		ans = m.r.LookPath(a, b)
	}
	if m.seen == nil {
		m.seen = map[machineKey]bool{}
	}
	m.seen[k] = ans
	m.last, m.lastAnswer = k, ans
	return ans
}

// same reports whether the Resolver answers qs as it did.
func (m *machineAnswers) same(qs []machineQuestion) bool {
	if len(qs) == 0 {
		return true
	}
	if &qs[0] == m.lastSame {
		return true // the servers judged together share their questions (judgeServers)
	}
	for _, q := range qs {
		if m.answer(q.file, q.a, q.b) != q.answer {
			return false
		}
	}
	m.lastSame = &qs[0]
	return true
}

// machineLog is the Resolver of one server's rules: it answers through
// the analysis' machineAnswers and records the questions.
type machineLog struct {
	answers *machineAnswers
	qs      []machineQuestion
}

func (l *machineLog) LookPath(command, dir string) bool {
	ans := l.answers.answer(false, command, dir)
	l.qs = append(l.qs, machineQuestion{a: command, b: dir, answer: ans})
	return ans
}

func (l *machineLog) FileExists(path string) bool {
	ans := l.answers.answer(true, path, "")
	l.qs = append(l.qs, machineQuestion{file: true, a: path, answer: ans})
	return ans
}

// maxFileMemos bounds the files whose servers' findings a Cache keeps:
// the least recently analysed is dropped first.
const maxFileMemos = 64

type fileMemoKey struct {
	reg *registry.Registry
	ctx string
}

// fileMemo returns the memo of the file in ctx, made if there is none.
func (c *Cache) fileMemo(reg *registry.Registry, ctx string) *fileMemo {
	c.filesMu.Lock()
	defer c.filesMu.Unlock()
	c.clock++
	k := fileMemoKey{reg, ctx}
	if m, ok := c.files[k]; ok {
		m.used = c.clock
		return m
	}
	if len(c.files) >= maxFileMemos {
		var oldest fileMemoKey
		at := ^uint64(0)
		for k, m := range c.files {
			if m.used < at {
				oldest, at = k, m.used
			}
		}
		delete(c.files, oldest)
	}
	if c.files == nil {
		c.files = map[fileMemoKey]*fileMemo{}
	}
	m := &fileMemo{entries: map[entryKey]*entryFindings{}, used: c.clock}
	c.files[k] = m
	return m
}

// entryMap is one server map of the file, as analyzeByEntry walks it.
type entryMap struct {
	node *jsonc.Node
	proj bool    // the project rules read it
	sem  *semMap // its readers for the schema and semantic rules; nil: none
	last map[string]*jsonc.Member
	desc uint16 // its description's index in the file memo
	key  entryMemoKey
	memo bool // the semantic memo may be used (semantic.memoKey)
}

// entryUnit is one server of the file in one analysis.
type entryUnit struct {
	m              *jsonc.Member
	mp             *entryMap
	proj, sem, sch bool // which rules look at it
	last           bool
	safe           bool // its findings may come from and go to the memo
	key            entryKey
	found          *entryFindings
	// fresh are the findings judged in this analysis, spans absolute
	// (nil when found comes from the memo).
	fresh []Diagnostic
}

var entrySeed = maphash.MakeSeed()

// analyzeByEntry is AnalyzeFile for in, with each server's findings from
// the session's file memo where they still hold. ok is false when it
// cannot give exactly what analyzeWhole would.
func analyzeByEntry(in FileInput) (_ []Diagnostic, ok bool) {
	f := in.Parsed
	if in.Kind == nil || f.Root == nil || f.Root.Kind != jsonc.Object || len(in.Kind.Readers) > 64 || !sameText(in.Content, f.Src) {
		return nil, false
	}
	sem := newSemantic(in)
	maps, ok := entryMaps(in, sem)
	if !ok {
		return nil, false
	}

	// The file-level findings, in phase order.
	var file []Diagnostic
	var filePh []uint8
	add := func(ph uint8, ds []Diagnostic) {
		for range ds {
			filePh = append(filePh, ph)
		}
		file = append(file, ds...)
	}
	for _, k := range fileChecks {
		switch k {
		case projectRulesCheck:
			add(phaseApprove, approveAllProjectServers(in))
		case schemaValidation:
			if c := newSchemaCheck(in, false); c != nil {
				add(phaseSchemaF, c.fileDiagnostics())
				for _, s := range c.subjects { // VS Code's inputs
					add(phaseSchema, c.subjectDiagnostics(s))
				}
			}
		default:
			add(phaseOfCheck[k], k.file(in))
		}
	}
	for _, k := range semChecks {
		k.sem(sem)
	}
	add(phaseSemFile, sem.ds)
	sem.ds = nil

	memo := in.Cache.fileMemo(in.Registry, fileMemoContext(in, sem))
	units := entryUnits(in, memo, maps)
	answers := &machineAnswers{r: in.Resolver}
	memo.mu.Lock()
	memo.run++
	run := memo.run
	for i := range units {
		if u := &units[i]; u.safe {
			text := f.Src[u.m.Span.Start:u.m.Span.End]
			var e *entryFindings
			if i < len(memo.keys) && memo.keys[i] == u.key {
				e = memo.found[i]
			} else {
				e = memo.entries[u.key]
			}
			if e != nil && e.text == string(text) {
				u.found = e
				e.run = run
			}
		}
	}
	memo.mu.Unlock()
	var misses []int
	for i := range units {
		if u := &units[i]; u.found != nil && !answers.same(u.found.queries) {
			u.found = nil
		}
		if units[i].found == nil {
			misses = append(misses, i)
		}
	}
	if len(misses) > 0 {
		judgeEntries(in, sem, maps, units, misses, answers)
		in.Cache.filesMu.Lock()
		in.Cache.judged += len(misses)
		in.Cache.filesMu.Unlock()
	}
	memo.mu.Lock()
	for _, i := range misses {
		if u := &units[i]; u.safe {
			u.found.run = run
			memo.entries[u.key] = u.found
		}
	}
	if len(memo.entries) > 2*len(units)+64 {
		for k, e := range memo.entries {
			if e.run != run {
				delete(memo.entries, k)
			}
		}
	}
	if len(memo.keys) != len(units) {
		memo.keys, memo.found = make([]entryKey, len(units)), make([]*entryFindings, len(units))
	}
	for i := range units {
		if u := &units[i]; u.safe {
			memo.keys[i], memo.found[i] = u.key, u.found
		} else {
			memo.keys[i], memo.found[i] = entryKey{}, nil
		}
	}
	memo.mu.Unlock()
	return assemble(in, file, filePh, units)
}

// sameText reports whether a and b hold the same bytes, without comparing
// them when they are the same memory.
func sameText(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b)
}

// entryMaps returns the file's server maps that some rule looks into, in
// file order; ok is false when one lies inside another.
func entryMaps(in FileInput, sem *semantic) (_ []*entryMap, ok bool) {
	var maps []*entryMap
	find := func(n *jsonc.Node) *entryMap {
		for _, mp := range maps {
			if mp.node == n {
				return mp
			}
		}
		mp := &entryMap{node: n}
		maps = append(maps, mp)
		return mp
	}
	for i := range in.Kind.Readers {
		for _, sm := range FindServerMaps(in.Parsed, &in.Kind.Readers[i]) {
			if sm.Node != nil && sm.Node.Kind == jsonc.Object {
				find(sm.Node).proj = true
			}
		}
	}
	if !slices.Contains(fileChecks, projectRulesCheck) {
		maps = nil
	}
	for _, g := range sem.groups {
		mp := find(g.sm.Node)
		mp.sem = g
		if len(g.readers) > 64 {
			return nil, false
		}
		mp.key, mp.memo = sem.memoKey(g)
	}
	slices.SortFunc(maps, func(a, b *entryMap) int { return cmp.Compare(a.node.Span.Start, b.node.Span.Start) })
	for i := 1; i < len(maps); i++ {
		if maps[i].node.Span.Start < maps[i-1].node.Span.End {
			return nil, false
		}
	}
	for _, mp := range maps {
		mp.last = in.index.lastByKey(mp.node)
	}
	return maps, true
}

// mapDescription says who reads a server map: the project rules or not,
// and which of the file's readers (by index) for the other rules.
func mapDescription(in FileInput, mp *entryMap) string {
	b := []byte{'-'}
	if mp.proj {
		b[0] = 'p'
	}
	if mp.sem != nil {
		for _, r := range mp.sem.readers {
			for j := range in.Kind.Readers {
				if &in.Kind.Readers[j] == r {
					b = append(strconv.AppendInt(b, int64(j), 10), ',')
				}
			}
		}
	}
	return string(b)
}

// fileMemoContext is everything outside a server's text, its map's
// readers and its lastness that its findings depend on: the file memo's
// key (with the registry).
func fileMemoContext(in FileInput, sem *semantic) string {
	b := appendKeyString(nil, in.Path)
	// The checks run (a test runs them one by one).
	b = strconv.AppendBool(b, slices.Contains(fileChecks, projectRulesCheck))
	b = strconv.AppendBool(b, slices.Contains(fileChecks, schemaValidation))
	b = strconv.AppendInt(b, int64(len(entryChecks)), 10)
	b = strconv.AppendInt(b, int64(len(machineChecks)), 10)
	b = appendKeyString(b, in.Kind.ID)
	b = appendKeyString(b, string(in.Kind.Scope))
	for i := range in.Kind.Readers {
		b = appendReaderKey(b, &in.Kind.Readers[i])
	}
	b = append(b, '|')
	for _, on := range []bool{in.Config.NotOnWindows, in.Config.OnWindows, in.Resolver != nil} {
		b = strconv.AppendBool(b, on)
	}
	for _, r := range in.Kind.Readers {
		if r.Dialect == "vscode" {
			b = append(b, "|inputs"...)
			for _, id := range sem.inputIDs() {
				b = appendKeyString(b, id)
			}
			break
		}
	}
	return string(b)
}

// entryUnits lists the servers of maps, in file order, each with its key.
func entryUnits(in FileInput, memo *fileMemo, maps []*entryMap) []entryUnit {
	n := 0
	for _, mp := range maps {
		n += len(mp.node.Members())
	}
	units := make([]entryUnit, 0, n)
	memo.mu.Lock()
	for _, mp := range maps {
		desc := mapDescription(in, mp)
		i := slices.Index(memo.maps, desc)
		if i < 0 {
			i = len(memo.maps)
			memo.maps = append(memo.maps, desc)
		}
		mp.desc = uint16(i)
	}
	memo.mu.Unlock()
	f := in.Parsed
	hasSchema := slices.Contains(fileChecks, schemaValidation)
	for _, mp := range maps {
		for _, m := range mp.node.Members() {
			u := entryUnit{m: m, mp: mp, proj: mp.proj && projectRulesApply(m)}
			if mp.sem != nil && m.Key != nil && m.Value != nil {
				u.last = mp.last == nil || mp.last[m.Key.Str] == m
				u.sem = u.last
				u.sch = u.sem && hasSchema && len(mp.sem.readers) > 0 && m.Value.Kind != jsonc.Invalid && !sem0SyntaxErrorIn(f, m.Value)
			}
			if !u.proj && !u.sem {
				continue
			}
			u.safe = len(memo.maps) <= 1<<16 && memoSafe(f, in.index, m)
			if u.safe {
				u.key = entryKey{hash: maphash.Bytes(entrySeed, f.Src[m.Span.Start:m.Span.End]), mp: mp.desc, last: u.last}
			}
			units = append(units, u)
		}
	}
	return units
}

// sem0SyntaxErrorIn reports whether a syntax error starts within n (the
// schema check's hasSyntaxError).
func sem0SyntaxErrorIn(f *jsonc.File, n *jsonc.Node) bool {
	return len(f.Errors) > 0 && (&schemaCheck{f: f}).hasSyntaxError(n.Span)
}

// judgeEntries finds the findings of the servers units[misses], as
// analyzeWhole's checks would: the project rules (on another core when
// there are many), the schema, the semantic rules and the machine's.
func judgeEntries(in FileInput, sem *semantic, maps []*entryMap, units []entryUnit, misses []int, answers *machineAnswers) {
	for _, mp := range maps {
		in.Cache.fit(len(mp.node.Members()), len(in.Kind.Readers))
	}
	// Each part of a server's findings as the caller gets them, and as
	// the per-entry memos keep them (nil: not kept), which the file memo
	// shares rather than copies.
	proj := make([]part, len(misses))
	runProject := func(in FileInput) {
		p := newProjectPass(in)
		for j, i := range misses {
			if units[i].proj {
				proj[j].ds, proj[j].stored = p.entryStored(nil, units[i].m)
			}
		}
	}
	var wait func()
	if len(in.Content) >= asideSize && len(misses) >= 64 {
		// As projectRulesAside: the project rules share nothing mutable
		// with the others but the locked memos, and get their own index.
		pin := in
		pin.index = &parseIndex{}
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			runProject(pin)
		}()
		wait = func() {
			if r := <-done; r != nil {
				panic(r)
			}
		}
	} else {
		runProject(in)
	}

	// The schema and the semantic rules, on both cores for a file's first
	// analysis: each half of the servers with a check state of its own.
	js := make([]judged, len(misses))
	if half := len(misses) / 2; len(in.Content) >= asideSize && len(misses) >= 256 {
		other := in
		other.index = &parseIndex{}
		osem := &semantic{in: other, f: in.Parsed, groups: sem.groups}
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			judgeServers(other, osem, units, misses[half:], js[half:], &machineAnswers{r: in.Resolver})
		}()
		judgeServers(in, sem, units, misses[:half], js[:half], answers)
		if r := <-done; r != nil {
			panic(r)
		}
	} else {
		judgeServers(in, sem, units, misses, js, answers)
	}
	if wait != nil {
		wait()
	}
	// One allocation each for the servers' findings, their phases, the
	// memo's copies and the memo's records, carved per server; and on a
	// file's first analysis one copy of its text for the memo's records
	// to compare with. A server the memo keeps has its findings once, as
	// the memo keeps them (spans relative to it), which assemble re-bases
	// as it does a memo's hit: only the others (near a syntax error) get
	// a list of their own with spans as found.
	total, totalStored, textLen := 0, 0, 0
	for j, i := range misses {
		n := len(proj[j].ds) + len(js[j].sch.ds) + len(js[j].sem)
		total += n
		if units[i].safe {
			totalStored += n
			textLen += units[i].m.Span.End - units[i].m.Span.Start
		}
	}
	dsSlab, phSlab, storedSlab := make([]Diagnostic, total-totalStored), make([]uint8, total), make([]Diagnostic, totalStored)
	records := make([]entryFindings, len(misses))
	var src string
	if textLen > len(in.Parsed.Src)/2 {
		src = string(in.Parsed.Src)
	}
	off, phOff, storedOff := 0, 0, 0
	for j, i := range misses {
		u := &units[i]
		at := u.m.Span.Start
		semDs := js[j].sem
		semPart := part{ds: semDs}
		if st := js[j].semStored; st != nil && u.safe {
			// The machine's findings follow the memo's: the file memo
			// keeps its own copy of those.
			semPart.stored = append(slices.Clip(st), memoDiagnostics(semDs[len(st):], at)...)
		}
		parts := [...]part{proj[j], js[j].sch, semPart}
		phases := [...]uint8{phaseProject, phaseSchema, phaseSemEntry}
		n := len(proj[j].ds) + len(js[j].sch.ds) + len(semDs)
		ph := phSlab[phOff : phOff : phOff+n]
		phOff += n
		var ds []Diagnostic // as found (not kept), or as the memo keeps them
		if u.safe {
			ds = storedSlab[storedOff : storedOff : storedOff+n]
			storedOff += n
		} else {
			ds = dsSlab[off : off : off+n]
			off += n
		}
		for k, p := range parts {
			for _, d := range p.ds {
				x := phases[k]
				if genericCodes[d.Code] {
					x |= phaseGeneric
				}
				ph = append(ph, x)
			}
			if !u.safe {
				ds = append(ds, p.ds...)
				continue
			}
			if p.stored == nil {
				p.stored = memoDiagnostics(p.ds, at)
			}
			ds = append(ds, p.stored...)
		}
		// The order is the same for spans relative to the server as for
		// spans in the file.
		order := blockOrder(ds, ph)
		e := &records[j]
		*e = entryFindings{phases: permute(ph, order), queries: js[j].queries}
		if u.safe {
			if src != "" {
				e.text = src[at:u.m.Span.End]
			} else {
				e.text = string(in.Parsed.Src[at:u.m.Span.End])
			}
			e.ds = permute(ds, order)
		} else {
			u.fresh = permute(ds, order)
			if u.fresh == nil {
				u.fresh = []Diagnostic{} // found, not kept: assemble takes it as is
			}
		}
		u.found = e
	}
}

// part is some of a server's findings as the caller gets them, and as
// the per-entry memo of their rules keeps them (nil: not kept), which the
// file memo shares rather than copies.
type part struct{ ds, stored []Diagnostic }

// judged is what the schema and the semantic rules find on one server.
type judged struct {
	sch       part
	sem       []Diagnostic // the semantic and the machine's rules'
	semStored []Diagnostic // the semantic memo's (part.stored), without the machine's
	queries   []machineQuestion
}

// judgeServers runs the schema and the semantic rules on the servers
// units[misses], into out (parallel to misses), with sem's state.
func judgeServers(in FileInput, sem *semantic, units []entryUnit, misses []int, out []judged, answers *machineAnswers) {
	sc := &schemaCheck{in: in, f: in.Parsed, reuse: true, typeRule: slices.Contains(entryChecks, typeNotAcceptedCheck)}
	semAt := make([]int, len(misses)+1)
	var log *machineLog
	if in.Resolver != nil {
		log = &machineLog{answers: answers}
		sem.in.Resolver = log
	}
	// One server at a time, the schema then the semantic rules: both ask
	// for the same verdicts, which the second finds in the parse index's
	// last entry (parseIndex.verdicts) instead of a map of every one.
	in.index.perEntry = true
	for j, i := range misses {
		u := &units[i]
		if u.sch {
			m := u.m
			out[j].sch.ds, out[j].sch.stored = sc.subjectStored(&schemaSubject{noun: "server", name: m.Key.Str, nameTok: m.Key.Span, value: m.Value, member: m, readers: u.mp.sem.readers})
		}
		semAt[j] = len(sem.ds)
		if u.sem {
			sem.server(u.m, u.mp.sem, u.mp.key, u.mp.memo)
			out[j].semStored = sem.stored
			if log != nil && len(log.qs) > 0 {
				// Servers asking what the one before asked share its list.
				if j > 0 && slices.Equal(out[j-1].queries, log.qs) {
					out[j].queries = out[j-1].queries
				} else {
					out[j].queries = slices.Clone(log.qs)
				}
				log.qs = log.qs[:0]
			}
		}
	}
	in.index.perEntry = false
	semAt[len(misses)] = len(sem.ds)
	sem.in.Resolver = in.Resolver
	for j := range misses {
		out[j].sem = sem.ds[semAt[j]:semAt[j+1]:semAt[j+1]]
	}
}

// blockOrder is the order of one server's findings ds (phases ph) in
// AnalyzeFile's result: generic findings that share their span with a
// specific one left out (dropGenericDuplicates), the others sorted as
// SortDiagnostics sorts them. nil when that is ds as it is.
func blockOrder(ds []Diagnostic, ph []uint8) []int {
	var order []int
	if slices.ContainsFunc(ph, func(p uint8) bool { return p&phaseGeneric != 0 }) {
		for i, d := range ds {
			if ph[i]&phaseGeneric != 0 && slices.ContainsFunc(ds, func(o Diagnostic) bool {
				return !genericCodes[o.Code] && o.Span == d.Span
			}) {
				continue
			}
			order = append(order, i)
		}
		if len(order) == len(ds) {
			order = nil
		}
	}
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = compareDiagnostics(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return order
	}
	if order == nil {
		order = make([]int, len(ds))
		for i := range order {
			order[i] = i
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return compareDiagnostics(&ds[a], &ds[b]) })
	return order
}

// permute returns xs in order (xs itself for a nil order).
func permute[T any](xs []T, order []int) []T {
	if order == nil {
		return xs
	}
	out := make([]T, len(order))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

// sortWithPhases is SortDiagnostics, keeping phases parallel.
func sortWithPhases(ds []Diagnostic, ph []uint8) {
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = compareDiagnostics(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	idx := make([]int, len(ds))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return compareDiagnostics(&ds[a], &ds[b]) })
	outD := make([]Diagnostic, len(ds))
	outP := make([]uint8, len(ds))
	for i, j := range idx {
		outD[i], outP[i] = ds[j], ph[j]
	}
	copy(ds, outD)
	copy(ph, outP)
}

// assemble merges the file-level findings with the servers' into
// AnalyzeFile's result: generic findings dropped where a specific one
// shares the span, severities set, sorted. ok is false when the order
// could differ from analyzeWhole's.
func assemble(in FileInput, file []Diagnostic, filePh []uint8, units []entryUnit) (_ []Diagnostic, ok bool) {
	// The file-level spans, for the generic findings: a file-level one
	// dropped for a server's specific finding, or the reverse.
	const fileSpecific, fileGeneric, entrySpecific = 1, 2, 4
	var spans map[[2]int]uint8
	var anyFileSpecific, anyFileGeneric bool
	if len(file) > 0 {
		spans = make(map[[2]int]uint8, len(file))
		for i, d := range file {
			bit := uint8(fileSpecific)
			if genericCodes[d.Code] {
				bit, filePh[i] = fileGeneric, filePh[i]|phaseGeneric
				anyFileGeneric = true
			} else {
				anyFileSpecific = true
			}
			spans[[2]int{d.Span.Start, d.Span.End}] |= bit
		}
	}
	n := 0
	for i := range units {
		n += len(units[i].found.phases)
	}
	entries := make([]Diagnostic, 0, n)
	entryPh := make([]uint8, 0, n)
	for i := range units {
		u := &units[i]
		at, size := u.m.Span.Start, u.m.Span.End-u.m.Span.Start
		ds, base := u.found.ds, at
		if u.fresh != nil {
			ds, base = u.fresh, 0
		}
		for j, d := range ds {
			if d.Span.Start+base < at || d.Span.End+base > at+size {
				return nil, false // a finding outside its server
			}
			p := u.found.phases[j]
			if spans != nil {
				at := [2]int{d.Span.Start + base, d.Span.End + base}
				switch {
				case p&phaseGeneric != 0 && anyFileSpecific && spans[at]&fileSpecific != 0:
					continue
				case p&phaseGeneric == 0 && anyFileGeneric:
					if bits, ok := spans[at]; ok {
						spans[at] = bits | entrySpecific
					}
				}
			}
			if base != 0 {
				d = rebase(d, base)
			}
			entries = append(entries, d)
			entryPh = append(entryPh, p)
		}
	}
	if anyFileGeneric {
		j := 0
		for i, d := range file {
			if filePh[i]&phaseGeneric != 0 && spans[[2]int{d.Span.Start, d.Span.End}]&(fileSpecific|entrySpecific) != 0 {
				continue
			}
			file[j], filePh[j] = d, filePh[i]
			j++
		}
		file, filePh = file[:j], filePh[:j]
	}
	if len(file)+len(entries) == 0 {
		return nil, true // as analyzeWhole: nil for none, empty when all are turned off
	}
	if len(in.Config.Severity) > 0 {
		file, filePh = applyWithPhases(&in.Config, file, filePh)
		entries, entryPh = applyWithPhases(&in.Config, entries, entryPh)
	}
	sortWithPhases(file, filePh)
	if len(file) == 0 {
		return entries, true
	}
	out := make([]Diagnostic, 0, len(file)+len(entries))
	i, j := 0, 0
	for i < len(file) && j < len(entries) {
		c := compareDiagnostics(&file[i], &entries[j])
		if c == 0 {
			pf, pe := filePh[i]&^phaseGeneric, entryPh[j]&^phaseGeneric
			if pf == pe {
				return nil, false // their order is the order of the checks' walks
			}
			c = cmp.Compare(pf, pe)
		}
		if c < 0 {
			out = append(out, file[i])
			i++
		} else {
			out = append(out, entries[j])
			j++
		}
	}
	out = append(out, file[i:]...)
	return append(out, entries[j:]...), true
}

// applyWithPhases is Config.apply, keeping phases parallel.
func applyWithPhases(c *Config, ds []Diagnostic, ph []uint8) ([]Diagnostic, []uint8) {
	j := 0
	for i, d := range ds {
		if s, ok := c.Severity[d.Code]; ok {
			if s == SeverityOff {
				continue
			}
			d.Severity = s
		}
		ds[j], ph[j] = d, ph[i]
		j++
	}
	return ds[:j], ph[:j]
}
