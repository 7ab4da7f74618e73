package cache

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"
)

// MaxFileSize is the most the server or the CLI ever reads of one file.
// It is far above what a person writes (analysis stops at
// rules.MaxConfigSize) because a tool's state file such as
// ~/.claude.json grows with the user's prompt history (files of 100 MB
// are reported) and must still be read; it exists so that no file, of
// whatever size, can exhaust the memory.
const MaxFileSize = 512 << 20

// ErrNotRegular is the error of a read refused because the path names a
// device, a FIFO, a socket or a directory (or a link to one): reading
// /dev/zero never ends, a FIFO blocks until a writer comes, and
// /dev/stdin is the language server's own protocol stream.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is the error of a read refused because the file is larger
// than the limit.
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file too large: %d bytes, more than %d", e.Size, e.Limit)
}

// ReadFile is the one way mcp-lsp reads a file: it opens path without
// blocking (O_NONBLOCK, so a FIFO cannot stall the open), checks on the
// opened file that it is a regular file (a symbolic link is followed, and
// what it points to must be regular) and not the process's standard input,
// and reads at most limit bytes; a larger file is a *TooLargeError. The
// check is made on the descriptor, not on the name, so a file swapped for
// a FIFO between a stat and the open is still refused.
func ReadFile(path string, limit int64) ([]byte, error) {
	data, _, err := readRegular(path, limit)
	return data, err
}

// readRegular is ReadFile that also returns the identity of what it read,
// for the read cache.
func readRegular(path string, limit int64) ([]byte, fileID, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, fileID{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fileID{}, err
	}
	if err := checkRegular(path, info); err != nil {
		return nil, fileID{}, err
	}
	if info.Size() > limit {
		return nil, fileID{}, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: info.Size(), Limit: limit}}
	}
	// The size is a hint (a file may grow, and /proc files say 0): the
	// limit is enforced on what is actually read.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, fileID{}, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(buf.Len()) > limit {
		return nil, fileID{}, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: int64(buf.Len()), Limit: limit}}
	}
	return buf.Bytes(), idOf(info), nil
}

// checkRegular refuses what is not a regular file, and the standard input
// even when it is one (mcp-lsp check < file): nothing a configuration
// names may consume the process's input.
func checkRegular(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, describeMode(info.Mode()))}
	}
	if stdin, err := os.Stdin.Stat(); err == nil && os.SameFile(info, stdin) {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: it is the standard input", ErrNotRegular)}
	}
	return nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// readCache keeps the content of files read from disk across snapshots,
// keyed by path and checked against the file's identity (device, inode,
// size, modification and change times) with one stat per use: a snapshot
// that forgets the disk (every open, save or effective-view request) costs
// a stat per file, not a read, a hash and a parse of a 70 MB
// ~/.claude.json. A file is read again as soon as any part of its identity
// changes.
//
// A file modified within racyWindow of its read is not trusted to its
// identity: file systems record times with a coarse clock, so a second
// write of the same size in the same tick would look unchanged. Such a file
// is compared with what was read, next time, chunk by chunk (git calls
// these entries "racily clean"): the same bytes keep the same *File (and
// so its hash and its parse), without a second copy of the file in
// memory. Reading it again whole, as this did before, cost the 69 MB
// ~/.claude.json of issue 11 a second copy and hash for every snapshot
// made in the two seconds after it was written (the server's first
// seconds, when the file is fresh): 157 MB and 1.5 s to open instead of
// 91 MB and 0.4 s, depending on the file's age.
//
// Reads of one path are made one at a time (the path's lock), so that two
// snapshots asking at once share one read instead of holding two copies.
type readCache struct {
	mu      sync.Mutex
	entries map[string]*cachedRead
	paths   map[string]*pathLock
}

var racyWindow = 2 * time.Second

// cachedRead is one file's content as read, with what is derived from it
// once (the hash, the parse) shared by every snapshot that sees it.
type cachedRead struct {
	id   fileID
	racy bool
	file *File
}

// pathLock serializes the reads of one path; users counts who holds or
// waits for it, so that it is dropped when nobody does.
type pathLock struct {
	sync.Mutex
	users int
}

func newReadCache() *readCache {
	return &readCache{entries: map[string]*cachedRead{}, paths: map[string]*pathLock{}}
}

// read returns path's content, from the cache when the file on disk is
// still the one read. The result is shared and must not be modified.
func (c *readCache) read(path string, build func(content []byte) *File) (*File, error) {
	unlock := c.lock(path)
	defer unlock()
	if info, err := os.Stat(path); err == nil {
		c.mu.Lock()
		e, ok := c.entries[path]
		c.mu.Unlock()
		if ok && e.id == idOf(info) {
			if !e.racy {
				return e.file, nil
			}
			if id, same := sameContent(path, e.file.Content); same && id == e.id {
				c.mu.Lock()
				c.entries[path] = &cachedRead{id: id, racy: time.Since(id.latest()) < racyWindow, file: e.file}
				c.mu.Unlock()
				return e.file, nil
			}
		}
	}
	content, id, err := readRegular(path, MaxFileSize)
	if err != nil {
		c.mu.Lock()
		delete(c.entries, path)
		c.mu.Unlock()
		return nil, err
	}
	f := build(content)
	c.mu.Lock()
	c.entries[path] = &cachedRead{id: id, racy: time.Since(id.latest()) < racyWindow, file: f}
	c.mu.Unlock()
	return f, nil
}

// lock takes path's read lock and returns its release.
func (c *readCache) lock(path string) (unlock func()) {
	c.mu.Lock()
	l := c.paths[path]
	if l == nil {
		l = &pathLock{}
		c.paths[path] = l
	}
	l.users++
	c.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		c.mu.Lock()
		if l.users--; l.users == 0 {
			delete(c.paths, path)
		}
		c.mu.Unlock()
	}
}

// compareChunk is how much of a file sameContent reads at a time.
const compareChunk = 256 << 10

// sameContent reports whether the regular file at path holds exactly
// want, reading it in chunks (never a second copy of a large file), and
// the identity of what it compared.
func sameContent(path string, want []byte) (fileID, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return fileID{}, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || checkRegular(path, info) != nil || info.Size() != int64(len(want)) {
		return fileID{}, false
	}
	buf := make([]byte, min(compareChunk, len(want)+1))
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return fileID{}, false
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return idOf(info), len(want) == 0
		case err != nil:
			return fileID{}, false
		}
	}
}

// last returns the file last read at path, without checking that it is
// still the one on disk (nil if none): for sharing what is derived from
// bytes that are known to be equal.
func (c *readCache) last(path string) *File {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[path]; ok {
		return e.file
	}
	return nil
}

// forget drops every entry (the session is closing, or the memory is
// wanted back).
func (c *readCache) forget() {
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}
