package convert_test

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"maps"
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// fuzzTargets is, for each dialect, a file kind it reads a converted file
// as, and the path of such a file.
var fuzzTargets = map[string]struct{ kind, path string }{
	schemas.ClaudeCode:    {"mcp-json", "/p/.mcp.json"},
	schemas.ClaudeDesktop: {"claude-desktop", "/p/claude_desktop_config.json"},
	schemas.CopilotCLI:    {"github-mcp-json", "/p/.github/mcp.json"},
	schemas.OpenCode:      {"opencode-project", "/p/opencode.json"},
	schemas.VSCode:        {"vscode-workspace", "/p/.vscode/mcp.json"},
	schemas.Cursor:        {"cursor-project", "/p/.cursor/mcp.json"},
	schemas.GeminiCLI:     {"gemini-workspace-settings", "/p/.gemini/settings.json"},
	schemas.RooCode:       {"roo-project", "/p/.roo/mcp.json"},
	schemas.Zed:           {"zed-project", "/p/.zed/settings.json"},
	schemas.CodexCLI:      {"codex-project", "/p/.codex/config.toml"},
	schemas.Kiro:          {"kiro-workspace", "/p/.kiro/settings/mcp.json"},
	schemas.Windsurf:      {"windsurf-user", "/home/u/.codeium/windsurf/mcp_config.json"},
}

// fuzzDialect picks the dialect named d, or one chosen by its hash.
func fuzzDialect(d string) string {
	ds := convert.Dialects()
	if slices.Contains(ds, d) {
		return d
	}
	h := fnv.New32a()
	h.Write([]byte(d))
	return ds[h.Sum32()%uint32(len(ds))]
}

// FuzzConvertFile converts content, read as the dialect from, into every
// dialect, and checks: no panic; the content left alone; and for each
// conversion that succeeds, an output that is strict JSON without
// duplicate keys, in the source's line endings, valid against the
// target's schema, that the target's own reader takes without an error
// finding (but in a server with a reported loss, or one the source has
// too, at any severity: its tool may be less sure of it) and converts into itself without a loss, and that holds every
// server of the source under its name unless a loss says it was dropped.
// The seed corpus in testdata/fuzz/FuzzConvertFile holds the inputs and
// outputs of testdata/convert and the corpus files, so a plain "go test"
// runs them.
func FuzzConvertFile(f *testing.F) {
	f.Add("vscode", []byte("{\"servers\": {\"a\": {\"command\": \"${input:k}\"}}, \"inputs\": [{\"id\": \"k\", \"type\": \"promptString\", \"description\": \"k\"}]}"))
	f.Add("codex-cli", []byte("# c\n[mcp_servers.a]\ncommand = 'x'\nenv_vars = [\"K\", { name = \"R\", source = \"remote\" }]\n[mcp_servers.\"b c\"]\nurl = \"https://x\"\nbearer_token_env_var = \"T\"\nhttp_headers = { \"X-A\" = \"${A}\" }\n"))
	f.Fuzz(func(t *testing.T, from string, content []byte) {
		from = fuzzDialect(from)
		orig := bytes.Clone(content)
		for _, to := range convert.Dialects() {
			out, losses, err := convert.ConvertFile(from, to, content)
			if !bytes.Equal(content, orig) {
				t.Fatalf("%s -> %s modified its input", from, to)
			}
			if err != nil {
				if out != nil || losses != nil {
					t.Fatalf("%s -> %s: an error (%v) with output or losses", from, to, err)
				}
				continue
			}
			checkConverted(t, from, to, content, out, losses)
		}
	})
}

