package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Pulled diagnostics (LSP 3.17 textDocument/diagnostic and
// workspace/diagnostic, which go.lsp.dev/protocol v0.12.0 lacks: the types
// are here and extraHandler serves the methods). A client that offers
// textDocument.diagnostic pulls; the server then publishes nothing and
// only asks for a refresh (workspace/diagnostic/refresh, where supported)
// when a file the client has not opened changed. Clients that do not
// offer it (Neovim 0.7, older editors) get diagnostics pushed as before.
//
// A result id is a hash of the report's items, so it is the same for the
// same diagnostics whatever the version or snapshot, needs no state, and
// an unchanged report is answered whenever the client already holds the
// items the server would send.
//
// Workspace diagnostics cover every file the diagnoser tracks: the files
// discovery found for the workspace (user-level files of every tool
// included, and the look-alike files no tool reads, which carry the
// file-not-read findings) and the open ones.

const (
	methodDocumentDiagnostic  = "textDocument/diagnostic"
	methodWorkspaceDiagnostic = "workspace/diagnostic"
	methodDiagnosticRefresh   = "workspace/diagnostic/refresh"
)

type documentDiagnosticParams struct {
	TextDocument     protocol.TextDocumentIdentifier `json:"textDocument"`
	PreviousResultID string                          `json:"previousResultId,omitempty"`
}

type workspaceDiagnosticParams struct {
	PreviousResultIDs []struct {
		URI   protocol.DocumentURI `json:"uri"`
		Value string               `json:"value"`
	} `json:"previousResultIds"`
}

// documentReport is a full or an unchanged document diagnostic report;
// in a workspace report it also carries the document's uri and version
// (null for a file that is not open).
type documentReport struct {
	Kind     string                `json:"kind"` // "full" or "unchanged"
	ResultID string                `json:"resultId"`
	Items    []protocol.Diagnostic `json:"items,omitempty"`
	URI      protocol.DocumentURI  `json:"uri,omitempty"`
	Version  *int32                `json:"version"`
}

// MarshalJSON sends items (never null) in a full report only, and uri
// and version in a workspace report only.
func (r documentReport) MarshalJSON() ([]byte, error) {
	out := map[string]any{"kind": r.Kind, "resultId": r.ResultID}
	if r.Kind == "full" {
		out["items"] = r.Items
	}
	if r.URI != "" {
		out["uri"] = r.URI
		out["version"] = r.Version
	}
	return json.Marshal(out)
}

type workspaceReport struct {
	Items []documentReport `json:"items"`
}

// pulled reports whether the client pulls diagnostics.
func (s *Server) pulled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pullDiagnostics
}

// offersPull reports whether the client's capabilities include pulled
// diagnostics.
func (c rawClientCaps) offersPull() bool {
	raw := string(c.TextDocument.Diagnostic)
	return raw != "" && raw != "null"
}

// pulledChanged is the diagnoser's news in pull mode: stale says the
// client holds diagnostics that are no longer right. It is then asked to
// pull again.
func (s *Server) pulledChanged(ctx context.Context, stale bool) {
	s.mu.Lock()
	refresh := s.rawCaps.Workspace.Diagnostics.RefreshSupport
	s.mu.Unlock()
	if !refresh || !stale {
		return
	}
	go func() {
		if err := s.callClient(ctx, methodDiagnosticRefresh, nil, nil); err != nil {
			s.logger.Debug("diagnostic refresh failed", "error", err)
		}
	}()
}

