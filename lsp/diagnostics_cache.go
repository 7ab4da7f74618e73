package lsp

import (
	"reflect"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp/rpcstream"
)

// diagnosticCache keeps one file's publication as last framed: the
// diagnostics, and where the JSON of everything after each one's range
// (its tail) is in the frame, so that the next publication of the file
// writes afresh only the findings that changed and the ranges. An edit
// leaves most of a large file's findings as they were, if moved: a
// 1,000-server file carries about 1,700 of them, and encoding them all
// again was a tenth of an edit's cost.
//
// The tails are read from the last frame where it was built, and the next
// frame is built in the one before (two buffers, swapped): no tail is
// copied out on its own, and no buffer is copied into another to be sent
// (rpcstream.BeginNotification). The minified 20,000-server file's first
// publication is 33,000 diagnostics, 15 MB; cloning each tail and copying
// the array into a params buffer and then a frame held four copies of it.
//
// Reuse is decided by comparing the converted diagnostics field by field,
// never by a hash that could collide (and without reflection); the bytes are
// those appendDiagnostic writes, which diagnostics_encode_test.go holds
// to the library's.
type diagnosticCache struct {
	// last is the list last encoded: the caller's, which it does not
	// modify afterwards (convertReusing's lists are read-only), not a
	// copy. tails[i] is where last[i]'s tail is in buf.
	last  []protocol.Diagnostic
	tails []tailAt
	buf   []byte // the frame last built
	// spare and spareTails are the ones before, in which the next are
	// built.
	spare      []byte
	spareTails []tailAt
	encoded    int // diagnostics encoded afresh by the last call, for tests
	// byMessage indexes last by message, built when the entries stop
	// matching in order (find).
	byMessage map[string][]int
	used      []bool
	off       int // last[i+off] is in step with the i-th diagnostic
	misses    int // diagnostics in a row found nowhere near their step
}

// tailAt is where a diagnostic's tail is in a buffer: buf[start:end].
type tailAt struct{ start, end uint32 }

