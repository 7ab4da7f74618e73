package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"unsafe"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// DidOpen layers the buffer over the disk. Files that are not MCP configs
// are tracked too (cheaply) but never get diagnostics: the registry, not
// the language id, decides what mcp-lsp serves.
func (s *Server) DidOpen(_ context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil // untitled: and other schemes have no place in a project
	}
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{
		Path:    path,
		URI:     string(params.TextDocument.URI),
		Version: params.TextDocument.Version,
		Content: textBytes(params.TextDocument.Text),
	}}}, nil)
	s.setDesynced(path, nil)
	// Re-read files from disk: user-level files may have changed outside
	// the editor, and clients without relative-pattern watchers do not
	// report them.
	s.session.ForgetDisk()
	s.diags.track(path)
	return nil
}

// DidClose drops the buffer: the file's diagnostics fall back to its
// content on disk, or disappear if it no longer exists.
func (s *Server) DidClose(_ context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil
	}
	s.session.Modify([]cache.Modification{{Path: path}}, []string{path})
	s.setDesynced(path, nil)
	s.diags.trigger()
	return nil
}

// DidSave re-reads files from disk the next time a closed view needs them.
func (s *Server) DidSave(_ context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil
	}
	if lost := s.desyncedAt(path); lost != nil {
		s.resyncFromDisk(path, lost)
	}
	// Other files may have changed too (a save-all, a tool rewriting its
	// config): re-read everything from disk, which is cheap at this size.
	s.session.ForgetDisk()
	s.session.ForgetLookups()
	s.diags.trigger()
	s.refreshEditorViews(context.Background())
	return nil
}

// DidChangeWatchedFiles forgets the disk content of the changed files.
func (s *Server) DidChangeWatchedFiles(_ context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	var paths []string
	for _, ev := range params.Changes {
		if path, ok := uriToPath(ev.URI); ok {
			paths = append(paths, path)
			s.diags.track(path)
		}
	}
	s.session.Modify(nil, paths)
	if len(paths) == 0 {
		s.session.ForgetDisk()
	}
	s.session.ForgetLookups()
	s.diags.trigger()
	s.refreshEditorViews(context.Background())
	return nil
}

// didChangeParams is textDocument/didChange decoded with a pointer range:
// go.lsp.dev/protocol's TextDocumentContentChangeEvent has a value Range,
// which cannot tell a full-text change (no range) from an insertion at
// 0:0, so the method is decoded here instead (see extraHandler).
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range,omitempty"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

// didChangeParams returns the params of a didChange: as the stream
// decoded them from the frame (decodeDidChange), or decoded here.
func (s *Server) didChangeParams(raw json.RawMessage) (*didChangeParams, error) {
	if s.stream != nil {
		if v, ok := s.stream.Predecoded(raw); ok {
			if s.opts.testDidChange != nil {
				s.opts.testDidChange(true)
			}
			return v.(*didChangeParams), nil
		}
	}
	if s.opts.testDidChange != nil {
		s.opts.testDidChange(false)
	}
	var params didChangeParams
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, err
	}
	return &params, nil
}

