package format

import (
	"bytes"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// maxEditDistance bounds the Myers search (its trace grows with the square
// of the distance); beyond it the differing middle is one edit.
const maxEditDistance = 2000

// Diff returns line-based edits turning old into new: one per hunk of
// consecutive changed lines, sorted by position and non-overlapping, each
// replacing whole lines (with their line breaks) of old. Unchanged lines
// are never touched, so an editor keeps cursors, folds and markers there.
func Diff(old, new []byte) []Edit {
	a, b := splitLines(old), splitLines(new)
	starts := make([]int, len(a)+1) // byte offset of each line of old
	for i, l := range a {
		starts[i+1] = starts[i] + len(l)
	}
	var edits []Edit
	for _, h := range hunks(a, b) {
		var text bytes.Buffer
		for _, l := range b[h.b0:h.b1] {
			text.Write(l)
		}
		edits = append(edits, Edit{Span: span.New(starts[h.a0], starts[h.a1]), NewText: text.String()})
	}
	return edits
}

// splitLines splits b after each "\n"; the last line may lack one.
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			i = len(b) - 1
		}
		lines = append(lines, b[:i+1])
		b = b[i+1:]
	}
	return lines
}

// hunk says lines a[a0:a1] become b[b0:b1].
type hunk struct{ a0, a1, b0, b1 int }

// hunks is a Myers diff of a and b grouped into hunks.
func hunks(a, b [][]byte) []hunk {
	// Common prefix and suffix cost nothing and shrink the search.
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	ops, ok := myers(ma, mb)
	if !ok {
		return []hunk{{pre, pre + len(ma), pre, pre + len(mb)}}
	}
	// ops marks, for each step, whether it keeps (0), deletes (-1) or
	// inserts (+1) a line; consecutive non-keeps form a hunk.
	var hs []hunk
	x, y := 0, 0
	var cur *hunk
	for _, op := range ops {
		if op == 0 {
			cur = nil
			x++
			y++
			continue
		}
		if cur == nil {
			hs = append(hs, hunk{pre + x, pre + x, pre + y, pre + y})
			cur = &hs[len(hs)-1]
		}
		if op < 0 {
			x++
			cur.a1 = pre + x
		} else {
			y++
			cur.b1 = pre + y
		}
	}
	return hs
}

// myers returns the shortest edit script from a to b as a sequence of
// keep (0), delete (-1) and insert (+1) steps, or false when the edit
// distance exceeds maxEditDistance.
func myers(a, b [][]byte) ([]int8, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEditDistance)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d] is v[off-d : off+d+1] after round d
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert
			} else {
				x = v[off+k-1] + 1 // right: delete
			}
			y := x - k
			for x < n && y < m && bytes.Equal(a[x], b[y]) {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	if found < 0 {
		return nil, false
	}
	// Walk back from (n, m), collecting steps in reverse.
	var rev []int8
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // indexed by k+(d-1)
		get := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && get(k-1) < get(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := get(pk)
		py := px - pk
		// The step lands on column mx; a diagonal of kept lines follows
		// (y needs no tracking: it is reset to py below).
		mx, op := px+1, int8(-1) // delete a[px]
		if pk == k+1 {
			mx, op = px, 1 // insert b[py]
		}
		for x > mx {
			rev = append(rev, 0)
			x--
		}
		rev = append(rev, op)
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, 0)
		x--
		y--
	}
	ops := make([]int8, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops, true
}