// FuzzConvertServer is FuzzConvertFile on files that hold one well-formed
// server built from the fuzzed strings (name, command or url, an argument
// or header, an environment variable, the transport type), so that the
// fuzzer spends its time in the translation of variable references and
// the writers rather than in the parser's error paths. An empty url makes
// a local server, any other a remote one.
func FuzzConvertServer(f *testing.F) {
	f.Add("claude-code", "srv", "npx", "${HOME:-/tmp}/x", "API_KEY", "${API_KEY}", "", "")
	f.Add("opencode", "données", "node", "{env:HOME}", "TOKEN", "{file:~/.t}", "", "")
	f.Add("vscode", "a b", "", "Bearer ${input:tok}", "X-Key", "${env:KEY}", "https://x.example/${workspaceFolder}", "http")
	f.Add("copilot-cli", "gh", "", "$TOKEN", "Authorization", "Bearer $GH", "https://api.example.com:${PORT:-443}/mcp", "sse")
	f.Add("cursor", "c", "${userHome}/bin/s", "${env:A}", "K", "${workspaceFolder}", "", "")
	f.Add("codex-cli", "x.y", "npx", "-y", "API_KEY", "k\"\\\n", "https://x.example/mcp", "")
	f.Fuzz(func(t *testing.T, from, name, command, arg, key, value, url, typ string) {
		from = fuzzDialect(from)
		var entry map[string]any
		switch {
		case url == "" && from == schemas.OpenCode:
			entry = map[string]any{"type": "local", "command": []string{command, arg}, "environment": map[string]string{key: value}}
		case url == "":
			entry = map[string]any{"command": command, "args": []string{arg}, "env": map[string]string{key: value}}
			if from == schemas.VSCode {
				entry["type"] = "stdio"
			}
		case from == schemas.OpenCode:
			entry = map[string]any{"type": "remote", "url": url, "headers": map[string]string{key: value, "X-Arg": arg}}
		default:
			entry = map[string]any{"type": typ, "url": url, "headers": map[string]string{key: value, "X-Arg": arg}}
		}
		var content []byte
		if from == schemas.CodexCLI {
			content = codexFile(name, entry)
		} else {
			var err error
			content, err = json.MarshalIndent(map[string]any{mapKeys[from]: map[string]any{name: entry}}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, to := range convert.Dialects() {
			out, losses, err := convert.ConvertFile(from, to, content)
			if err == nil {
				checkConverted(t, from, to, content, out, losses)
			}
		}
	})
}

func checkConverted(t *testing.T, from, to string, content, out []byte, losses []convert.Loss) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s -> %s: "+format+"\ninput:\n%q\noutput:\n%s\nlosses: %v", append(append([]any{from, to}, args...), content, out, losses)...)
	}
	parsed := parseAs(to, out)
	if to != schemas.CodexCLI && !json.Valid(out) {
		fail("the output is not JSON")
	}
	if len(parsed.Errors) > 0 || len(parsed.Comments) > 0 {
		fail("the output is not strict JSON or TOML: %v", parsed.Errors)
	}
	if p := duplicateKey(parsed.Root); p != "" {
		fail("duplicate key %q", p)
	}
	crlf := bytes.Contains(content, []byte("\r\n")) && bytes.IndexByte(content, '\n') > 0 && content[bytes.IndexByte(content, '\n')-1] == '\r'
	if n := bytes.Count(out, []byte("\n")); crlf && bytes.Count(out, []byte("\r\n")) != n || !crlf && bytes.Contains(out, []byte("\r")) {
		fail("line endings differ from the source's")
	}

	v, err := decodeAs(to, out)
	if err != nil {
		fail("decoding: %v", err)
	}
	sch, err := schemas.Compiled(to)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		fail("invalid for %s: %v", to, err)
	}

	// Every server of the source is in the output under its name, or a
	// loss says it was dropped; no server comes from nowhere.
	src := sourceNames(from, parseAs(from, content))
	got := map[string]bool{}
	for _, m := range serverMap(to, parsed.Root).Members() {
		got[m.Key.Str] = true
		if !src[m.Key.Str] {
			fail("server %q is not in the source", m.Key.Str)
		}
	}
	for name := range src {
		if !got[name] && !slices.ContainsFunc(losses, func(l convert.Loss) bool {
			return l.Server == name && l.Field == "" && l.Kind == convert.Dropped
		}) {
			fail("server %q dropped without a loss", name)
		}
	}

	// The target reads it: converting it into itself loses nothing, and
	// its analysis, for the target's tool only, finds no error, except in
	// a server with a reported loss, or one the source has too.
	if _, againLosses, err := convert.ConvertFile(to, to, out); err != nil || len(againLosses) > 0 {
		fail("%s does not read the output back: %v %v", to, err, againLosses)
	}
	srcCodes := map[string]bool{} // what the source has, at any severity
	for _, d := range analyzeAs(from, content, nil) {
		srcCodes[d.Code] = true
	}
	outServers := serverMap(to, parsed.Root)
	for _, d := range analyzeAs(to, out, parsed) {
		if d.Severity != rules.SeverityError || srcCodes[d.Code] {
			continue
		}
		i := slices.IndexFunc(outServers.Members(), func(m *jsonc.Member) bool { return m.Span.Contains(d.Span.Start) })
		if i >= 0 && slices.ContainsFunc(losses, func(l convert.Loss) bool { return l.Server == outServers.Members()[i].Key.Str }) {
			continue
		}
		fail("%s at %v: %s", d.Code, d.Span, d.Message)
	}
}

