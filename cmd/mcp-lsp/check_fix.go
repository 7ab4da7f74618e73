package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// `check --fix`, `--diff` and `--unsafe`: the editor's fix-all from the
// command line. The edits are fix.FixAll's (fix.FixAllUnsafe's with
// --unsafe), computed from the same diagnostics the editor sees
// (Snapshot.Diagnose), so a file fixed here is byte for byte the file
// the editor's "Apply all safe fixes" makes. Fixes that touch each other
// are applied over several passes, each on the result of the last, as an
// editor's fix-all on save would on the next save.

// maxFixPasses bounds the passes over one file. Each pass makes at least
// one fix and a fix removes its diagnostic, so this is reached only by
// fixes that undo each other: a bug, not worth a hang.
const maxFixPasses = 10

// fixedFile is a file check --fix changes.
type fixedFile struct {
	path     string // as check names it
	abs      string
	old, new []byte
	passes   [][]fix.Edit
	// secrets are the literal secrets the rules found in old, as
	// written: --diff masks them.
	secrets []string
	fixes   int
}

// computeFixes runs fix-all over paths, each file seeing the fixed
// content of the files before it (as overlays in a session of its own),
// and returns the files that change. Nothing is written. A file that
// does not parse, a tool's state file and a file that cannot be read are
// left alone, with a note on stderr; failed is true when a file could not
// be read, blocked when a file has fixes that are not made because it
// does not parse.
func computeFixes(paths []string, opts cache.DiagnoseOptions, unsafe bool, stderr io.Writer) (out []*fixedFile, failed, blocked bool) {
	session := cache.NewSession(nil, opts.Registry)
	for _, p := range paths {
		abs := absPath(p)
		kind, ok := session.Snapshot().Match(abs, opts)
		if !ok {
			continue
		}
		if len(kind.Skim) > 0 {
			// The tool rewrites its state file itself, at any time; a
			// fix belongs in the editor, where the user sees it.
			continue
		}
		ff := &fixedFile{path: p, abs: abs}
		var reported map[string]bool // with --unsafe: the first pass's findings whose fix is not safe
		for pass := 0; pass < maxFixPasses; pass++ {
			snap := session.Snapshot()
			f, found, ok := snap.Diagnose(abs, opts)
			if !ok || !f.Exists {
				break
			}
			if f.ReadErr != nil {
				if pass == 0 {
					fmt.Fprintf(stderr, "mcp-lsp check: %v; not fixed\n", f.ReadErr)
					failed = true
				}
				break
			}
			if pass == 0 {
				ff.old = f.Content
				ff.secrets = literalSecrets(f.Content, found)
				if len(jsonc.Parse(f.Content).Errors) > 0 {
					if hasFix(found) {
						blocked = true
						fmt.Fprintf(stderr, "mcp-lsp check: %s: not fixed: it does not parse (fix the syntax errors first)\n", p)
					}
					break
				}
			}
			doc := &fix.Document{Path: abs, Content: f.Content, Parsed: snap.Parse(f), Kind: kind}
			fixAll := fix.FixAll
			if unsafe {
				fixAll = fix.FixAllUnsafe
			}
			diags := fix.FromAnalysis(found)
			if unsafe {
				if pass == 0 {
					reported = unsafeFindings(diags)
				} else {
					diags = slices.DeleteFunc(diags, func(d fix.Diagnostic) bool {
						return !d.Data.Fix.Safe && !reported[unsafeKey(d)]
					})
				}
			}
			edits, n := fixAll(doc, diags)
			if n == 0 {
				break
			}
			next, err := fix.Apply(f.Content, edits)
			if err != nil {
				fmt.Fprintf(stderr, "mcp-lsp check: %s: internal error: %v; not fixed\n", p, err)
				failed = true
				ff.fixes = 0
				break
			}
			ff.passes = append(ff.passes, edits)
			ff.fixes += n
			ff.new = next
			session.Modify([]cache.Modification{{Path: abs, Overlay: &cache.Overlay{Path: abs, Version: int32(pass + 1), Content: next}}}, nil)
		}
		if ff.fixes > 0 && !bytes.Equal(ff.old, ff.new) {
			out = append(out, ff)
		}
	}
	return out, failed, blocked
}

