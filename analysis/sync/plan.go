package sync

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// Source is the file servers are synced from.
type Source struct {
	// Path is absolute; Rel is the name records use (see Record).
	Path, Rel string
	// Content is the file, templates already resolved (see Resolve). nil
	// when the file is gone: then every entry recorded from it is removed
	// from the targets.
	Content []byte
	// Dialect is how to read the servers (a convert dialect).
	Dialect string
	// Auto applies the ADR's automatic resolution (AutoResolve) to each
	// server: for an extension's mcp.json, not for a tool's own file.
	Auto bool
	// Parsed is Content's parse when the caller has it (an editor's open
	// file): a code action plans one server into each tool, and a
	// 1,000-server file is not parsed again for each. nil parses here.
	Parsed *jsonc.File
}

// Target is one tool's file to sync into.
type Target struct {
	Tool    string // registry tool id
	Dialect string // the convert dialect written
	// Path is absolute; Rel is the name records use.
	Path, Rel string
	// MapPath is the object holding the servers: ["mcpServers"], ["mcp"],
	// ["context_servers"].
	MapPath []string
	// Keep are the entry keys that switch a server on or off in this
	// tool (OpenCode's "enabled", Roo Code's "disabled"): they are the
	// user's choice, made with `mcp-lsp disable` or by hand, so sync
	// neither counts them as drift nor overwrites them.
	Keep []string
	// Content is the file; Exists false when there is none yet.
	Content []byte
	Exists  bool
}

// ActionKind is what sync does, or refuses to do, with one server in one
// target.
type ActionKind string

const (
	Added     ActionKind = "added"
	Updated   ActionKind = "updated"
	Removed   ActionKind = "removed" // its source no longer has it
	UpToDate  ActionKind = "up to date"
	Drift     ActionKind = "drift"     // changed by hand since sync wrote it
	Clash     ActionKind = "clash"     // a server of that name sync did not write
	Refused   ActionKind = "refused"   // the target cannot hold the server
	Forced    ActionKind = "forced"    // drift or clash overwritten with --force
	Unchanged ActionKind = "unchanged" // a removed server's entry already gone
)

// Blocking reports whether the action leaves the target out of date.
func (k ActionKind) Blocking() bool { return k == Drift || k == Clash || k == Refused }

// Action is one server's outcome in one target.
type Action struct {
	Server string
	Kind   ActionKind
	// Reason says why for drift, clash and refusal, in words that name
	// fields, never values.
	Reason string
	Losses []convert.Loss
}

// TargetPlan is what sync does to one target.
type TargetPlan struct {
	Target  Target
	Actions []Action
	// New is the target's content after sync: Content itself when nothing
	// changes, nil when Err is set.
	New []byte
	// Err is a file-level refusal: the target does not parse (wraps
	// fix.ErrSyntax), or is not an object. The file is left as it is.
	Err error
}

// Changed reports whether the target's bytes change.
func (t *TargetPlan) Changed() bool {
	// A target that does not exist and gets nothing stays absent (New nil).
	return t.Err == nil && t.New != nil && (!t.Target.Exists || string(t.New) != string(t.Target.Content))
}

// Edit is the change as a code action applies it: a file to create, or
// the edits of an existing one (minimal: the region that differs). nil
// when nothing changes.
func (t *TargetPlan) Edit() *fix.Change {
	if !t.Changed() {
		return nil
	}
	if !t.Target.Exists {
		return &fix.Change{Creates: []fix.Create{{Path: t.Target.Path, Content: t.New}}}
	}
	return &fix.Change{Edits: fix.DiffEdits(t.Target.Path, t.Target.Content, t.New)}
}

// Plan is the outcome of syncing one source.
type Plan struct {
	Targets []*TargetPlan
	// Subs are the values substituted by automatic resolution (those of
	// Resolve come from the caller).
	Subs []Substitution
	// Records are all the records after the sync: the old ones of other
	// sources, and this source's as they now are.
	Records *Records
}

