package schemas

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestServerDefMatchesDispatcher checks that ServerDef picks the branch the
// schema's own "server" dispatcher picks: for every server entry in the
// testdata and a set of edge cases, validating against the chosen branch
// gives exactly the dispatcher's leaf errors, and an entry ServerDef refuses
// is rejected by the dispatcher too. Without this, per-entry diagnostics
// (Go) and whole-file validation (editors, tests) could silently disagree.
func TestServerDefMatchesDispatcher(t *testing.T) {
	edgeCases := []string{
		`{}`,
		`{"type": 1, "command": "npx"}`,
		`{"type": "HTTP", "url": "https://mcp.example.com/mcp"}`,
		`{"url": "https://mcp.example.com/mcp"}`,
		`{"url": "https://mcp.example.com/mcp", "command": "npx"}`,
		`{"command": "npx", "args": ["-y", "pkg"]}`,
		`{"command": ["npx", "-y", "pkg"]}`,
		`{"enabled": false}`,
		`{"type": "local", "command": ["npx"]}`,
		`{"type": "local", "command": "npx"}`,
		`{"type": "stdio", "command": "npx"}`,
		`{"type": "remote", "url": "https://mcp.example.com/mcp"}`,
		`{"type": "sse", "url": "https://mcp.example.com/sse"}`,
		`{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}`,
		`{"type": "ws", "url": "wss://mcp.example.com/ws"}`,
		`{"type": "http"}`,
	}
	for _, d := range Dialects() {
		dispatcherDef := "server"
		if d == ClaudeDesktop {
			dispatcherDef = "stdioServer" // the only shape; its map has no dispatcher
		}
		dispatcher, err := Branch(d, dispatcherDef)
		if err != nil {
			t.Fatal(err)
		}
		var entries []map[string]any
		files, _ := filepath.Glob(filepath.Join(testdataDir, d, "*", "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, serverEntries(d, decode(t, string(data)))...)
		}
		for _, s := range edgeCases {
			entries = append(entries, decode(t, s).(map[string]any))
		}
		for _, entry := range entries {
			want := leaves(dispatcher.Validate(entry))
			def, ok := ServerDef(d, entry)
			if !ok {
				if len(want) == 0 {
					t.Errorf("%s: ServerDef refused %v, but the schema accepts it", d, entry)
				}
				continue
			}
			branch, err := Branch(d, def)
			if err != nil {
				t.Fatalf("%s: ServerDef returned %q: %v", d, def, err)
			}
			got := leaves(branch.Validate(entry))
			if !reflect.DeepEqual(errorKeys(got), errorKeys(want)) {
				t.Errorf("%s: %v: branch %s reports\n%swhile the dispatcher reports\n%s", d, entry, def, describe(got), describe(want))
			}
		}
	}
}

// serverEntries returns the server entries of a decoded testdata file.
func serverEntries(dialect string, doc any) []map[string]any {
	root, _ := doc.(map[string]any)
	var maps []any
	switch dialect {
	case OpenCode:
		maps = append(maps, root["mcp"])
	case VSCode:
		maps = append(maps, root["servers"], root["mcpServers"])
	case ClaudeCode:
		maps = append(maps, root["mcpServers"])
		projects, _ := root["projects"].(map[string]any)
		for _, p := range projects {
			pm, _ := p.(map[string]any)
			maps = append(maps, pm["mcpServers"])
		}
	default:
		maps = append(maps, root["mcpServers"])
	}
	var out []map[string]any
	for _, m := range maps {
		servers, _ := m.(map[string]any)
		for _, e := range servers {
			if em, ok := e.(map[string]any); ok {
				out = append(out, em)
			}
		}
	}
	return out
}

// errorKeys reduces errors to which keyword failed where, sorted. The
// message is left out on purpose: the library lists the names in an
// additionalProperties message in map order, which changes from run to run.
func errorKeys(errs []*jsonschema.ValidationError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, errorKey(e))
	}
	sort.Strings(out)
	return out
}
