//go:build unix

package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestReadCacheRacy: content read just after a write is read again, since
// a second write in the same clock tick would leave the identity as is.
func TestReadCacheRacy(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	write(t, path, `{}`)
	s := NewSession(nil, nil)
	if f1, f2 := s.Snapshot().File(path), s.ForgetDisk().File(path); f1 == f2 {
		t.Fatal("a file written just now was trusted to its identity")
	}
}
