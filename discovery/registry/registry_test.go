package registry

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestEmbeddedDataIsValid(t *testing.T) {
	// Parse, not Default: a failure should be an error listing every
	// problem, not a panic.
	r, err := Parse(registryJSON)
	if err != nil {
		t.Fatalf("embedded registry.json:\n%v", err)
	}
	if len(r.Tools()) == 0 || len(r.Dialects()) == 0 || len(r.Kinds()) == 0 {
		t.Fatal("embedded registry is empty")
	}
	for _, k := range r.Kinds() {
		if len(k.globs) != len(k.Globs) {
			t.Errorf("kind %s: %d of %d globs compiled", k.ID, len(k.globs), len(k.Globs))
		}
		for _, rd := range k.Readers {
			tool, ok := r.Tool(rd.Tool)
			if !ok {
				t.Errorf("kind %s: reader tool %q missing", k.ID, rd.Tool)
				continue
			}
			d, ok := r.Dialect(rd.Dialect)
			if !ok || (d.Tool != tool.ID && !slices.Contains(d.SharedWith, tool.ID)) {
				t.Errorf("kind %s: reader %s: dialect %q missing or of another tool", k.ID, rd.Tool, rd.Dialect)
			}
		}
	}
}

func TestDefaultIsSharedAndRaceFree(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]*Registry, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = Default()
			got[i].Match("/p/.mcp.json", Env{})
		}()
	}
	wg.Wait()
	for _, r := range got {
		if r != got[0] {
			t.Fatal("Default returned different registries")
		}
	}
}

