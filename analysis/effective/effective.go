// Package effective computes which MCP servers a tool will really start
// when launched in a directory, and where each part of each server comes
// from.
//
// The computation follows the tool's profile in the registry: layers
// (user, project, local...) with an operation (replace the whole entry, or
// deep-merge field by field) and gates (pending approval, folder not
// trusted) that are explicit states in the result, never silently applied.
// It is pure: files are supplied by the caller through Input.Files (the
// language server passes its snapshot, tests a map), so the same engine
// serves hover, cross-file diagnostics and `mcp-lsp effective`.
package effective

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Input is everything the computation needs besides the profile.
type Input struct {
	Tool *registry.Tool
	Env  registry.Env
	// LaunchDir is where the tool is started (the workspace folder, or the
	// directory of a config file nested deeper).
	LaunchDir string
	// GitRoot is the directory holding .git above LaunchDir, "" if none.
	GitRoot string
	// Folders are the workspace folders (an editor's; nil: LaunchDir
	// alone is one). A reader that reads a file only directly in a
	// workspace folder (VS Code's .mcp.json) reads nothing from a launch
	// directory that is not one of them (registry.MatchIn).
	Folders []string
	// Files returns the parsed file at path, or nil if it does not exist.
	Files func(path string) *jsonc.File
	// Registry tells how the tool reads each file (strict JSON or JSONC),
	// to know which files it drops; nil means the default registry.
	Registry *registry.Registry
	// Verdicts is the session's cache of verdicts on entries (the same the
	// diagnostics use); nil computes them without caching.
	Verdicts *verdict.Cache
	// Prev is an earlier result of the same tool launched in the same
	// directory with the same Env, Folders, Registry and Verdicts (nil:
	// none; another is ignored), typically of the snapshot before an edit.
	// Compute reuses what of it the files it reads still say: the verdict
	// of an entry whose name and bytes are the same under the same reader,
	// a definition and a server nothing of which changed. See reuse.
	Prev *Result
	// Shared is shared by the computations of the tools over the same
	// files with their Prev results (nil: nothing shared).
	Shared *Shared
}

// Source is one file a layer read.
type Source struct {
	Path  string
	Layer *registry.Layer
	// Rank orders sources by precedence: higher wins.
	Rank int
	// Dropped says why the tool ignores the whole file ("" if it reads
	// it): a syntax error, or JSONC where the tool wants strict JSON.
	Dropped string
	// Own says the tool is a registered reader of the file's kind: the
	// file is written for it, not one of another tool's files it reads
	// too (Atomic TUI's .mcp.json). See Result.InUse.
	Own bool
	// Preferred is set on a file of a fallback layer that the tool
	// ignores because the preferred layer found a file: that file, the
	// closest one (Copilot CLI reads .github/mcp.json only when no
	// .mcp.json exists). Dropped says so too.
	Preferred string
	// Top is the first character of the file's value, where a finding
	// about the whole file goes.
	Top span.Span
	// Interpolation is how the tool expands variables in this file: its
	// reader's own (VS Code expands nothing in .mcp.json), else the
	// tool's.
	Interpolation *registry.Interpolation
}

// Definition is one definition of a server name in one source.
//
// It holds no pointer into the source's parse: its member is the at-th
// of those the result read from the source (Result.Member). An edit
// inside one server of a 1,000-server file parses the file again and
// moves every server after it; the definitions of the others stay the
// same, and so do their servers (see reuse).
type Definition struct {
	Source *Source
	// Name is the server's name: the member's key.
	Name string
	// at is the place of the member among those read from Source.
	at int32
	// Gate is the definition's gate state.
	Gate Gate
	// Verdict is what the tool does with the entry (nil where the tool
	// reads the file through its profile only, and takes every entry).
	Verdict *verdict.Verdict
}

// GateState is whether a gate lets a definition through.
type GateState string

const (
	GateOpen            GateState = ""                 // no gate, or it is open
	GatePendingApproval GateState = "pending-approval" // Claude Code asks first
	GateRejected        GateState = "rejected"         // disabled by the user
	GateUntrusted       GateState = "folder-not-trusted"
	GateInvalid         GateState = "invalid" // the tool skips an entry it cannot read
	// GateToolStopped: a file the tool cannot parse makes it exit at
	// start-up (registry syntax effect "stops-tool"), so nothing starts.
	GateToolStopped GateState = "tool-stopped"
)

// Gate is a gate's state with what decided it.
type Gate struct {
	State GateState
	// Why is a short explanation: "not in enabledMcpjsonServers".
	Why string
}

// Server is one server name as the tool sees it.
type Server struct {
	Name string
	// Definitions of the name across sources, the winner first. For a
	// deep-merging tool every definition contributes; Fields says which
	// field comes from where.
	Definitions []*Definition
	// Winner is the definition that counts (for deep merge: the last
	// one, which decides the type); nil when every definition is gated.
	Winner *Definition
	// Fields is the merged definition: for each top-level field, the
	// definition it comes from.
	Fields []Field
	// Enabled is false when the merged definition says enabled: false in
	// a file whose layer has that key (registry.Layer.EnabledKey: OpenCode's
	// files, for OpenCode and Atomic TUI); the tool does not start it.
	Enabled bool
	// Variables are the environment variables the definition depends on.
	Variables []string
	// Ignored are the top-level keys of the contributing definitions that
	// the tool drops (its verdict: an unknown key ignored or stripped);
	// they are not in Fields.
	Ignored []string
	// Merged is the tool's verdict on the merged entry where the tool
	// validates servers after the merge (registry Profile.ValidatesMerged)
	// and refuses this one; nil otherwise.
	Merged *verdict.Verdict
	// alone is what the verdict cache remembers of Winner's fields when
	// they are all its own (resolve); nil otherwise.
	alone *alone
}

