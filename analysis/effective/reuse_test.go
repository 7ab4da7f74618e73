package effective

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestEditsReuseAsFreshComputes: a chain of random edits, each computed
// from the results before it (Input.Prev, a Shared per version, one
// verdict cache), says exactly what a computation from nothing says:
// sources, servers, definitions at their places, gates, fields, and the
// cross-file findings. The edits type inside a server, make two servers
// start the same thing (server-started-twice) and undo it, rename,
// insert and delete servers (names out of order, duplicates), make an
// entry one that Kilo Code refuses the file for, change Claude Code's
// approval lists, and append whitespace; the text has CRLF line ends and
// astral characters.
//
// It runs twice: with other files defining some of the servers, and with
// .mcp.json alone (where each tool reads one map of names in order).
func TestEditsReuseAsFreshComputes(t *testing.T) {
	for _, others := range []bool{true, false} {
		t.Run(fmt.Sprintf("others=%v", others), func(t *testing.T) { testEditsReuse(t, others) })
	}
}

func testEditsReuse(t *testing.T, others bool) {
	rng := rand.New(rand.NewPCG(7, 11))
	type entry struct{ name, body string }
	var servers []entry
	for i := range 40 {
		servers = append(servers, entry{fmt.Sprintf("s%02d", i), fmt.Sprintf(`{"command": "npx", "args": ["-y", "pkg-%d"]}`, i)})
	}
	disabled := []string{"s03"}
	tail := ""
	text := func() string {
		var b strings.Builder
		b.WriteString("{\r\n  \"mcpServers\": {\r\n")
		for i, s := range servers {
			sep := ","
			if i == len(servers)-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "    %q: %s%s\r\n", s.name, s.body, sep)
		}
		b.WriteString("  }\r\n}\r\n" + tail)
		return b.String()
	}
	bodies := []string{
		`{"command": "npx", "args": ["-y", "twin"]}`,
		`{"command": "npx", "args": ["-y", "𝄞 café"], "env": {"K": "v"}}`,
		`{"type": "http", "url": "https://x.example/mcp"}`,
		`{"type": "http", "url": "https://twin.example/mcp", "headers": {"A": "b"}}`,
		`{"command": "uvx", "args": "not-an-array"}`,
		`{"command": "node", "args": ["server.js"], "description": "日本語"}`,
	}
	const project, home = "/p", "/home/u"
	user := `{"mcpServers": {"s05": {"command": "npx", "args": ["-y", "twin"]}, "only-user": {"command": "uvx"}}}`
	// Parsed once per text, as a session's parse cache does: a file that
	// did not change is the same parse.
	parses := map[string]*jsonc.File{}
	parse := func(text string) *jsonc.File {
		f, ok := parses[text]
		if !ok {
			f = jsonc.Parse([]byte(text))
			parses[text] = f
		}
		return f
	}
	world := func() map[string]*jsonc.File {
		q := make([]string, len(disabled))
		for i, d := range disabled {
			q[i] = fmt.Sprintf("%q", d)
		}
		files := map[string]*jsonc.File{
			project + "/.mcp.json":             parse(text()),
			project + "/.claude/settings.json": parse(`{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": [` + strings.Join(q, ",") + `]}`),
		}
		if others {
			files[home+"/.claude.json"] = parse(user)
			files[home+"/.copilot/mcp-config.json"] = parse(`{"mcpServers": {"s07": {"command": "npx", "args": ["-y", "pkg-7"]}}}`)
			files[project+"/.vscode/mcp.json"] = parse(`{"servers": {"s09": {"command": "npx", "args": ["-y", "other"]}}}`)
		}
		return files
	}
	reg := registry.Default()
	tools := []registry.ToolID{"claude-code", "copilot-cli", "vscode", "kilo-code", "opencode", "atomic"}
	compute := func(files map[string]*jsonc.File, prev []*Result, cache *verdict.Cache) []*Result {
		get := func(p string) *jsonc.File { return files[p] }
		shared := &Shared{}
		var out []*Result
		for i, id := range tools {
			tool, ok := reg.Tool(id)
			if !ok {
				t.Fatalf("no tool %s", id)
			}
			in := Input{Tool: tool, Env: env, LaunchDir: project, GitRoot: project, Files: get, Registry: reg, Verdicts: cache, Shared: shared}
			if prev != nil {
				in.Prev = prev[i]
			}
			out = append(out, Compute(in))
		}
		return out
	}
	cache := verdict.NewCache()
	prev := compute(world(), nil, cache)
	CrossFile(prev, func(p string) string { return p })
	// First whitespace only, then the approval lists alone: nothing of
	// .mcp.json changes that would have the gates read again.
	fixed := []int{8, 7, 8, 8, 7, 3, 7}
	for step := range 300 {
		var what string
		op := rng.IntN(9)
		if step < len(fixed) {
			op = fixed[step]
		}
		switch k := rng.IntN(len(servers)); op {
		case 0, 1, 2:
			what = "body of " + servers[k].name
			servers[k].body = bodies[rng.IntN(len(bodies))]
		case 3:
			what = "typed in " + servers[k].name
			servers[k].body = strings.Replace(servers[k].body, `"-y"`, `"-y`+strings.Repeat("x", rng.IntN(3))+`"`, 1)
		case 4:
			old := servers[k].name
			servers[k].name = fmt.Sprintf("s%02d", rng.IntN(60))
			what = "renamed " + old + " to " + servers[k].name
		case 5:
			what = "inserted before " + servers[k].name
			servers = append(servers[:k], append([]entry{{fmt.Sprintf("n%d", step), bodies[rng.IntN(len(bodies))]}}, servers[k:]...)...)
		case 6:
			if len(servers) > 5 {
				what = "deleted " + servers[k].name
				servers = append(servers[:k], servers[k+1:]...)
			}
		case 7:
			disabled = append(disabled[:0], fmt.Sprintf("s%02d", rng.IntN(40)))
			what = "approval lists now disable " + disabled[0]
		case 8:
			what = "whitespace at the end"
			tail += " "
		}
		files := world()
		got := compute(files, prev, cache)
		want := compute(files, nil, verdict.NewCache())
		gotX, wantX := CrossFile(got, func(p string) string { return p }), CrossFile(want, func(p string) string { return p })
		for i := range got {
			if a, b := describe(got[i]), describe(want[i]); a != b {
				t.Fatalf("step %d (%s): %s reusing the results before differs from a fresh computation:\n%s\nwant:\n%s", step, what, tools[i], a, b)
			}
		}
		if !reflect.DeepEqual(gotX, wantX) {
			t.Fatalf("step %d (%s): cross-file findings differ from a fresh computation's:\n%v\nwant:\n%v", step, what, gotX, wantX)
		}
		prev = got
	}
}

