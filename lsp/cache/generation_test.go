package cache

import (
	"path/filepath"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Opening or closing a buffer starts a new generation (every file's
// analysis is redone) only when it may change whether a file exists: a
// buffer over a file the session has read on disk does not.
func TestBufferOverReadFileKeepsGeneration(t *testing.T) {
	dir := t.TempDir()
	read := filepath.Join(dir, ".mcp.json")
	unread := filepath.Join(dir, "other", ".mcp.json")
	absent := filepath.Join(dir, "new", ".mcp.json")
	content := `{"mcpServers": {"a": {"command": "npx", "args": ["-y", "pkg"]}}}`
	write(t, read, content)
	write(t, unread, content)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}}
	s := NewSession(nil, nil)
	_, before, ok := s.Snapshot().Diagnose(read, opts)
	if !ok || len(before) == 0 {
		t.Fatalf("no findings on disk: %v", before)
	}
	gen := s.Snapshot().generation

	open := func(path string, v int32) *Snapshot {
		return s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: v, Content: []byte(content)}}}, nil)
	}
	snap := open(read, 1)
	if snap.generation != gen {
		t.Errorf("opening a buffer over a file read on disk: generation %d -> %d", gen, snap.generation)
	}
	if _, after, _ := snap.Diagnose(read, opts); len(after) != len(before) {
		t.Errorf("the buffer's findings differ from the disk's: %v, %v", after, before)
	}
	if snap = s.Modify([]Modification{{Path: read}}, nil); snap.generation != gen {
		t.Errorf("closing a buffer over a file read on disk: generation %d -> %d", gen, snap.generation)
	}
	if snap = open(unread, 1); snap.generation == gen {
		t.Errorf("opening a buffer over a file not read yet kept generation %d", gen)
	}
	gen = snap.generation
	snap.File(absent) // read: it does not exist
	if snap = open(absent, 1); snap.generation == gen {
		t.Errorf("opening a buffer over a file that does not exist kept generation %d", gen)
	}
}