// Field is one top-level field of the merged definition.
type Field struct {
	Key  string
	From *Definition
	// at is the place of the field's member in From's definition's
	// object (Result.FieldMember).
	at int32
}

// Result is the effective configuration of one tool in one directory.
type Result struct {
	Tool      *registry.Tool
	LaunchDir string
	// GitRoot is Input.GitRoot: with LaunchDir it says which projects
	// entry of ~/.claude.json the tool reads.
	GitRoot string
	// Sources are the files found, highest precedence first.
	Sources []*Source
	// Stopped is the file that makes the tool exit at start-up (its
	// reader's syntax effect is "stops-tool": Claude Code with a comment in
	// ~/.claude.json); nil when the tool starts. No server starts then.
	Stopped *Source
	// Servers, sorted by name.
	Servers []*Server
	// Refused, for a tool that stops on any refused file (registry
	// Profile.StopsOnRefusal), says why it refuses its whole
	// configuration ("path: why", first cause first); then no server
	// starts.
	Refused []string
	// read is what the computation read of each source it took servers
	// from, for a later computation to reuse (Input.Prev), unless stopped:
	// then its definitions were rewritten after the fact.
	read    []*sourceRead
	stopped bool
	// gateReads are the files the gates were read from.
	gateReads []fileRead
	// defs are the definitions read, in reading order; unique says that
	// their names are strictly increasing, so that each is a server of
	// its own, in the same order.
	defs   []*Definition
	unique bool
	// twinsMade are r.twins() once made; prevTwins, those of the
	// result Compute reused, until then.
	twinsOnce sync.Once
	twinsMade atomic.Pointer[twins]
	prevTwins *twins
	// plan is where the tool looked for files.
	plan *readPlan
	// unrefused are the servers before refuse rewrote them, refusedWith
	// the gate it held them back with; nil when the tool did not refuse.
	unrefused   []*Server
	refusedWith Gate
	// registry, verdicts, env and folders are the Input's: a result is
	// reused only under the same ones.
	registry *registry.Registry
	verdicts *verdict.Cache
	env      registry.Env
	folders  []string
}

