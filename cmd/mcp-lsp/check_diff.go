package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// diffContext is the number of unchanged lines around each change in a
// hunk, as `diff -u` prints.
const diffContext = 3

// maskSecrets returns the text of a diff with each literal secret
// (as written in the file, see literalSecrets) replaced by rules.Masked:
// every diff mcp-lsp prints (check --diff, sync --dry-run) shows a
// secret masked, as everywhere else. Such a hunk is then for reading;
// --fix or sync itself writes the real value.
func maskSecrets(diff []byte, secrets []string) []byte {
	for _, s := range secrets {
		diff = bytes.ReplaceAll(diff, []byte(s), []byte(rules.Masked))
	}
	return diff
}

// writeUnifiedDiff prints the unified diff of applying edits (sorted, of
// one file, as fix.Apply takes them) to old, under the names a/name and
// b/name, so that `git apply` and `patch -p1` take it. The diff is made
// from the edits, not by comparing the two texts: it is linear in the
// size of the file and shows exactly the lines the edits touch. Line
// endings are part of the lines, so a CRLF file's diff carries its CRs.
func writeUnifiedDiff(w io.Writer, name string, old []byte, edits []fix.Edit) error {
	starts := lineStarts(old)
	lineOf := func(off int) int { // the index of the line holding off
		lo, hi := 0, len(starts)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if starts[mid] <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	lineEnd := func(i int) int {
		if i+1 < len(starts) {
			return starts[i+1]
		}
		return len(old)
	}

	// Each group of edits on overlapping lines replaces whole old lines
	// [first, last] with new lines.
	type change struct {
		first    int // index of the first old line replaced
		old, new [][]byte
	}
	var changes []change
	for i := 0; i < len(edits); {
		first, last := lineOf(edits[i].Span.Start), lineOf(edits[i].Span.End)
		var text bytes.Buffer
		text.Write(old[starts[first]:edits[i].Span.Start])
		at := edits[i].Span.Start
		j := i
		for ; j < len(edits) && lineOf(edits[j].Span.Start) <= last; j++ {
			text.Write(old[at:edits[j].Span.Start])
			text.WriteString(edits[j].NewText)
			at = edits[j].Span.End
			last = max(last, lineOf(edits[j].Span.End))
		}
		text.Write(old[at:lineEnd(last)])
		c := change{first: first, old: splitLines(old[starts[first]:lineEnd(last)]), new: splitLines(text.Bytes())}
		// Lines the edits left as they were are context, not change.
		for len(c.old) > 0 && len(c.new) > 0 && bytes.Equal(c.old[0], c.new[0]) {
			c.old, c.new, c.first = c.old[1:], c.new[1:], c.first+1
		}
		for len(c.old) > 0 && len(c.new) > 0 && bytes.Equal(c.old[len(c.old)-1], c.new[len(c.new)-1]) {
			c.old, c.new = c.old[:len(c.old)-1], c.new[:len(c.new)-1]
		}
		if len(c.old) > 0 || len(c.new) > 0 {
			changes = append(changes, c)
		}
		i = j
	}
	if len(changes) == 0 {
		return nil
	}

	lines := splitLines(old)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	delta := 0 // new line index minus old line index, before the hunk
	for i := 0; i < len(changes); {
		// A hunk takes every following change whose context would meet.
		j := i + 1
		for j < len(changes) && changes[j].first-(changes[j-1].first+len(changes[j-1].old)) <= 2*diffContext {
			j++
		}
		from := max(0, changes[i].first-diffContext)
		lastC := changes[j-1]
		to := min(len(lines), lastC.first+len(lastC.old)+diffContext)
		var body bytes.Buffer
		oldN, newN := 0, 0
		at := from
		for _, c := range changes[i:j] {
			for ; at < c.first; at++ {
				writeDiffLine(&body, ' ', lines[at])
				oldN++
				newN++
			}
			for _, l := range c.old {
				writeDiffLine(&body, '-', l)
				oldN++
			}
			for _, l := range c.new {
				writeDiffLine(&body, '+', l)
				newN++
			}
			at += len(c.old)
		}
		for ; at < to; at++ {
			writeDiffLine(&body, ' ', lines[at])
			oldN++
			newN++
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(from, oldN), hunkRange(from+delta, newN))
		out.Write(body.Bytes())
		for _, c := range changes[i:j] {
			delta += len(c.new) - len(c.old)
		}
		i = j
	}
	_, err := w.Write(out.Bytes())
	return err
}

// hunkRange is a hunk header's "start,count": 1-based, and for an empty
// range the line before it.
func hunkRange(from, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, n)
}

func writeDiffLine(b *bytes.Buffer, mark byte, line []byte) {
	b.WriteByte(mark)
	b.Write(line)
	if !bytes.HasSuffix(line, []byte("\n")) {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}

// lineStarts returns the offset of each line of src; a final line break
// starts one more (empty) line.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// splitLines splits src after each '\n', keeping the line breaks.
func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return append(out, src)
		}
		out = append(out, src[:i+1])
		src = src[i+1:]
	}
	return out
}