// stale reports whether a client that pulls holds diagnostics a run has
// just changed, where it would not pull again by itself. It pulls an open
// file's as it edits it (and, through interFileDependencies, as it edits
// the other open files), so a new version needs nothing; but a file it has
// not opened changed, or an open file's diagnostics changed at the version
// it pulled (a settings change, a file changed on disk, or the first
// settings arriving after its first pull, at startup) are only seen when
// it asks again.
func (d *diagnoser) stale(results map[string]publication, changed []publication) bool {
	if slices.ContainsFunc(changed, func(p publication) bool { return p.version == nil }) {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for path, p := range results {
		if h, ok := d.held[path]; ok && equalVersion(h.version, p.version) && !slices.EqualFunc(h.diags, p.diags, diagnosticEqual) {
			return true
		}
	}
	return false
}

// hold records what a pull gave the client for path.
func (d *diagnoser) hold(path string, p publication) {
	d.mu.Lock()
	d.held[path] = p
	d.mu.Unlock()
}

// report computes the diagnostics of path in the request's snapshot as a
// report against the client's previous result id, with the uri and
// version a workspace report gives.
func (s *Server) report(ctx context.Context, path, previous string) (documentReport, bool) {
	snap, opts := s.view(ctx)
	f := snap.File(path)
	if !f.Exists {
		return documentReport{}, false
	}
	p, known := s.diags.diagnose(snap, f, opts)
	if !known {
		return documentReport{}, false
	}
	s.diags.hold(path, p)
	id := resultID(p.diags)
	r := documentReport{Kind: "full", ResultID: id, Items: p.diags, URI: p.uri, Version: p.version}
	if previous == id {
		r = documentReport{Kind: "unchanged", ResultID: id, URI: p.uri, Version: p.version}
	}
	return r, true
}

// resultID identifies a list of diagnostics by content.
func resultID(diags []protocol.Diagnostic) string {
	b, _ := json.Marshal(diags)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// serveDocumentDiagnostic answers textDocument/diagnostic. A file that is
// not an MCP configuration gets an empty full report.
func (s *Server) serveDocumentDiagnostic(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params documentDiagnosticParams
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	path, ok := uriToPath(params.TextDocument.URI)
	r, known := documentReport{}, false
	if ok {
		r, known = s.report(ctx, path, params.PreviousResultID)
	}
	if !known {
		r = documentReport{Kind: "full", ResultID: resultID(nil), Items: []protocol.Diagnostic{}}
	}
	r.URI, r.Version = "", nil // a document report names neither
	return reply(ctx, r, nil)
}

// serveWorkspaceDiagnostic answers workspace/diagnostic with a report for
// every tracked file: unchanged where the client holds the result.
func (s *Server) serveWorkspaceDiagnostic(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var params workspaceDiagnosticParams
	if err := json.Unmarshal(req.Params(), &params); err != nil {
		return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
	}
	previous := map[string]string{}
	for _, p := range params.PreviousResultIDs {
		if path, ok := uriToPath(p.URI); ok {
			previous[path] = p.Value
		}
	}
	s.diags.mu.Lock()
	paths := slices.Sorted(maps.Keys(s.diags.tracked))
	s.diags.mu.Unlock()
	out := workspaceReport{Items: []documentReport{}}
	// A file the client holds a result for that is gone (deleted, or no
	// longer tracked) gets an empty report, or its problems would stay.
	empty := resultID(nil)
	for path, id := range previous {
		if !slices.Contains(paths, path) && id != empty {
			out.Items = append(out.Items, documentReport{Kind: "full", ResultID: empty, Items: []protocol.Diagnostic{}, URI: pathToURI(path)})
		}
	}
	for _, path := range paths {
		if ctx.Err() != nil {
			return reply(ctx, nil, protocol.ErrRequestCancelled)
		}
		r, known := s.report(ctx, path, previous[path])
		if !known {
			if id, held := previous[path]; held && id != empty {
				out.Items = append(out.Items, documentReport{Kind: "full", ResultID: empty, Items: []protocol.Diagnostic{}, URI: pathToURI(path)})
			}
			continue
		}
		if r.Kind == "full" && len(r.Items) == 0 && previous[path] == "" {
			continue // nothing to show, and nothing shown before
		}
		out.Items = append(out.Items, r)
	}
	return reply(ctx, out, nil)
}