// Compute applies the tool's profile. A tool without a profile yields an
// empty result.
func Compute(in Input) *Result {
	res := &Result{Tool: in.Tool, LaunchDir: in.LaunchDir, GitRoot: in.GitRoot}
	if in.Tool == nil || in.Tool.Profile == nil {
		return res
	}
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	res.registry, res.verdicts, res.env, res.folders = in.Registry, in.Verdicts, in.Env, in.Folders
	prev := reusable(in)
	plan := planOf(in, prev)
	res.plan = plan
	var slab slabs
	// The gates are read from files (approval lists, trust, switches):
	// when those are the ones prev read, an entry that is the same as
	// before is gated as before.
	gatesSame := prev.gatesStillRead(in)
	gated := &gateFiles{files: in.Files}
	gin := in
	gin.Files = gated.get
	gates := newGateReader(gin)
	profile := readProfileGates(gin)
	switches := readSwitches(gin)
	// Every definition read, in reading order (lowest precedence first);
	// grouped by name below. A slice sorted once, not a map of names:
	// a server map holds thousands of names, usually in order already.
	var defs []*Definition
	rank := 0
	// A tool that validates the merged entries (Codex CLI) judges each
	// server after the merge, not each file's entry alone.
	mergedCheck := in.Tool.Profile.ValidatesMerged != nil && in.Tool.Profile.ValidatesMerged.Value
	var refusals []string // files the tool refuses: "path: why"
	for li := range in.Tool.Profile.Layers {
		layer := &in.Tool.Profile.Layers[li]
		// A fallback layer gives way to the first of its preferred layers
		// that has a file (Kilo Code: .kilocode/mcp.json, else
		// .cursor/mcp.json, else .mcp.json).
		preferred := preferredFile(in, plan, li)
		for _, c := range plan.layers[li].files {
			if c.notInFolder {
				continue
			}
			f := in.Files(c.path)
			if f == nil {
				continue
			}
			if f.Root == nil {
				continue
			}
			rank++
			reader := c.reader
			src := &Source{Path: c.path, Layer: layer, Rank: rank, Dropped: dropped(reader, layer, f), Own: reader != nil, Interpolation: in.Tool.InterpolationFor(reader),
				Top: span.Span{Start: f.Root.Span.Start, End: f.Root.Span.Start + 1}}
			res.Sources = append(res.Sources, src)
			if profile.skips(layer) {
				// An untrusted folder's file of a layer its trust check
				// concerns is not read at all (Qwen Code's workspace
				// settings): even a broken one stops nothing.
				src.Dropped = "not read: " + in.Tool.Profile.Trust.Why
				continue
			}
			if src.Dropped != "" && reader != nil && reader.SyntaxError.Effect == registry.StopsTool && res.Stopped == nil {
				res.Stopped = src
			}
			if preferred != "" {
				// Not read at all: whatever else is wrong with it does not
				// matter to this tool.
				src.Preferred = preferred
				src.Dropped = fmt.Sprintf("read only when no %s exists, and %s does", PreferredName(in.LaunchDir, preferred), preferred)
				continue
			}
			// A directory's own trust (Codex CLI): an untrusted project's
			// files are not read, so even a broken one stops nothing.
			dirGate := gates.dirGate(layer, c.dir)
			if src.Dropped != "" {
				if dirGate.State != GateOpen {
					src.Dropped = "not read: " + dirGate.Why
				} else if reader != nil && reader.SyntaxError.Effect == registry.RefusesConfig && len(f.Errors) > 0 {
					refusals = append(refusals, homeShort(in.Env, c.path)+": syntax error")
				}
				continue
			}
			var members []*jsonc.Member
			whole := false
			for i, sm := range c.serverMaps {
				if ms, all := serverMembers(f.Root, sm); i == 0 {
					members, whole = ms, all // read-only
				} else {
					members, whole = slices.Concat(members, ms), false
				}
			}
			defs = slices.Grow(defs, len(members))
			// What the tool does with each entry is its verdict: it
			// loads it (perhaps without some keys), skips it alone, or
			// refuses the whole configuration because of it.
			pr := prev.sourceRead(c.path, reader, f, members, whole, in.Shared)
			verdicts := make([]*verdict.Verdict, len(members))
			sr := &sourceRead{path: c.path, file: f, reader: reader, members: members, whole: whole, verdicts: verdicts}
			res.read = append(res.read, sr)
			// An edit inside one server leaves the others where they
			// were: their verdicts are copied, the edited ones judged.
			aligned := pr.aligned()
			if aligned {
				copy(verdicts, pr.verdicts)
				for _, i := range pr.changed {
					if verdicts[i] = pr.verdict(int(i)); verdicts[i] == nil {
						verdicts[i] = judge(in, reader, f, members[i])
					}
				}
				sr.refusing = pr.refusingNow(verdicts)
			} else {
				for i, m := range members {
					if verdicts[i] = pr.verdict(i); verdicts[i] == nil {
						verdicts[i] = judge(in, reader, f, m)
					}
					if refuses(verdicts[i]) {
						sr.refusing = append(sr.refusing, int32(i))
					}
				}
			}
			// mergedCheck: judged after the merge.
			if len(sr.refusing) > 0 && !mergedCheck && dirGate.State == GateOpen {
				i := sr.refusing[0]
				src.Dropped = fmt.Sprintf("server %q is invalid for it (%s)", members[i].Key.Str, why(verdicts[i]))
				refusals = append(refusals, homeShort(in.Env, c.path)+": "+src.Dropped)
			}
			if src.Dropped != "" {
				continue
			}
			if pr != nil && pr.src != nil && sameSource(pr.src, src) {
				// The same source as before: its unchanged definitions
				// can be the same ones.
				src = pr.src
				res.Sources[len(res.Sources)-1] = src
			}
			sr.src, sr.defs = src, make([]*Definition, len(members))
			if aligned && gatesSame && src == pr.src && len(pr.defs) == len(members) {
				// The same source, gates and entries but the edited
				// ones: the same definitions but theirs.
				copy(sr.defs, pr.defs)
				for _, i := range pr.changed {
					sr.defs[i] = nil
				}
			}
			for i, m := range members {
				if sr.defs[i] != nil {
					continue
				}
				g := gates.gate(layer, m.Key.Str)
				if pg := profile.gate(m.Key.Str); pg.State != GateOpen {
					g = pg
				}
				if dirGate.State != GateOpen {
					g = dirGate
				}
				if g.State == GateOpen {
					g = switches.gate(layer.ID, m.Key.Str)
				}
				// An entry the tool cannot read is never listed, not even
				// as pending approval (verified, Claude Code 2.1.328).
				if v := verdicts[i]; v != nil && !mergedCheck && !v.Outcome.Loaded() && (g.State == GateOpen || g.State == GatePendingApproval) {
					verb := "skipped: "
					if v.Outcome == verdict.MayNotLoad {
						verb = "may not load: "
					}
					g = Gate{State: GateInvalid, Why: verb + why(v)}
				}
				d := pr.definition(i)
				if d == nil || d.Source != src || d.Gate != g || d.Verdict != verdicts[i] {
					d = slab.definition()
					*d = Definition{Source: src, Name: m.Key.Str, at: int32(i), Gate: g, Verdict: verdicts[i]}
				}
				sr.defs[i] = d
			}
			defs = append(defs, sr.defs...)
		}
	}
	res.gateReads = gated.read
	if gatesSame {
		// Also what prev read and this computation had no need to.
		for _, r := range prev.gateReads {
			if !slices.ContainsFunc(res.gateReads, func(o fileRead) bool { return o.path == r.path }) {
				res.gateReads = append(res.gateReads, r)
			}
		}
	}
	slices.Reverse(res.Sources)
	if res.Stopped != nil {
		why := stoppedWhy(in, res.Stopped)
		for i, d := range defs {
			// A copy: d may be an earlier result's too.
			c := *d
			c.Gate = Gate{State: GateToolStopped, Why: why}
			defs[i] = &c
		}
		res.stopped = true
	}
	deep := in.Tool.Merge.Value == registry.DeepMerge
	var before []*Server // prev's servers from the current name on
	if prev != nil && res.Stopped == nil {
		before = prev.Servers
		if prev.unrefused != nil {
			before = prev.unrefused // as resolved, before the refusal
		}
	}
	if prev != nil && res.Stopped == nil && !mergedCheck && prev.unique && len(prev.defs) == len(defs) && len(before) == len(defs) {
		res.Servers, res.unique = sameServers(res, in.Verdicts, &slab, prev.defs, before, defs, deep)
	}
	var groups [][]*Definition
	if res.Servers == nil {
		groups, res.unique = byName(defs)
	}
	res.defs = defs
	if prev != nil {
		res.prevTwins = prev.twinsMade.Load()
	}
	for _, ds := range groups {
		name := ds[0].Name
		for len(before) > 0 && before[0].Name < name {
			before = before[1:]
		}
		var was *Server
		if len(before) > 0 && before[0].Name == name {
			was = before[0]
		}
		var srv *Server
		if was != nil && slices.Equal(was.Definitions, ds) {
			// Nothing it depends on changed: resolve and the merged
			// verdict are functions of its definitions.
			srv = was
		} else {
			srv = resolve(res, in.Verdicts, &slab, was, name, ds, deep)
			if mergedCheck && srv.Winner != nil {
				if v := judgeMerged(in, res, srv); v != nil && v.Outcome == verdict.RefusesFile {
					srv.Merged = v
				}
			}
		}
		if v := srv.Merged; v != nil {
			what := fmt.Sprintf("server %q in %s", name, homeShort(in.Env, srv.Winner.Source.Path))
			if len(srv.Definitions) > 1 {
				what = fmt.Sprintf("server %q as merged from %d files", name, len(srv.Definitions))
			}
			refusals = append(refusals, fmt.Sprintf("%s is invalid for it (%s)", what, why(v)))
		}
		res.Servers = append(res.Servers, srv)
	}
	if p := in.Tool.Profile.StopsOnRefusal; p != nil && p.Value && len(refusals) > 0 {
		res.Refused = refusals
		refuse(res, prev)
	}
	return res
}