// Changed reports whether any target, or the records, change.
func (p *Plan) Changed(old *Records) bool {
	for _, t := range p.Targets {
		if t.Changed() {
			return true
		}
	}
	return string(p.Records.Marshal()) != string(old.Marshal())
}

// Options change what sync may overwrite.
type Options struct {
	// Force overwrites drift and name clashes, and adds back entries
	// removed by hand.
	Force bool
	// Only restricts the sync to the source's server of that name (an
	// editor's "Add to <tool>"): the other servers, their entries and
	// their records are left as they are, and nothing is removed.
	Only string
	// Remember are the template values to record for the source's next
	// sync (RememberedVars); ignored with Only.
	Remember Vars
}

// serverOf is a source server ready to write.
type serverOf struct {
	name  string
	model *convert.Server
}

// Compute plans syncing src into targets, given the records of earlier
// syncs. It is pure: the caller reads the files, and writes New and the
// records when it wants (or turns each TargetPlan into a code action's
// edit). A source that cannot be read is an error; a target that cannot
// be written is a TargetPlan with Err, and the others go on.
func Compute(src Source, vars Vars, targets []Target, old *Records, opts Options) (*Plan, error) {
	if old == nil {
		old = &Records{Version: recordsVersion}
	}
	servers, subs, err := readSource(src, vars, opts.Only)
	if err != nil {
		return nil, err
	}
	if opts.Only != "" {
		servers = slices.DeleteFunc(servers, func(s serverOf) bool { return s.name != opts.Only })
		if len(servers) == 0 {
			return nil, fmt.Errorf("%s: no server %q", src.Rel, opts.Only)
		}
	}
	plan := &Plan{Subs: subs}
	var kept []Record // this source's records after the sync
	for _, t := range targets {
		if t.Path == src.Path {
			continue
		}
		tp, recs := planTarget(src, servers, t, old, opts)
		plan.Targets = append(plan.Targets, tp)
		kept = append(kept, recs...)
	}
	recs := &Records{Version: recordsVersion}
	for _, r := range old.Entries {
		if r.Source != src.Rel || !slices.ContainsFunc(targets, func(t Target) bool { return t.Rel == r.Target }) ||
			opts.Only != "" && r.Server != opts.Only {
			recs.Entries = append(recs.Entries, r)
		}
	}
	recs.Entries = append(recs.Entries, kept...)
	recs.Vars = maps.Clone(old.Vars)
	if opts.Only == "" {
		switch {
		case len(opts.Remember) > 0 && src.Content != nil:
			if recs.Vars == nil {
				recs.Vars = map[string]Vars{}
			}
			recs.Vars[src.Rel] = opts.Remember
		default:
			delete(recs.Vars, src.Rel)
		}
	}
	plan.Records = recs
	return plan, nil
}

// readSource lists the servers of the source, in order: only the one
// called only, when given (the others are not converted).
func readSource(src Source, vars Vars, only string) ([]serverOf, []Substitution, error) {
	if src.Content == nil {
		return nil, nil, nil
	}
	f := src.Parsed
	if f == nil {
		f = jsonc.Parse(src.Content)
	}
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		line, _ := position(src.Content, min(e.Span.Start, len(src.Content)))
		return nil, nil, fmt.Errorf("%s: line %d: %s", src.Rel, line, e.Message)
	}
	if f.Root == nil || f.Root.Kind != jsonc.Object {
		return nil, nil, fmt.Errorf("%s: not a JSON object", src.Rel)
	}
	key := mapKeyOf(src.Dialect)
	m := f.Root.Get(key)
	if m == nil {
		return nil, nil, fmt.Errorf("%s: no %q object of servers", src.Rel, key)
	}
	if m.Value.Kind != jsonc.Object {
		return nil, nil, fmt.Errorf("%s: %q is not an object", src.Rel, key)
	}
	var out []serverOf
	var subs []Substitution
	for _, sm := range m.Value.Members() {
		if sm.Key == nil || only != "" && sm.Key.Str != only {
			continue
		}
		// Of duplicate keys the last definition wins. Get is a linear
		// search: asked only where the parser did not find the keys
		// unique, so a 1,000-server file is not quadratic.
		if !m.Value.KeysUnique() && m.Value.Get(sm.Key.Str) != sm {
			continue
		}
		s, _, err := convert.FromEntry(src.Dialect, sm.Key.Str, sm.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: server %q: %v", src.Rel, sm.Key.Str, err)
		}
		if s.EnabledOnly {
			continue
		}
		if src.Auto {
			subs = append(subs, AutoResolve(s, vars)...)
		}
		out = append(out, serverOf{name: sm.Key.Str, model: s})
	}
	return out, subs, nil
}

