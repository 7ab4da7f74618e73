package rpcstream

import (
	"bytes"
	"encoding/json"
)

// scanned is what one linear pass over a body learns before any decoder
// runs: whether the top level is an object, its members' raw values, and
// whether the nesting goes deeper than the limit. It does not validate:
// json.Valid does that once the depth is known to be safe.
type scanned struct {
	first   byte // first non-space byte
	object  bool
	tooDeep bool
	members []member
}

type member struct {
	key   []byte // raw, with quotes
	value []byte // raw, trimmed
}

// member returns the raw value of the last member named name (the last,
// as encoding/json keeps), or nil.
func (t scanned) member(name string) []byte {
	for i := len(t.members) - 1; i >= 0; i-- {
		k := t.members[i].key
		if len(k) == len(name)+2 && string(k[1:len(k)-1]) == name {
			return t.members[i].value
		}
		if bytes.IndexByte(k, '\\') >= 0 { // an escaped key: decode it
			var s string
			if json.Unmarshal(k, &s) == nil && s == name {
				return t.members[i].value
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
	inString, escaped := false, false
	keyStart, keyEnd, valueStart := 0, 0, 0
	for ; i < len(body); i++ {
		c := body[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 1 && state == inKey {
					keyEnd, state = i+1, expectColon
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if t.object && depth == 1 && state == expectKey {
				keyStart, state = i, inKey
			}
		case '{', '[':
			depth++
			if depth > limit {
				t.tooDeep = true
			}
		case '}', ']':
			if t.object && depth == 1 && state == inValue {
				t.members = append(t.members, member{body[keyStart:keyEnd], bytes.TrimSpace(body[valueStart:i])})
				state = expectKey
			}
			depth--
		case ':':
			if t.object && depth == 1 && state == expectColon {
				state, valueStart = inValue, i+1
			}
		case ',':
			if t.object && depth == 1 && state == inValue {
				t.members = append(t.members, member{body[keyStart:keyEnd], bytes.TrimSpace(body[valueStart:i])})
				state = expectKey
			}
		}
	}
	return t
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
