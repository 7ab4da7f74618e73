package lsp

import (
	"context"
	"hash/maphash"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// diagnoser computes and publishes diagnostics off the request path.
//
// Handlers only record a change and call trigger. The worker wakes on a
// channel of capacity one, so a burst of edits coalesces into a single run
// on the newest snapshot; a run whose snapshot was superseded while it was
// computing is thrown away (the newer snapshot has already re-armed the
// channel). A run does not start, and its result is not published, while
// a newer edit is on its way: received but not yet applied
// (Server.pendingWriters), or still being read (rpcstream's Settle). A
// client that sends edits faster than they can be analysed (a replay, a
// paste split into many changes) then gets the diagnostics of its last
// version about one analysis after sending it, instead of every
// intermediate version's, each of which the client must decode and the
// server encode; the last writer of the burst resumes the worker. Every run analyses every tracked file, because with cross-file
// analysis an edit in one file can change another's diagnostics; the
// per-content parse cache and the "publish only what changed" check keep
// that cheap.
type diagnoser struct {
	s    *Server
	wake chan struct{}

	mu        sync.Mutex
	tracked   map[string]bool
	published map[string]publication
	// held is what a client that pulls diagnostics last received for
	// each file (pulldiagnostics.go), to tell when it holds stale ones.
	held map[string]publication
	runs int // completed runs, for tests and benchmarks

	// encodings are the files' publications as last framed, used by the
	// worker only.
	encodings map[string]*diagnosticCache

	// conv is each file's findings as last converted, for the next
	// conversion (convertReusing); the worker and pull requests share it.
	convMu sync.Mutex
	conv   map[string]*converted

	// deferred is set while a run is skipped or thrown away because a
	// writer is pending: the writer's completion then triggers a run
	// (resume), whatever that writer was.
	deferred atomic.Bool
}

// settleTimeout bounds how long the worker waits for a message whose
// bytes have arrived to be handed over before it goes on: a client that
// stops in the middle of a frame must not stop the diagnostics.
const settleTimeout = 50 * time.Millisecond

// publication is what the client last received for a file.
type publication struct {
	uri     protocol.DocumentURI
	version *int32 // nil for a file that is not open
	diags   []protocol.Diagnostic

	// enc holds the publication prepared for the wire while it is on its
	// way; sum is the hash of its diagnostics' JSON array (random seed,
	// 64 bits), which a publication keeps to tell that the next one is
	// the same without comparing every diagnostic or keeping their JSON.
	enc *diagnosticCache
	sum uint64
}

// publicationSeed seeds the publications' hashes.
var publicationSeed = maphash.MakeSeed()

// appendPublicationHead appends the params of a publishDiagnostics for
// uri and version up to its diagnostics: what appendPublishParams writes
// before the array, and the one place that writes it.
func appendPublicationHead(b []byte, uri protocol.DocumentURI, version *int32) []byte {
	b = append(b, `{"uri":`...)
	b = appendJSONString(b, string(uri))
	if version != nil {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, int64(*version), 10)
	}
	return append(b, `,"diagnostics":`...)
}

func newDiagnoser(s *Server) *diagnoser {
	return &diagnoser{
		s:         s,
		wake:      make(chan struct{}, 1),
		tracked:   map[string]bool{},
		published: map[string]publication{},
		encodings: map[string]*diagnosticCache{},
		held:      map[string]publication{},
	}
}

// track adds path to the files whose diagnostics are kept published.
func (d *diagnoser) track(path string) {
	d.mu.Lock()
	d.tracked[path] = true
	d.mu.Unlock()
	d.trigger()
}

// trigger asks for a run on the newest snapshot. It never blocks.
func (d *diagnoser) trigger() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *diagnoser) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.wake:
		}
		d.runOnce(ctx)
	}
}

// superseded reports whether a newer state than snap (nil: the current
// one) is on its way, after letting the stream hand over the messages
// that have arrived. When it is, the run is deferred: the pending
// writer's completion, or the change that made snap stale, triggers the
// next one.
func (d *diagnoser) superseded(ctx context.Context, snap *cache.Snapshot) bool {
	d.deferred.Store(true)
	if d.s.stream != nil {
		d.s.stream.Settle(ctx, settleTimeout)
	}
	if d.s.pendingWriters.Load() > 0 || (snap != nil && !d.s.session.IsCurrent(snap)) {
		return true
	}
	d.deferred.Store(false)
	return false
}

// resume is called when the last pending writer has been handled: a run
// skipped for it runs now.
func (d *diagnoser) resume() {
	if d.deferred.Swap(false) {
		d.trigger()
	}
}