// unsafeKey names a finding whose fix is not safe across the passes of
// one file (its place moves as earlier fixes edit the file; its rule,
// server and fix do not).
func unsafeKey(d fix.Diagnostic) string {
	f := d.Data.Fix
	return strings.Join([]string{d.Code, d.Data.Server, string(f.Kind), f.Key, f.Value}, "\x00")
}

// unsafeFindings are the findings of the first pass that --unsafe may
// fix. A later pass fixes no other finding that is not safe: a finding
// that the fixes themselves brought about (wrapping "npx" in "cmd /c"
// makes it the same server as one already wrapped: server-started-twice)
// was never reported to the user, and removing a server for it would
// be a surprise. Safe fixes are made in every pass.
func unsafeFindings(diags []fix.Diagnostic) map[string]bool {
	out := map[string]bool{}
	for _, d := range diags {
		if !d.Data.Fix.Safe && d.Data.Fix.Kind != "" {
			out[unsafeKey(d)] = true
		}
	}
	return out
}

// literalSecrets returns the text of each literal secret the rules found
// in content, without its quotes.
func literalSecrets(content []byte, found []rules.Diagnostic) []string {
	var out []string
	for _, d := range found {
		if d.Code != rules.CodeLiteralSecret || d.Span.Start < 0 || d.Span.End > len(content) {
			continue
		}
		text := string(content[d.Span.Start:d.Span.End])
		if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
			text = text[1 : len(text)-1]
		}
		if text != "" {
			out = append(out, text)
		}
	}
	return out
}

// hasFix reports whether any finding offers a fix at all.
func hasFix(found []rules.Diagnostic) bool {
	for _, d := range fix.FromAnalysis(found) {
		if d.Data.Fix.Kind != "" {
			return true
		}
	}
	return false
}

// diffEdits returns the edits that turn ff.old into ff.new in one go:
// the first pass's edits when there was one pass, else the lines that
// differ (lineEdits), so that the diff of several passes shows the lines
// they changed rather than one block from the first change to the last.
func (ff *fixedFile) diffEdits() []fix.Edit {
	if len(ff.passes) == 1 {
		return ff.passes[0]
	}
	return lineEdits(ff.abs, ff.old, ff.new)
}

// maxLineDiffCells bounds the table of lineEdits (lines changed in old
// times lines in new, after the common first and last lines): beyond
// it, the changed block is one edit.
const maxLineDiffCells = 4 << 20

// lineEdits returns edits of whole lines that turn old into new: a
// longest common subsequence of the lines between the common first and
// last ones, each run of lines not in it one edit.
func lineEdits(path string, old, new []byte) []fix.Edit {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	starts := lineStarts(old)
	offset := func(line int) int { // the start of old line i (len(old) past the last)
		if line < len(starts) {
			return starts[line]
		}
		return len(old)
	}
	edit := func(i0, i1 int, lines [][]byte) fix.Edit {
		e := fix.Edit{Path: path, NewText: string(bytes.Join(lines, nil))}
		e.Span.Start, e.Span.End = offset(i0), offset(i1)
		return e
	}
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	if n*m > maxLineDiffCells || n == 0 || m == 0 {
		return []fix.Edit{edit(pre, pre+n, b)}
	}
	// lcs[i][j]: the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []fix.Edit
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && bytes.Equal(a[i], b[j]) {
			i, j = i+1, j+1
			continue
		}
		i0, j0 := i, j
		for i < n || j < m {
			if i < n && j < m && bytes.Equal(a[i], b[j]) {
				break
			}
			if j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]) {
				j++
			} else {
				i++
			}
		}
		out = append(out, edit(pre+i0, pre+i, b[j0:j]))
	}
	return out
}

// writeFixed replaces the file at path, whose content was old, with
// content: written to a temporary file in the same directory, synced,
// given the old file's permission bits, then renamed over it, so that a
// crash or a full disk leaves either the old file or the new one, never
// half of one. A symbolic link is written through: the file it points
// to is replaced and the link stays a link (replacing the link with a
// file would silently fork a config shared through a dotfiles
// repository). The file must still hold old: one changed since it was
// read (an editor saved it) is left alone.
func writeFixed(path string, old, content []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", target)
	}
	now, err := cache.ReadFile(target, cache.MaxFileSize)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, old) {
		return errors.New("changed on disk while it was being fixed")
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".mcp-lsp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	return nil
}