// describe writes down all a result says, positions included.
func describe(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: refused %q\n", r.Tool.ID, r.Refused)
	if r.Stopped != nil {
		fmt.Fprintf(&b, "stopped by %s\n", r.Stopped.Path)
	}
	for _, src := range r.Sources {
		fmt.Fprintf(&b, "source %s %s rank %d dropped %q own %v preferred %q top %v\n", src.Path, src.Layer.ID, src.Rank, src.Dropped, src.Own, src.Preferred, src.Top)
	}
	def := func(d *Definition) string {
		if d == nil {
			return "none"
		}
		v := "no verdict"
		if d.Verdict != nil {
			v = fmt.Sprintf("%s %v", d.Verdict.Outcome, d.Verdict.Reasons)
		}
		m := r.Member(d)
		return fmt.Sprintf("%s %s@%v-%v gate %+v, %s", d.Name, d.Source.Path, m.Key.Span, m.Value.Span, d.Gate, v)
	}
	for _, s := range r.Servers {
		fmt.Fprintf(&b, "server %s enabled %v variables %q ignored %q merged %v winner %s\n", s.Name, s.Enabled, s.Variables, s.Ignored, s.Merged != nil, def(s.Winner))
		for _, d := range s.Definitions {
			fmt.Fprintf(&b, "  def %s\n", def(d))
		}
		for _, f := range s.Fields {
			fmt.Fprintf(&b, "  field %s from %s at %v\n", f.Key, def(f.From), r.FieldMember(f).Span)
		}
	}
	return b.String()
}
