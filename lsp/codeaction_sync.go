package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// Sync code actions on a server: "Add to <tool>" for each tool in use
// that lacks it, "Copy to every tool in use", and "Disable in <tool>" /
// "Enable in <tool>" (codeaction_switch.go). They are `mcp-lsp sync` and
// `mcp-lsp enable|disable` for one server, computed by the same engine
// (analysis/sync): the same target files, the same minimal edits, and the
// same records (.mcp-lsp/sync.json), so a later sync, or drift, knows the
// entries the editor wrote.

// The actions of resolveData.Action. A conversion leaves it empty.
const (
	actionConvert = "convert" // Convert to <Tool>: Data.Tool
	actionAdd     = "add"     // Add to <Tool>: Data.Tool
	actionCopy    = "copy"    // Copy to every tool in use
	actionDisable = "disable" // Disable in <Tool>: Data.Tool
	actionEnable  = "enable"  // Enable in <Tool>: Data.Tool
)

// syncView is what the sync actions of one file see: the project the
// file's tools are launched in, their effective configurations there, and
// the records of earlier syncs.
type syncView struct {
	af      *actionFile
	ws      *fix.Workspace
	launch  cache.Folder
	results []*effective.Result
	records *mcpsync.Records
	recPath string
	recOld  []byte
	recHas  bool
	src     *mcpsync.Source // source(), once found
	srcOK   bool
}

// newSyncView builds the view; ok is false for a file that has no
// project to sync into (a user-level file outside any workspace folder),
// or records that cannot be read (the CLI reports those; an editor offers
// nothing rather than overwrite them).
func newSyncView(af *actionFile) (*syncView, bool) {
	ws, ok := af.workspace()
	if !ok {
		return nil, false
	}
	launch := cache.LaunchDir(af.doc.Path, af.doc.Kind, af.opts.Folders)
	v := &syncView{af: af, ws: ws, launch: launch, results: af.snap.Effective(launch.Path, launch.GitRoot, af.opts)}
	v.recPath = filepath.Join(ws.ProjectDir, filepath.FromSlash(mcpsync.RecordsFile))
	rf := af.snap.File(v.recPath)
	if rf.ReadErr != nil {
		return nil, false
	}
	v.recOld, v.recHas = rf.Content, rf.Exists
	recs, err := mcpsync.ParseRecords(rf.Content)
	if err != nil {
		return nil, false
	}
	v.records = recs
	return v, true
}

// source is the file the action is on, as a sync source, with its parse;
// found once per view (each tool's action plans from it).
func (v *syncView) source() (mcpsync.Source, bool) {
	if v.src == nil {
		src, ok := v.sourceOf(v.af.doc.Path, v.af.doc.Content)
		src.Parsed = v.af.doc.Parsed
		v.src, v.srcOK = &src, ok
	}
	return *v.src, v.srcOK
}

// computeOne plans syncing the server called name of the file the action
// is on into targets, reading it in the dialect of each tool that reads
// the file in turn until one takes it (an entry Claude Code rejects may
// be one Copilot CLI reads, as the conversions did).
func (v *syncView) computeOne(name string, targets []mcpsync.Target, opts mcpsync.Options) (*mcpsync.Plan, mcpsync.Source, error) {
	src, ok := v.source()
	if !ok {
		return nil, src, errors.New("not a sync source")
	}
	opts.Only = name
	plan, err := mcpsync.Compute(src, nil, targets, v.records, opts)
	if err == nil || v.af.doc.Kind == nil {
		return plan, src, err
	}
	for _, r := range v.af.doc.Kind.Readers {
		d := string(r.Dialect)
		if d == src.Dialect || len(r.ServerMaps) == 0 || !slices.Contains(convert.Dialects(), convert.Dialect(d)) {
			continue
		}
		alt := src
		alt.Dialect = d
		if p, e := mcpsync.Compute(alt, nil, targets, v.records, opts); e == nil {
			return p, alt, nil
		}
	}
	return nil, src, err
}

// sourceOf is a file as a sync source: its servers in the dialect of the
// first tool that reads them, or, for a file no tool reads (an
// extension's mcp.json), Claude Code's with the automatic resolution. ok
// is false for a file sync cannot read servers from (TOML).
func (v *syncView) sourceOf(path string, content []byte) (mcpsync.Source, bool) {
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		return mcpsync.Source{}, false
	}
	src := mcpsync.Source{Path: path, Rel: mcpsync.RelName(v.ws.ProjectDir, path), Content: content}
	kind, ok := v.ws.Registry.Match(path, v.ws.Env)
	if !ok {
		src.Dialect, src.Auto = "claude-code", true
		return src, true
	}
	for _, r := range kind.Readers {
		if len(r.ServerMaps) > 0 && slices.Contains(convert.Dialects(), string(r.Dialect)) {
			src.Dialect = string(r.Dialect)
			return src, true
		}
	}
	return mcpsync.Source{}, false
}