// refuse applies a refusal of the whole configuration (Codex CLI stops
// with "failed to load bootstrap configuration"): no server starts; each
// keeps its definitions, held back by the refusal.
//
// Servers and definitions are copied before they change: an earlier
// result may share them (Input.Prev). A server that prev refused alike
// keeps prev's copy (Kilo Code refuses a whole .mcp.json for one entry,
// and stays refusing while another is edited).
func refuse(res *Result, prev *Result) {
	g := Gate{State: GateToolStopped, Why: res.Tool.Name + " stops at start-up, refusing its whole configuration: " + res.Refused[0]}
	res.unrefused = slices.Clone(res.Servers)
	var was, wasRefused []*Server
	if prev != nil && prev.unrefused != nil && prev.refusedWith == g {
		was, wasRefused = prev.unrefused, prev.Servers
	}
	res.refusedWith = g
	for i, s := range res.Servers {
		for len(was) > 0 && was[0] != s && was[0].Name < s.Name {
			was, wasRefused = was[1:], wasRefused[1:]
		}
		if len(was) > 0 && was[0] == s {
			res.Servers[i] = wasRefused[0]
			was, wasRefused = was[1:], wasRefused[1:]
			continue
		}
		c := *s
		c.Definitions = make([]*Definition, len(s.Definitions))
		for j, d := range s.Definitions {
			if d.Gate.State == GateOpen {
				cd := *d
				cd.Gate = g
				d = &cd
			}
			c.Definitions[j] = d
		}
		c.Winner, c.Fields, c.Ignored, c.Variables = nil, nil, nil, nil
		res.Servers[i] = &c
	}
}

// judgeMerged is the tool's verdict on the server as merged from every
// layer: the merged fields written out as one entry and judged like any
// other (by the reader of the winning definition's file).
func judgeMerged(in Input, res *Result, s *Server) *verdict.Verdict {
	r := readerOf(in, s.Winner.Source.Path)
	if r == nil {
		return nil
	}
	obj := make(map[string]any, len(s.Fields))
	for _, f := range s.Fields {
		obj[f.Key] = verdict.Decode(res.FieldMember(f).Value)
	}
	text, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	f := jsonc.Parse(text)
	if f.Root == nil || len(f.Errors) > 0 {
		return nil
	}
	return verdict.Of(nil, in.Registry, r, verdict.Entry{Name: s.Name, Value: f.Root, Text: text, Merged: true})
}

