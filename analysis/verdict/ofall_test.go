package verdict

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// mcpJSONReaders are the readers of a .mcp.json in a workspace folder.
func mcpJSONReaders(t *testing.T) []*registry.Reader {
	t.Helper()
	k, ok := registry.Default().Kind("mcp-json")
	if !ok {
		t.Fatal("no kind mcp-json")
	}
	var rs []*registry.Reader
	for i := range k.Readers {
		rs = append(rs, &k.Readers[i])
	}
	if len(rs) < 2 {
		t.Fatalf("mcp-json has %d readers", len(rs))
	}
	return rs
}

// sameVerdict compares what a verdict says, not its cache bookkeeping.
func sameVerdict(a, b *Verdict) bool {
	return a.Tool == b.Tool && a.Dialect == b.Dialect && a.Def == b.Def && a.Transport == b.Transport &&
		a.Modelled == b.Modelled && a.Outcome == b.Outcome && a.Program == b.Program &&
		reflect.DeepEqual(a.Reasons, b.Reasons) && reflect.DeepEqual(a.Problems, b.Problems)
}

var ofAllEntries = []struct{ name, text string }{
	{"fs", `{"command": "npx", "args": ["-y", "@example/fs"]}`},
	{"web", `{"type": "http", "url": "https://example.com/mcp"}`},
	{"bad", `{"command": 1, "args": "x"}`},
	{"workspace", `{"command": "x"}`},
	{"old", `{"type": "sse", "url": "http://localhost:1/sse", "headers": {"A": "b"}}`},
	{"odd", `{"type": "local", "command": ["a"], "foo": true}`},
}

// TestOfAllIsOf: OfAll gives every reader the verdict Of gives, judges
// each (entry, reader) once, and then finds them where Of does.
func TestOfAllIsOf(t *testing.T) {
	rs := mcpJSONReaders(t)
	reg := registry.Default()
	c := NewCache()
	for _, e := range ofAllEntries {
		f := jsonc.Parse([]byte(e.text))
		entry := Entry{Name: e.name, Value: f.Root, Text: f.Src}
		out := make([]*Verdict, len(rs))
		before := c.Judged()
		OfAll(c, reg, rs, entry, out)
		if got := c.Judged() - before; got != int64(len(rs)) {
			t.Errorf("%s: OfAll judged %d verdicts, want %d", e.name, got, len(rs))
		}
		for i, r := range rs {
			if want := Of(nil, reg, r, entry); !sameVerdict(out[i], want) {
				t.Errorf("%s, %s: OfAll %+v, Of %+v", e.name, r.Tool, out[i], want)
			}
			if again := Of(c, reg, r, entry); again != out[i] {
				t.Errorf("%s, %s: Of after OfAll did not find its verdict", e.name, r.Tool)
			}
		}
		again := make([]*Verdict, len(rs))
		OfAll(c, reg, rs, entry, again)
		if !reflect.DeepEqual(again, out) || c.Judged()-before != int64(len(rs)) {
			t.Errorf("%s: a second OfAll judged again", e.name)
		}
		// Without a cache, the same verdicts.
		fresh := make([]*Verdict, len(rs))
		OfAll(nil, reg, rs, entry, fresh)
		for i := range rs {
			if !sameVerdict(fresh[i], out[i]) {
				t.Errorf("%s, %s: OfAll without a cache differs", e.name, rs[i].Tool)
			}
		}
	}
}

// TestOfAllWithOfConcurrentCollisions: OfAll and Of at once on entries
// whose hashes all collide (the flights of one entry must not hand out
// another's verdict), and on one entry asked by both (each verdict is
// judged once: the second caller waits for the first's flight).
func TestOfAllWithOfConcurrentCollisions(t *testing.T) {
	rs := mcpJSONReaders(t)
	reg := registry.Default()
	type judged struct {
		entry Entry
		want  []*Verdict
	}
	var entries []judged
	for _, e := range ofAllEntries {
		f := jsonc.Parse([]byte(e.text))
		entry := Entry{Name: e.name, Value: f.Root, Text: f.Src}
		want := make([]*Verdict, len(rs))
		OfAll(nil, reg, rs, entry, want)
		entries = append(entries, judged{entry, want})
	}
	for round := range 20 {
		for _, collide := range []bool{true, false} {
			c := NewCache()
			if collide {
				c.verdicts.hash = func([]byte, string) uint64 { return 42 }
			}
			var wg sync.WaitGroup
			errs := make(chan string, 256)
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range entries {
						e := entries[(i+g)%len(entries)]
						got := make([]*Verdict, len(rs))
						if g%2 == 0 {
							OfAll(c, reg, rs, e.entry, got)
						} else {
							for j, r := range rs {
								got[j] = Of(c, reg, r, e.entry)
							}
						}
						for j := range rs {
							if !sameVerdict(got[j], e.want[j]) {
								errs <- fmt.Sprintf("round %d (collide %v): %s, %s: %+v, want %+v", round, collide, e.entry.Name, rs[j].Tool, got[j], e.want[j])
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			if !collide {
				if got, want := c.Judged(), int64(len(entries)*len(rs)); got != want {
					t.Errorf("round %d: %d verdicts judged, want %d (each once)", round, got, want)
				}
			}
		}
	}
}