// mapKeyOf is the top-level server map of a source dialect.
func mapKeyOf(dialect string) string {
	switch dialect {
	case "opencode":
		return "mcp"
	case "vscode":
		return "servers"
	}
	return "mcpServers"
}

// planTarget plans one target and returns the records it keeps for src.
func planTarget(src Source, servers []serverOf, t Target, old *Records, opts Options) (*TargetPlan, []Record) {
	tp := &TargetPlan{Target: t}
	ed := editorFor(t.Path)
	content := t.Content
	if !t.Exists {
		content = nil
	}
	if err := ed.check(content); err != nil {
		tp.Err = err
		// Keep this source's records of the target as they were.
		var keep []Record
		for _, r := range old.Entries {
			if r.Source == src.Rel && r.Target == t.Rel {
				keep = append(keep, r)
			}
		}
		return tp, keep
	}
	var recs []Record
	cur := content
	fail := func(err error) (*TargetPlan, []Record) {
		tp.Err = err
		tp.New = nil
		return tp, nil
	}
	record := func(name, hash string) {
		recs = append(recs, Record{Source: src.Rel, Target: t.Rel, Tool: t.Tool, Server: name, Hash: hash})
	}
	for _, s := range servers {
		path := append(slices.Clone(t.MapPath), s.name)
		entry, losses, err := convert.ToEntry(t.Dialect, s.model)
		if err != nil {
			tp.Actions = append(tp.Actions, Action{Server: s.name, Kind: Refused, Reason: err.Error()})
			continue
		}
		bare, _ := withoutKeys(entry, t.Keep)
		hash := HashEntry(bare)
		rec, hasRec := old.find(src.Rel, t.Rel, s.name)
		now, found, err := ed.lookup(cur, path)
		if err != nil {
			return fail(err)
		}
		if found {
			var kept convert.Object
			now, kept = withoutKeys(now, t.Keep)
			entry = withKeys(entry, kept)
		}
		kind := Added
		switch {
		case found && HashEntry(now) == hash:
			// Already what sync writes (its own entry, or the same
			// server written by hand: adopted).
			record(s.name, hash)
			tp.Actions = append(tp.Actions, Action{Server: s.name, Kind: UpToDate})
			continue
		case found && !hasRec:
			kind = Clash
		case found && HashEntry(now) != rec.Hash:
			kind = Drift
		case found:
			kind = Updated
		case hasRec:
			kind = Drift // recorded, but removed by hand
		}
		if kind == Drift || kind == Clash {
			reason := driftReason(kind, found, src.Rel)
			if !opts.Force {
				if hasRec {
					recs = append(recs, rec)
				}
				tp.Actions = append(tp.Actions, Action{Server: s.name, Kind: kind, Reason: reason})
				continue
			}
			tp.Actions = append(tp.Actions, Action{Server: s.name, Kind: Forced, Reason: forcedReason(kind, found), Losses: losses})
		} else {
			tp.Actions = append(tp.Actions, Action{Server: s.name, Kind: kind, Losses: losses})
		}
		if cur == nil && !t.Exists {
			cur = newFile(t.Dialect)
		}
		next, err := ed.set(cur, path, entry)
		if err != nil {
			return fail(err)
		}
		cur = next
		record(s.name, hash)
	}
	// Entries recorded from this source whose server it no longer has.
	for _, r := range old.Entries {
		if opts.Only != "" {
			break // one server synced: the others are not removed
		}
		if r.Source != src.Rel || r.Target != t.Rel || slices.ContainsFunc(servers, func(s serverOf) bool { return s.name == r.Server }) {
			continue
		}
		path := append(slices.Clone(t.MapPath), r.Server)
		now, found, err := ed.lookup(cur, path)
		if err != nil {
			return fail(err)
		}
		now, _ = withoutKeys(now, t.Keep)
		switch {
		case !found:
			tp.Actions = append(tp.Actions, Action{Server: r.Server, Kind: Unchanged, Reason: "removed from the source; already gone here"})
		case HashEntry(now) != r.Hash && !opts.Force:
			recs = append(recs, r)
			tp.Actions = append(tp.Actions, Action{Server: r.Server, Kind: Drift,
				Reason: "removed from " + src.Rel + ", but changed by hand here since the last sync; remove it by hand or use --force"})
		default:
			next, err := ed.remove(cur, path)
			if err != nil {
				return fail(err)
			}
			cur = next
			tp.Actions = append(tp.Actions, Action{Server: r.Server, Kind: Removed, Reason: "removed from " + src.Rel})
		}
	}
	tp.New = cur
	return tp, recs
}

