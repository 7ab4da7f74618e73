package cache

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
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