// analyzeAs analyses content as a file of dialect d, for d's tool only.
func analyzeAs(d string, content []byte, parsed *jsonc.File) []rules.Diagnostic {
	target := fuzzTargets[d]
	kind, ok := registry.Default().Kind(target.kind)
	if !ok {
		panic("no kind " + target.kind)
	}
	var tools []registry.ToolID
	for _, r := range kind.Readers {
		if string(r.Dialect) == d {
			tools = append(tools, r.Tool)
		}
	}
	if parsed == nil {
		parsed = parseAs(d, content)
	}
	return rules.AnalyzeFile(rules.FileInput{
		Path: target.path, Content: content, Parsed: parsed, Kind: kind,
		Config: rules.Config{Tools: tools},
	})
}

// mapKeys are where each dialect's file holds its servers.
var mapKeys = map[string]string{
	schemas.ClaudeCode:    "mcpServers",
	schemas.ClaudeDesktop: "mcpServers",
	schemas.CopilotCLI:    "mcpServers",
	schemas.Cursor:        "mcpServers",
	schemas.GeminiCLI:     "mcpServers",
	schemas.OpenCode:      "mcp",
	schemas.VSCode:        "servers",
	schemas.RooCode:       "mcpServers",
	schemas.Zed:           "context_servers",
	schemas.CodexCLI:      "mcp_servers",
	schemas.Kiro:          "mcpServers",
	schemas.Windsurf:      "mcpServers",
}

// serverMap returns the server map of a parsed file of dialect d (VS
// Code's deprecated mcpServers when servers is absent), or an empty node.
func serverMap(d string, root *jsonc.Node) *jsonc.Node {
	if root == nil || root.Kind != jsonc.Object {
		return &jsonc.Node{}
	}
	m := root.Get(mapKeys[d])
	if m == nil && d == schemas.VSCode {
		m = root.Get("mcpServers")
	}
	if m == nil || m.Value.Kind != jsonc.Object {
		return &jsonc.Node{}
	}
	return m.Value
}

// sourceNames are the server names of a source file.
func sourceNames(d string, f *jsonc.File) map[string]bool {
	out := map[string]bool{}
	for _, m := range serverMap(d, f.Root).Members() {
		if m.Key != nil {
			out[m.Key.Str] = true
		}
	}
	return out
}

// duplicateKey returns a key that appears twice in one object of n, "" if
// none does.
func duplicateKey(n *jsonc.Node) string {
	if n == nil {
		return ""
	}
	seen := map[string]bool{}
	for _, m := range n.Members() {
		if seen[m.Key.Str] {
			return m.Key.Str
		}
		seen[m.Key.Str] = true
		if d := duplicateKey(m.Value); d != "" {
			return d
		}
	}
	for _, e := range n.Elements() {
		if d := duplicateKey(e); d != "" {
			return d
		}
	}
	return ""
}

// codexFile is a Codex CLI config.toml holding entry as server name.
func codexFile(name string, entry map[string]any) []byte {
	var o convert.Object
	for _, k := range []string{"command", "args", "env", "url", "headers"} {
		v, ok := entry[k]
		if !ok {
			continue
		}
		if k == "headers" {
			k = "http_headers"
		}
		switch v := v.(type) {
		case map[string]string:
			var m convert.Object
			for _, kk := range slices.Sorted(maps.Keys(v)) {
				m = append(m, convert.Member{Key: kk, Value: v[kk]})
			}
			o = append(o, convert.Member{Key: k, Value: m})
		default:
			o = append(o, convert.Member{Key: k, Value: v})
		}
	}
	return convert.RenderCodexFile(convert.Object{{Key: name, Value: o}}, "\n")
}