// syncUpdate is "Update from <source>" for a server of this file that sync
// wrote: the source's version written again over the hand edit (sync
// --force for one server), or why it cannot be computed here.
type syncUpdate struct {
	rec    mcpsync.Record
	target mcpsync.Target
	plan   *mcpsync.Plan // nil when unresolved
	// unresolved are the source's template variables that have no value
	// here (mcpsync.TemplateError): the update is not offered with a
	// {{...}} left in it, the user is told which and how to give them.
	unresolved []error
}

// planUpdate plans the update of server. The source's template is
// resolved as `mcp-lsp sync` resolves it (mcpsync.TemplateValues: the
// root, the Python found, the --var values recorded at its last sync).
// ok is false when the server has no record here, its source cannot be
// read, or the update would change nothing.
func (v *syncView) planUpdate(server string) (syncUpdate, bool) {
	doc := v.af.doc
	rec, ok := v.records.Find(mcpsync.RelName(v.ws.ProjectDir, doc.Path), server)
	if !ok {
		return syncUpdate{}, false
	}
	t, ok := mcpsync.TargetOf(v.ws.Registry, v.ws.Env, v.ws.ProjectDir, rec)
	if !ok || t.Path != doc.Path {
		return syncUpdate{}, false
	}
	t.Content, t.Exists = doc.Content, true
	u := syncUpdate{rec: rec, target: t}
	srcPath := filepath.FromSlash(rec.Source)
	if !filepath.IsAbs(srcPath) {
		srcPath = filepath.Join(v.ws.ProjectDir, srcPath)
	}
	content, exists, err := v.ws.File(srcPath)
	if err != nil || !exists {
		return syncUpdate{}, false
	}
	vars := mcpsync.TemplateValues(v.ws.ProjectDir, srcPath, v.records.Vars[rec.Source], nil, cache.SyncHost())
	resolved, _, errs := mcpsync.Resolve(content, vars)
	if len(errs) > 0 {
		u.unresolved = errs
		return u, true
	}
	src, ok := v.sourceOf(srcPath, resolved)
	if !ok {
		return syncUpdate{}, false
	}
	src.Rel = rec.Source
	plan, err := mcpsync.Compute(src, vars, []mcpsync.Target{t}, v.records, mcpsync.Options{Only: server, Force: true})
	if err != nil || len(plan.Targets) != 1 || !plan.Targets[0].Changed() {
		return syncUpdate{}, false
	}
	u.plan = plan
	return u, true
}

// unresolvedReason says which variables of the source have no value and
// how to give them.
func (u syncUpdate) unresolvedReason() string {
	msgs := make([]string, len(u.unresolved))
	for i, e := range u.unresolved {
		msgs[i] = e.Error()
	}
	return fmt.Sprintf("%s has template variables with no value here: %s. Run mcp-lsp sync with --var NAME=VALUE once; sync records the values it is given (unless they look like secrets) for the next update",
		u.rec.Source, strings.Join(msgs, "; "))
}

// driftFix is the quick fix of a sync-drift finding: "Update from
// <source>"; disabled, with the reason, when the source's template has
// variables without a value here.
func (s *Server) driftFix(af *actionFile, server string, raw json.RawMessage, caps codeActionCaps) (codeAction, bool) {
	v, ok := newSyncView(af)
	if !ok {
		return codeAction{}, false
	}
	u, ok := v.planUpdate(server)
	if !ok {
		return codeAction{}, false
	}
	a := codeAction{Title: "Update from " + u.rec.Source, Kind: protocol.QuickFix, Diagnostics: []json.RawMessage{raw}}
	if u.plan == nil {
		return disabledAction(a, u.unresolvedReason(), caps)
	}
	o := &addOffer{plan: u.plan, record: true}
	edit, err := toWorkspaceEdit(af.snap, o.change(v), caps.edits)
	if err != nil {
		s.logger.Error("sync update edit", "error", err)
		return codeAction{}, false
	}
	a.IsPreferred, a.Edit = true, edit
	return a, true
}

