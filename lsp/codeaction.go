package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// Code actions: quick fixes for the rules' diagnostics, "fix all" of the
// safe ones, and conversions of a server or a file into another tool's
// format. The edits come from package fix; this file decides what the
// client can take and converts.
//
// textDocument/codeAction is decoded here (see extraHandler) rather than
// by go.lsp.dev/protocol, whose CodeAction cannot carry file creations
// and whose decode turns each diagnostic's Data into an untyped map: the
// diagnostics are kept raw instead, echoed back byte for byte in the
// actions that fix them, and matched to the snapshot's findings by code
// and range (published diagnostics carry no data: quickFixActions).
//
// Quick fixes and fix-all are cheap and always carry their edit.
// Conversions render whole servers (or files) into another file: when
// the client can resolve edits (resolveSupport "edit" with dataSupport)
// they are listed without one and computed by codeAction/resolve
// (codeaction_resolve.go); otherwise eagerly. A conversion that must
// create its target needs the "create" resource operation; without it
// the action is offered disabled with the reason (where the client shows
// reasons), else not at all.

// The code action kinds mcp-lsp offers (advertised in initialize).
var codeActionKinds = []protocol.CodeActionKind{protocol.QuickFix, protocol.RefactorRewrite, sourceFixAll}

// sourceFixAll is LSP 3.15's source.fixAll, which go.lsp.dev lacks.
const sourceFixAll protocol.CodeActionKind = "source.fixAll"

// codeActionParams is CodeActionParams with the diagnostics kept raw.
type codeActionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
	Context      struct {
		Diagnostics []json.RawMessage         `json:"diagnostics"`
		Only        []protocol.CodeActionKind `json:"only,omitempty"`
	} `json:"context"`
}

// codeAction is LSP's CodeAction with our own edit type (see
// codeaction_edit.go) and the client's diagnostics kept raw.
type codeAction struct {
	Title       string                      `json:"title"`
	Kind        protocol.CodeActionKind     `json:"kind,omitempty"`
	Diagnostics []json.RawMessage           `json:"diagnostics,omitempty"`
	IsPreferred bool                        `json:"isPreferred,omitempty"`
	Disabled    *protocol.CodeActionDisable `json:"disabled,omitempty"`
	Edit        *workspaceEdit              `json:"edit,omitempty"`
	Data        *resolveData                `json:"data,omitempty"`
}

// codeActionCaps is what the client's code actions can do.
type codeActionCaps struct {
	literals bool // CodeAction literals, not only commands
	disabled bool // "disabled" with a reason
	resolve  bool // codeAction/resolve computes "edit" (and "data" comes back)
	edits    editCaps
}

func (s *Server) codeActionCaps() codeActionCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	ca, we := s.rawCaps.TextDocument.CodeAction, s.rawCaps.Workspace.WorkspaceEdit
	return codeActionCaps{
		literals: len(ca.CodeActionLiteralSupport) > 0 && string(ca.CodeActionLiteralSupport) != "null",
		disabled: ca.DisabledSupport,
		resolve:  ca.DataSupport && slices.Contains(ca.ResolveSupport.Properties, "edit"),
		edits: editCaps{
			documentChanges: we.DocumentChanges,
			create:          we.DocumentChanges && slices.Contains(we.ResourceOperations, "create"),
			mappers:         s.mappers,
		},
	}
}

// serveCodeAction decodes and answers textDocument/codeAction.
func (s *Server) serveCodeAction(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params codeActionParams
	// segmentio's decoder: a client may echo every diagnostic of a large
	// file (a 1,000-server file's 700 KB), which encoding/json took 30 ms
	// to decode.
	if err := sjson.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	actions, err := s.codeActions(ctx, &params)
	return reply(ctx, actions, err)
}

// actionFile is the file a code action request is about, resolved in the
// current snapshot.
type actionFile struct {
	snap *cache.Snapshot
	opts cache.DiagnoseOptions
	file *cache.File
	doc  *fix.Document
	m    *Mapper
}

