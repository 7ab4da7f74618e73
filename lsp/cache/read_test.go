//go:build unix

package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// within runs fn and fails the test if it does not return within d: a
// read that blocks (a FIFO, /dev/stdin) must fail the test, not hang it.
// unblock, if set, runs on timeout so the stuck goroutine can finish.
func within(t *testing.T, d time.Duration, unblock func(), fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		if unblock != nil {
			unblock()
		}
		t.Fatalf("still running after %v: blocked on a file", d)
	}
}

// mkfifo makes a FIFO at path and returns the function that releases a
// reader blocked on it (by opening it for writing and closing it).
func mkfifo(t *testing.T, path string) func() {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return func() {
		if w, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	unblock := mkfifo(t, fifo)
	symlink(t, "/dev/zero", filepath.Join(dir, "zero-link"))
	symlink(t, dir, filepath.Join(dir, "dir-link"))
	symlink(t, fifo, filepath.Join(dir, "fifo-link"))
	for _, p := range []string{
		"/dev/zero", "/dev/null", "/dev/stdin", "/proc/self/fd/0", fifo,
		filepath.Join(dir, "zero-link"), filepath.Join(dir, "dir-link"), filepath.Join(dir, "fifo-link"), dir,
	} {
		t.Run(p, func(t *testing.T) {
			within(t, 5*time.Second, unblock, func() {
				data, err := ReadFile(p, MaxFileSize)
				if !errors.Is(err, ErrNotRegular) || data != nil {
					t.Errorf("ReadFile(%s) = %d bytes, %v; want ErrNotRegular", p, len(data), err)
				}
			})
		})
	}
}

// TestReadFileRefusesStandardInput: even a regular file is refused when it
// is the process's standard input (mcp-lsp check < file).
func TestReadFileRefusesStandardInput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "input.json")
	write(t, p, "{}")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	if _, err := ReadFile(p, MaxFileSize); !errors.Is(err, ErrNotRegular) {
		t.Errorf("reading the standard input's file: %v, want ErrNotRegular", err)
	}
	os.Stdin = saved
	if data, err := ReadFile(p, MaxFileSize); err != nil || string(data) != "{}" {
		t.Errorf("the same file, not standard input: %q, %v", data, err)
	}
}

func TestReadFileCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.json")
	write(t, p, strings.Repeat(" ", 1001))
	_, err := ReadFile(p, 1000)
	if e, ok := errors.AsType[*TooLargeError](err); !ok || e.Size != 1001 || e.Limit != 1000 {
		t.Fatalf("over the cap: %v", err)
	}
	if data, err := ReadFile(p, 1001); err != nil || len(data) != 1001 {
		t.Fatalf("at the cap: %d bytes, %v", len(data), err)
	}
}

// TestSnapshotNeverReadsDevices: through the snapshot, the paths a
// configuration can name (the file of a {file:...} reference, the project
// settings, a watched file) are looked at, never read.
func TestSnapshotNeverReadsDevices(t *testing.T) {
	dir := t.TempDir()
	unblock := mkfifo(t, filepath.Join(dir, ".mcp.json"))
	symlink(t, "/dev/zero", filepath.Join(dir, rules.ProjectConfigName))
	write(t, filepath.Join(dir, "opencode.json"), `{"mcp": {"s": {"type": "local", "command": ["node", "{file:/dev/zero}", "{file:/dev/stdin}", "{file:/proc/self/fd/0}", "{file:`+dir+`/.mcp.json}", "{file:`+dir+`/missing}"]}}}`)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Folders: []Folder{{Path: dir}}}
	snap := NewSession(nil, nil).Snapshot()
	within(t, 10*time.Second, unblock, func() {
		f, found, ok := snap.Diagnose(filepath.Join(dir, ".mcp.json"), opts)
		if !ok || !errors.Is(f.ReadErr, ErrNotRegular) || len(found) != 0 {
			t.Errorf("FIFO .mcp.json: ok %v, error %v, %v", ok, f.ReadErr, found)
		}
		_, found, ok = snap.Diagnose(filepath.Join(dir, "opencode.json"), opts)
		var missing []string
		for _, d := range found {
			if d.Code == rules.CodeMissingFileReference {
				missing = append(missing, d.Message)
			}
		}
		// Only the missing file is missing: the others exist, and were
		// not read to find that out.
		if !ok || len(missing) != 1 || !strings.Contains(missing[0], "missing") {
			t.Errorf("opencode.json: missing-file-reference %q", missing)
		}
		_, project, problems := snap.Config(dir, opts)
		if project == "" || len(problems) != 1 || !strings.Contains(problems[0], "not a regular file") {
			t.Errorf(".mcp-lsp.json -> /dev/zero: project %q, problems %q", project, problems)
		}
	})
}