// lacking lists the tools in use here (those with an effective
// configuration, which sync can write) that have no server called name.
func (v *syncView) lacking(name string) []string {
	var out []string
	for _, r := range v.results {
		tool := string(r.Tool.ID)
		if _, ok := mcpsync.DialectOf(v.ws.Registry, tool); !ok || len(r.Sources) == 0 {
			continue
		}
		if slices.ContainsFunc(r.Servers, func(s *effective.Server) bool { return s.Name == name }) {
			continue
		}
		if !slices.Contains(out, tool) {
			out = append(out, tool)
		}
	}
	return out
}

// addOffer is one "Add to" (or, with several tools, "Copy to every tool
// in use", or a "Convert to"): the plan of syncing one server into those
// tools.
type addOffer struct {
	title  string
	plan   *mcpsync.Plan
	create bool   // some target file does not exist yet
	target string // the first target file, for the reason of a disabled action
	// record writes the plan's records (.mcp-lsp/sync.json) with the
	// targets: "Add to" and "Update from" do; "Convert to" is a copy, and
	// updates the records only where the entry it replaces was recorded.
	record bool
}

// planAdd plans syncing the server called name into tools; ok is false
// when it adds nothing to any of them (each already has a server of that
// name, cannot hold it, or does not parse).
func (v *syncView) planAdd(name string, tools []string) (*addOffer, bool) {
	src, ok := v.source()
	if !ok {
		return nil, false
	}
	var targets []mcpsync.Target
	for _, tool := range tools {
		t, err := mcpsync.TargetFor(v.ws, tool, mcpsync.ScopeProject, v.ws.ProjectDir)
		if err != nil || t.Path == src.Path || slices.ContainsFunc(targets, func(x mcpsync.Target) bool { return x.Path == t.Path }) {
			continue
		}
		targets = append(targets, t)
	}
	plan, _, err := v.computeOne(name, targets, mcpsync.Options{})
	if err != nil {
		return nil, false
	}
	o := &addOffer{plan: plan, record: true}
	var into []string
	var losses []convert.Loss
	kept := plan.Targets[:0:0]
	for _, tp := range plan.Targets {
		if !tp.Changed() || !slices.ContainsFunc(tp.Actions, func(a mcpsync.Action) bool { return a.Kind == mcpsync.Added }) {
			continue
		}
		kept = append(kept, tp)
		into = append(into, cache.DisplayPath(tp.Target.Path, v.af.opts))
		if !tp.Target.Exists {
			o.create = true
			if o.target == "" {
				o.target = tp.Target.Path
			}
		}
		for _, a := range tp.Actions {
			losses = append(losses, a.Losses...)
		}
	}
	if len(kept) == 0 {
		return nil, false
	}
	plan.Targets = kept
	o.title = strings.Join(append([]string{"in " + strings.Join(into, ", ")}, fix.LossSummary(losses, false)...), "; ")
	return o, true
}

// change is the offer's edit: the target files and the records.
func (o *addOffer) change(v *syncView) *fix.Change {
	ch := &fix.Change{}
	for _, tp := range o.plan.Targets {
		if e := tp.Edit(); e != nil {
			ch.Creates = append(ch.Creates, e.Creates...)
			ch.Edits = append(ch.Edits, e.Edits...)
		}
	}
	if !o.record {
		return ch
	}
	recs := o.plan.Records.Marshal()
	switch {
	case !v.recHas:
		ch.Creates = append(ch.Creates, fix.Create{Path: v.recPath, Content: recs})
	case string(recs) != string(v.recOld):
		ch.Edits = append(ch.Edits, fix.DiffEdits(v.recPath, v.recOld, recs)...)
	}
	return ch
}

// syncOffer is a sync action before it becomes a codeAction: its title,
// what resolving it needs, and its change (computed only when needed).
type syncOffer struct {
	title  string
	data   resolveData
	create string // a file the change creates ("" for none)
	// disabled says why the change cannot be made ("" when it can).
	disabled string
	change   func() (*fix.Change, error)
}

// addOffers lists "Add to <Tool>" for each file of the tools in use that
// lack the server (tools that share a file, like Claude Code and Copilot
// CLI in .mcp.json, share the action), then "Copy to every tool in use"
// when there are several files.
func (v *syncView) addOffers(name string) []syncOffer {
	type group struct {
		path  string
		tools []string
	}
	var groups []*group
	for _, tool := range v.lacking(name) {
		t, err := mcpsync.TargetFor(v.ws, tool, mcpsync.ScopeProject, v.ws.ProjectDir)
		if err != nil {
			continue
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.path == t.Path })
		if i < 0 {
			groups = append(groups, &group{path: t.Path})
			i = len(groups) - 1
		}
		groups[i].tools = append(groups[i].tools, tool)
	}
	var out []syncOffer
	var all []string
	n := 0
	for _, g := range groups {
		o, ok := v.planAdd(name, g.tools[:1])
		if !ok {
			continue
		}
		n++
		all = append(all, g.tools...)
		names := make([]string, len(g.tools))
		for i, t := range g.tools {
			names[i] = v.toolName(t)
		}
		out = append(out, v.offer(o, fmt.Sprintf("Add to %s (%s)", strings.Join(names, " and "), o.title), actionAdd, name, g.tools[0]))
	}
	if n > 1 {
		if o, ok := v.planAdd(name, all); ok {
			out = append(out, v.offer(o, fmt.Sprintf("Copy to every tool in use (%s)", o.title), actionCopy, name, ""))
		}
	}
	return out
}