// resolveActionFile finds uri in the current snapshot; ok is false when it
// is not an MCP configuration file mcp-lsp knows.
func (s *Server) resolveActionFile(ctx context.Context, uri protocol.DocumentURI) (*actionFile, bool) {
	path, ok := uriToPath(uri)
	if !ok {
		return nil, false
	}
	snap, opts := s.view(ctx)
	kind, ok := snap.Match(path, opts)
	f := snap.File(path)
	if !ok || !f.Exists || f.ReadErr != nil {
		return nil, false
	}
	return &actionFile{
		snap: snap, opts: opts, file: f, m: s.mappers.of(f),
		doc: &fix.Document{Path: path, Content: f.Content, Parsed: snap.Parse(f), Kind: kind},
	}, true
}

// codeActions lists the actions for a range: quick fixes of the
// diagnostics there, conversions (of the server the range is in, else of
// the whole file), and, when asked for by kind, fix-all.
func (s *Server) codeActions(ctx context.Context, params *codeActionParams) ([]codeAction, error) {
	out := []codeAction{}
	caps := s.codeActionCaps()
	if !caps.literals {
		return out, nil // a client that only takes commands: we have none
	}
	af, ok := s.resolveActionFile(ctx, params.TextDocument.URI)
	if !ok {
		return out, nil
	}
	sp, err := af.m.Span(params.Range)
	if err != nil {
		return nil, err
	}
	only := params.Context.Only
	if wantKind(only, protocol.QuickFix, false) {
		out = append(out, s.quickFixActions(af, params.Range, sp, params.Context.Diagnostics, caps)...)
	}
	if wantKind(only, protocol.RefactorRewrite, false) {
		out = append(out, s.conversionActions(af, params.TextDocument.URI, sp, caps)...)
	}
	if wantKind(only, sourceFixAll, true) {
		out = append(out, s.fixAllActions(af, caps)...)
	}
	return out, nil
}