// TestSnapshotTooLarge: a configuration file over rules.MaxConfigSize
// gets one finding, whether on disk or in a buffer; its parse is empty.
func TestSnapshotTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	big := append([]byte(`{"mcpServers": {"s": {}}}`), bytes.Repeat([]byte(" "), rules.MaxConfigSize)...)
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}}
	s := NewSession(nil, nil)
	check := func(what string, snap *Snapshot) {
		t.Helper()
		f, found, ok := snap.Diagnose(path, opts)
		if !ok || len(found) != 1 || found[0].Code != rules.CodeFileTooLarge {
			t.Fatalf("%s: %v", what, found)
		}
		if p := snap.Parse(f); p.Root != nil {
			t.Errorf("%s: a file too large was parsed", what)
		}
	}
	check("disk", s.Snapshot())
	check("buffer", s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 1, Content: big}}}, nil))
	small := s.Modify([]Modification{{Path: path, Overlay: &Overlay{Path: path, Version: 2, Content: big[:25]}}}, nil)
	if _, found, _ := small.Diagnose(path, opts); len(found) == 0 || found[0].Code == rules.CodeFileTooLarge {
		t.Errorf("cut to size: %v", found)
	}
}

// TestReadCache: a file is read once per version on disk. Snapshots that
// forget the disk get the same content (and parse) back while the file is
// unchanged, and the new content as soon as it changes, even with the same
// size and modification time.
func TestReadCache(t *testing.T) {
	saved := racyWindow
	racyWindow = 0 // the test's writes are all recent
	defer func() { racyWindow = saved }()
	path := filepath.Join(t.TempDir(), ".mcp.json")
	write(t, path, `{"mcpServers": {"a": {}}}`)
	s := NewSession(nil, nil)
	f1 := s.Snapshot().File(path)
	f2 := s.ForgetDisk().File(path)
	if f1 != f2 || s.Snapshot().Parse(f1) != s.Snapshot().Parse(f2) {
		t.Fatal("an unchanged file was read again")
	}
	info, _ := os.Stat(path)
	write(t, path, `{"mcpServers": {"b": {}}}`)
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if f3 := s.ForgetDisk().File(path); string(f3.Content) != `{"mcpServers": {"b": {}}}` {
		t.Fatalf("after a change of the same size and time: %s", f3.Content)
	}
}

// TestReadCacheRacy: content read just after a write is not trusted to
// the file's identity, since a second write in the same clock tick would
// leave it as is: the next snapshot compares the disk with what was read
// and sees the difference. (No file system here has a clock coarse enough
// to make that happen, so the cached bytes are altered instead.) A file
// trusted to its identity is not compared.
func TestReadCacheRacy(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	write(t, path, `{"mcpServers": {"a": {}}}`)
	s := NewSession(nil, nil)
	f1 := s.Snapshot().File(path)
	swap := func(racy bool) {
		s.reads.mu.Lock()
		e := s.reads.entries[path]
		stale := *e.file
		stale.Content = []byte(`{"mcpServers": {"b": {}}}`)
		s.reads.entries[path] = &cachedRead{id: e.id, racy: racy, file: &stale}
		s.reads.mu.Unlock()
	}
	swap(true)
	if f2 := s.ForgetDisk().File(path); string(f2.Content) != `{"mcpServers": {"a": {}}}` || f2 == f1 {
		t.Fatalf("a file written just now was trusted to its identity: read %s", f2.Content)
	}
	swap(false)
	if f3 := s.ForgetDisk().File(path); string(f3.Content) != `{"mcpServers": {"b": {}}}` {
		t.Fatalf("a file written long ago was not trusted to its identity: read %s", f3.Content)
	}
}

// TestReadCacheRacyUnchanged: a file written just now and unchanged since
// is compared, not read again: every snapshot gets the same *File (so
// the same hash and parse), and the comparison does not hold a second
// copy of the file (the 69 MB ~/.claude.json of issue 11 was read again
// whole by every snapshot of the server's first seconds).
func TestReadCacheRacyUnchanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	content := `{"history": "` + strings.Repeat("x", 8<<20) + `"}`
	write(t, path, content)
	s := NewSession(nil, nil)
	f1 := s.Snapshot().File(path)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f2 := s.ForgetDisk().File(path)
	runtime.ReadMemStats(&after)
	if f2 != f1 {
		t.Fatal("an unchanged file written just now was read again")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("comparing an 8 MB file allocated %d bytes", grew)
	}
	s.reads.mu.Lock()
	racy := s.reads.entries[path].racy
	s.reads.mu.Unlock()
	if !racy {
		t.Fatal("the file is trusted to its identity within the racy window")
	}
}

// TestReadCacheConcurrentReadsShareOne: snapshots reading the same file at
// once share one read and one copy of its content.
func TestReadCacheConcurrentReadsShareOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, `{"history": "`+strings.Repeat("x", 4<<20)+`"}`)
	s := NewSession(nil, nil)
	snaps := make([]*Snapshot, 8)
	for i := range snaps {
		snaps[i] = s.ForgetDisk()
	}
	files := make([]*File, len(snaps))
	var wg sync.WaitGroup
	for i, snap := range snaps {
		wg.Go(func() { files[i] = snap.File(path) })
	}
	wg.Wait()
	for _, f := range files[1:] {
		if f != files[0] {
			t.Fatal("two snapshots reading one file at once each read their own copy")
		}
	}
	if n := len(s.reads.paths); n != 0 {
		t.Fatalf("%d path locks left after the reads", n)
	}
}