// InUse reports whether the tool read one of its own files (Source.Own)
// here. Files are the only sign mcp-lsp has that someone uses a tool: every
// tool with a profile reads one of its own files where it is used, except
// one that only reads other tools' files (Atomic TUI reads Claude Code's,
// Copilot CLI's and OpenCode's), whose findings would be noise for everyone
// who does not use it. Callers leave such results out unless the user names
// the tool in the settings.
func (r *Result) InUse() bool {
	return slices.ContainsFunc(r.Sources, func(s *Source) bool { return s.Own })
}

// Survey tells, without resolving any server, whether the tool launched as
// in says finds any file (found) and one of its own among them (own), as
// len(Compute(in).Sources) > 0 and Compute(in).InUse() would: callers that
// leave out tools not in use need not compute them (a 5 MB .mcp.json costs
// the same to every tool that reads it).
func Survey(in Input) (found, own bool) {
	if in.Tool == nil || in.Tool.Profile == nil {
		return false, false
	}
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	for _, l := range planOf(in, reusable(in)).layers {
		for _, c := range l.files {
			if f := in.Files(c.path); f == nil || f.Root == nil {
				continue
			}
			found = true
			if c.reader != nil {
				return true, true
			}
		}
	}
	return found, false
}

// resolve picks the winner among ds (highest precedence first) and builds
// the merged field list. A server whose fields all come from one
// definition with a verdict (every server of a tool that does not merge,
// most of one that does) takes them from what the verdict cache remembers
// of that definition (alone): an edit of a 1,000-server file resolves
// every server of every tool reading it again, and each sorted its
// fields and scanned its values for variables.
//
// was is the server of that name in Input.Prev, if any: where its winner
// had the same verdict in the same layer, its alone is this one's too,
// without asking the cache.
func resolve(res *Result, c *verdict.Cache, slab *slabs, was *Server, name string, ds []*Definition, deep bool) *Server {
	s := slab.server()
	*s = Server{Name: name, Definitions: ds, Enabled: true}
	var open []*Definition
	for _, d := range ds {
		if d.Gate.State == GateOpen {
			open = append(open, d)
		}
	}
	if len(open) == 0 {
		return s
	}
	s.Winner = open[0]
	// Put the winner first, keep the others in precedence order.
	if ds[0] != s.Winner {
		s.Definitions = append([]*Definition{s.Winner}, slices.DeleteFunc(slices.Clone(ds), func(d *Definition) bool { return d == s.Winner })...)
	}
	contributors := open[:1]
	if deep {
		contributors = open
	}
	if d := s.Winner; len(contributors) == 1 && d.Verdict != nil {
		var a *alone
		if was != nil && was.alone != nil && was.Winner.Verdict == d.Verdict && was.Winner.Source.Layer == d.Source.Layer && was.Winner.Source.Interpolation == d.Source.Interpolation {
			// The same verdict is the same name and bytes (the verdict
			// cache and reuse compare them), which parse alike: was's
			// fields fit.
			a = was.alone
		} else {
			a = aloneOf(res, c, d)
		}
		if a != nil {
			s.alone = a
			s.Fields = slab.fields(len(a.fields))
			for i, f := range a.fields {
				s.Fields[i] = Field{Key: f.key, From: d, at: f.index}
			}
			s.Ignored, s.Enabled, s.Variables = a.ignored, a.enabled, a.variables
			return s
		}
	}
	mergeFields(res, s, contributors)
	return s
}

