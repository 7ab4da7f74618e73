package lsp

import (
	"reflect"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// diagnosticCache keeps one file's diagnostics as last encoded, each with
// the JSON of everything after its range, so that the next encoding of
// the file's diagnostics writes afresh only the findings that changed and
// the ranges. An edit leaves most of a large file's findings as they were,
// if moved: a 1,000-server file carries about 1,300 of them, and encoding
// them all again was a tenth of an edit's cost.
//
// Reuse is decided by comparing the converted diagnostics field by field,
// never by a hash that could collide (and without reflection); the bytes are
// those appendDiagnostic writes, which diagnostics_encode_test.go holds
// to the library's.
type diagnosticCache struct {
	entries []cachedDiagnostic
	spare   []cachedDiagnostic // the entries before, reused
	buf     []byte             // the array last appended by encode
	encoded int                // diagnostics encoded afresh by the last call, for tests
	// byMessage indexes entries by message, built when the entries stop
	// matching in order (find).
	byMessage map[string][]int
	used      []bool
	off       int // entries[i+off] is in step with the i-th diagnostic
	misses    int // diagnostics in a row found nowhere near their step
}

type cachedDiagnostic struct {
	d    protocol.Diagnostic
	tail []byte
}

// appendArray appends the JSON array of ds, reusing the tails of the
// previous call's diagnostics where they are unchanged, and remembers ds
// for the next call.
func (c *diagnosticCache) appendArray(b []byte, ds []protocol.Diagnostic) []byte {
	next := slices.Grow(c.spare[:0], len(ds))[:len(ds)]
	c.byMessage, c.encoded, c.off, c.misses = nil, 0, 0, 0
	c.used = slices.Grow(c.used[:0], len(c.entries))[:len(c.entries)]
	clear(c.used)
	b = append(b, '[')
	for i := range ds {
		d := &ds[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"range":`...)
		b = appendRange(b, d.Range)
		tail, ok := c.find(i, d)
		if !ok {
			c.encoded++
			start := len(b)
			b = appendDiagnosticTail(b, d)
			tail = slices.Clone(b[start:])
		} else {
			b = append(b, tail...)
		}
		next[i] = cachedDiagnostic{d: *d, tail: tail}
	}
	c.entries, c.spare = next, c.entries
	clear(c.spare) // what they point to is not kept alive
	return append(b, ']')
}

// encode returns the JSON array of ds (appendArray) in a buffer of the
// cache's own, valid until the next call.
func (c *diagnosticCache) encode(ds []protocol.Diagnostic) []byte {
	c.buf = c.appendArray(c.buf[:0], ds)
	return c.buf
}

// find returns the tail of a previous diagnostic equal to d but for its
// range. Diagnostics keep their order from one publication to the next,
// so it looks at the entry in step with i (off: entries added or removed
// before shift it), then a few on either side (a finding added or
// removed nearby), and only after several misses in a row by message,
// through an index of the entries built then (the list was reordered).
// A finding whose message changed (typing in a value) misses once, and
// costs no index of 1,670 entries.
func (c *diagnosticCache) find(i int, d *protocol.Diagnostic) ([]byte, bool) {
	k := i + c.off
	if c.take(k, d) {
		c.misses = 0
		return c.entries[k].tail, true
	}
	for delta := 1; delta <= findWindow; delta++ {
		for _, j := range [2]int{k + delta, k - delta} {
			if c.take(j, d) {
				c.off, c.misses = j-i, 0
				return c.entries[j].tail, true
			}
		}
	}
	if c.misses++; c.misses <= findWindow {
		return nil, false
	}
	if c.byMessage == nil {
		c.byMessage = make(map[string][]int, len(c.entries))
		for j := range c.entries {
			m := c.entries[j].d.Message
			c.byMessage[m] = append(c.byMessage[m], j)
		}
	}
	for _, j := range c.byMessage[d.Message] {
		if c.take(j, d) {
			c.off = j - i
			return c.entries[j].tail, true
		}
	}
	return nil, false
}

// findWindow is how far find looks on either side of the entry in step,
// and how many misses in a row it takes before it indexes by message.
const findWindow = 4

// take marks entry j used if it exists, is unused, and is d but for the
// range.
func (c *diagnosticCache) take(j int, d *protocol.Diagnostic) bool {
	if j < 0 || j >= len(c.entries) || c.used[j] || !sameButRange(&c.entries[j].d, d) {
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