func (v *syncView) offer(o *addOffer, title, action, name, tool string) syncOffer {
	so := syncOffer{title: title, data: resolveData{Server: name, Action: action, Tool: tool},
		change: func() (*fix.Change, error) { return o.change(v), nil }}
	switch {
	case o.create:
		so.create = o.target
	case !v.recHas && o.record:
		so.create = v.recPath // the records are created with the first sync
	}
	return so
}

// convertOffers lists "Convert to <Tool>" for the server called name: a
// copy of it in another tool's format, in the file "Add to" and `mcp-lsp
// sync` write (Codex CLI's config.toml included), computed by the same
// engine with the same edits. It is offered for the tools that get no
// "Add to" here: a tool not in use (its file is created, or Claude
// Desktop's user file written), a tool that already has a server of that
// name (replaced), or one whose file cannot be edited (offered disabled,
// with the reason). Not for a tool that reads this file, nor one that
// cannot hold the server.
//
// canCreate says the client can create files: without it, and without a
// records file yet, "Add to" is offered disabled (it creates
// .mcp-lsp/sync.json), and "Convert to" stays for every tool.
func (v *syncView) convertOffers(name string, canCreate bool) []syncOffer {
	src, ok := v.source()
	if !ok {
		return nil
	}
	reg := v.ws.Registry
	lacking := v.lacking(name)
	var out []syncOffer
	for _, dialect := range convert.Dialects() {
		d, ok := reg.Dialect(registry.DialectID(dialect))
		if !ok || readsIn(v.af.doc.Kind, d) {
			continue
		}
		tool := string(d.Tool)
		t, err := mcpsync.TargetFor(v.ws, tool, mcpsync.ScopeProject, v.ws.ProjectDir)
		if err != nil || t.Path == src.Path {
			continue
		}
		plan, _, err := v.computeOne(name, []mcpsync.Target{t}, mcpsync.Options{Force: true})
		if err != nil || len(plan.Targets) != 1 {
			continue
		}
		tp := plan.Targets[0]
		if tp.Err != nil && !v.canHold(name, t) {
			continue // a broken file, but its tool could not take the server anyway
		}
		i := slices.IndexFunc(tp.Actions, func(a mcpsync.Action) bool { return a.Server == name })
		var act mcpsync.Action
		if i >= 0 {
			act = tp.Actions[i]
		}
		switch {
		case tp.Err == nil && (i < 0 || act.Kind == mcpsync.Refused || act.Kind == mcpsync.UpToDate):
			continue // cannot hold it, or already has it as it would be written
		case tp.Err == nil && act.Kind == mcpsync.Added && slices.Contains(lacking, tool) && (v.recHas || canCreate):
			continue // "Add to <Tool>" offers it
		}
		_, replaces := t.CurrentEntry(name)
		var parts []string
		where := cache.DisplayPath(t.Path, v.af.opts)
		if kind, ok := reg.Match(t.Path, v.ws.Env); replaces {
			parts = append(parts, fmt.Sprintf("replaces %q in %s", name, where))
		} else if ok && kind.Scope != registry.ScopeProject {
			parts = append(parts, "in "+where)
		}
		parts = append(parts, fix.LossSummary(act.Losses, false)...)
		title := "Convert to " + toolName(reg, tool)
		if len(parts) > 0 {
			title += " (" + strings.Join(parts, "; ") + ")"
		}
		_, recorded := v.records.Find(t.Rel, name)
		o := &addOffer{plan: plan, record: recorded, create: !t.Exists, target: t.Path}
		so := v.offer(o, title, actionConvert, name, tool)
		if tp.Err != nil {
			so.disabled = tp.Err.Error()
			if errors.Is(tp.Err, fix.ErrSyntax) {
				so.disabled = where + " has syntax errors; fix them first"
			}
		}
		out = append(out, so)
	}
	return out
}

