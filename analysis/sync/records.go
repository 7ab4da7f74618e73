package sync

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
)

// RecordsFile is where a project keeps what sync wrote, relative to the
// project root. It is a file of its own, not a key of .mcp-lsp.json:
// .mcp-lsp.json is written by people (an ignore list, settings) and sync
// must never rewrite a file people write; the records are written only by
// sync, change on every sync that changes something, and belong in
// version control next to the files they describe, so a teammate's sync
// knows which entries are sync's and which were edited by hand. User-level
// targets (--scope user) are recorded beside the user's files instead
// (the caller picks the place, e.g. $XDG_CONFIG_HOME/mcp-lsp/sync.json).
const RecordsFile = ".mcp-lsp/sync.json"

// recordsVersion is the format of the records file.
const recordsVersion = 1

// Record is one server entry sync wrote: from which source, into which
// target file, for which tool, and the hash of the entry as written. The
// hash is what tells sync's own entries (the same hash: update or remove
// them freely) from entries changed by hand (drift: left alone without
// --force).
type Record struct {
	// Source and Target are slash-separated paths relative to the project
	// root, or absolute for files outside it.
	Source string `json:"source"`
	Target string `json:"target"`
	Tool   string `json:"tool"`
	Server string `json:"server"`
	// Hash is HashEntry of the entry written.
	Hash string `json:"hash"`
}

// Records is the records file.
type Records struct {
	Version int      `json:"version"`
	Entries []Record `json:"entries"`
	// Vars are, per source, the --var values of its last sync that its
	// template uses (RememberedVars): the next sync, and the editor's
	// "Update from", resolve the template with them (TemplateValues).
	Vars map[string]Vars `json:"vars,omitempty"`
}

// ParseRecords reads a records file; empty content is no records.
func ParseRecords(content []byte) (*Records, error) {
	r := &Records{Version: recordsVersion}
	if len(bytes.TrimSpace(content)) == 0 {
		return r, nil
	}
	if err := json.Unmarshal(content, r); err != nil {
		return nil, fmt.Errorf("%s: %v", RecordsFile, err)
	}
	if r.Version != recordsVersion {
		return nil, fmt.Errorf("%s: version %d, this mcp-lsp reads version %d", RecordsFile, r.Version, recordsVersion)
	}
	return r, nil
}

// Marshal renders the records sorted (by source, target, server), two
// spaces, a final line break: the same records give the same bytes, so
// an unchanged sync leaves the file alone.
func (r *Records) Marshal() []byte {
	es := slices.Clone(r.Entries)
	slices.SortFunc(es, func(a, b Record) int {
		return strings.Compare(a.Source+"\x00"+a.Target+"\x00"+a.Server, b.Source+"\x00"+b.Target+"\x00"+b.Server)
	})
	if es == nil {
		es = []Record{}
	}
	vars := r.Vars
	for k, v := range vars {
		if len(v) == 0 {
			vars = maps.Clone(vars)
			delete(vars, k)
		}
	}
	out, _ := json.MarshalIndent(Records{Version: recordsVersion, Entries: es, Vars: vars}, "", "  ")
	return append(out, '\n')
}

// find returns the record of (source, target, server).
func (r *Records) find(source, target, server string) (Record, bool) {
	for _, e := range r.Entries {
		if e.Source == source && e.Target == target && e.Server == server {
			return e, true
		}
	}
	return Record{}, false
}

// Find returns the record of the server in target, from any source.
func (r *Records) Find(target, server string) (Record, bool) {
	for _, e := range r.Entries {
		if e.Target == target && e.Server == server {
			return e, true
		}
	}
	return Record{}, false
}

// HashEntry is the content hash of an entry: SHA-256 of its JSON with
// object keys sorted (fix.Canonical), so reordering keys by hand,
// reformatting or adding comments is not drift, and any change of a
// value is.
func HashEntry(v any) string {
	sum := sha256.Sum256(fix.Canonical(v))
	return "sha256:" + hex.EncodeToString(sum[:])
}
