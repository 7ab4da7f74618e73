package cache

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// Typing in one server of a large file keeps no old version alive: the
// memos keep each edited entry's verdict under the server's name, which
// was a substring of that version's whole text, so every keystroke kept
// one more copy of the file (100 edits of a 200 KB file: +20 MB live).
func TestEditsKeepNoOldVersions(t *testing.T) {
	path, text, opts := diagnoseBenchSetup(t)
	s := NewSession(nil, nil)
	at := strings.Index(text, `"@example/server-500"`) + len(`"@example/server-500`)
	edit := func(v int) {
		content := text[:at] + fmt.Sprintf("-%d", v) + text[at:]
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: int32(v), Content: []byte(content)}}}, nil)
		if _, found, ok := snap.Diagnose(path, opts); !ok || len(found) == 0 {
			t.Fatal("no diagnostics")
		}
	}
	live := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	const edits = 40
	edit(1)
	edit(2)
	before := live()
	for v := 3; v < 3+edits; v++ {
		edit(v)
	}
	grown := live() - before
	// Keeping each version would grow the heap by edits × the file's size;
	// a quarter of that is far above what the memos' own entries need.
	if limit := int64(edits * len(text) / 4); grown > limit {
		t.Errorf("%d edits of one entry grew the live heap by %d KB (limit %d KB): old versions are kept", edits, grown>>10, limit>>10)
	}
	runtime.KeepAlive(s)
}

// A version the user has typed past is garbage once no request holds its
// snapshot: nothing the session keeps for the next edit (the parse cache,
// the per-file and cross-file memos, the verdicts, the reads) points into
// its tree or its text. One superseded tree held (a memo keeping the
// previous result's definitions, which point into their parse) is 1.5 MB
// of the 1,000-server file, and twice that in the heap the collector lets
// grow: TestEditsKeepNoOldVersions's bound on the live heap, sized for a
// version per edit, does not see a single one.
//
// Every node of each version's servers is watched, not only the tree's
// root: a memo holding one node keeps its part of the tree.
func TestSupersededVersionsAreCollected(t *testing.T) {
	path, text, opts := diagnoseBenchSetup(t)
	s := NewSession(nil, nil)
	at := strings.Index(text, `"@example/server-500"`) + len(`"@example/server-500`)
	const versions = 8
	var collected [versions + 1]atomic.Int32
	watched := make([]int32, versions+1)
	watch := func(v int, p any) {
		watched[v]++
		switch p := p.(type) {
		case *jsonc.File:
			runtime.AddCleanup(p, func(v int) { collected[v].Add(1) }, v)
		case *jsonc.Node:
			runtime.AddCleanup(p, func(v int) { collected[v].Add(1) }, v)
		case *byte:
			runtime.AddCleanup(p, func(v int) { collected[v].Add(1) }, v)
		}
	}
	content := text
	for v := 1; v <= versions; v++ {
		switch v % 3 {
		case 0: // typing at the end of the file
			content += " "
		default: // typing in an argument of the middle server
			content = content[:at] + "x" + content[at:]
		}
		buf := []byte(content)
		snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, URI: "file://" + path, Version: int32(v), Content: buf}}}, nil)
		f, found, ok := snap.Diagnose(path, opts)
		if !ok || len(found) == 0 {
			t.Fatalf("version %d: no diagnostics", v)
		}
		// What hover, definition and the effective view ask for.
		if w := snap.Workspace(opts); len(w.Results) == 0 {
			t.Fatalf("version %d: no effective configuration", v)
		}
		tree := snap.Parse(f)
		watch(v, tree)
		watch(v, &buf[0])
		servers := tree.Root.Get("mcpServers").Value
		for _, m := range servers.Members() {
			watch(v, m.Value)
		}
	}
	runtime.GC()
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for v := 1; v < versions; v++ {
		for collected[v].Load() < watched[v] && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		if n := collected[v].Load(); n < watched[v] {
			t.Errorf("version %d of %d: %d of its tree, text and servers' nodes are still reachable", v, versions, watched[v]-n)
		}
	}
	// The newest version is the session's: it must stay.
	if n := collected[versions].Load(); n != 0 {
		t.Errorf("the current version: %d of its tree, text and nodes were collected", n)
	}
	runtime.KeepAlive(s)
}
