// Package benchgen makes the inputs of the benchmarks of issue 11, the same
// everywhere: a Claude Code .mcp.json of n servers byte for byte as
// ../shared/tools/genconfig.py claude N [--errors] writes it (the file
// ../shared/tools/perf_compare.sh runs the anchor and mcp-lsp on), and the
// process's CPU time, which on a shared machine says more than wall time.
//
// It is imported by tests and benchmarks only.
package benchgen

import (
	"strconv"
	"strings"
)

// MCPJSON returns a .mcp.json of n servers named server-00000 and on: every
// third one remote ("type": "http", a url and a header), the others npx
// commands with four arguments and two environment variables. With errors,
// every 97th server from the sixth on has "args" a string, a schema error
// (in a remote server, a key its readers ignore). Indented, it is
// json.dumps(indent=2)'s output plus a newline (270 KB, 11,600 lines for
// 1,000 servers); otherwise it is one line, as a minifier writes it.
func MCPJSON(n int, errors, indent bool) []byte {
	w := writer{indent: indent}
	w.b.Grow(n * 280)
	w.b.WriteByte('{')
	w.key(1, "mcpServers", true)
	w.b.WriteByte('{')
	for i := range n {
		w.key(2, "server-"+pad5(i), i == 0)
		w.b.WriteByte('{')
		bad := errors && i%97 == 5
		n := strconv.Itoa(i)
		if i%3 == 0 {
			w.key(3, "type", true)
			w.b.WriteString(`"http"`)
			w.key(3, "url", false)
			w.b.WriteString(`"https://mcp` + n + `.example.com/mcp"`)
			w.key(3, "headers", false)
			w.b.WriteByte('{')
			w.key(4, "X-Tenant", true)
			w.b.WriteString(`"t` + n + `"`)
			w.close(3, '}')
			if bad {
				w.key(3, "args", false)
				w.b.WriteString(`"not-an-array"`)
			}
		} else {
			w.key(3, "type", true)
			w.b.WriteString(`"stdio"`)
			w.key(3, "command", false)
			w.b.WriteString(`"npx"`)
			w.key(3, "args", false)
			if bad {
				w.b.WriteString(`"not-an-array"`)
			} else {
				w.b.WriteByte('[')
				for j, a := range [...]string{"-y", "@example/server-" + n, "--port", strconv.Itoa(1000 + i)} {
					if j > 0 {
						w.b.WriteByte(',')
					}
					w.newline(4)
					w.b.WriteString(`"` + a + `"`)
				}
				w.close(3, ']')
			}
			w.key(3, "env", false)
			w.b.WriteByte('{')
			w.key(4, "NODE_ENV", true)
			w.b.WriteString(`"production"`)
			w.key(4, "LEVEL", false)
			w.b.WriteString(`"` + n + `"`)
			w.close(3, '}')
		}
		w.close(2, '}')
	}
	w.close(1, '}')
	w.close(0, '}')
	w.b.WriteByte('\n')
	return []byte(w.b.String())
}

// writer prints JSON as json.dumps does: with indent, a line break and two
// spaces per level before each member and element and before a closing
// bracket, and ": " after a key; without, nothing but ":".
type writer struct {
	b      strings.Builder
	indent bool
}

func (w *writer) newline(depth int) {
	if w.indent {
		w.b.WriteByte('\n')
		for range depth {
			w.b.WriteString("  ")
		}
	}
}

// key writes a member's key (names here need no escaping).
func (w *writer) key(depth int, name string, first bool) {
	if !first {
		w.b.WriteByte(',')
	}
	w.newline(depth)
	w.b.WriteString(`"` + name + `":`)
	if w.indent {
		w.b.WriteByte(' ')
	}
}

func (w *writer) close(depth int, c byte) {
	w.newline(depth)
	w.b.WriteByte(c)
}

// pad5 is i in five digits at least, as Python's f"{i:05d}".
func pad5(i int) string {
	s := strconv.Itoa(i)
	if len(s) < 5 {
		s = strings.Repeat("0", 5-len(s)) + s
	}
	return s
}
