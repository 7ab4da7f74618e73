package verdict

import (
	"regexp"
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// reader returns tool's reader of the file kind.
func reader(t *testing.T, kind string, tool registry.ToolID) *registry.Reader {
	t.Helper()
	k, ok := registry.Default().Kind(kind)
	if !ok {
		t.Fatalf("no kind %s", kind)
	}
	r, ok := k.Reader(tool)
	if !ok {
		t.Fatalf("%s does not read %s", tool, kind)
	}
	return r
}

func judgeText(t *testing.T, c *Cache, r *registry.Reader, name, text string) *Verdict {
	t.Helper()
	f := jsonc.Parse([]byte(text))
	if len(f.Errors) > 0 {
		t.Fatalf("test entry does not parse: %v", f.Errors)
	}
	return Of(c, registry.Default(), r, Entry{Name: name, Value: f.Root, Text: f.Src})
}

func TestOf_Outcomes(t *testing.T) {
	claude := reader(t, "mcp-json", "claude-code")
	claudeUser := reader(t, "claude-user-state", "claude-code")
	copilot := reader(t, "mcp-json", "copilot-cli")
	opencode := reader(t, "opencode-project", "opencode")
	cursor := reader(t, "cursor-project", "cursor")
	for _, tc := range []struct {
		name      string
		r         *registry.Reader
		server    string
		entry     string
		outcome   Outcome
		code      string // a reason the verdict must have, "" for none
		def       string
		program   string
		variables []string
	}{
		{"loads", claude, "fs", `{"command": "npx", "args": ["${ROOT}", "${OPT:-x}"]}`, Loads, "", "stdioServer", "npx", []string{"ROOT"}},
		{"ignored keys load (case 2)", claude, "s", `{"command": "npx", "enabled": false, "cwd": "/tmp"}`, LoadsIgnoringKeys, CodeUnknownKey, "stdioServer", "npx", nil},
		{"copilot ignores enabled", copilot, "s", `{"command": "npx", "enabled": false, "tools": ["*"]}`, LoadsIgnoringKeys, CodeUnknownKey, "localServer", "npx", nil},
		{"opencode strips env (case 2)", opencode, "db", `{"type": "local", "command": ["psql"], "env": {"H": "{env:PGHOST}"}}`, LoadsStrippingKeys, CodeUnknownKey, "localServer", "psql", nil},
		{"opencode refuses a wrong type", opencode, "db", `{"type": "local", "command": "psql"}`, RefusesFile, CodeInvalidFieldValue, "localServer", "psql", nil},
		{"claude.json entry skipped alone (case 1)", claudeUser, "bad", `{"command": "x", "args": "x y"}`, SkipsEntry, CodeInvalidFieldValue, "stdioServer", "x", nil},
		{"url without type (case 4)", claude, "r", `{"url": "https://x.example/mcp"}`, SkipsEntry, CodeMissingField, "stdioServer", "", nil},
		{"reserved name (case 5)", claude, "workspace", `{"command": "x"}`, SkipsEntry, CodeReservedServerName, "stdioServer", "x", nil},
		{"variable in the port (case 6)", copilot, "p", `{"type": "http", "url": "http://localhost:${PORT}/mcp"}`, SkipsEntry, CodeInvalidURL, "remoteServer", "", []string{"PORT"}},
		{"variable in the host", copilot, "h", `{"type": "http", "url": "https://${HOST}/mcp"}`, Loads, "", "remoteServer", "", []string{"HOST"}},
		{"claude expands first", claude, "p", `{"type": "http", "url": "http://localhost:${PORT}/mcp"}`, Loads, "", "httpServer", "", []string{"PORT"}},
		{"not an object", claude, "s", `"npx"`, SkipsEntry, CodeServerNotObject, "", "", nil},
		{"unknown type", claude, "s", `{"type": "local", "command": "x"}`, SkipsEntry, CodeUnknownServerType, "", "", nil},
		{"effect not known", cursor, "s", `{"type": "local", "command": "x"}`, MayNotLoad, CodeUnknownServerType, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judgeText(t, nil, tc.r, tc.server, tc.entry)
			tool, _ := registry.Default().Tool(tc.r.Tool)
			vars := v.VariablesOf(tool.InterpolationFor(tc.r), jsonc.Parse([]byte(tc.entry)).Root)
			if v.Outcome != tc.outcome || v.Def != tc.def || v.Program != tc.program || !slices.Equal(vars, tc.variables) {
				t.Errorf("got outcome %s, def %q, program %q, variables %v; want %s, %q, %q, %v (reasons %+v)",
					v.Outcome, v.Def, v.Program, vars, tc.outcome, tc.def, tc.program, tc.variables, v.Reasons)
			}
			if tc.code != "" && !v.Has(tc.code) {
				t.Errorf("no %s reason in %+v", tc.code, v.Reasons)
			}
			if tc.code == "" && len(v.Reasons) > 0 {
				t.Errorf("unexpected reasons %+v", v.Reasons)
			}
			if tc.outcome != Loads && !tc.outcome.Loaded() && v.Why() == nil {
				t.Error("an entry not loaded has no Why")
			}
		})
	}
}

