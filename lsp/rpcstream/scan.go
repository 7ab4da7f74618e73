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
// string, so this is the scan's hot loop: it looks at eight bytes at a
// time for a quote or a backslash, and steps over each escape.
func stringEnd(body []byte, start int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := start + 1; i < len(body); {
		for i+8 <= len(body) {
			w := binary.LittleEndian.Uint64(body[i:])
			// The classic has-zero test on w^'"' and w^'\\': its lowest
			// flag is exact.
			q, b := w^(ones*'"'), w^(ones*'\\')
			if f := ((q-ones)&^q | (b-ones)&^b) & highs; f != 0 {
				i += bits.TrailingZeros64(f) / 8
				break
			}
			i += 8
		}
		if i >= len(body) {
			break
		}
		switch body[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(body) - 1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
