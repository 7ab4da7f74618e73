package cache

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// readLog records what a computation read from a snapshot (files, their
// parses, existence answers), so that its result can be reused by a later
// snapshot in which all of them are the same. It may hold more than the
// computation read (what other work on the snapshot read meanwhile):
// that only makes reuse rarer, never wrong.
type readLog struct {
	mu     sync.Mutex
	files  map[string]fileStamp
	parses map[string]*jsonc.File
	exists map[string]bool
}

// fileStamp is what a File answer says, without its bytes.
type fileStamp struct {
	exists  bool
	hash    [sha256.Size]byte
	readErr string
}

func stampOf(f *File) fileStamp {
	st := fileStamp{exists: f.Exists, hash: f.Hash}
	if f.ReadErr != nil {
		st.readErr = f.ReadErr.Error()
	}
	return st
}

// logging is the snapshot's set of active read logs.
type logging struct {
	active atomic.Int32
	mu     sync.Mutex
	logs   map[*readLog]bool
}

// start begins recording the snapshot's reads into a new log; stop ends it.
func (s *Snapshot) startLog() *readLog {
	l := &readLog{files: map[string]fileStamp{}, parses: map[string]*jsonc.File{}, exists: map[string]bool{}}
	s.logging.mu.Lock()
	if s.logging.logs == nil {
		s.logging.logs = map[*readLog]bool{}
	}
	s.logging.logs[l] = true
	s.logging.active.Add(1)
	s.logging.mu.Unlock()
	return l
}

func (s *Snapshot) stopLog(l *readLog) {
	s.logging.mu.Lock()
	delete(s.logging.logs, l)
	s.logging.active.Add(-1)
	s.logging.mu.Unlock()
}

// record calls add on every active log.
func (s *Snapshot) record(add func(*readLog)) {
	if s.logging.active.Load() == 0 {
		return
	}
	s.logging.mu.Lock()
	defer s.logging.mu.Unlock()
	for l := range s.logging.logs {
		l.mu.Lock()
		add(l)
		l.mu.Unlock()
	}
}

func (s *Snapshot) recordFile(f *File) {
	s.record(func(l *readLog) { l.files[f.Path] = stampOf(f) })
}

func (s *Snapshot) recordParse(path string, tree *jsonc.File) {
	s.record(func(l *readLog) { l.parses[path] = tree })
}

func (s *Snapshot) recordExists(path string, ok bool) {
	s.record(func(l *readLog) { l.exists[path] = ok })
}

// holds reports whether snap answers every read of the log as it was
// answered.
func (l *readLog) holds(snap *Snapshot) bool {
	for path, st := range l.files {
		if stampOf(snap.File(path)) != st {
			return false
		}
	}
	for path, ok := range l.exists {
		if snap.Exists(path) != ok {
			return false
		}
	}
	for path, tree := range l.parses {
		f := snap.File(path)
		if !f.Exists || f.ReadErr != nil || snap.Parse(f) != tree {
			return false
		}
	}
	return true
}

// effectiveMemo keeps the effective configurations computed by earlier
// snapshots with what they read, for the snapshots that follow: an open,
// a save or a re-read of the disk that changes none of the files they
// depend on reuses them instead of judging every entry of every file
// again (a fifth of a second on a 20,000-server file).
type effectiveMemo struct {
	mu      sync.Mutex
	entries map[string]effectiveEntry
}

type effectiveEntry struct {
	results []*effective.Result
	log     *readLog
}

// effectiveMemoSize bounds the launch directories and settings kept.
const effectiveMemoSize = 16

// memoKey is key (the snapshot memo's) with the options a session may
// change between snapshots.
func effectiveMemoKey(key string, opts DiagnoseOptions) string {
	return fmt.Sprintf("%s\x00%p\x00%v\x00%v\x00%v\x00%v", key, opts.Registry, opts.Env, opts.Base, opts.Settings, opts.Folders)
}

func (m *effectiveMemo) get(key string, snap *Snapshot) ([]*effective.Result, bool) {
	m.mu.Lock()
	e, ok := m.entries[key]
	m.mu.Unlock()
	if !ok || !e.log.holds(snap) {
		return nil, false
	}
	return e.results, true
}

// stale returns the results kept under key whether or not the snapshot
// still holds what they read: a base for the next computation to reuse
// from, never an answer.
func (m *effectiveMemo) stale(key string) []*effective.Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entries[key].results
}

func (m *effectiveMemo) put(key string, results []*effective.Result, log *readLog) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil || len(m.entries) >= effectiveMemoSize {
		m.entries = map[string]effectiveEntry{}
	}
	m.entries[key] = effectiveEntry{results: results, log: log}
}