func (s *Server) didChange(params *didChangeParams) error {
	path, ok := uriToPath(params.TextDocument.URI)
	if !ok {
		return nil
	}
	snap := s.session.Snapshot()
	uri := string(params.TextDocument.URI)
	var content []byte
	if o, ok := snap.Overlay(path); ok {
		content, uri = o.Content, o.URI
	} else if s.desyncedAt(path) == nil {
		return fmt.Errorf("didChange for %s, which is not open", params.TextDocument.URI)
	}
	old, one := content, len(params.ContentChanges) == 1 // see mapperCache.edited
	var oneSpan span.Span
	for i, ch := range params.ContentChanges {
		if ch.Range == nil {
			content = textBytes(ch.Text)
			s.setDesynced(path, nil) // a full text resynchronises
			continue
		}
		if content == nil {
			// Lost track of this buffer earlier: edits cannot apply
			// until a full text, a save or a reopen.
			s.logger.Debug("didChange ignored: buffer out of sync", "uri", uri)
			s.setDesynced(path, &desync{uri: uri, version: params.TextDocument.Version})
			return nil
		}
		sp, err := s.changeSpan(content, *ch.Range)
		if err != nil {
			// The client and server disagree on the text: applying the
			// edit anyway would corrupt every later position.
			s.lostTrack(path, uri, params.TextDocument.Version, fmt.Errorf("change %d: %w", i, err))
			return nil
		}
		next := make([]byte, 0, len(content)-sp.Len()+len(ch.Text))
		next = append(next, content[:sp.Start]...)
		next = append(next, ch.Text...)
		content = append(next, content[sp.End:]...)
		oneSpan = sp
	}
	if one && params.ContentChanges[0].Range != nil {
		s.mappers.edited(path, old, content, oneSpan, params.ContentChanges[0].Text)
	} else {
		s.mappers.edited(path, nil, nil, span.Span{}, "")
	}
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{
		Path: path, URI: uri, Version: params.TextDocument.Version, Content: content,
	}}}, nil)
	s.diags.trigger()
	return nil
}

// changeSpan converts the range of an incremental change to offsets in
// content. A keystroke's range is on one line of a text of thousands:
// in a text whose lines all end in a line feed, only the lines the range
// is on are indexed (found by counting line feeds, which the vectorized
// bytes.Count does at memory speed), not every line of the text as a
// Mapper of it would (225 us for the 1,000-server file, a twentieth of a
// keystroke's work); a Mapper of those lines converts the positions as it
// would in the whole text. Anything else (a carriage return in the text,
// a line past the end, an error) is converted by a Mapper of it all.
func (s *Server) changeSpan(content []byte, r protocol.Range) (span.Span, error) {
	if lo, hi := r.Start.Line, r.End.Line; lo <= hi && bytes.IndexByte(content, '\r') < 0 {
		from, ok := lineFeedsAfter(content, 0, int(lo))
		last, okLast := lineFeedsAfter(content, from, int(hi-lo))
		if ok && okLast {
			to, ok := lineFeedsAfter(content, last, 1)
			if !ok {
				to = len(content)
			}
			w := r // the range in those lines
			w.Start.Line, w.End.Line = 0, hi-lo
			if sp, err := s.newMapper(content[from:to]).Span(w); err == nil {
				return span.New(from+sp.Start, from+sp.End), nil
			}
		}
	}
	m := s.newMapper(content)
	return m.Span(clampRange(m, r))
}

// lineFeedsAfter returns the offset just after the n-th line feed at or
// after offset i of b (i itself for n = 0), or false if b has fewer.
func lineFeedsAfter(b []byte, i, n int) (int, bool) {
	const block = 4096
	for n > 0 && i+block <= len(b) {
		c := bytes.Count(b[i:i+block], []byte{'\n'})
		if c >= n {
			break
		}
		n -= c
		i += block
	}
	for ; n > 0; n-- {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return 0, false
		}
		i += j + 1
	}
	return i, true
}

// clampRange applies the specification to a range the text does not
// contain: a line past the last one means the end of the document (a
// character past the end of its line, meaning the line's end, is the
// mapper's rule).
func clampRange(m *Mapper, r protocol.Range) protocol.Range {
	last := uint32(m.LineCount() - 1)
	for _, p := range []*protocol.Position{&r.Start, &r.End} {
		if p.Line > last {
			*p = protocol.Position{Line: last, Character: math.MaxUint32}
		}
	}
	return r
}

// desync records a buffer whose text the server lost track of.
type desync struct {
	uri     string
	version int32
}

func (s *Server) desyncedAt(path string) *desync {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.desynced[path]
}