// canHold reports whether t's tool can take the server called name: it
// is not refused when written into an empty file of t's kind.
func (v *syncView) canHold(name string, t mcpsync.Target) bool {
	t.Content, t.Exists = nil, false
	plan, _, err := v.computeOne(name, []mcpsync.Target{t}, mcpsync.Options{Force: true})
	return err == nil && len(plan.Targets) == 1 && slices.ContainsFunc(plan.Targets[0].Actions, func(a mcpsync.Action) bool {
		return a.Server == name && a.Kind != mcpsync.Refused
	})
}

// readsIn reports whether the dialect's own tool reads kind in it: a copy
// there would be read twice. Another tool sharing the dialect does not
// count (Kilo Code reads .mcp.json in Roo Code's dialect; Roo Code does
// not read it).
func readsIn(kind *registry.FileKind, d *registry.Dialect) bool {
	if kind == nil {
		return false
	}
	return slices.ContainsFunc(kind.Readers, func(r registry.Reader) bool { return r.Dialect == d.ID && r.Tool == d.Tool })
}

// toolName is a tool's display name.
func toolName(reg *registry.Registry, tool string) string {
	if t, ok := reg.Tool(registry.ToolID(tool)); ok {
		return t.Name
	}
	return tool
}

// findOffer recomputes the offer a resolve asks for.
func (v *syncView) findOffer(d *resolveData, canCreate bool) (syncOffer, bool) {
	var offers []syncOffer
	switch d.Action {
	case actionConvert:
		offers = v.convertOffers(d.Server, canCreate)
	case actionAdd, actionCopy:
		offers = v.addOffers(d.Server)
	case actionDisable, actionEnable:
		offers = v.switchOffers(d.Server)
	}
	for _, o := range offers {
		if o.data.Action == d.Action && o.data.Tool == d.Tool {
			return o, true
		}
	}
	return syncOffer{}, false
}

func (v *syncView) toolName(tool string) string {
	for _, r := range v.results {
		if string(r.Tool.ID) == tool {
			return r.Tool.Name
		}
	}
	return tool
}

// syncActions offers the sync actions of the server the range is in.
func (s *Server) syncActions(af *actionFile, uri protocol.DocumentURI, name string, caps codeActionCaps) []codeAction {
	v, ok := newSyncView(af)
	if !ok {
		return nil
	}
	var out []codeAction
	for _, so := range slices.Concat(v.convertOffers(name, caps.edits.create), v.addOffers(name), v.switchOffers(name)) {
		if a, ok := s.syncAction(af, uri, so, caps); ok {
			out = append(out, a)
		}
	}
	return out
}

// syncAction turns an offer into an action, the way conversionAction
// does: disabled when it must create a file the client cannot, lazy when
// the client resolves edits, else with its edit.
func (s *Server) syncAction(af *actionFile, uri protocol.DocumentURI, so syncOffer, caps codeActionCaps) (codeAction, bool) {
	a := codeAction{Title: so.title, Kind: protocol.RefactorRewrite}
	reason := so.disabled
	if reason == "" && so.create != "" && !caps.edits.create {
		reason = cannotCreateReason(so.create, af.opts)
	}
	if reason != "" {
		return disabledAction(a, reason, caps)
	}
	if caps.resolve {
		d := so.data
		d.URI = uri
		a.Data = &d
		return a, true
	}
	ch, err := so.change()
	if err == nil {
		a.Edit, err = toWorkspaceEdit(af.snap, ch, caps.edits)
	}
	if err != nil {
		s.logger.Error("sync action edit", "action", so.data.Action, "tool", so.data.Tool, "error", err)
		return a, false
	}
	return a, true
}

// resolveSyncAction computes the edit of a sync action offered without
// one, on the current snapshot; the offer must still have the title the
// user picked.
func (s *Server) resolveSyncAction(af *actionFile, a *codeAction) (*codeAction, error) {
	v, ok := newSyncView(af)
	if !ok {
		return nil, errStaleAction
	}
	caps := s.codeActionCaps()
	so, ok := v.findOffer(a.Data, caps.edits.create)
	if !ok || so.title != a.Title || so.disabled != "" || so.create != "" && !caps.edits.create {
		return nil, errStaleAction
	}
	ch, err := so.change()
	if err != nil {
		return nil, err
	}
	if a.Edit, err = toWorkspaceEdit(af.snap, ch, caps.edits); err != nil {
		s.logger.Error("sync action edit", "action", so.data.Action, "tool", so.data.Tool, "error", err)
		return nil, err
	}
	return a, nil
}
