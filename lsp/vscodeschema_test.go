package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// initializeAs initializes like c.initialize, naming the client in
// clientInfo as an editor does.
func (c *testClient) initializeAs(root, clientName string) {
	c.t.Helper()
	params := map[string]any{
		"processId":        nil,
		"rootUri":          nil,
		"clientInfo":       map[string]any{"name": clientName, "version": "1.139.0"},
		"capabilities":     map[string]any{"workspace": map[string]any{"configuration": true}},
		"workspaceFolders": []map[string]any{{"uri": string(pathToURI(root)), "name": "root"}},
	}
	if err := c.call(protocol.MethodInitialize, params, &json.RawMessage{}); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
}

// vscodeSchemaFile has one schema error VS Code's own schema reports
// ("command": 1, "Incorrect type. Expected "string".") and one semantic
// finding it does not (an undeclared ${input:...}).
const vscodeSchemaFile = `{"servers": {"a": {"command": 1}, "b": {"command": "x", "args": ["${input:tok}"]}}}`

// TestVSCodeSchemaFindingsLeftToVSCode: in .vscode/mcp.json and VS Code's
// user mcp.json, a client that is VS Code (or code-server) gets no
// finding its own MCP schema already shows, but still the semantic ones;
// other clients get both; mcpLsp.vscodeSchemaDiagnostics overrides; and
// files VS Code does not validate keep every finding.
func TestVSCodeSchemaFindingsLeftToVSCode(t *testing.T) {
	for _, tc := range []struct {
		client  string
		setting any // mcpLsp.vscodeSchemaDiagnostics; nil: not set
		schema  bool
	}{
		{"Visual Studio Code", nil, false},
		{"code-server", nil, false},
		{"Visual Studio Code", "auto", false},
		{"Neovim", nil, true},
		{"Cursor", nil, true},
		{"", nil, true},
		{"Visual Studio Code", "always", true},
		{"Neovim", "never", false},
	} {
		t.Run(tc.client+"/"+func() string { s, _ := tc.setting.(string); return s }(), func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, Options{})
			if tc.setting != nil {
				c.settings = map[string]any{vscodeSchemaSetting: tc.setting}
			}
			c.initializeAs(dir, tc.client)
			c.waitConfigAsked()
			want := func(p publishParams) bool {
				return hasCode(p, "undefined-input") && hasCode(p, "invalid-field-value") == tc.schema
			}
			uri := c.open(filepath.Join(dir, ".vscode", "mcp.json"), vscodeSchemaFile)
			p := c.waitDiagnostics(uri, ".vscode/mcp.json", want)
			user := c.open(filepath.Join(dir, "home", ".config", "Code", "User", "mcp.json"), vscodeSchemaFile)
			c.waitDiagnostics(user, "user mcp.json", want)
			for _, d := range p.Diagnostics {
				if d.Code == "invalid-field-value" && d.Range.Start.Line != 0 {
					t.Errorf("invalid-field-value at %v", d.Range)
				}
			}

			// A file VS Code does not validate keeps its schema findings.
			other := c.open(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"a": {"command": 1}}}`)
			c.waitDiagnostics(other, ".mcp.json", func(p publishParams) bool { return hasCode(p, "invalid-field-value") })

			// Hover says who reports the schema problems.
			h := c.hover(uri, protocol.Position{Line: 0, Character: 15})
			if h == "" {
				t.Fatal("no hover on a server name")
			}
			if got := strings.Contains(h, "VS Code reports this file's schema problems"); got == tc.schema {
				t.Errorf("hover note shown = %v, want %v:\n%s", got, !tc.schema, h)
			}
		})
	}
}

// TestVSCodeSchemaSettingChangeTakesEffect: changing the setting while
// the server runs brings the schema findings back.
func TestVSCodeSchemaSettingChangeTakesEffect(t *testing.T) {
	dir := t.TempDir()
	c := startServer(t, Options{})
	c.initializeAs(dir, "Visual Studio Code")
	// The startup fetch of the settings first: a change racing its answer
	// is the startup-settings race, not what this test is about.
	c.waitConfigAsked()
	uri := c.open(filepath.Join(dir, ".vscode", "mcp.json"), vscodeSchemaFile)
	c.waitDiagnostics(uri, "schema findings left to VS Code", func(p publishParams) bool {
		return hasCode(p, "undefined-input") && !hasCode(p, "invalid-field-value")
	})
	// As an editor does, the client answers a later workspace/configuration
	// with the settings it pushed.
	c.mu.Lock()
	c.settings = map[string]any{vscodeSchemaSetting: "always"}
	c.mu.Unlock()
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, protocol.DidChangeConfigurationParams{
		Settings: map[string]any{"mcpLsp": map[string]any{vscodeSchemaSetting: "always"}},
	})
	c.waitDiagnostics(uri, "schema findings back", func(p publishParams) bool {
		return hasCode(p, "undefined-input") && hasCode(p, "invalid-field-value")
	})
}

func TestTakeVSCodeSchemaMode(t *testing.T) {
	for _, tc := range []struct {
		value    any
		want     vscodeSchemaMode
		problems int
	}{
		{nil, vscodeSchemaAuto, 0},
		{"always", vscodeSchemaAlways, 0},
		{"never", vscodeSchemaNever, 0},
		{"sometimes", vscodeSchemaAuto, 1},
		{true, vscodeSchemaAuto, 1},
	} {
		settings := map[string]any{vscodeSchemaSetting: tc.value}
		got, problems := takeVSCodeSchemaMode(settings)
		if got != tc.want || len(problems) != tc.problems {
			t.Errorf("%v: got %q %v, want %q and %d problems", tc.value, got, problems, tc.want, tc.problems)
		}
		if _, left := settings[vscodeSchemaSetting]; left {
			t.Errorf("%v: setting left for analysis", tc.value)
		}
	}
}

// TestVSCodeSchemaDropsOnlyWhatVSCodeReports: in VS Code, an
// invalid-field-value VS Code's own schema reports too ("command": 1) is
// left to VS Code, but one its schema accepts and VS Code does not
// ("env": "A=1": the schema leaves env untyped; VS Code spreads the string
// into an object of characters) stays, on the right line of a CRLF file
// with non-ASCII names. Another client gets both.
func TestVSCodeSchemaDropsOnlyWhatVSCodeReports(t *testing.T) {
	const file = "{\r\n  \"servers\": {\r\n    \"ünï\": {\"command\": 1},\r\n    \"日本\": {\"command\": \"x\", \"env\": \"A=1\"}\r\n  }\r\n}\r\n"
	for _, tc := range []struct {
		client string
		lines  []uint32 // of the invalid-field-value findings
	}{
		{"Visual Studio Code", []uint32{3}},
		{"Neovim", []uint32{2, 3}},
	} {
		t.Run(tc.client, func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, Options{})
			c.initializeAs(dir, tc.client)
			c.waitConfigAsked()
			uri := c.open(filepath.Join(dir, ".vscode", "mcp.json"), file)
			var lines []uint32
			c.waitDiagnostics(uri, "invalid-field-value on the expected lines", func(p publishParams) bool {
				lines = lines[:0]
				for _, d := range p.Diagnostics {
					if d.Code == "invalid-field-value" {
						lines = append(lines, d.Range.Start.Line)
					}
				}
				return slices.Equal(lines, tc.lines)
			})
			if tc.client == "Neovim" {
				return
			}
			// The finding kept is the env one, on its value (UTF-16 columns).
			p := c.waitDiagnostics(uri, "env finding", func(p publishParams) bool { return hasCode(p, "invalid-field-value") })
			for _, d := range p.Diagnostics {
				if d.Code == "invalid-field-value" {
					if want := (protocol.Position{Line: 3, Character: 34}); d.Range.Start != want || !strings.Contains(d.Message, `"env"`) {
						t.Errorf("kept finding at %v: %s, want env's value at %v", d.Range.Start, d.Message, want)
					}
				}
			}
		})
	}
}

// TestVSCodeCompletionLeavesVSCodeItems: in VS Code's own files a VS Code
// client is not offered the completion items VS Code's schema offers
// itself (args, env, ... and the "type" values), only mcp-lsp's others;
// another client gets everything; mcpLsp.vscodeSchemaDiagnostics
// "always" gives VS Code everything too.
func TestVSCodeCompletionLeavesVSCodeItems(t *testing.T) {
	const file = "{\r\n  \"servers\": {\r\n    \"ünï\": {\"command\": \"x\", },\r\n    \"b\": {\"type\": \"\", \"command\": \"y\"}\r\n  }\r\n}\r\n"
	keyPos := protocol.Position{Line: 2, Character: 28}  // after "x",
	typePos := protocol.Position{Line: 3, Character: 19} // inside "type": ""
	for _, tc := range []struct {
		client  string
		setting any
		vscode  bool // VS Code's items left out
	}{
		{"Visual Studio Code", nil, true},
		{"code-server", nil, true},
		{"Neovim", nil, false},
		{"Visual Studio Code", "always", false},
	} {
		t.Run(fmt.Sprint(tc.client, "/", tc.setting), func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, Options{})
			if tc.setting != nil {
				c.settings = map[string]any{vscodeSchemaSetting: tc.setting}
			}
			c.initializeAs(dir, tc.client)
			// A completion is answered with the settings in force, not
			// republished when they change.
			c.waitConfigTaken()
			uri := c.open(filepath.Join(dir, ".vscode", "mcp.json"), file)
			labels := func(p protocol.Position) []string {
				var out []string
				for _, it := range c.complete(uri, p).Items {
					out = append(out, it.Label)
				}
				return out
			}
			keys := labels(keyPos)
			for _, k := range []string{"args", "env", "cwd"} {
				if got := slices.Contains(keys, k); got == tc.vscode {
					t.Errorf("key %q offered = %v, want %v (items %v)", k, got, !tc.vscode, keys)
				}
			}
			// Keys VS Code reads but its schema does not offer stay.
			if !slices.Contains(keys, "sandbox") {
				t.Errorf("no \"sandbox\" among %v", keys)
			}
			types := labels(typePos)
			if got := slices.Contains(types, `"stdio"`); got == tc.vscode {
				t.Errorf("\"stdio\" offered = %v, want %v (items %v)", got, !tc.vscode, types)
			}
			// Another file keeps everything in every client.
			other := c.open(filepath.Join(dir, ".mcp.json"), "{\"mcpServers\": {\"a\": {\"command\": \"x\", }}}")
			if l := c.complete(other, protocol.Position{Line: 0, Character: 37}).Items; !slices.ContainsFunc(l, func(it protocol.CompletionItem) bool { return it.Label == "args" }) {
				t.Errorf(".mcp.json lacks args: %v", l)
			}
		})
	}
}

// TestVSCodeSchemaMissingField: a remote server without url is reported by
// VS Code's schema (its remote shape requires url), so VS Code gets no
// missing-url for it; a server without command passes VS Code's schema
// (its stdio shape requires nothing), so mcp-lsp's missing-command stays.
func TestVSCodeSchemaMissingField(t *testing.T) {
	const file = `{"servers": {"rémote": {"type": "http"}, "local": {"args": []}}}`
	for client, want := range map[string][]string{
		"Visual Studio Code": {"missing-command local"},
		"Neovim":             {"missing-command local", "missing-url rémote"},
	} {
		t.Run(client, func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, Options{})
			c.initializeAs(dir, client)
			c.waitConfigAsked()
			uri := c.open(filepath.Join(dir, ".vscode", "mcp.json"), file)
			m := NewMapper([]byte(file))
			var on []string
			c.waitDiagnostics(uri, strings.Join(want, ", "), func(p publishParams) bool {
				on = on[:0]
				for _, d := range p.Diagnostics {
					if !strings.HasPrefix(fmt.Sprint(d.Code), "missing-") {
						continue
					}
					sp, err := m.Span(d.Range)
					if err != nil {
						t.Fatal(err)
					}
					on = append(on, fmt.Sprint(d.Code)+" "+strings.Trim(file[sp.Start:sp.End], `"`))
				}
				slices.Sort(on)
				return slices.Equal(on, want)
			})
		})
	}
}
