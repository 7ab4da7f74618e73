package cache

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// analysesMade is the number of per-file analyses the session has run.
func (s *Session) analysesMade() int {
	s.analyses.mu.Lock()
	defer s.analyses.mu.Unlock()
	return s.analyses.computed
}

// TestOpenOverTheDiskAnalysesOnce: the server analyses a file it found on
// disk (workspace discovery), then the editor opens it, and the server
// re-reads the disk (on every open, and after discovery). Nothing changed:
// the file is analysed once, parsed once, and its text is kept once. On a
// 20,000-server file the second analysis was more than a second.
func TestOpenOverTheDiskAnalysesOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	content := `{"mcpServers": {"a": {"command": "npx", "args": ["-y", "pkg"]}, "b": {"type": "local", "command": "run {file:./prompt.txt}"}}}`
	write(t, path, content)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Base: rules.Config{CommandLookup: true}, Folders: []Folder{{Path: dir}}}
	s := NewSession(nil, nil)
	disk, before, ok := s.Snapshot().Diagnose(path, opts)
	if !ok || len(before) == 0 {
		t.Fatalf("no findings on disk: %v", before)
	}
	tree := s.Snapshot().Parse(disk)

	s.ForgetDisk() // discovery done
	snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 1, Content: []byte(content)}}}, nil)
	snap = s.ForgetDisk() // the open re-reads the disk
	f, after, _ := snap.Diagnose(path, opts)
	if n := s.analysesMade(); n != 1 {
		t.Errorf("%d analyses of a file whose buffer holds what the disk held, want 1", n)
	}
	if len(after) != len(before) {
		t.Errorf("the buffer's findings differ from the disk's: %v, %v", after, before)
	}
	if f.Overlay == nil || snap.Parse(f) != tree {
		t.Errorf("the buffer over the disk's bytes was parsed again")
	}
	if &f.Content[0] != &disk.Content[0] {
		t.Errorf("the buffer keeps a second copy of the disk's bytes")
	}

	// What the analysis asked about changes: it is redone.
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	snap = s.ForgetDisk()
	snap.Diagnose(path, opts)
	if n := s.analysesMade(); n != 1 {
		t.Errorf("an unrelated change on disk: %d analyses, want 1", n)
	}
	s.ForgetLookups()
	s.Snapshot().Diagnose(path, opts)
	if n := s.analysesMade(); n != 2 {
		t.Errorf("after the lookups are forgotten: %d analyses, want 2", n)
	}
}

// TestAnalysisRedoneWhenAReferencedFileAppears: findings reused across a
// re-read of the disk are redone when a file the analysis asked about
// appears.
func TestAnalysisRedoneWhenAReferencedFileAppears(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "opencode.json")
	write(t, path, `{"mcp": {"a": {"type": "local", "command": ["run", "{file:`+dir+`/prompt.txt}"]}}}`)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Folders: []Folder{{Path: dir}}}
	s := NewSession(nil, nil)
	missing := func(snap *Snapshot) bool {
		_, found, _ := snap.Diagnose(path, opts)
		for _, d := range found {
			if d.Code == rules.CodeMissingFileReference {
				return true
			}
		}
		return false
	}
	if !missing(s.Snapshot()) {
		t.Fatal("no missing-file-reference before the file exists")
	}
	if !missing(s.ForgetDisk()) || s.analysesMade() != 1 {
		t.Fatalf("nothing changed: %d analyses, want 1", s.analysesMade())
	}
	write(t, filepath.Join(dir, "prompt.txt"), "hello")
	if missing(s.ForgetDisk()) {
		t.Errorf("missing-file-reference after the file appeared")
	}
	if n := s.analysesMade(); n != 2 {
		t.Errorf("%d analyses, want 2", n)
	}
}

// TestEffectiveReusedWhileItsFilesStay: the effective configurations of
// a snapshot are reused by the next ones while every file they read reads
// the same (an open, a re-read of the disk), and computed again when one
// of them changes or appears.
func TestEffectiveReusedWhileItsFilesStay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	content := `{"mcpServers": {"a": {"command": "npx", "args": ["-y", "pkg"]}}}`
	write(t, path, content)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Folders: []Folder{{Path: dir}}}
	s := NewSession(nil, nil)
	first := s.Snapshot().Effective(dir, "", opts)
	if len(first) == 0 {
		t.Fatal("no effective configuration")
	}
	s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 1, Content: []byte(content)}}}, nil)
	if again := s.ForgetDisk().Effective(dir, "", opts); &again[0] != &first[0] {
		t.Errorf("computed again after an open and a re-read that changed nothing")
	}
	write(t, filepath.Join(dir, ".gemini", "settings.json"), `{"mcpServers": {"b": {"command": "uvx"}}}`)
	if again := s.ForgetDisk().Effective(dir, "", opts); &again[0] == &first[0] {
		t.Errorf("reused after a file the tools read appeared")
	}
	edited := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 2, Content: []byte(content + " ")}}}, nil)
	before := edited.Effective(dir, "", opts)
	if again := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 3, Content: []byte(content)}}}, nil).Effective(dir, "", opts); &again[0] == &before[0] {
		t.Errorf("reused after an edit")
	}
}

// TestDiskTreeNotKeptBesideAnEditedBuffer: once a buffer moves away from
// what the disk holds, the disk's tree is not kept beside the buffer's (a
// 1,000-server file's tree is megabytes); closing the buffer parses the
// disk again.
func TestDiskTreeNotKeptBesideAnEditedBuffer(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	content := `{"mcpServers": {"a": {"command": "npx", "args": ["-y", "pkg"]}}}`
	write(t, path, content)
	s := NewSession(nil, nil)
	disk := s.Snapshot().Parse(s.Snapshot().File(path))
	s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 1, Content: []byte(content)}}}, nil)
	snap := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 2, Content: []byte(content + "\n")}}}, nil)
	edited := snap.Parse(snap.File(path))
	s.parses.mu.Lock()
	n := len(s.parses.entries)
	s.parses.mu.Unlock()
	if n != 1 {
		t.Errorf("%d trees kept for one file being edited, want 1", n)
	}
	closed := s.Modify([]Modification{{Path: path}}, nil)
	if tree := closed.Parse(closed.File(path)); tree == disk || tree == edited || tree.Root == nil {
		t.Errorf("after the close: the disk's tree was kept (%v) or is not the disk's", tree == disk)
	}
}