func (d *diagnoser) runOnce(ctx context.Context) {
	if d.superseded(ctx, nil) {
		return
	}
	snap := d.s.session.Snapshot()
	opts := d.s.diagnoseOptions()
	d.mu.Lock()
	paths := slices.Sorted(maps.Keys(d.tracked))
	d.mu.Unlock()

	results := make(map[string]publication, len(paths))
	var gone []string
	for _, path := range paths {
		if ctx.Err() != nil {
			return
		}
		f := snap.File(path)
		if !f.Exists {
			gone = append(gone, path)
			continue
		}
		if p, known := d.diagnose(snap, f, opts); known {
			results[path] = p
		}
	}
	if d.superseded(ctx, snap) {
		return
	}

	d.mu.Lock()
	for _, path := range gone {
		delete(d.tracked, path)
		delete(d.held, path)
		d.convMu.Lock()
		delete(d.conv, path)
		d.convMu.Unlock()
		if _, ok := d.published[path]; ok {
			results[path] = publication{uri: d.published[path].uri, diags: []protocol.Diagnostic{}}
		}
	}
	var toSend []publication
	for _, path := range slices.Sorted(maps.Keys(results)) {
		p := results[path]
		c := d.encodings[path]
		if c == nil {
			c = &diagnosticCache{}
			d.encodings[path] = c
		}
		p.enc, p.sum = c, c.prepare(p)
		if old, ok := d.published[path]; ok && equalVersion(old.version, p.version) && old.sum == p.sum {
			continue
		}
		if _, ok := d.published[path]; !ok && len(p.diags) == 0 && p.version == nil {
			// Nothing was shown for this file on disk and nothing is to
			// show. (An open buffer always gets an answer, even an empty
			// one, so the editor knows its version was analysed.)
			continue
		}
		if len(p.diags) == 0 && !d.tracked[path] {
			delete(d.published, path)
			delete(d.encodings, path)
		} else {
			d.published[path] = publication{uri: p.uri, version: p.version, diags: p.diags, sum: p.sum}
		}
		toSend = append(toSend, p)
	}
	d.runs++
	d.mu.Unlock()

	if d.s.pulled() {
		// The client pulls (pulldiagnostics.go): nothing is pushed.
		d.s.pulledChanged(ctx, d.stale(results, toSend))
		return
	}
	for _, p := range toSend {
		d.s.publish(ctx, p.enc)
	}
}

// diagnose analyses one file and converts the result for the wire.
// known is false for files that are not MCP configurations: they never
// get a publication at all.
func (d *diagnoser) diagnose(snap *cache.Snapshot, f *cache.File, opts cache.DiagnoseOptions) (p publication, known bool) {
	uri := pathToURI(f.Path)
	if f.Overlay != nil {
		uri = protocol.DocumentURI(f.Overlay.URI)
	}
	p = publication{uri: uri, diags: []protocol.Diagnostic{}}
	if f.Overlay != nil {
		v := f.Overlay.Version
		p.version = &v
	}
	d.s.mappers.newest(f)
	_, found, ok := snap.Diagnose(f.Path, opts)
	if !ok {
		// Not a tool's file: a sync template's unresolvable {{...}}
		// (diagnostics_template.go); any other such file gets nothing.
		if found, ok = d.templateFindings(snap, opts, f); !ok {
			return p, false
		}
		p.diags = convertDiagnostics(newLocator(snap, d.s.mappers), f, found, d.s.logger)
		return p, true
	}
	if f.ReadErr != nil {
		d.s.logger.Warn("cannot read file", "path", f.Path, "error", f.ReadErr)
	}
	if kind, _ := snap.Match(f.Path, opts); d.s.leavesSchemaToClient(kind) {
		found = withoutSchemaFindings(snap.Parse(f), found)
	}
	d.convMu.Lock()
	prev := d.conv[f.Path]
	d.convMu.Unlock()
	var next *converted
	p.diags, next = convertReusing(newLocator(snap, d.s.mappers), f, found, prev, d.s.logger)
	d.convMu.Lock()
	if d.conv == nil {
		d.conv = map[string]*converted{}
	}
	d.conv[f.Path] = next
	d.convMu.Unlock()
	return p, true
}

// publishParams is PublishDiagnosticsParams with a version that is sent
// whenever the file is open (go.lsp.dev's omits a 0 version) and with
// diagnostics that are never null (Neovim rejects null).
type publishParams struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

func equalVersion(a, b *int32) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}