// mergeFields sets s's fields, ignored keys, enabled state and variables
// from the contributors' definitions (read by res), the first one winning
// a key.
func mergeFields(res *Result, s *Server, contributors []*Definition) {
	if s.Fields == nil {
		// Room for every member of every contributor: one allocation
		// instead of a slice grown field by field.
		n := 0
		for _, d := range contributors {
			if v := res.Member(d).Value; v != nil && v.Kind == jsonc.Object {
				n += len(v.Members())
			}
		}
		if n > 0 {
			s.Fields = make([]Field, 0, n)
		}
	}
	for _, d := range contributors {
		v := res.Member(d).Value
		if v == nil || v.Kind != jsonc.Object {
			continue
		}
		for i := len(v.Members()) - 1; i >= 0; i-- {
			m := v.Members()[i]
			// A definition has a handful of fields: a scan of those taken
			// so far is cheaper than a set per server.
			if m.Key == nil || slices.ContainsFunc(s.Fields, func(f Field) bool { return f.Key == m.Key.Str }) {
				continue
			}
			if d.Verdict.Ignores(m.Key.Str) {
				// Dropped by the tool (OpenCode strips "env" from a local
				// entry): the server starts without it.
				if !slices.Contains(s.Ignored, m.Key.Str) {
					s.Ignored = append(s.Ignored, m.Key.Str)
				}
				continue
			}
			s.Fields = append(s.Fields, Field{Key: m.Key.Str, From: d, at: int32(i)})
		}
	}
	slices.SortFunc(s.Fields, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
	slices.Sort(s.Ignored)
	values := make([]*jsonc.Node, len(s.Fields))
	for i, f := range s.Fields {
		v := res.FieldMember(f).Value
		values[i] = v
		// Only where the layer's format has such a key: Claude Code and
		// Copilot CLI ignore an "enabled" in .mcp.json.
		if key := f.From.Source.Layer.EnabledKey; key != "" && f.Key == key && v != nil && v.Kind == jsonc.False {
			s.Enabled = false
		}
		if key := f.From.Source.Layer.DisabledKey; key != "" && f.Key == key && v != nil && v.Kind == jsonc.True {
			s.Enabled = false
		}
	}
	s.Variables = verdict.Variables(s.Winner.Source.Interpolation, values)
}

// alone is what resolve makes of a server defined by one definition: a
// function of the definition's verdict (which stands for its reader, name
// and text: the same bytes are the same subtree), its layer's keys and
// its source's interpolation (aloneKey). Shared between servers and
// snapshots: read-only.
type alone struct {
	fields    []aloneField // by key
	ignored   []string
	enabled   bool
	variables []string
	// facts are identity's and programOrURL's answers, computed on first
	// use.
	once sync.Once
	serverFacts
}

// aloneField is a field of the merged definition: its key and the index
// of its member in the definition's object.
type aloneField struct {
	key   string
	index int32
}

// aloneKey is what alone depends on besides the verdict's entry.
type aloneKey struct {
	layer  *registry.Layer
	interp *registry.Interpolation
}

// aloneOf returns what resolve makes of d alone (as res read it), from
// the cache c; nil when d is not an object.
func aloneOf(res *Result, c *verdict.Cache, d *Definition) *alone {
	v := res.Member(d).Value
	if v == nil || v.Kind != jsonc.Object {
		return nil
	}
	key := aloneKey{d.Source.Layer, d.Source.Interpolation}
	a, _ := c.Derived(d.Verdict, key, func() any {
		s := &Server{Winner: d, Enabled: true}
		mergeFields(res, s, []*Definition{d})
		a := &alone{ignored: s.Ignored, enabled: s.Enabled, variables: s.Variables, fields: make([]aloneField, len(s.Fields))}
		for i, f := range s.Fields {
			a.fields[i] = aloneField{key: f.Key, index: f.at}
		}
		return a
	}).(*alone)
	return a.of(v)
}

// of returns a if it fits the definition v, nil otherwise. The same bytes
// parse to the same subtree; should they not (a verdict cached from
// another parse of them), resolve computes afresh.
func (a *alone) of(v *jsonc.Node) *alone {
	if v == nil || v.Kind != jsonc.Object {
		return nil
	}
	for _, f := range a.fields {
		if f.index < 0 || int(f.index) >= len(v.Members()) || v.Members()[f.index].Key == nil || v.Members()[f.index].Key.Str != f.key {
			return nil
		}
	}
	return a
}

// candidate is one file a layer may read.
type candidate struct {
	path       string
	serverMaps [][]string
	// dir is the directory the file belongs to: the walk's directory,
	// or the file's own directory for a fixed file.
	dir string
	// reader is readerOf the path; notInFolder, notInFolder's answer
	// (set in a readPlan only).
	reader      *registry.Reader
	notInFolder bool
}

// readPlan is where a tool launched as an Input says looks for files: each
// layer's candidates, with how the tool reads each, and the directory its
// fallback files must be in. It depends on the Input but not on its
// files: a computation with a reusable Prev takes Prev's (an edit computes
// every tool again, and this was paths joined, cleaned and matched
// against every file kind).
type readPlan struct {
	layers []planLayer
}

type planLayer struct {
	files []candidate
	// fallbackAt is the layer's FallbackAt expanded; noFallback is set
	// when it names a directory that has no value here.
	fallbackAt string
	noFallback bool
}

// planOf returns prev's plan (prev: reusable(in)), else the one plans
// remembers, else computes it.
func planOf(in Input, prev *Result) *readPlan {
	if prev != nil && prev.plan != nil {
		return prev.plan
	}
	key := planKey{in.Tool, in.Registry, in.Env, in.LaunchDir, in.GitRoot, strings.Join(in.Folders, "\x00"), in.Folders == nil}
	plans.Lock()
	p, ok := plans.m[key]
	plans.Unlock()
	if ok {
		return p
	}
	p = newPlan(in)
	plans.Lock()
	if len(plans.m) >= maxPlans {
		clear(plans.m)
	}
	plans.m[key] = p
	plans.Unlock()
	return p
}

// plans remembers the plans of the tools launched in the last few places:
// every edit asks Survey whether each tool is in use, and the tools that
// are not have no result to keep theirs in.
var plans = struct {
	sync.Mutex
	m map[planKey]*readPlan
}{m: map[planKey]*readPlan{}}

const maxPlans = 256

// planKey is what a plan depends on (see reusable).
type planKey struct {
	tool               *registry.Tool
	registry           *registry.Registry
	env                registry.Env
	launchDir, gitRoot string
	folders            string
	noFolders          bool
}

func newPlan(in Input) *readPlan {
	p := &readPlan{layers: make([]planLayer, len(in.Tool.Profile.Layers))}
	for li := range in.Tool.Profile.Layers {
		layer := &in.Tool.Profile.Layers[li]
		l := &p.layers[li]
		l.files = layerFiles(in, layer)
		for i := range l.files {
			c := &l.files[i]
			c.reader, c.notInFolder = readerOf(in, c.path), notInFolder(in, c.path)
		}
		if layer.FallbackAt != "" {
			var ok bool
			l.fallbackAt, ok = expand(in, layer.FallbackAt)
			l.noFallback = !ok
		}
	}
	return p
}

// layerFiles lists a layer's candidate files, lowest precedence first.
func layerFiles(in Input, layer *registry.Layer) []candidate {
	var out []candidate
	for _, lf := range layer.Files {
		p, ok := expand(in, lf.Path)
		if !ok {
			continue
		}
		out = append(out, candidate{path: p, serverMaps: expandMaps(in, lf.ServerMaps), dir: filepath.Dir(p)})
	}
	if w := layer.Walk; w != nil {
		// Directories from the boundary down to the launch directory, so
		// that closer files come later and win.
		for _, dir := range walkDirs(in, w.Boundary) {
			for _, name := range w.Names {
				out = append(out, candidate{path: filepath.Join(dir, filepath.FromSlash(name)), serverMaps: expandMaps(in, w.ServerMaps), dir: dir})
			}
		}
	}
	return out
}

// preferredFile returns the file that keeps the fallback layer from being
// read: of the first layer it is a fallback for that has a file (in the
// layer's FallbackAt directory when it names one), the closest; "" when
// there is none and the layer is read. Existence is what counts, not
// whether the file parses, as the editor's kinds say (registry.MatchIn):
// an empty or broken .kilocode/mcp.json still keeps Kilo Code from
// reading .mcp.json.
func preferredFile(in Input, plan *readPlan, li int) string {
	layer := &in.Tool.Profile.Layers[li]
	if len(layer.FallbackFor) == 0 || plan.layers[li].noFallback {
		return ""
	}
	at := plan.layers[li].fallbackAt
	for _, id := range layer.FallbackFor {
		i := slices.IndexFunc(in.Tool.Profile.Layers, func(l registry.Layer) bool { return l.ID == id })
		if i < 0 {
			continue
		}
		found := ""
		for _, c := range plan.layers[i].files {
			if at != "" && c.dir != at || c.notInFolder || in.Files(c.path) == nil {
				continue
			}
			found = c.path
		}
		if found != "" {
			return found
		}
	}
	return ""
}

// walkDirs returns the directories from the boundary down to LaunchDir.
func walkDirs(in Input, boundary string) []string {
	stop := ""
	if boundary == "git-root" {
		stop = in.GitRoot
		if stop == "" {
			stop = in.LaunchDir
		}
	}
	var dirs []string
	for d := filepath.Clean(in.LaunchDir); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == stop || filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(dirs)
	return dirs
}

// expand resolves a path template. ok is false when a variable has no
// value (no home directory, OPENCODE_CONFIG unset).
func expand(in Input, tmpl string) (string, bool) {
	vars := map[string]string{
		"{launchDir}": in.LaunchDir,
		"{gitRoot}":   cmpOr(in.GitRoot, in.LaunchDir),
	}
	for v, val := range vars {
		if strings.HasPrefix(tmpl, v) {
			return filepath.Clean(val + filepath.FromSlash(tmpl[len(v):])), val != ""
		}
	}
	k := registry.FileKind{Paths: []string{tmpl}}
	paths := k.ResolvePaths(in.Env)
	if len(paths) == 0 {
		return "", false
	}
	return filepath.FromSlash(paths[0]), true
}

func expandMaps(in Input, maps [][]string) [][]string {
	out := make([][]string, len(maps))
	for i, m := range maps {
		out[i] = expandSegments(in, m)
	}
	return out
}

// expandSegments resolves "{launchDir}" and "{gitRoot}" segments of a JSON
// path (the keys of ~/.claude.json's projects are directories, with
// forward slashes). Claude Code keys a project by the git root of the
// launch directory, or the launch directory outside a repository.
func expandSegments(in Input, segs []string) []string {
	out := make([]string, len(segs))
	for i, seg := range segs {
		switch seg {
		case "{launchDir}":
			seg = filepath.ToSlash(in.LaunchDir)
		case "{gitRoot}":
			seg = filepath.ToSlash(cmpOr(in.GitRoot, in.LaunchDir))
		}
		out[i] = seg
	}
	return out
}

// serverMembers returns the members of the map at path (the last of
// duplicate names only: that is the one the tool reads); all says they
// are the map's members, every one, as the parse lists them.
func serverMembers(root *jsonc.Node, path []string) (_ []*jsonc.Member, all bool) {
	n := lookup(root, path...)
	if n == nil {
		return nil, false
	}
	if n.KeysUnique() && !slices.ContainsFunc(n.Members(), func(m *jsonc.Member) bool { return m.Key == nil }) {
		// The parser saw no key twice (a large map): every member, as
		// they are. Shared with the parse: read-only.
		return n.Members(), true
	}
	sm := &rules.ServerMap{Node: n}
	var out []*jsonc.Member
	for _, s := range sm.Servers() {
		out = append(out, s.Member)
	}
	return out, false
}

// byName groups defs (in reading order, lowest precedence first) by
// server name, names sorted, each group highest precedence first; unique
// says that every name was once, in order.
func byName(defs []*Definition) (_ [][]*Definition, unique bool) {
	if sortedUnique(defs) {
		// Every name once, in order (a single file's map, as most are
		// written): each definition is its own group.
		out := make([][]*Definition, len(defs))
		for i := range defs {
			out[i] = defs[i : i+1 : i+1]
		}
		return out, true
	}
	order := make([]int32, len(defs))
	for i := range order {
		order[i] = int32(i)
	}
	// Stable by reading order; pdqsort takes a sorted map in one pass.
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(defs[a].Name, defs[b].Name); c != 0 {
			return c
		}
		return int(a - b)
	})
	sorted := make([]*Definition, len(defs))
	for i, j := range order {
		sorted[i] = defs[j]
	}
	var out [][]*Definition
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].Name == sorted[i].Name {
			j++
		}
		g := sorted[i:j:j]
		slices.Reverse(g)
		out = append(out, g)
		i = j
	}
	return out, false
}

