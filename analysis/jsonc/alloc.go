package jsonc

// arena hands out the parser's nodes, members and child lists from chunks,
// one allocation per chunk instead of one per object. A tree is built once
// and then only read, so nothing is ever freed individually; the chunks
// live exactly as long as the File.
type arena struct {
	chunk    int // elements per chunk, scaled to the input size
	nodes    []Node
	members  []Member
	nodePtrs []*Node
	memPtrs  []*Member
}

// newArena returns an arena for an input of n bytes. Pretty-printed JSON
// has roughly one node per 10 bytes; small inputs get small chunks so a
// tiny document does not pay for a big one.
func newArena(n int) arena {
	return arena{chunk: min(max(n/16, 16), 1024)}
}

// take returns a pointer to the next free element of *slab.
func take[T any](slab *[]T, chunk int) *T {
	if len(*slab) == 0 {
		*slab = make([]T, chunk)
	}
	x := &(*slab)[0]
	*slab = (*slab)[1:]
	return x
}

// carve returns a copy of s in memory from *slab, capped so that appending
// to the result reallocates instead of overwriting a neighbour.
func carve[T any](slab *[]T, chunk int, s []T) []T {
	if len(s) == 0 {
		return nil
	}
	if len(*slab) < len(s) {
		*slab = make([]T, max(chunk, len(s)))
	}
	out := (*slab)[:len(s):len(s)]
	*slab = (*slab)[len(s):]
	copy(out, s)
	return out
}
