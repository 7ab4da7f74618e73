package lsp

import (
	"bufio"
	"encoding/binary"
	"hash/maphash"
	"reflect"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// diagnosticCache keeps one file's publication as last prepared: the
// diagnostics, and the JSON of everything after each one's range (its
// tail), so that the next publication of the file encodes afresh only
// the findings that changed and the ranges. An edit leaves most of a
// large file's findings as they were, if moved: a 1,000-server file
// carries about 1,700 of them, and encoding them all again was a tenth of
// an edit's cost.
//
// The tails are kept on their own, each a piece of the slab it was
// encoded in, and a publication is written from them as it goes
// (rpcstream.WriteNotificationFunc), never assembled. Built whole, in
// place, a publication needed two frame buffers, the last one (whose
// tails the next reused) and the next: 1.5 MB of live heap for the
// 1,000-server file, 30 MB for the minified 20,000-server one. A tail is
// never copied to be reused, and a slab lives as long as one of its
// tails does.
//
// Reuse is decided by comparing the converted diagnostics field by field,
// never by a hash that could collide (and without reflection); the bytes are
// those appendDiagnostic writes, which diagnostics_encode_test.go holds
// to the library's.
type diagnosticCache struct {
	// last is the list last prepared: the caller's, which it does not
	// modify afterwards (convertReusing's lists are read-only), not a
	// copy. tails[i] is last[i]'s tail after its head, heads[tailHead[i]]
	// (the whole tail when tailHead[i] < 0).
	last     []protocol.Diagnostic
	tails    [][]byte
	tailHead []int32
	// heads are the distinct starts of the tails (severity, code, code
	// description and source: the same for every finding of a rule), each
	// kept once, found by its bytes in headOf; headBuf is where a head is
	// encoded to be looked up. Half of the 1,000-server file's 594 KB of
	// tails is 1,670 copies of three heads.
	heads   [][]byte
	headOf  map[string]int32
	headBuf []byte
	// The publication prepared, besides its diagnostics' ranges and
	// tails: its params up to the array (head), and the size of its
	// params.
	head []byte
	size int

	// sums[i] is the hash of tails[i]; hashed, the tails' hashes and the
	// ranges hashed into the publication's.
	sums   []uint64
	hashed []byte

	// For the next prepare: the tails and their hashes before, whose
	// slices it reuses, and for each diagnostic the one before whose
	// tail it reuses (-1: none).
	spareTails    [][]byte
	spareTailHead []int32
	spareSums     []uint64
	reuse         []int32

	encoded int // diagnostics encoded afresh by the last call, for tests
	// byMessage indexes last by message, built when the entries stop
	// matching in order (find).
	byMessage map[string][]int
	used      []bool
	off       int // last[i+off] is in step with the i-th diagnostic
	misses    int // diagnostics in a row found nowhere near their step
}

// slabSize is the most a slab of tails holds, unless one tail is larger:
// a file's first publication encodes all of its tails, in slabs this
// large, and an edit the few it changed, in one slab their size.
const slabSize = 64 << 10

// prepare makes p (with p.diags) the publication the cache writes
// (writeParams), reusing the tails of the previous call's diagnostics
// where they are unchanged, and returns a hash of its diagnostics' JSON
// array (publicationSeed): of each tail's hash, kept with it, and of the
// numbers of the ranges.
func (c *diagnosticCache) prepare(p publication) uint64 {
	ds := p.diags
	c.head = appendPublicationHead(c.head[:0], p.uri, p.version)
	c.byMessage, c.encoded, c.off, c.misses = nil, 0, 0, 0
	c.used = slices.Grow(c.used[:0], len(c.last))[:len(c.last)]
	clear(c.used)
	c.reuse = slices.Grow(c.reuse[:0], len(ds))[:len(ds)]
	hint := 0 // of the tails to encode
	for i := range ds {
		j, ok := c.find(i, &ds[i])
		if !ok {
			j = -1
			hint += diagnosticSizeHint(&ds[i])
		}
		c.reuse[i] = int32(j)
	}
	next := slices.Grow(c.spareTails[:0], len(ds))[:len(ds)]
	nextHead := slices.Grow(c.spareTailHead[:0], len(ds))[:len(ds)]
	sums := slices.Grow(c.spareSums[:0], len(ds))[:len(ds)]
	var slab []byte
	for i := range ds {
		if j := c.reuse[i]; j >= 0 {
			next[i], nextHead[i], sums[i] = c.tails[j], c.tailHead[j], c.sums[j]
			continue
		}
		d := &ds[i]
		need := diagnosticSizeHint(d)
		if cap(slab)-len(slab) < need {
			slab = make([]byte, 0, max(min(hint, slabSize), need))
		}
		start := len(slab)
		c.headBuf = appendDiagnosticHead(c.headBuf[:0], d)
		h := c.headIndex(c.headBuf)
		if h < 0 {
			slab = append(slab, c.headBuf...)
		}
		slab = appendDiagnosticRest(slab, d)
		hint -= need
		next[i], nextHead[i] = slab[start:len(slab):len(slab)], h
		sums[i] = maphash.Bytes(publicationSeed, next[i])
		c.encoded++
	}
	// The ranges are written as they go (writeParams): here only their
	// size, and their numbers beside the tails' hashes.
	size := len(c.head) + 2 + 1 // the array's brackets, the params' brace
	c.hashed = slices.Grow(c.hashed[:0], 28*len(ds))
	for i := range ds {
		r := ds[i].Range
		if i > 0 {
			size++
		}
		size += len(rangeKey) + rangeSize(r) + len(next[i])
		if h := nextHead[i]; h >= 0 {
			size += len(c.heads[h])
		}
		c.hashed = binary.LittleEndian.AppendUint64(c.hashed, sums[i])
		c.hashed = binary.LittleEndian.AppendUint32(c.hashed, uint32(nextHead[i]))
		c.hashed = binary.LittleEndian.AppendUint64(c.hashed, uint64(r.Start.Line)<<32|uint64(r.Start.Character))
		c.hashed = binary.LittleEndian.AppendUint64(c.hashed, uint64(r.End.Line)<<32|uint64(r.End.Character))
	}
	c.size = size
	// The tails before are the spare for the next call: the slabs they
	// hold are let go.
	old := c.tails
	clear(old[:cap(old)])
	c.last, c.tails, c.spareTails = ds, next, old[:0]
	c.tailHead, c.spareTailHead = nextHead, c.tailHead[:0]
	c.sums, c.spareSums = sums, c.sums[:0]
	return maphash.Bytes(publicationSeed, c.hashed)
}

// maxHeads bounds the heads a cache keeps: a tail whose head is not
// among them keeps its own.
const maxHeads = 1024

// headIndex returns the index of the head hd (encoded in a buffer it does not
// keep) in c.heads, adding it if there is room; -1 if there is none.
func (c *diagnosticCache) headIndex(hd []byte) int32 {
	if h, ok := c.headOf[string(hd)]; ok {
		return h
	}
	if len(c.heads) >= maxHeads {
		return -1
	}
	if c.headOf == nil {
		c.headOf = map[string]int32{}
	}
	b := slices.Clone(hd)
	h := int32(len(c.heads))
	c.heads = append(c.heads, b)
	c.headOf[string(b)] = h
	return h
}

// writeParams writes the params of the publication last prepared, as
// many bytes as c.size: its head, then each diagnostic's range and tail.
func (c *diagnosticCache) writeParams(w *bufio.Writer) error {
	w.Write(c.head)
	w.WriteByte('[')
	for i, t := range c.tails {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(rangeKey)
		w.Write(appendRange(w.AvailableBuffer(), c.last[i].Range))
		if h := c.tailHead[i]; h >= 0 {
			w.Write(c.heads[h])
		}
		w.Write(t)
	}
	w.WriteByte(']')
	return w.WriteByte('}')
}

// rangeKey opens a diagnostic's JSON, up to its range.
const rangeKey = `{"range":`

// rangeSize is the size of r's JSON (appendRange).
func rangeSize(r protocol.Range) int {
	return len(`{"start":{"line":,"character":},"end":{"line":,"character":}}`) +
		decimalDigits(r.Start.Line) + decimalDigits(r.Start.Character) +
		decimalDigits(r.End.Line) + decimalDigits(r.End.Character)
}

// decimalDigits is the number of digits of n in decimal.
func decimalDigits(n uint32) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// diagnosticSizeHint is about the size of d's JSON, a little more rather
// than less: growing a 15 MB buffer by appending to it copied it over and
// over (a quarter of the minified file's publication).
func diagnosticSizeHint(d *protocol.Diagnostic) int {
	// The range with 10-digit numbers, the keys, quotes and severity,
	// and a few escapes.
	n := 200 + len(d.Source) + len(d.Message)
	if code, ok := d.Code.(string); ok {
		n += len(code)
	}
	if d.CodeDescription != nil {
		n += len(d.CodeDescription.Href)
	}
	for _, r := range d.RelatedInformation {
		n += 160 + len(r.Location.URI) + len(r.Message)
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