// sortedUnique reports whether the definitions' names are strictly
// increasing.
func sortedUnique(defs []*Definition) bool {
	for i := 1; i < len(defs); i++ {
		if defs[i-1].Name >= defs[i].Name {
			return false
		}
	}
	return true
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// PreferredName is how a message names the file a fallback gives way to:
// its path from the launch directory (".cursor/mcp.json": Kilo Code's
// .mcp.json fallback gives way to it), or its base name where it is not
// below it (Copilot CLI's .mcp.json in an ancestor).
func PreferredName(launchDir, preferred string) string {
	if rel, err := filepath.Rel(launchDir, preferred); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(preferred)
}

// folders are the workspace folders the input names, else the launch
// directory.
func (in Input) folders() []string {
	if in.Folders != nil {
		return in.Folders
	}
	return []string{in.LaunchDir}
}

// notInFolder reports whether the tool reads files like the one at path
// only directly in a workspace folder, and this one is not: VS Code does
// not read the .mcp.json of a subfolder it was not opened on, even where
// hover assumes the tools are launched there.
func notInFolder(in Input, path string) bool {
	if readerOf(in, path) != nil {
		return false
	}
	kind, ok := in.Registry.MatchAll(path, in.Env)
	if !ok {
		return false
	}
	r, ok := kind.Reader(in.Tool.ID)
	return ok && r.At == registry.AtWorkspaceFolder
}

// readerOf returns how the tool reads the file at path as a registered
// reader of its kind, nil if it is none.
func readerOf(in Input, path string) *registry.Reader {
	if kind, ok := in.Registry.MatchIn(path, in.Env, in.folders(), nil); ok {
		if r, ok := kind.Reader(in.Tool.ID); ok {
			return r
		}
	}
	return nil
}

// stoppedWhy says why the tool starts nothing: the file that stops it, what
// is wrong with it, and the tool's words.
func stoppedWhy(in Input, src *Source) string {
	why := fmt.Sprintf("%s stops at start-up: %s has %s", in.Tool.Name, filepath.Base(src.Path), src.Dropped)
	if r := readerOf(in, src.Path); r != nil && r.SyntaxError.Message != "" {
		why += fmt.Sprintf(" (%q)", r.SyntaxError.Message)
	}
	return why
}

// dropped says why the tool ignores the whole file, "" if it reads it. A
// syntax error drops any file; comments, trailing commas or a byte-order
// mark drop it where the tool reads strict JSON. The registry says so per
// reader of the file's kind (and the syntax rules report it in the file
// itself); for a tool that reads the file through its profile only
// (Atomic TUI reads .mcp.json with its own JSONC parser), the layer says.
func dropped(r *registry.Reader, layer *registry.Layer, f *jsonc.File) string {
	if len(f.Errors) > 0 {
		return "syntax error"
	}
	commentsOK, commasOK, bomOK := true, true, true
	if layer.JSONC != nil {
		commentsOK, commasOK = layer.JSONC.Value, layer.JSONC.Value
	}
	if layer.BOM != nil {
		bomOK = layer.BOM.Value
	}
	if r != nil {
		commentsOK, commasOK, bomOK = r.AcceptsComments(), r.AcceptsTrailingCommas(), r.BOM.Value
	}
	switch {
	case !commentsOK && len(f.Comments) > 0:
		return "comments in strict JSON"
	case !commasOK && len(f.TrailingCommas) > 0 && !commentsOK:
		return "trailing commas in strict JSON"
	case !commasOK && len(f.TrailingCommas) > 0:
		return "trailing comma"
	case !bomOK && f.BOM:
		return "byte-order mark"
	}
	return ""
}

// judge returns the tool's verdict on the server m of f, nil when the tool
// reads the file only through its profile (Atomic TUI reads .mcp.json
// with its own parser) and takes every entry.
func judge(in Input, r *registry.Reader, f *jsonc.File, m *jsonc.Member) *verdict.Verdict {
	if r == nil || m.Value == nil {
		return nil
	}
	v := m.Value
	return verdict.Of(in.Verdicts, in.Registry, r, verdict.Entry{Name: m.Key.Str, Value: v, Text: f.Src[v.Span.Start:v.Span.End]})
}

// why is the short reason of a verdict that does not load the entry.
func why(v *verdict.Verdict) string {
	if r := v.Why(); r != nil {
		if r.Field != "" && r.Code == verdict.CodeMissingField && !strings.Contains(r.Detail, r.Field) {
			return r.Field + ": " + r.Detail
		}
		return r.Detail
	}
	return "invalid entry"
}