// wantKind reports whether a request with context.only asks for kind: an
// empty only asks for everything but source actions (which editors run
// on demand, e.g. on save), and "refactor" asks for "refactor.rewrite".
func wantKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind, source bool) bool {
	if len(only) == 0 {
		return !source
	}
	for _, o := range only {
		if o == kind || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

// clientDiagnostic is the part of a diagnostic echoed by the client that
// identifies the finding it shows.
type clientDiagnostic struct {
	Range   protocol.Range `json:"range"`
	Code    any            `json:"code"`
	Source  string         `json:"source"`
	Message string         `json:"message"`
}

// quickFixActions offers the fixes of the diagnostics the client sent
// that overlap the range rng (sp in bytes), which are the ones LSP says
// it sends: a client that sends every diagnostic of a 1,000-server file
// gets the fixes at the cursor, not a thousand. A client that sends none
// gets the fixes of the diagnostics the server finds in the range now.
//
// Published diagnostics carry no data (what a fix needs would be a third
// of every publication's bytes, decoded by the client on every edit and
// never read but here): each diagnostic the client sends is matched to
// the finding of the current snapshot with its code and range
// (findings.of), whose data the fix reads. One that matches none is stale
// (the file changed since it was published) and gets no fix.
func (s *Server) quickFixActions(af *actionFile, rng protocol.Range, sp span.Span, raw []json.RawMessage, caps codeActionCaps) []codeAction {
	type pending struct {
		diag fix.Diagnostic
		raw  json.RawMessage
	}
	var todo []pending
	_, found, _ := af.snap.Diagnose(af.doc.Path, af.opts)
	index := newFindings(af.m, found)
	for _, r := range raw {
		var cd clientDiagnostic
		if sjson.Unmarshal(r, &cd) != nil || cd.Source != "mcp-lsp" {
			continue
		}
		code, ok := cd.Code.(string)
		if !ok || !overlaps(cd.Range, rng) {
			continue
		}
		if d, ok := index.of(code, cd.Range, cd.Message); ok {
			todo = append(todo, pending{fix.FromAnalysis([]rules.Diagnostic{d})[0], r})
		}
	}
	if len(todo) == 0 && len(raw) == 0 {
		loc := newLocator(af.snap, s.mappers)
		for _, d := range found {
			if d.Span.Start > sp.End || d.Span.End < sp.Start {
				continue
			}
			pd := convertDiagnostics(loc, af.file, []rules.Diagnostic{d}, s.logger)
			if len(pd) == 0 {
				continue
			}
			r, _ := json.Marshal(pd[0])
			todo = append(todo, pending{fix.FromAnalysis([]rules.Diagnostic{d})[0], r})
		}
	}
	var out []codeAction
	for _, p := range todo {
		if p.diag.Code == rules.CodeSyncDrift {
			if a, ok := s.driftFix(af, p.diag.Data.Server, p.raw, caps); ok {
				out = append(out, a)
			}
			continue
		}
		for _, fx := range fix.QuickFixes(af.doc, p.diag) {
			edit, err := toWorkspaceEdit(af.snap, &fix.Change{Edits: fx.Edits}, caps.edits)
			if err != nil {
				s.logger.Error("quick fix edit", "code", p.diag.Code, "error", err)
				continue
			}
			out = append(out, codeAction{
				Title:       fx.Title,
				Kind:        protocol.QuickFix,
				Diagnostics: []json.RawMessage{p.raw},
				IsPreferred: fx.Preferred,
				Edit:        edit,
			})
		}
	}
	return out
}

// fixAllActions offers one action applying every safe fix of the file
// (fix.FixAll), computed from the diagnostics of the current snapshot.
func (s *Server) fixAllActions(af *actionFile, caps codeActionCaps) []codeAction {
	_, found, _ := af.snap.Diagnose(af.doc.Path, af.opts)
	edits, n := fix.FixAll(af.doc, fix.FromAnalysis(found))
	if n == 0 {
		return nil
	}
	edit, err := toWorkspaceEdit(af.snap, &fix.Change{Edits: edits}, caps.edits)
	if err != nil {
		s.logger.Error("fix-all edit", "error", err)
		return nil
	}
	title := "Apply the safe fix"
	if n > 1 {
		title = fmt.Sprintf("Apply all %d safe fixes", n)
	}
	return []codeAction{{Title: title, Kind: sourceFixAll, Edit: edit}}
}

// workspace is the conversions' view of the world from af: the project
// directory of its file and the snapshot's files. ok is false for a
// user-level file outside any workspace folder: it has no project to
// convert into.
func (af *actionFile) workspace() (*fix.Workspace, bool) {
	path := af.doc.Path
	if af.doc.Kind.Scope != registry.ScopeProject && len(af.opts.Folders) == 0 {
		return nil, false
	}
	return &fix.Workspace{
		Registry:   af.opts.Registry,
		Env:        af.opts.Env,
		ProjectDir: cache.LaunchDir(path, af.doc.Kind, af.opts.Folders).Path,
		File: func(p string) ([]byte, bool, error) {
			f := af.snap.File(p)
			return f.Content, f.Exists, f.ReadErr
		},
	}, true
}

// conversionActions offers the sync actions of the server the range is in
// (codeaction_sync.go: "Convert to <tool>", "Add to <tool>"...), or
// "Convert this file to <tool>" when it is in none.
func (s *Server) conversionActions(af *actionFile, uri protocol.DocumentURI, sp span.Span, caps codeActionCaps) []codeAction {
	ws, ok := af.workspace()
	if !ok {
		return nil
	}
	if name, inServer := fix.ServerAt(af.doc, sp.Start, sp.End); inServer {
		// "Convert to", "Add to", "Copy to every tool in use", "Disable
		// in": one engine, the one of `mcp-lsp sync`.
		return s.syncActions(af, uri, name, caps)
	}
	var out []codeAction
	for _, c := range fix.FileConversions(af.doc, ws) {
		if a, ok := s.conversionAction(af, uri, c, caps); ok {
			out = append(out, a)
		}
	}
	return out
}

// conversionAction turns a conversion into an action: disabled (with the
// reason, if the client shows reasons; else left out) when it cannot be
// applied, lazy (resolved by codeAction/resolve) when the client can
// resolve edits, else with its edit.
func (s *Server) conversionAction(af *actionFile, uri protocol.DocumentURI, c *fix.Conversion, caps codeActionCaps) (codeAction, bool) {
	a := codeAction{Title: c.Title, Kind: protocol.RefactorRewrite}
	reason := c.Disabled
	if reason == "" && c.Create && !caps.edits.create {
		reason = cannotCreateReason(c.Target, af.opts)
	}
	if reason != "" {
		return disabledAction(a, reason, caps)
	}
	if caps.resolve {
		a.Data = &resolveData{URI: uri, Server: c.Server, To: c.To}
		return a, true
	}
	edit, err := conversionEdit(af.snap, c, caps.edits)
	if err != nil {
		s.logger.Error("conversion edit", "to", c.To, "error", err)
		return a, false
	}
	a.Edit = edit
	return a, true
}

// disabledAction offers a, which cannot be applied, disabled with reason
// where the client shows disabled actions; elsewhere it is left out
// (false): an action that does nothing when picked is worse than none.
func disabledAction(a codeAction, reason string, caps codeActionCaps) (codeAction, bool) {
	if !caps.disabled {
		return codeAction{}, false
	}
	a.Disabled = &protocol.CodeActionDisable{Reason: reason}
	return a, true
}

// cannotCreateReason says why an action that must create path is off.
func cannotCreateReason(path string, opts cache.DiagnoseOptions) string {
	return fmt.Sprintf("%s does not exist, and this editor cannot create files for a language server (workspace edit resource operation \"create\"); create the file, then try again", cache.DisplayPath(path, opts))
}

// conversionEdit computes a conversion's edit.
func conversionEdit(snap *cache.Snapshot, c *fix.Conversion, caps editCaps) (*workspaceEdit, error) {
	ch, err := c.Change()
	if err != nil {
		return nil, err
	}
	return toWorkspaceEdit(snap, ch, caps)
}

// overlaps reports whether a and b share a position (touching counts: a
// cursor at the end of a diagnostic is on it).
func overlaps(a, b protocol.Range) bool {
	return !posBefore(a.End, b.Start) && !posBefore(b.End, a.Start)
}

func posBefore(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// findings are a file's findings in the current snapshot, which the
// diagnostics a client echoes are matched to (of).
type findings struct {
	m    *Mapper
	list []rules.Diagnostic
	// sorted says list is in rules.SortDiagnostics' order, by start: a
	// client may echo every diagnostic of a large file, and each is then
	// found by a binary search.
	sorted bool
}

func newFindings(m *Mapper, list []rules.Diagnostic) *findings {
	return &findings{m: m, list: list, sorted: slices.IsSortedFunc(list, byStart)}
}

func byStart(a, b rules.Diagnostic) int { return cmp.Compare(a.Span.Start, b.Span.Start) }

// of returns the finding a diagnostic the client shows stands for: the
// one with its code and, converted, its range; among several, the one
// with its message. ok is false when none is: the diagnostic is stale.
func (fs *findings) of(code string, rng protocol.Range, message string) (rules.Diagnostic, bool) {
	sp, err := fs.m.Span(rng)
	if err != nil {
		return rules.Diagnostic{}, false
	}
	i := 0
	if fs.sorted {
		i, _ = slices.BinarySearchFunc(fs.list, rules.Diagnostic{Span: sp}, byStart)
	}
	var match *rules.Diagnostic
	for ; i < len(fs.list); i++ {
		d := &fs.list[i]
		if fs.sorted && d.Span.Start > sp.Start {
			break
		}
		if d.Span != sp || d.Code != code {
			continue
		}
		if r, err := fs.m.Range(d.Span); err != nil || r != rng {
			continue
		}
		if d.Message == message {
			return *d, true
		}
		if match == nil {
			match = d
		}
	}
	if match == nil {
		return rules.Diagnostic{}, false
	}
	return *match, true
}