// newFile is what a target file sync creates starts as, before its
// servers: OpenCode's with its "$schema" (as `mcp-lsp convert` and
// OpenCode's documentation write it), nil (empty) for the others.
func newFile(dialect string) []byte {
	if dialect == "opencode" {
		return []byte("{\n  \"$schema\": " + fmt.Sprintf("%q", convert.OpenCodeSchemaURL) + "\n}\n")
	}
	return nil
}

// driftReason explains a drift or clash.
func driftReason(kind ActionKind, found bool, source string) string {
	switch {
	case kind == Clash:
		return "this file already has a server of that name that sync did not write; rename one, or use --force to replace it with the one from " + source
	case found:
		return "changed by hand since the last sync; use --force to overwrite it with the one from " + source
	}
	return "removed by hand since the last sync; use --force to add it again"
}

// Summary counts the actions of every target by kind.
func (p *Plan) Summary() map[ActionKind]int {
	out := map[ActionKind]int{}
	for _, t := range p.Targets {
		for _, a := range t.Actions {
			out[a.Kind]++
		}
	}
	return out
}

// OutOfDate reports whether any target would change or is blocked.
func (p *Plan) OutOfDate() bool {
	for _, t := range p.Targets {
		if t.Err != nil || t.Changed() {
			return true
		}
		for _, a := range t.Actions {
			if a.Kind.Blocking() {
				return true
			}
		}
	}
	return false
}

// forcedReason says what --force overwrote.
func forcedReason(kind ActionKind, found bool) string {
	switch {
	case kind == Clash:
		return "replaced a server of that name that sync did not write (--force)"
	case found:
		return "overwrote a change made by hand since the last sync (--force)"
	}
	return "added again after it was removed by hand (--force)"
}

// withoutKeys returns entry without the members named in keys, and those
// members. An entry that is not an object is returned as it is.
func withoutKeys(entry any, keys []string) (any, convert.Object) {
	o, ok := entry.(convert.Object)
	if !ok || len(keys) == 0 {
		return entry, nil
	}
	var rest, kept convert.Object
	for _, m := range o {
		if slices.Contains(keys, m.Key) {
			kept = append(kept, m)
		} else {
			rest = append(rest, m)
		}
	}
	if rest == nil {
		rest = convert.Object{}
	}
	return rest, kept
}

// withKeys returns entry with the members of kept set (the switch keys
// the target's entry had), entry itself when there are none.
func withKeys(entry any, kept convert.Object) any {
	o, ok := entry.(convert.Object)
	if !ok || len(kept) == 0 {
		return entry
	}
	out := slices.Clone(o)
	for _, k := range kept {
		if i := slices.IndexFunc(out, func(m convert.Member) bool { return m.Key == k.Key }); i >= 0 {
			out[i] = k
		} else {
			out = append(out, k)
		}
	}
	return out
}
