package lsp

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// TestServerLetsSupersededVersionsGo: over a pipe, once the diagnostics
// of an edit are published and the requests on it answered, nothing the
// server keeps (the diagnoser's last conversion and framing, the mappers,
// the session's memos) holds the tree of a version the user has typed
// past, nor its text beyond the one before the current (the conversion
// compares the next text with it). On a 1,000-server file a tree is 1.5
// MB and a text 270 KB, each counted twice in the heap the collector lets
// grow. lsp/cache's TestSupersededVersionsAreCollected holds the session
// alone to the same.
func TestServerLetsSupersededVersionsGo(t *testing.T) {
	var session *cache.Session
	c := startServer(t, Options{testSession: func(s *cache.Session) { session = s }})
	dir := t.TempDir()
	c.initialize(dir)
	path := filepath.Join(dir, ".mcp.json")
	text := string(benchgen.MCPJSON(300, true, true))
	at := strings.Index(text, `"@example/server-150"`) + len(`"@example/server-150`)

	const versions = 6
	var treeGone, textGone [versions + 1]atomic.Int32
	treeWatched := make([]int32, versions+1)
	watch := func(v int32) {
		snap := session.Snapshot()
		f := snap.File(path)
		if f.Version() != v {
			t.Fatalf("the session is at version %d, want %d", f.Version(), v)
		}
		tree := snap.Parse(f)
		runtime.AddCleanup(tree, func(v int32) { treeGone[v].Add(1) }, v)
		treeWatched[v]++
		for _, m := range tree.Root.Get("mcpServers").Value.Members() {
			runtime.AddCleanup(m.Value, func(v int32) { treeGone[v].Add(1) }, v)
			treeWatched[v]++
		}
		runtime.AddCleanup(&f.Content[0], func(v int32) { textGone[v].Add(1) }, v)
	}
	published := func(v int32) func(publishParams) bool {
		return func(p publishParams) bool { return p.Version != nil && *p.Version == v }
	}

	uri := c.open(path, text)
	c.waitDiagnostics(uri, "the file analysed", published(1))
	watch(1)
	for v := int32(2); v <= versions; v++ {
		if v%2 == 0 {
			text = text[:at] + "x" + text[at:] // typing in an argument
		} else {
			text += " "
		}
		c.change(uri, nil, text)
		p := c.waitDiagnostics(uri, "the edit analysed", published(v))
		// The requests an editor sends on a change.
		name := protocol.Position{Line: 2, Character: 6}
		if h := c.hover(uri, name); !strings.Contains(h, "server-00000") {
			t.Fatalf("version %d: hover on the first server's name: %q", v, h)
		}
		c.codeActions(uri, protocol.Range{Start: name, End: name}, p.Diagnostics)
		watch(v)
	}

	deadline := time.Now().Add(5 * time.Second)
	for v := int32(1); v < versions; v++ {
		keepText := v == versions-1
		for time.Now().Before(deadline) && (treeGone[v].Load() < treeWatched[v] || (!keepText && textGone[v].Load() == 0)) {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		if n := treeGone[v].Load(); n < treeWatched[v] {
			t.Errorf("version %d of %d: %d of its tree and servers' nodes are still reachable", v, versions, treeWatched[v]-n)
		}
		if !keepText && textGone[v].Load() == 0 {
			t.Errorf("version %d of %d: its text is still reachable", v, versions)
		}
	}
	if treeGone[versions].Load() != 0 || textGone[versions].Load() != 0 {
		t.Error("the current version's tree or text was collected")
	}
	runtime.KeepAlive(session)
}

// TestEditsThatMapNothingLetOlderTextsGo: over a pipe, edits whose
// findings all keep their conversions (white space appended, no request
// on them) index none of their versions; the Mapper of the version that
// was indexed (the open's) must not keep its text alive once the user
// has typed past it. On a 1,000-server file that text and its line index
// were 300 KB of every edit's live heap.
func TestEditsThatMapNothingLetOlderTextsGo(t *testing.T) {
	var session *cache.Session
	c := startServer(t, Options{testSession: func(s *cache.Session) { session = s }})
	dir := t.TempDir()
	c.initialize(dir)
	path := filepath.Join(dir, ".mcp.json")
	text := string(benchgen.MCPJSON(300, true, true))

	var gone atomic.Int32
	uri := c.open(path, text)
	c.waitDiagnostics(uri, "the file analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == 1 })
	f := session.Snapshot().File(path)
	runtime.AddCleanup(&f.Content[0], func(struct{}) { gone.Add(1) }, struct{}{})
	f = nil
	for v := int32(2); v <= 4; v++ {
		text += " "
		c.change(uri, nil, text)
		c.waitDiagnostics(uri, "the edit analysed", func(p publishParams) bool { return p.Version != nil && *p.Version == v })
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && gone.Load() == 0 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if gone.Load() == 0 {
		t.Error("the opened version's text is still reachable three edits later")
	}
	runtime.KeepAlive(session)
}