// appendArray appends the JSON array of ds to b, a buffer other than
// c.buf, reusing the tails of the previous call's diagnostics where they
// are unchanged. The caller then calls keep with the buffer that holds
// the array (b, or what b grew into).
func (c *diagnosticCache) appendArray(b []byte, ds []protocol.Diagnostic) []byte {
	next := slices.Grow(c.spareTails[:0], len(ds))[:len(ds)]
	c.byMessage, c.encoded, c.off, c.misses = nil, 0, 0, 0
	c.used = slices.Grow(c.used[:0], len(c.last))[:len(c.last)]
	clear(c.used)
	b = slices.Grow(b, arraySizeHint(ds))
	b = append(b, '[')
	for i := range ds {
		d := &ds[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"range":`...)
		b = appendRange(b, d.Range)
		start := len(b)
		if j, ok := c.find(i, d); ok {
			t := c.tails[j]
			b = append(b, c.buf[t.start:t.end]...)
		} else {
			c.encoded++
			b = appendDiagnosticTail(b, d)
		}
		next[i] = tailAt{uint32(start), uint32(len(b))}
	}
	c.spareTails = next
	return append(b, ']')
}

// keep makes buf, which holds the array the last appendArray wrote (of
// ds), the one the next call reads its tails from; the previous one
// becomes the spare.
func (c *diagnosticCache) keep(buf []byte, ds []protocol.Diagnostic) {
	c.last = ds
	c.buf, c.spare = buf, c.buf[:0]
	c.tails, c.spareTails = c.spareTails, c.tails[:0]
}

// frame builds the frame of p's publishDiagnostics notification with
// p.diags (rpcstream.BeginNotification), in a buffer of the cache's own
// valid until the call after next. It returns the frame, its params, and
// the diagnostics' JSON array.
func (c *diagnosticCache) frame(p publication) (frame, params, array []byte) {
	b := slices.Grow(c.spare[:0], rpcstream.FrameHeadroom+160+len(p.uri))
	b = rpcstream.BeginNotification(b, protocol.MethodTextDocumentPublishDiagnostics)
	from := len(b)
	b = appendPublicationHead(b, p.uri, p.version)
	at := len(b)
	b = c.appendArray(b, p.diags)
	end := len(b)
	b = append(b, '}')
	to := len(b)
	b, frame = rpcstream.EndNotification(b, 0)
	c.keep(b, p.diags)
	return frame, b[from:to], b[at:end]
}

// arraySizeHint is about the size of ds's JSON array, a little more
// rather than less: growing a 15 MB buffer by appending to it copied it
// over and over (a quarter of the minified file's publication).
func arraySizeHint(ds []protocol.Diagnostic) int {
	n := 2
	for i := range ds {
		d := &ds[i]
		// The range with 10-digit numbers, the keys, quotes and
		// severity, and a few escapes.
		n += 200 + len(d.Source) + len(d.Message)
		if code, ok := d.Code.(string); ok {
			n += len(code)
		}
		if d.CodeDescription != nil {
			n += len(d.CodeDescription.Href)
		}
		for _, r := range d.RelatedInformation {
			n += 160 + len(r.Location.URI) + len(r.Message)
		}
	}
	return n
}

// find returns the index in c.last of a previous diagnostic equal to d
// but for its range. Diagnostics keep their order from one publication to the next,
// so it looks at the entry in step with i (off: entries added or removed
// before shift it), then a few on either side (a finding added or
// removed nearby), and only after several misses in a row by message,
// through an index of the entries built then (the list was reordered).
// A finding whose message changed (typing in a value) misses once, and
// costs no index of 1,670 entries.
func (c *diagnosticCache) find(i int, d *protocol.Diagnostic) (int, bool) {
	k := i + c.off
	if c.take(k, d) {
		c.misses = 0
		return k, true
	}
	for delta := 1; delta <= findWindow; delta++ {
		for _, j := range [2]int{k + delta, k - delta} {
			if c.take(j, d) {
				c.off, c.misses = j-i, 0
				return j, true
			}
		}
	}
	if c.misses++; c.misses <= findWindow || len(c.last) == 0 {
		return 0, false
	}
	if c.byMessage == nil {
		c.byMessage = make(map[string][]int, len(c.last))
		for j := range c.last {
			m := c.last[j].Message
			c.byMessage[m] = append(c.byMessage[m], j)
		}
	}
	for _, j := range c.byMessage[d.Message] {
		if c.take(j, d) {
			c.off = j - i
			return j, true
		}
	}
	return 0, false
}

// findWindow is how far find looks on either side of the entry in step,
// and how many misses in a row it takes before it indexes by message.
const findWindow = 4

// take marks entry j used if it exists, is unused, and is d but for the
// range.
func (c *diagnosticCache) take(j int, d *protocol.Diagnostic) bool {
	if j < 0 || j >= len(c.last) || c.used[j] || !sameButRange(&c.last[j], d) {
		return false
	}
	c.used[j] = true
	return true
}

// sameButRange reports whether a and b encode to the same JSON after
// their ranges. It may say no for equal ones (values of types sameValue
// does not know): they are then encoded again.
func sameButRange(a, b *protocol.Diagnostic) bool {
	if a.Severity != b.Severity || a.Source != b.Source || a.Message != b.Message ||
		!slices.Equal(a.Tags, b.Tags) || !slices.Equal(a.RelatedInformation, b.RelatedInformation) {
		return false
	}
	if (a.CodeDescription == nil) != (b.CodeDescription == nil) ||
		(a.CodeDescription != nil && a.CodeDescription.Href != b.CodeDescription.Href) {
		return false
	}
	return sameValue(a.Code, b.Code) && sameValue(a.Data, b.Data)
}

// sameValue reports whether a and b, a diagnostic's Code or Data, are
// equal values of the same types, as the rules build them (strings,
// numbers, booleans, fixes, and lists and maps of them), so that they
// encode alike. Any other type counts as different: it is encoded again.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case int:
		b, ok := b.(int)
		return ok && a == b
	case float64:
		b, ok := b.(float64)
		return ok && a == b
	case rules.Fix:
		b, ok := b.(rules.Fix)
		return ok && a == b
	case []string:
		b, ok := b.([]string)
		return ok && (a == nil) == (b == nil) && slices.Equal(a, b)
	case []any:
		b, ok := b.([]any)
		return ok && (a == nil) == (b == nil) && slices.EqualFunc(a, b, sameValue)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
			// The same map: findings share their Data across analyses
			// (rules.Diagnostic.Data is read-only).
			return true
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return false
}
