package jsonc

// arena hands out the parser's nodes, members and child lists from chunks,
// one allocation per chunk instead of one per object. A tree is built once
// and then only read, so nothing is ever freed individually; the chunks
// live exactly as long as the File.
type arena struct {
	chunk    int // elements per chunk, scaled to the input size
	nodes    slab[Node]
	members  slab[Member]
	nodePtrs slab[*Node]
	memPtrs  slab[*Member]
}

// slab is the current chunk of one kind of element, buf[next:] free. Taking
// an element writes an index, not a slice header: a pointer store costs a
// write barrier while the garbage collector runs, and the parser takes an
// element for every token or two.
type slab[T any] struct {
	buf  []T
	next int
	// taken counts the elements handed out, for sizes.
	taken int
}

// sizes counts what a tree holds of each kind of element: a copy of the
// tree (see copier) allocates exactly that, once per kind.
type sizes struct{ nodes, members, nodePtrs, memPtrs int }

// sizes returns what a has handed out.
func (a *arena) sizes() sizes {
	return sizes{a.nodes.taken, a.members.taken, a.nodePtrs.taken, a.memPtrs.taken}
}

// add returns the sum of s and t.
func (s sizes) add(t sizes) sizes {
	return sizes{s.nodes + t.nodes, s.members + t.members, s.nodePtrs + t.nodePtrs, s.memPtrs + t.memPtrs}
}

// newArenaFor returns an arena whose first chunk of each kind holds n of
// that kind: a copy of a tree of that size allocates four times, not per
// chunk.
func newArenaFor(n sizes) arena {
	a := newArena(0)
	a.nodes.buf = make([]Node, n.nodes)
	a.members.buf = make([]Member, n.members)
	a.nodePtrs.buf = make([]*Node, n.nodePtrs)
	a.memPtrs.buf = make([]*Member, n.memPtrs)
	return a
}

// newArena returns an arena for an input of n bytes. Pretty-printed JSON
// has roughly one node per 10 bytes; small inputs get small chunks so a
// tiny document does not pay for a big one.
func newArena(n int) arena {
	return arena{chunk: min(max(n/16, 16), 1024)}
}

// take returns a pointer to the next free element of s.
func take[T any](s *slab[T], chunk int) *T {
	if s.next == len(s.buf) {
		s.buf, s.next = make([]T, chunk), 0
	}
	x := &s.buf[s.next]
	s.next++
	s.taken++
	return x
}

// carve returns a copy of src in memory from s, capped so that appending
// to the result reallocates instead of overwriting a neighbour.
func carve[T any](s *slab[T], chunk int, src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if len(s.buf)-s.next < len(src) {
		s.buf, s.next = make([]T, max(chunk, len(src))), 0
	}
	end := s.next + len(src)
	out := s.buf[s.next:end:end]
	s.next = end
	s.taken += len(src)
	copy(out, src)
	return out
}

// grab returns n zeroed elements of memory from s, capped like carve's.
func grab[T any](s *slab[T], chunk, n int) []T {
	if n == 0 {
		return nil
	}
	if len(s.buf)-s.next < n {
		s.buf, s.next = make([]T, max(chunk, n)), 0
	}
	end := s.next + n
	out := s.buf[s.next:end:end]
	s.next = end
	s.taken += n
	return out
}