// The cache returns the same verdict for the same reader, name and bytes,
// and never one judged for another name or reader.
func TestCache_KeyedByContent(t *testing.T) {
	c := NewCache()
	claude := reader(t, "mcp-json", "claude-code")
	copilot := reader(t, "mcp-json", "copilot-cli")
	a := judgeText(t, c, claude, "workspace", `{"command": "x"}`)
	if b := judgeText(t, c, claude, "workspace", `{"command": "x"}`); b != a {
		t.Error("same content judged twice")
	}
	if b := judgeText(t, c, claude, "other", `{"command": "x"}`); b == a || b.Outcome != Loads {
		t.Errorf("another name got the reserved name's verdict: %s", b.Outcome)
	}
	if b := judgeText(t, c, copilot, "workspace", `{"command": "x"}`); b == a || b.Outcome != Loads {
		t.Errorf("another reader got Claude Code's verdict: %s", b.Outcome)
	}
	if c.Len() != 3 {
		t.Errorf("%d verdicts cached, want 3", c.Len())
	}
	c.Reset()
	if c.Len() != 0 {
		t.Error("Reset left verdicts")
	}
}

// The registry holds every per-reader effect the verdicts apply, for each
// reader that takes servers from a file.
func TestRegistryHasEveryEffect(t *testing.T) {
	for _, k := range registry.Default().Kinds() {
		for i := range k.Readers {
			r := &k.Readers[i]
			if len(r.ServerMaps) == 0 {
				continue
			}
			if r.Effects == nil {
				t.Errorf("%s/%s: no effects", k.ID, r.Tool)
				continue
			}
			if InvalidEntry(r) == MayNotLoad && r.Effects.InvalidEntry.Confidence.Certain() {
				t.Errorf("%s/%s: an unknown effect cannot be certain", k.ID, r.Tool)
			}
		}
	}
	if got := InvalidEntry(reader(t, "claude-user-state", "claude-code")); got != SkipsEntry {
		t.Errorf("Claude Code skips an invalid entry of ~/.claude.json, got %s", got)
	}
	if got := UnknownKey(reader(t, "opencode-project", "opencode")); got != LoadsStrippingKeys {
		t.Errorf("OpenCode strips an unknown key, got %s", got)
	}
	if _, lastWins := DuplicateName(reader(t, "mcp-json", "claude-code")); !lastWins {
		t.Error("Claude Code keeps the last of a duplicated server name (verified)")
	}
	if o, lastWins := DuplicateName(reader(t, "codex-project", "codex-cli")); lastWins || o != RefusesFile {
		t.Errorf("Codex CLI refuses its configuration for a duplicated name, got %s (last wins: %v)", o, lastWins)
	}
	if got := UnknownTopKey(reader(t, "opencode-project", "opencode")); got != RefusesFile {
		t.Errorf("OpenCode's top level is strict, got %s", got)
	}
	if got := UnknownTopKey(reader(t, "mcp-json", "claude-code")); got != LoadsIgnoringKeys {
		t.Errorf("Claude Code does not read a top-level key it does not know, got %s", got)
	}
}

// forbiddenIn matches a one-class pattern itself: it must agree with the
// regexp on every name, the registry's patterns and others, and fall back
// to the regexp for any other pattern.
func TestForbiddenInAgreesWithRegexp(t *testing.T) {
	patterns := []string{`[\x00-\x1f\x7f}]`, `[^a-zA-Z0-9_-]`, `[}]`, `x`, `ab|c`, `(?i)k`, `[[:space:]]`, `\s`, `[é-ü]`, `^a`, `.`}
	for _, tool := range registry.Default().Tools() {
		if p := tool.ServerNames.Forbidden; p != "" {
			patterns = append(patterns, p)
		}
	}
	names := []string{"", "github", "my server", "a}", "tab\there", "del\x7f", "K8s", "kube", "ab", "c", "xyz", "naïve", "é", "\xff\xfe", "日本", "server-00001", "{x}"}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, n := range names {
			if got, want := forbiddenIn(p, n), re.MatchString(n); got != want {
				t.Errorf("forbiddenIn(%q, %q) = %v, the regexp says %v", p, n, got, want)
			}
		}
	}
}

// Prepare compiles what the first analysis of a .mcp.json needs: the
// dialects of every reader of the kind, and no other.
func TestPrepareCoversTheMCPJSONReaders(t *testing.T) {
	var want []string
	for _, k := range registry.Default().Kinds() {
		if k.ID != "mcp-json" {
			continue
		}
		for _, r := range k.Readers {
			if !slices.Contains(want, string(r.Dialect)) {
				want = append(want, string(r.Dialect))
			}
		}
	}
	got := slices.Clone(prepared)
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("Prepare compiles %v; the readers of .mcp.json read %v", got, want)
	}
}