func TestParseRejectsBrokenData(t *testing.T) {
	const tool = `{"id":"t","name":"T","interpolation":{"forms":[],"confidence":"unconfirmed"},` +
		`"merge":{"value":"unknown","confidence":"unconfirmed"},"serverNames":{"confidence":"unconfirmed"}}`
	const dialect = `{"id":"t","tool":"t","name":"T"}`
	const effects = `"effects":{"invalidEntry":{"effect":"skips-entry","confidence":"unconfirmed"},` +
		`"unknownKey":{"effect":"ignores-key","confidence":"unconfirmed"},"duplicateName":{"effect":"unknown","confidence":"unconfirmed"}}`
	reader := func(tool, dialect string) string {
		return `{"tool":"` + tool + `","dialect":"` + dialect + `",` +
			`"jsonc":{"value":false,"confidence":"unconfirmed"},"bom":{"value":false,"confidence":"unconfirmed"},` +
			`"syntaxError":{"effect":"unknown","confidence":"unconfirmed"},` + effects + `,"serverMaps":[["mcpServers"]]}`
	}
	doc := func(tools, dialects, kinds string) string {
		return `{"version":1,"tools":[` + tools + `],"dialects":[` + dialects + `],"kinds":[` + kinds + `]}`
	}
	kind := func(extra string) string {
		return `{"id":"k","name":"K","globs":["**/k.json"],"scope":"project","readers":[` + reader("t", "t") + `]` + extra + `}`
	}
	if _, err := Parse([]byte(doc(tool, dialect, kind("")))); err != nil {
		t.Fatalf("the minimal document should be valid: %v", err)
	}
	// profiled adds a profile with the given layers to a tool; layer makes
	// one with the given id and fields.
	profiled := func(tool, layers string) string {
		return strings.TrimSuffix(tool, "}") + `,"profile":{"confidence":"unconfirmed","layers":[` + layers + `]}}`
	}
	layer := func(id, fields string) string {
		return `{"id":"` + id + `","label":"L","confidence":"unconfirmed",` + fields + `}`
	}
	if _, err := Parse([]byte(doc(profiled(tool, layer("u", `"files":[{"path":"{launchDir}/t.json","serverMaps":[["s"]]}],"enabledKey":"enabled"`)), dialect, kind("")))); err != nil {
		t.Fatalf("a minimal profile should be valid: %v", err)
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"unknown field", doc(tool, dialect, kind(`,"globz":[]`)), "unknown field"},
		{"version", strings.Replace(doc(tool, dialect, kind("")), `"version":1`, `"version":2`, 1), "version 2"},
		{"duplicate tool", doc(tool+","+tool, dialect, kind("")), "duplicate id"},
		{"duplicate kind", doc(tool, dialect, kind("")+","+kind("")), "duplicate id"},
		{"id case", doc(strings.Replace(tool, `"id":"t"`, `"id":"T"`, 1), dialect, ""), "kebab-case"},
		{"unknown tool", doc(tool, dialect, `{"id":"k","name":"K","globs":["**/k"],"scope":"user","readers":[`+reader("x", "t")+`]}`), "unknown tool"},
		{"unknown dialect", doc(tool, dialect, `{"id":"k","name":"K","globs":["**/k"],"scope":"user","readers":[`+reader("t", "x")+`]}`), "unknown dialect"},
		{"dialect of another tool", doc(tool+`,`+strings.ReplaceAll(tool, `"t"`, `"u"`), dialect+`,{"id":"u","tool":"u","name":"U"}`,
			`{"id":"k","name":"K","globs":["**/k"],"scope":"user","readers":[`+reader("t", "u")+`]}`), "belongs to tool"},
		{"glob not **/", doc(tool, dialect, strings.Replace(kind(""), `**/k.json`, `k.json`, 1)), "must start with **/"},
		{"glob braces", doc(tool, dialect, strings.Replace(kind(""), `**/k.json`, `**/{k.json`, 1)), "unbalanced"},
		{"glob class", doc(tool, dialect, strings.Replace(kind(""), `**/k.json`, `**/[k.json`, 1)), "unterminated"},
		{"home without paths", doc(tool, dialect, kind(`,"location":"home"`)), "needs paths"},
		{"bad template", doc(tool, dialect, kind(`,"location":"home","paths":["~/.k.json"]`)), "must start with one of"},
		{"bad scope", doc(tool, dialect, strings.Replace(kind(""), `"project"`, `"global"`, 1)), "not a scope"},
		{"verified needs source", doc(strings.Replace(tool, `"merge":{"value":"unknown","confidence":"unconfirmed"}`,
			`"merge":{"value":"unknown","confidence":"verified"}`, 1), dialect, ""), "needs a source"},
		{"bad confidence", doc(strings.Replace(tool, `"serverNames":{"confidence":"unconfirmed"}`,
			`"serverNames":{"confidence":"sure"}`, 1), dialect, ""), "confidence \"sure\""},
		{"docs over http", doc(strings.Replace(tool, `"name":"T"`, `"name":"T","docs":"http://t.example/mcp"`, 1), dialect, ""), "must be an https URL"},
		{"docs with a space", doc(strings.Replace(tool, `"name":"T"`, `"name":"T","docs":"https://t.example/m cp"`, 1), dialect, ""), "must be an https URL"},
		{"bad merge", doc(strings.Replace(tool, `"value":"unknown"`, `"value":"union"`, 1), dialect, ""), "not a merge rule"},
		{"bad regexp", doc(strings.Replace(tool, `"serverNames":{`, `"serverNames":{"safe":"(",`, 1), dialect, ""), "serverNames"},
		{"no readers", doc(tool, dialect, `{"id":"k","name":"K","globs":["**/k"],"scope":"user"}`), "needs readers or notRead"},
		{"effects missing", doc(tool, dialect, strings.Replace(kind(""), effects+",", "", 1)), "effects missing"},
		{"bad entry effect", doc(tool, dialect, strings.Replace(kind(""), `"effect":"skips-entry"`, `"effect":"last-wins"`, 1)), "effects.invalidEntry.effect"},
		{"verified effect needs source", doc(tool, dialect, strings.Replace(kind(""), `"effect":"ignores-key","confidence":"unconfirmed"`, `"effect":"ignores-key","confidence":"verified"`, 1)), "effects.unknownKey: a verified fact needs a source"},
		{"server maps missing", doc(tool, dialect, strings.Replace(kind(""), `,"serverMaps":[["mcpServers"]]`, ``, 1)), "serverMaps missing"},
		{"read and not read", doc(tool, dialect, kind(`,"notRead":[{"tool":"t","note":"n","confidence":"unconfirmed"}]`)), "without an explicit-flag gate"},
		{"profile without layers", doc(profiled(tool, ``), dialect, ""), "no layers"},
		{"profile path", doc(profiled(tool, layer("u", `"files":[{"path":"~/.t.json","serverMaps":[["s"]]}]`)), dialect, ""), "must start with one of"},
		{"profile server map", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/.t.json","serverMaps":[]}]`)), dialect, ""), "no server maps"},
		{"profile walk boundary", doc(profiled(tool, layer("p", `"walk":{"names":["t.json"],"boundary":"home","serverMaps":[["s"]]}`)), dialect, ""), "not root or git-root"},
		{"profile duplicate layer", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}]`)+","+layer("u", `"files":[{"path":"{home}/b","serverMaps":[["s"]]}]`)), dialect, ""), "duplicate id"},
		{"profile fallback", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}],"fallbackFor":["later"]`)), dialect, ""), "names no other layer"},
		{"profile fallback second", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}]`)+","+layer("v", `"files":[{"path":"{home}/b","serverMaps":[["s"]]}],"fallbackFor":["u","w"]`)), dialect, ""), `fallbackFor "w" names no other layer`},
		{"profile fallback itself", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}],"fallbackFor":["u"]`)), dialect, ""), `fallbackFor "u" names no other layer`},
		{"profile fallbackAt alone", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}],"fallbackAt":"{gitRoot}"`)), dialect, ""), "fallbackAt without fallbackFor"},
		{"profile fallback empty", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}],"fallbackFor":[]`)), dialect, ""), "fallbackFor is empty"},
		{"profile layer fact", doc(profiled(tool, layer("u", `"files":[{"path":"{home}/a","serverMaps":[["s"]]}],"jsonc":{"value":true,"confidence":"confirmed"}`)), dialect, ""), "needs a source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestDocsLinks pins that each tool whose MCP documentation we cite in
// hover has a link, and that it is the tool's own site (no third-party
// page): the hover sends people there.
func TestDocsLinks(t *testing.T) {
	r := Default()
	for id, host := range map[ToolID]string{
		"claude-code": "code.claude.com", "copilot-cli": "docs.github.com", "opencode": "opencode.ai",
		"vscode": "code.visualstudio.com", "cursor": "cursor.com", "gemini-cli": "geminicli.com",
		"codex-cli": "developers.openai.com", "qwen-code": "qwenlm.github.io", "roo-code": "docs.roocode.com",
		"zed": "zed.dev", "kiro": "kiro.dev", "windsurf": "docs.windsurf.com",
	} {
		tool, ok := r.Tool(id)
		if !ok {
			t.Errorf("no tool %q", id)
			continue
		}
		if !strings.HasPrefix(tool.Docs, "https://"+host+"/") {
			t.Errorf("%s docs = %q, want a page on https://%s/", id, tool.Docs, host)
		}
	}
}

// TestToolFacts pins the tool-level facts other packages build on.
func TestToolFacts(t *testing.T) {
	r := Default()
	for _, tc := range []struct {
		id      ToolID
		name    string
		pattern string
		maxLen  int
		merge   MergeRule
		forms   []string
	}{
		{"claude-code", "Claude Code", "mcp__{server}__{tool}", 128, ReplaceEntry, []string{"${VAR}", "${VAR:-default}"}},
		{"copilot-cli", "GitHub Copilot CLI", "{server}-{tool}", 64, ReplaceEntry, []string{"$VAR", "${VAR}", "${VAR:-default}"}},
		{"opencode", "OpenCode", "{server}_{tool}", 0, DeepMerge, []string{"{env:VAR}", "{file:path}"}},
		{"gemini-cli", "Gemini CLI", "", 0, ReplaceEntry, []string{"$VAR", "${VAR}", "${VAR:-default}"}},
		// The first collection in VS Code's order keeps a name (code-server 4.139.1).
		{"vscode", "VS Code", "", 0, ReplaceEntry, nil},
		{"cursor", "Cursor", "", 0, ReplaceEntry, nil},
		{"claude-desktop", "Claude Desktop", "", 0, NoMerge, []string{}},
		{"atomic", "Atomic TUI", "", 0, ReplaceEntry, []string{}},
		{"nyzhi", "Nyzhi", "mcp__{server}__{tool}", 0, ReplaceEntry, []string{}},
		{"codex-cli", "Codex CLI", "", 0, DeepMerge, []string{}},
		// Verified with qwen mcp list (0.15.10): ${VAR:-default} stays as written.
		{"qwen-code", "Qwen Code", "", 0, ReplaceEntry, []string{"$VAR", "${VAR}"}},
	} {
		tool, ok := r.Tool(tc.id)
		if !ok {
			t.Errorf("tool %s missing", tc.id)
			continue
		}
		if tool.Name != tc.name {
			t.Errorf("%s: name %q, want %q", tc.id, tool.Name, tc.name)
		}
		var pattern string
		var maxLen int
		if tool.ToolNames != nil {
			pattern, maxLen = tool.ToolNames.Pattern, tool.ToolNames.MaxLength
		}
		if pattern != tc.pattern || maxLen != tc.maxLen {
			t.Errorf("%s: tool names %q/%d, want %q/%d", tc.id, pattern, maxLen, tc.pattern, tc.maxLen)
		}
		if tool.Merge.Value != tc.merge {
			t.Errorf("%s: merge %q, want %q", tc.id, tool.Merge.Value, tc.merge)
		}
		if tc.forms != nil && strings.Join(tool.Interpolation.Forms, " ") != strings.Join(tc.forms, " ") {
			t.Errorf("%s: interpolation forms %q, want %q", tc.id, tool.Interpolation.Forms, tc.forms)
		}
	}
	if got := len(r.Tools()); got != 16 {
		t.Errorf("%d tools, want 16 (update this test when adding one)", got)
	}
	cc, _ := r.Tool("claude-code")
	if cc.Merge.Confidence != Verified || !strings.Contains(strings.Join(cc.ServerNames.Reserved, ","), "workspace") {
		t.Errorf("claude-code: merge should be verified and 'workspace' reserved: %+v %+v", cc.Merge, cc.ServerNames)
	}
	oc, _ := r.Tool("opencode")
	if !oc.Interpolation.BeforeParse || oc.Interpolation.Unset != "empty string" {
		t.Errorf("opencode interpolation: %+v", oc.Interpolation)
	}
	cp, _ := r.Tool("copilot-cli")
	if len(cp.Timeouts) == 0 || cp.Timeouts[0].DefaultMs != 30000 {
		t.Errorf("copilot-cli default timeout: %+v", cp.Timeouts)
	}
}

// readerFact is one row of TestReaders.
type readerFact struct {
	kind       string
	tool       ToolID
	dialect    DialectID
	jsonc, bom bool
	effect     SyntaxEffect
	maps       string // server maps joined: "mcpServers" or "mcpServers|projects.*.mcpServers"
}

// TestReaders pins, per file kind, who reads it and how. The confidence of
// each fact is pinned separately in the Test*Choice tests below.
func TestReaders(t *testing.T) {
	r := Default()
	want := []readerFact{
		{"mcp-json", "claude-code", "claude-code", false, false, DropsFile, "mcpServers"},
		{"mcp-json", "copilot-cli", "copilot-cli", false, false, DropsFile, "mcpServers"},
		// Only directly in a workspace folder (At), as Claude Code's format.
		{"mcp-json", "vscode", "vscode-dot-mcp", true, true, DropsFile, "mcpServers"},
		// Kilo Code's fallbacks, read as .kilocode/mcp.json is (fallback gate).
		{"mcp-json", "kilo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		{"github-mcp-json", "copilot-cli", "copilot-cli", false, false, DropsFile, "mcpServers"},
		{"github-mcp-config-json", "copilot-cli", "copilot-cli", false, false, UnknownEffect, "mcpServers"},
		{"copilot-user-config", "copilot-cli", "copilot-cli", true, false, DropsFile, "mcpServers"},
		{"copilot-project-config", "copilot-cli", "copilot-cli", false, false, UnknownEffect, "mcpServers"},
		{"copilot-extra-config", "copilot-cli", "copilot-cli", false, false, UnknownEffect, "mcpServers"},
		{"claude-user-state", "claude-code", "claude-code", false, false, StopsTool, "mcpServers|projects.*.mcpServers"},
		{"claude-managed", "claude-code", "claude-code", false, false, UnknownEffect, "mcpServers"},
		{"claude-settings-user", "claude-code", "claude-code-settings", false, true, UnknownEffect, ""},
		{"claude-settings-project", "claude-code", "claude-code-settings", false, true, UnknownEffect, ""},
		{"opencode-project", "opencode", "opencode", true, true, RefusesConfig, "mcp"},
		{"opencode-dir", "opencode", "opencode", true, true, RefusesConfig, "mcp"},
		{"opencode-global", "opencode", "opencode", true, true, RefusesConfig, "mcp"},
		{"gemini-user-settings", "gemini-cli", "gemini-cli", true, true, StopsTool, "mcpServers"},
		{"gemini-workspace-settings", "gemini-cli", "gemini-cli", true, true, StopsTool, "mcpServers"},
		{"gemini-system-settings", "gemini-cli", "gemini-cli", true, true, StopsTool, "mcpServers"},
		// Qwen Code reads Gemini CLI's entries (the dialect is shared) but
		// moves a file JSON.parse rejects aside (verified, 0.15.10).
		{"qwen-user-settings", "qwen-code", "gemini-cli", true, true, OverwritesFile, "mcpServers"},
		{"qwen-workspace-settings", "qwen-code", "gemini-cli", true, true, OverwritesFile, "mcpServers"},
		{"qwen-system-settings", "qwen-code", "gemini-cli", true, true, OverwritesFile, "mcpServers"},
		{"opencode-env-config", "opencode", "opencode", true, true, RefusesConfig, "mcp"},
		{"vscode-workspace", "vscode", "vscode", true, true, Partial, "servers|mcpServers"}, // mcpServers: deprecated, still read
		{"vscode-user", "vscode", "vscode", true, true, Partial, "servers|mcpServers"},
		{"cursor-project", "cursor", "cursor", false, false, DropsFile, "mcpServers"},
		{"cursor-project", "kilo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		{"cursor-user", "cursor", "cursor", false, false, DropsFile, "mcpServers"},
		{"claude-desktop", "claude-desktop", "claude-desktop", false, false, OverwritesFile, "mcpServers"},
		{"nyzhi-project", "nyzhi", "nyzhi", false, true, RefusesConfig, "mcp.servers"},
		{"nyzhi-global", "nyzhi", "nyzhi", false, true, RefusesConfig, "mcp.servers"},
		{"codex-user", "codex-cli", "codex-cli", false, true, RefusesConfig, "mcp_servers"},
		{"codex-project", "codex-cli", "codex-cli", false, true, RefusesConfig, "mcp_servers"},
		{"roo-project", "roo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		// Kilo Code, a fork of Roo Code, reads its files with Roo Code's code.
		{"kilo-project", "kilo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		{"roo-global", "roo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		{"kilo-global", "kilo-code", "roo-code", false, false, DropsFile, "mcpServers"},
		{"zed-project", "zed", "zed", true, false, DropsFile, "context_servers"},
		{"zed-user", "zed", "zed", true, false, DropsFile, "context_servers"},
		{"kiro-workspace", "kiro", "kiro", false, false, UnknownEffect, "mcpServers"},
		{"kiro-user", "kiro", "kiro", false, false, UnknownEffect, "mcpServers"},
		{"windsurf-user", "windsurf", "windsurf", false, false, UnknownEffect, "mcpServers"},
	}
	var got []readerFact
	for _, k := range r.Kinds() {
		for _, rd := range k.Readers {
			var maps []string
			for _, m := range rd.ServerMaps {
				maps = append(maps, strings.Join(m, "."))
			}
			got = append(got, readerFact{k.ID, rd.Tool, rd.Dialect, rd.JSONC.Value, rd.BOM.Value,
				rd.SyntaxError.Effect, strings.Join(maps, "|")})
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d readers, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("reader %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// TestNotRead pins the files users expect a tool to read, which it does not.
func TestNotRead(t *testing.T) {
	r := Default()
	for kind, tool := range map[string]ToolID{
		"claude-dir-mcp-json":     "claude-code",
		"claude-json-misplaced":   "claude-code",
		"claude-settings-user":    "claude-code",
		"claude-settings-project": "claude-code",
		"copilot-project-config":  "copilot-cli",
		"github-mcp-config-json":  "copilot-cli",
		"vscode-workspace":        "copilot-cli",
	} {
		k, ok := r.Kind(kind)
		if !ok {
			t.Errorf("kind %s missing", kind)
			continue
		}
		nr, ok := k.NotReadBy(tool)
		if !ok || nr.Instead == "" {
			t.Errorf("%s: want a notRead entry for %s with a suggestion, got %+v", kind, tool, nr)
		}
	}
	for _, kind := range []string{"claude-dir-mcp-json", "claude-json-misplaced"} {
		if k, _ := r.Kind(kind); k.DeclaresServers() {
			t.Errorf("%s: no tool should take servers from it", kind)
		}
	}
	if k, _ := r.Kind("mcp-json"); !k.DeclaresServers() {
		t.Error("mcp-json should declare servers")
	}
}

func readerOf(t *testing.T, kind string, tool ToolID) *Reader {
	t.Helper()
	k, ok := Default().Kind(kind)
	if !ok {
		t.Fatalf("kind %s missing", kind)
	}
	rd, ok := k.Reader(tool)
	if !ok {
		t.Fatalf("kind %s: no reader %s", kind, tool)
	}
	return rd
}

// The tests below pin choices made on facts that are not verified, named
// after the choice as formats.md asks, so that changing one is deliberate
// and diagnostics keep qualifying them.

func TestVerifiedChoice_ClaudeCodeAndCopilotRejectJSONCInMcpJSON(t *testing.T) {
	for _, tool := range []ToolID{"claude-code", "copilot-cli"} {
		rd := readerOf(t, "mcp-json", tool)
		if rd.JSONC.Value || rd.JSONC.Confidence != Verified || rd.SyntaxError.Confidence != Verified {
			t.Errorf("%s .mcp.json: want strict JSON, verified: %+v", tool, rd.JSONC)
		}
	}
	if rd := readerOf(t, "copilot-user-config", "copilot-cli"); !rd.JSONC.Value || rd.JSONC.Confidence != Verified {
		t.Errorf("~/.copilot/mcp-config.json: want JSONC, verified: %+v", rd.JSONC)
	}
}

func TestUnconfirmedChoice_CursorIsStrictJSON(t *testing.T) {
	for _, kind := range []string{"cursor-project", "cursor-user"} {
		rd := readerOf(t, kind, "cursor")
		if rd.JSONC.Value || rd.JSONC.Confidence.Certain() || rd.JSONC.Note == "" {
			t.Errorf("%s: want strict JSON, not certain, with the reason noted: %+v", kind, rd.JSONC)
		}
	}
}

func TestInferredChoice_NodeStrictReadersRejectBOM(t *testing.T) {
	for _, c := range []struct {
		kind string
		tool ToolID
	}{{"mcp-json", "claude-code"}, {"mcp-json", "copilot-cli"}, {"github-mcp-json", "copilot-cli"}, {"claude-desktop", "claude-desktop"}} {
		rd := readerOf(t, c.kind, c.tool)
		if rd.BOM.Value || rd.BOM.Confidence.Certain() {
			t.Errorf("%s/%s: want BOM rejected, not certain: %+v", c.kind, c.tool, rd.BOM)
		}
	}
}

func TestInferredChoice_BunAndVSCodeReadersAcceptBOM(t *testing.T) {
	for _, c := range []struct {
		kind string
		tool ToolID
	}{{"opencode-project", "opencode"}, {"opencode-global", "opencode"}, {"vscode-workspace", "vscode"}} {
		rd := readerOf(t, c.kind, c.tool)
		if !rd.BOM.Value || rd.BOM.Confidence.Certain() {
			t.Errorf("%s/%s: want BOM accepted, not certain: %+v", c.kind, c.tool, rd.BOM)
		}
	}
}

func TestUnconfirmedChoice_CopilotExplicitConfigIsStrictJSON(t *testing.T) {
	for _, kind := range []string{"copilot-extra-config", "copilot-project-config"} {
		rd := readerOf(t, kind, "copilot-cli")
		if rd.JSONC.Value || rd.JSONC.Confidence != Unconfirmed {
			t.Errorf("%s: want strict JSON, unconfirmed: %+v", kind, rd.JSONC)
		}
		if len(rd.Gates) != 1 || rd.Gates[0].ID != GateExplicitFlag {
			t.Errorf("%s: want an explicit-flag gate: %+v", kind, rd.Gates)
		}
	}
}

func TestGates(t *testing.T) {
	if rd := readerOf(t, "mcp-json", "claude-code"); len(rd.Gates) != 1 || rd.Gates[0].ID != GateApproval {
		t.Errorf("Claude Code .mcp.json: want the approval gate: %+v", rd.Gates)
	}
	rd := readerOf(t, "github-mcp-json", "copilot-cli")
	var ids []string
	for _, g := range rd.Gates {
		ids = append(ids, string(g.ID))
	}
	if strings.Join(ids, ",") != "trusted-folder,fallback" {
		t.Errorf(".github/mcp.json gates = %v, want trusted-folder,fallback", ids)
	}
}

// TestProfiles pins the order in which each tool reads its files, which
// decides what wins: layers lowest first, files within a layer lowest
// first.
func TestProfiles(t *testing.T) {
	r := Default()
	for id, want := range map[ToolID]string{
		// Reported (flora131/atomic mcp-config.ts at 4018ecbc, spec #164):
		// user files, then the working directory's; OpenCode files last.
		"atomic": "user: {home}/.claude/.mcp.json {home}/.copilot/mcp-config.json {home}/.github/mcp-config.json | " +
			"project: {launchDir}/.mcp.json {launchDir}/.copilot/mcp-config.json {launchDir}/.github/mcp-config.json | " +
			"project-opencode: {launchDir}/opencode.json {launchDir}/opencode.jsonc {launchDir}/.opencode/opencode.json",
		// Confirmed (nyzhi-com/code): global < project < .mcp.json.
		"nyzhi": "global: {xdgConfigHome}/nyzhi/config.toml | project: {launchDir}/.nyzhi/config.toml | mcp-json: {launchDir}/.mcp.json",
	} {
		tool, ok := r.Tool(id)
		if !ok || tool.Profile == nil {
			t.Fatalf("%s: no profile", id)
		}
		var layers []string
		for _, l := range tool.Profile.Layers {
			var files []string
			for _, f := range l.Files {
				files = append(files, f.Path)
			}
			layers = append(layers, l.ID+": "+strings.Join(files, " "))
		}
		if got := strings.Join(layers, " | "); got != want {
			t.Errorf("%s profile:\n got %s\nwant %s", id, got, want)
		}
	}
	atomic, _ := r.Tool("atomic")
	for _, l := range atomic.Profile.Layers {
		if l.JSONC == nil || !l.JSONC.Value || !l.JSONC.Confidence.Certain() {
			t.Errorf("atomic %s: every file is read with Bun.JSONC.parse (confirmed): %+v", l.ID, l.JSONC)
		}
		if want := map[string]string{"project-opencode": "enabled"}[l.ID]; l.EnabledKey != want {
			t.Errorf("atomic %s: enabledKey %q, want %q (only its OpenCode parser reads enabled)", l.ID, l.EnabledKey, want)
		}
	}
	if atomic.Merge.Value != ReplaceEntry || atomic.Merge.Confidence != Reported {
		t.Errorf("atomic merge %+v: last wins, reported (another revision isolates ecosystems)", atomic.Merge)
	}
	// Atomic TUI reads other tools' files only: it must not be a reader of
	// any kind, or every per-file diagnostic of .mcp.json would change.
	for _, k := range r.Kinds() {
		if _, ok := k.Reader("atomic"); ok {
			t.Errorf("kind %s: atomic must not be a reader", k.ID)
		}
	}
	nyzhi, _ := r.Tool("nyzhi")
	if l := nyzhi.Profile.Layers[2]; l.JSONC == nil || l.JSONC.Value || strings.Join(l.Files[0].ServerMaps[1], ".") != "mcp_servers" {
		t.Errorf("nyzhi .mcp.json layer: strict JSON (serde_json) with the mcp_servers alias: %+v", l)
	}
	for _, tool := range r.Tools() {
		if tool.Profile == nil || tool.ID == "opencode" || tool.ID == "atomic" || tool.ID == "codex-cli" || tool.ID == "zed" {
			continue
		}
		for _, l := range tool.Profile.Layers {
			if l.EnabledKey != "" {
				t.Errorf("%s %s: enabledKey %q; only OpenCode's, Codex CLI's and Zed's formats have one", tool.ID, l.ID, l.EnabledKey)
			}
		}
	}
	codex, _ := r.Tool("codex-cli")
	if p := codex.Profile; p.StopsOnRefusal == nil || !p.StopsOnRefusal.Value || p.ValidatesMerged == nil || !p.ValidatesMerged.Value ||
		p.Layers[1].Gate != GateTrustedProject || p.Layers[1].Walk.Boundary != "git-root" || p.Layers[0].EnabledKey != "enabled" {
		t.Errorf("codex-cli profile: stops on refusal, validates merged entries, trusted-project walk to the git root, enabled key: %+v", p)
	}
}
