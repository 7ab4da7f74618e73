package lsp

import (
	"sort"
	"sync"
	"unsafe"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// textReuse unescapes the document a full-text didChange carries from
// the previous one's: a keystroke changes a few bytes of a text of
// hundreds of kilobytes, and unescaping all of it again was the largest
// part of reading the message (350 us for the 1,000-server file). The
// bytes of the new escaped text that are the same as the previous one's,
// before and after the change, decode to the same text: only the bytes
// between are unescaped, and the rest is copied from the previous text.
//
// Unescaping is a pass from left to right with no state between one
// character or escape and the next, so the previous decoding's safe
// points (marks, where it was between two) before the change are safe
// points of the new text too, and the same bytes after a safe point decode
// the same way. A safe point of the previous text after the change is
// one of the new text if the unescaping of the bytes between arrives at
// it exactly, not inside an escape or a character; decodeBetween checks
// that, and that no quote ends the string before it. Anything else is
// unescaped whole.
//
// One textReuse serves one stream's didChange messages, in turn (the
// stream's read loop); it keeps one escaped text and its decoded value.
type textReuse struct {
	mu sync.Mutex
	// raw is a copy of the previous escaped text from the byte after its
	// opening quote to the end of its params, end the offset in it of
	// the closing quote, text the decoded value and marks its safe
	// points (the last one at end).
	raw   []byte
	end   int
	text  string
	marks []textMark
	// reused counts the texts decoded from the previous one (tests).
	reused int
}

// textMark is a safe point: raw bytes of the escaped text decode to
// text bytes of its value.
type textMark struct{ raw, text int }

// markEvery is the distance in escaped bytes between two marks: the
// bytes unescaped around a change are at most about twice that.
const markEvery = 2048

// decodeDidChange decodes didChange params as decodeDidChange does,
// reusing the previous text it decoded.
func (r *textReuse) decodeDidChange(params []byte) (any, error) {
	return decodeDidChangeWith(params, r.unquote)
}

// unquote is unquote, from the previous text where it can.
func (r *textReuse) unquote(b []byte, i int) (string, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := b[i:]
	if s, end, marks, ok := r.reuse(cur); ok {
		r.reused++
		r.remember(cur, end, s, marks)
		return s, i + end, nil
	}
	var marks []textMark
	s, end, err := unquoteMarking(b, i, &marks)
	if err != nil {
		r.raw, r.text, r.marks = nil, "", nil
		return "", 0, err
	}
	r.remember(cur, end-i, s, append(marks, textMark{raw: end - i, text: len(s)}))
	return s, end, nil
}

// remember keeps cur (copied: the stream reads the next message into
// the params' memory), the offset of its closing quote, its value and
// marks for the next text.
func (r *textReuse) remember(cur []byte, end int, text string, marks []textMark) {
	r.raw = append(r.raw[:0], cur...)
	r.end, r.text, r.marks = end, text, marks
}

// reuse decodes cur, the escaped text after an opening quote and the rest
// of the params, from the previous text; ok is false where it cannot.
// end is the offset in cur of the closing quote.
func (r *textReuse) reuse(cur []byte) (text string, end int, marks []textMark, ok bool) {
	if len(r.marks) == 0 {
		return "", 0, nil, false
	}
	// Compared with what follows it in the params (the same when the
	// text is their last member), or else alone, up to its closing quote
	// found in cur (a version number after it changes on every edit).
	if text, end, marks, ok := r.reuseUpTo(cur, len(r.raw), len(cur)); ok {
		return text, end, marks, ok
	}
	if e := r.closingIn(cur); e >= 0 {
		return r.reuseUpTo(cur, r.end, e)
	}
	return "", 0, nil, false
}

// closingIn returns the offset in cur of a quote that is likely its
// closing one, or -1: near where the change in length moves the previous
// closing quote, one with the previous text's last bytes before it, or
// else one with the first bytes of what followed it after it (a space
// typed at the end changes the former, a version number the latter).
// It need not be cur's closing quote: reuseUpTo decodes up to it only
// where the bytes before it unescape to exactly there, and then it is.
func (r *textReuse) closingIn(cur []byte) int {
	const key, near = 16, 256
	at := r.end + len(cur) - len(r.raw)
	for _, k := range [2]struct{ before, after int }{{key, 1}, {0, key}} {
		if r.end < k.before || len(r.raw) < r.end+k.after {
			continue
		}
		want := r.raw[r.end-k.before : r.end+k.after]
		for d := 0; d <= near; d++ {
			for _, e := range [2]int{at - d, at + d} {
				if e >= k.before && e+k.after <= len(cur) && cur[e] == '"' && string(cur[e-k.before:e+k.after]) == string(want) {
					return e
				}
			}
		}
	}
	return -1
}

// reuseUpTo is reuse comparing r.raw[:prevLen] with cur[:curLen], which
// include the closing quote (prevLen == len(r.raw)) or end just before
// it.
func (r *textReuse) reuseUpTo(cur []byte, prevLen, curLen int) (text string, end int, marks []textMark, ok bool) {
	pre, suf := span.CommonEnds(r.raw[:prevLen], cur[:curLen])
	delta := curLen - prevLen
	// The last mark in the common prefix, or the start.
	p := sort.Search(len(r.marks), func(k int) bool { return r.marks[k].raw > pre }) - 1
	from := textMark{}
	if p >= 0 {
		from = r.marks[p]
	}
	// The first mark in the common suffix; the closing quote is the last
	// mark, so if there is none the string's end changed.
	s := sort.Search(len(r.marks), func(k int) bool { return r.marks[k].raw >= prevLen-suf })
	if s == len(r.marks) {
		return "", 0, nil, false
	}
	to := r.marks[s]
	between, inner, ok := decodeBetween(cur[from.raw : to.raw+delta])
	if !ok {
		return "", 0, nil, false
	}
	out := make([]byte, 0, from.text+len(between)+len(r.text)-to.text)
	out = append(out, r.text[:from.text]...)
	out = append(out, between...)
	out = append(out, r.text[to.text:]...)
	textDelta := len(between) - (to.text - from.text)
	// The new text's marks: the previous ones before the change, those
	// of the bytes between, and the previous ones after it, moved; one
	// closer than half markEvery to the one before is left out, so that
	// edit after edit at the same place does not pile them up, but the
	// last, the closing quote, is always kept.
	marks = make([]textMark, 0, p+1+len(inner)+len(r.marks)-s)
	add := func(m textMark) {
		if n := len(marks); n == 0 || m.raw >= marks[n-1].raw+markEvery/2 {
			marks = append(marks, m)
		}
	}
	for _, m := range r.marks[:p+1] {
		add(m)
	}
	for _, m := range inner {
		add(textMark{raw: from.raw + m.raw, text: from.text + m.text})
	}
	last := len(r.marks) - 1
	for _, m := range r.marks[s:last] {
		add(textMark{raw: m.raw + delta, text: m.text + textDelta})
	}
	closing := textMark{raw: r.marks[last].raw + delta, text: r.marks[last].text + textDelta}
	if n := len(marks); n > 0 && marks[n-1].raw >= closing.raw {
		marks = marks[:n-1]
	}
	marks = append(marks, closing)
	return unsafe.String(unsafe.SliceData(out), len(out)), r.end + delta, marks, true
}

// decodeBetween unescapes b, escaped string bytes that start at a safe
// point, and reports whether they end at one: no quote ends the string
// in them, and no escape or character runs past their end (a closing
// quote put after them is then read as one). Its marks are relative to
// b and its value.
func decodeBetween(b []byte) (string, []textMark, bool) {
	buf := make([]byte, len(b)+1)
	copy(buf, b)
	buf[len(b)] = '"'
	var marks []textMark
	s, end, err := unquoteMarking(buf, 0, &marks)
	if err != nil || end != len(b) {
		return "", nil, false
	}
	return s, marks, true
}