func (s *Server) setDesynced(path string, d *desync) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d == nil {
		delete(s.desynced, path)
		return
	}
	if s.desynced == nil {
		s.desynced = map[string]*desync{}
	}
	s.desynced[path] = d
}

// lostTrack handles an edit that cannot be applied (a range whose end is
// before its start): rather than drift silently from the client's text,
// the server drops the buffer and falls back to the file on disk, says so
// in the log and to the user, and takes the buffer back on the next full
// text, save (the disk then holds the buffer) or reopen.
func (s *Server) lostTrack(path, uri string, version int32, err error) {
	s.logger.Warn("didChange cannot be applied; falling back to the file on disk until the next save", "uri", uri, "error", err)
	s.setDesynced(path, &desync{uri: uri, version: version})
	s.session.Modify([]cache.Modification{{Path: path}}, []string{path})
	s.diags.trigger()
	s.notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{
		Type:    protocol.MessageTypeWarning,
		Message: fmt.Sprintf("mcp-lsp lost track of the text of %s (an edit with an invalid range); its diagnostics follow the file on disk until you save it", filepath.Base(path)),
	})
}

// resyncFromDisk takes a lost buffer back after a save: the file on disk
// now holds what the editor shows.
func (s *Server) resyncFromDisk(path string, d *desync) {
	snap := s.session.Modify(nil, []string{path})
	f := snap.File(path)
	if !f.Exists || f.ReadErr != nil {
		return
	}
	s.session.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{
		Path: path, URI: d.uri, Version: d.version, Content: f.Content,
	}}}, nil)
	s.setDesynced(path, nil)
	s.logger.Info("buffer resynchronised from disk after save", "uri", d.uri)
}

// extraHandler serves the methods that go.lsp.dev/protocol v0.12.0 cannot
// decode or does not know, before protocol.ServerHandler sees them.
func (s *Server) extraHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodInitialize:
			return s.serveInitialize(ctx, reply, req)
		case methodEffective:
			return s.serveEffective(ctx, reply, req)
		case protocol.MethodTextDocumentDidChange:
			params, err := s.didChangeParams(req.Params())
			if err != nil {
				return reply(ctx, nil, fmt.Errorf("%w: %v", jsonrpc2.ErrInvalidParams, err))
			}
			if err := s.didChange(params); err != nil {
				s.logger.Warn("didChange rejected", "error", err)
				return reply(ctx, nil, err)
			}
			return reply(ctx, nil, nil)
		case protocol.MethodTextDocumentDidOpen:
			// Decoded by the stream (decodeDidOpen); anything else goes
			// to the protocol's decoder as before.
			v, ok := any(nil), false
			if s.stream != nil {
				v, ok = s.stream.Predecoded(req.Params())
			}
			if s.opts.testDidOpen != nil {
				s.opts.testDidOpen(ok)
			}
			if ok {
				return reply(ctx, nil, s.DidOpen(ctx, v.(*protocol.DidOpenTextDocumentParams)))
			}
		case protocol.MethodTextDocumentCodeAction:
			return s.serveCodeAction(ctx, reply, req)
		case methodCodeActionResolve:
			return s.serveCodeActionResolve(ctx, reply, req)
		case methodInlayHint:
			return s.serveInlayHint(ctx, reply, req)
		case protocol.MethodTextDocumentRename:
			return s.serveRename(ctx, reply, req)
		case methodDocumentDiagnostic:
			return s.serveDocumentDiagnostic(ctx, reply, req)
		case methodWorkspaceDiagnostic:
			return s.serveWorkspaceDiagnostic(ctx, reply, req)
		}
		return next(ctx, reply, req)
	}
}

// textBytes returns the bytes of a change's text without copying them: the
// string belongs to the params of this one message, which nothing reads
// after the change, and content is never written to (an edit builds a new
// slice), so sharing saves a copy of the whole document per keystroke. An
// empty text gives an empty slice, not nil, which means lost track.
func textBytes(s string) []byte {
	if s == "" {
		return []byte{}
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
