package rpcstream

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// scanned is what one linear pass over a body learns before any decoder
// runs: whether the top level is an object, its members' raw values, and
// whether the nesting goes deeper than the limit. It does not validate:
// json.Valid does that once the depth is known to be safe.
type scanned struct {
	first   byte // first non-space byte
	object  bool
	tooDeep bool
	// trailing is set when something other than white space follows
	// the top-level value.
	trailing bool
	members  []member
}

type member struct {
	key   []byte // raw, with quotes
	value []byte // raw, trimmed
	start int    // offset of value in the body
}

// member returns the raw value of the last member named name (the last,
// as the decoders keep), or nil.
func (t scanned) member(name string) []byte {
	if m := t.find(name); m != nil {
		return m.value
	}
	return nil
}

// memberStart returns the offset of the value of member name.
func (t scanned) memberStart(name string) int { return t.find(name).start }

func (t scanned) find(name string) *member {
	for i := len(t.members) - 1; i >= 0; i-- {
		k := t.members[i].key
		if len(k) == len(name)+2 && string(k[1:len(k)-1]) == name {
			return &t.members[i]
		}
		if bytes.IndexByte(k, '\\') >= 0 { // an escaped key: decode it
			var s string
			if json.Unmarshal(k, &s) == nil && s == name {
				return &t.members[i]
			}
		}
	}
	return nil
}

// scan walks body once, in time linear in its length whatever its depth.
func scan(body []byte, limit int) scanned {
	var t scanned
	i := skipSpace(body, 0)
	if i == len(body) {
		return t
	}
	t.first = body[i]
	t.object = t.first == '{'
	const (
		expectKey = iota
		inKey
		expectColon
		inValue
	)
	state := expectKey
	depth := 0
	keyStart, keyEnd, valueStart := 0, 0, 0
	end := -1 // just past the top-level value, once closed
	for ; i < len(body); i++ {
		c := body[i]
		switch c {
		case '"':
			if t.object && depth == 1 && state == expectKey {
				keyStart, state = i, inKey
			}
			i = stringEnd(body, i)
			if state == inKey {
				keyEnd, state = i+1, expectColon
			}
		case '{', '[':
			depth++
			if depth > limit {
				t.tooDeep = true
			}
		case '}', ']':
			if t.object && depth == 1 && state == inValue {
				t.members = append(t.members, newMember(body, keyStart, keyEnd, valueStart, i))
				state = expectKey
			}
			depth--
			if depth == 0 && end < 0 {
				end = i + 1
			}
		case ':':
			if t.object && depth == 1 && state == expectColon {
				state, valueStart = inValue, i+1
			}
		case ',':
			if t.object && depth == 1 && state == inValue {
				t.members = append(t.members, newMember(body, keyStart, keyEnd, valueStart, i))
				state = expectKey
			}
		}
	}
	t.trailing = end >= 0 && skipSpace(body, end) != len(body)
	return t
}

func newMember(body []byte, keyStart, keyEnd, valueStart, valueEnd int) member {
	start := skipSpace(body, valueStart)
	if start > valueEnd {
		start = valueEnd
	}
	return member{key: body[keyStart:keyEnd], value: bytes.TrimRight(body[start:valueEnd], " \t\r\n"), start: start}
}

// stringEnd returns the offset of the quote closing the string opened at
// start, or len(body)-1 if it never closes. Documents travel as one long
// string, so this is the scan's hot loop, and an escaped document has a
// backslash every few bytes (each \" and \n): stepping from one to the
// next, as a byte loop or a word loop that stops at each does, costs a
// mispredicted branch per escape. Instead each block of 64 bytes is
// reduced to two bit masks, its quotes and its backslashes, and the
// escaped bytes are worked out from the runs of backslashes with a few
// additions (escapedBytes), without a branch per escape; the block is
// left only at its first unescaped quote.
func stringEnd(body []byte, start int) int {
	i := start + 1
	var carry uint64 // 1: the byte at i is escaped by a backslash before it
	for ; i+64 <= len(body); i += 64 {
		var quotes, slashes uint64
		for k := range 8 {
			w := binary.LittleEndian.Uint64(body[i+8*k:])
			quotes |= byteBits(w, '"') << (8 * k)
			slashes |= byteBits(w, '\\') << (8 * k)
		}
		var escaped uint64
		escaped, carry = escapedBytes(slashes, carry)
		if q := quotes &^ escaped; q != 0 {
			return i + bits.TrailingZeros64(q)
		}
	}
	// The last bytes, fewer than a block, one at a time.
	if carry != 0 {
		i++
	}
	for ; i < len(body); i++ {
		switch body[i] {
		case '"':
			return i
		case '\\':
			i++
		}
	}
	return len(body) - 1
}

// byteBits returns one bit per byte of w (little-endian) that equals c:
// bit k for byte k.
func byteBits(w uint64, c byte) uint64 {
	const ones, lows = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f
	x := w ^ ones*uint64(c)
	// A byte's high bit ends up set in x|(x&0x7f)+0x7f exactly when the
	// byte is not zero; no sum carries into the next byte.
	zero := ^((x&lows + lows) | x | lows)
	// Gather the high bits, one per byte, into the top byte.
	return (zero >> 7) * 0x0102040810204080 >> 56
}

// escapedBytes returns, for a block whose backslashes are the bits of
// slashes, the bits of the bytes a backslash escapes, given carry (1 if
// the block's first byte is escaped by the block before), and the carry
// into the next block. A run of backslashes escapes the byte after it
// when its length is odd: adding a run's lowest bit to the run carries
// past its end, and the parity of where the run started and where the
// carry lands says whether its length is odd.
func escapedBytes(slashes, carry uint64) (escaped, next uint64) {
	const even, odd = 0x5555555555555555, 0xaaaaaaaaaaaaaaaa
	slashes &^= carry // an escaped backslash escapes nothing
	starts := slashes &^ (slashes << 1)
	fromEven := (slashes + starts&even) &^ slashes
	fromOdd, next := bits.Add64(slashes, starts&odd, 0)
	fromOdd &^= slashes
	return fromEven&odd | fromOdd&even | carry, next
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
