package convert_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// entry converts one entry, given as JSON text, from one dialect to
// another and renders it compactly enough to compare.
func entry(t *testing.T, from, to, text string) (string, []convert.Loss, error) {
	t.Helper()
	f := jsonc.Parse([]byte(text))
	if len(f.Errors) > 0 {
		t.Fatalf("bad test input: %v", f.Errors)
	}
	s, readLosses, err := convert.FromEntry(from, "s", f.Root)
	if err != nil {
		return "", nil, err
	}
	v, losses, err := convert.ToEntry(to, s)
	if err != nil {
		return "", nil, err
	}
	return string(convert.RenderEntry(v, "", "")), append(readLosses, losses...), nil
}

func lossLines(ls []convert.Loss) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

func TestEntryConversions(t *testing.T) {
	cases := []struct {
		name, from, to, in string
		want               string
		losses             string
	}{
		{
			name: "OpenCode unset variable is empty, so Claude Code gets ${X:-}",
			from: "opencode", to: "claude-code",
			in:   `{"type": "local", "command": ["run", "--token={env:TOKEN}"], "environment": {"A": "{env:A}"}}`,
			want: `{"command": "run","args": ["--token=${TOKEN:-}"],"env": {"A": "${A:-}"}}`,
		},
		{
			name: "Claude Code ${X} into OpenCode: the unset case changes",
			from: "claude-code", to: "opencode",
			in:     `{"command": "run", "env": {"A": "${A}", "B": "${B:-}", "C": "${C:-x}"}}`,
			want:   `{"type": "local","command": ["run"],"environment": {"A": "{env:A}","B": "{env:B}","C": "{env:C}"}}`,
			losses: "changes: s: env.A (OpenCode turns an unset A into an empty string)\nchanges: s: env.C (OpenCode has no default values: ${C:-…} loses its default)\n",
		},
		{
			// The tools end "${...}" at the first "}", as package interp
			// does: A with the default "${B", then a literal "}".
			name: "nested default as Claude Code reads it",
			from: "claude-code", to: "opencode",
			in:     `{"command": "run", "env": {"A": "${A:-${B}}"}}`,
			want:   `{"type": "local","command": ["run"],"environment": {"A": "{env:A}}"}}`,
			losses: "changes: s: env.A (OpenCode has no default values: ${A:-…} loses its default)\n",
		},
		{
			name: "escaped and non-ASCII references",
			from: "opencode", to: "claude-code",
			in:   `{"type": "local", "command": ["run", "ä\u007benv:TOKEN}ö"]}`,
			want: `{"command": "run","args": ["ä${TOKEN:-}ö"]}`,
		},
		{
			name: "Copilot CLI expands env and headers only",
			from: "claude-code", to: "copilot-cli",
			in:     `{"command": "${BIN}", "args": ["${A}"], "env": {"E": "${E}"}}`,
			want:   `{"command": "${BIN}","args": ["${A}"],"env": {"E": "${E}"},"tools": ["*"]}`,
			losses: "changes: s: command (Copilot CLI does not expand variables in command: ${BIN} stays text)\nchanges: s: args[0] (Copilot CLI does not expand variables in args: ${A} stays text)\n",
		},
		{
			name: "Copilot CLI $VAR is a variable, Claude Code's is text",
			from: "copilot-cli", to: "claude-code",
			in:   `{"command": "x", "env": {"E": "$HOME/bin"}}`,
			want: `{"command": "x","env": {"E": "${HOME}/bin"}}`,
		},
		{
			name: "Claude Code $VAR would be expanded by Copilot CLI",
			from: "claude-code", to: "copilot-cli",
			in:     `{"command": "x", "env": {"E": "price$HOME"}}`,
			want:   `{"command": "x","args": [],"env": {"E": "price$HOME"},"tools": ["*"]}`,
			losses: "changes: s: env.E (Copilot CLI would expand part of this text as a variable reference)\n",
		},
		{
			name: "Copilot CLI url is checked before expansion",
			from: "claude-code", to: "copilot-cli",
			in:     `{"type": "http", "url": "https://${HOST}/mcp"}`,
			want:   `{"type": "http","url": "https://${HOST}/mcp","tools": ["*"]}`,
			losses: "changes: s: url (Copilot CLI does not expand variables in url: ${HOST} stays text)\n",
		},
		{
			name: "OpenCode substitutes {env:} anywhere, even in text from elsewhere",
			from: "claude-code", to: "opencode",
			in:     `{"command": "echo", "args": ["{env:NOT_A_VAR_IN_CLAUDE}"]}`,
			want:   `{"type": "local","command": ["echo","{env:NOT_A_VAR_IN_CLAUDE}"]}`,
			losses: "changes: s: args[0] (OpenCode would expand part of this text as a variable reference)\n",
		},
		{
			name: "VS Code inputs become environment variables elsewhere",
			from: "vscode", to: "claude-code",
			in:     `{"type": "http", "url": "https://x/mcp", "headers": {"Authorization": "Bearer ${input:api-key}"}}`,
			want:   `{"type": "http","url": "https://x/mcp","headers": {"Authorization": "Bearer ${API_KEY}"}}`,
			losses: "changes: s: headers.Authorization (Claude Code does not prompt for inputs: ${input:api-key} becomes the environment variable API_KEY)\n",
		},
		{
			name: "SSE into OpenCode is remote, with a loss",
			from: "claude-code", to: "opencode",
			in:     `{"type": "sse", "url": "https://x/sse"}`,
			want:   `{"type": "remote","url": "https://x/sse"}`,
			losses: "changes: s: type (OpenCode has no SSE-only type: \"remote\" tries Streamable HTTP first, then falls back to SSE)\n",
		},
		{
			name: "OpenCode remote is Streamable HTTP elsewhere, with a type",
			from: "opencode", to: "claude-code",
			in:   `{"type": "remote", "url": "https://x/mcp"}`,
			want: `{"type": "http","url": "https://x/mcp"}`,
		},
		{
			name: "VS Code transport sse forces SSE",
			from: "vscode", to: "copilot-cli",
			in:   `{"type": "http", "transport": "sse", "url": "https://x/sse"}`,
			want: `{"type": "sse","url": "https://x/sse","tools": ["*"]}`,
		},
		{
			name: "OpenCode's default timeout is written for Copilot CLI",
			from: "opencode", to: "copilot-cli",
			in:   `{"type": "local", "command": ["x"]}`,
			want: `{"command": "x","args": [],"tools": ["*"],"timeout": 5000}`,
		},
		{
			name: "Copilot CLI's default timeout is written for OpenCode",
			from: "copilot-cli", to: "opencode",
			in:   `{"command": "x"}`,
			want: `{"type": "local","command": ["x"],"timeout": 30000}`,
		},
		{
			name: "no timeout is invented from a tool without one",
			from: "claude-code", to: "opencode",
			in:   `{"command": "x"}`,
			want: `{"type": "local","command": ["x"]}`,
		},
		{
			name: "an equal default is not written",
			from: "opencode", to: "opencode",
			in:   `{"type": "local", "command": []}`,
			want: `{"type": "local","command": []}`,
		},
		{
			name: "Copilot tool filter and disabled OpenCode server",
			from: "copilot-cli", to: "opencode",
			in:     `{"command": "x", "tools": ["a"], "timeout": 1000}`,
			want:   `{"type": "local","command": ["x"],"timeout": 1000}`,
			losses: "drops: s: tools (OpenCode has no per-server tool filter: every tool of the server will be available)\n",
		},
		{
			name: "enabled false into Claude Code",
			from: "opencode", to: "claude-code",
			in:     `{"type": "local", "command": ["x"], "enabled": false}`,
			want:   `{"command": "x"}`,
			losses: "drops: s: enabled (Claude Code has no enabled switch in this file, so the server will start)\n",
		},
		{
			name: "client secret never goes into Claude Code, and is never shown",
			from: "opencode", to: "claude-code",
			in:     `{"type": "remote", "url": "https://x", "oauth": {"clientId": "id", "clientSecret": "hunter2-literal", "scope": "a b"}}`,
			want:   `{"type": "http","url": "https://x","oauth": {"clientId": "id","scopes": "a b"}}`,
			losses: "drops: s: oauth.clientSecret (Claude Code keeps the client secret out of its config; pass it with claude mcp add --client-secret or MCP_CLIENT_SECRET)\n",
		},
		{
			name: "oauth false into Copilot CLI",
			from: "opencode", to: "copilot-cli",
			in:     `{"type": "remote", "url": "https://x", "oauth": false}`,
			want:   `{"type": "http","url": "https://x","tools": ["*"],"timeout": 5000}`,
			losses: "drops: s: oauth (Copilot CLI cannot turn off OAuth for a server)\n",
		},
		{
			name: "Copilot scopes need a client id",
			from: "claude-code", to: "copilot-cli",
			in:     `{"type": "http", "url": "https://x", "oauth": {"scopes": "a b"}}`,
			want:   `{"type": "http","url": "https://x","tools": ["*"]}`,
			losses: "drops: s: oauth.scopes (Copilot CLI sends oauthScopes only with an oauthClientId)\n",
		},
		{
			name: "Claude alwaysLoad is Copilot deferTools never",
			from: "claude-code", to: "copilot-cli",
			in:   `{"command": "x", "alwaysLoad": true}`,
			want: `{"command": "x","args": [],"tools": ["*"],"deferTools": "never"}`,
		},
		{
			name: "keys the source tool ignores are dropped on reading",
			from: "claude-code", to: "claude-code",
			in:     `{"command": "x", "disabled": true, "transport": "stdio"}`,
			want:   `{"command": "x"}`,
			losses: "drops: s: disabled (not a Claude Code setting; Claude Code ignores it)\ndrops: s: transport (not a Claude Code setting; Claude Code ignores it)\n",
		},
		{
			name: "extras come back in their own dialect",
			from: "copilot-cli", to: "copilot-cli",
			in:   `{"type": "http", "url": "https://x", "oidc": true, "filterMapping": "none", "oauthClientId": "c", "oauthGrantType": "client_credentials"}`,
			want: `{"type": "http","url": "https://x","tools": ["*"],"filterMapping": "none","oauthClientId": "c","oauthGrantType": "client_credentials","oidc": true}`,
		},
		{
			name: "VS Code null env only in VS Code",
			from: "vscode", to: "cursor",
			in:     `{"command": "x", "env": {"A": null, "B": 2}}`,
			want:   `{"command": "x","env": {"B": "2"}}`,
			losses: "drops: s: env.A (only VS Code can remove a variable with null)\n",
		},
		{
			name: "Claude Desktop expands nothing",
			from: "claude-code", to: "claude-desktop",
			in:     `{"command": "x", "env": {"K": "${K:-secret-default}"}}`,
			want:   `{"command": "x","env": {"K": "${K:-secret-default}"}}`,
			losses: "changes: s: env.K (Claude Desktop does not expand variables: ${K:-…} stays text)\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, losses, err := entry(t, c.from, c.to, c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if l := lossLines(losses); l != c.losses {
				t.Errorf("losses:\n%s\nwant:\n%s", l, c.losses)
			}
			if l := lossLines(losses); strings.Contains(l, "secret-default") || strings.Contains(l, "hunter2") {
				t.Errorf("a loss shows a secret")
			}
		})
	}
}

func TestEntryErrors(t *testing.T) {
	cases := []struct {
		name, from, to, in, err string
	}{
		{"remote into Claude Desktop", "claude-code", "claude-desktop", `{"type": "http", "url": "https://x"}`,
			"Claude Desktop takes only local (stdio) servers from its config file, not Streamable HTTP ones (add remote servers as connectors in the app)"},
		{"WebSocket outside Claude Code", "claude-code", "vscode", `{"type": "ws", "url": "wss://x"}`, "VS Code cannot connect to WebSocket servers"},
		{"empty command into Claude Code", "opencode", "claude-code", `{"type": "local", "command": []}`, "Claude Code skips a server with an empty command"},
		{"VS Code URL", "claude-code", "vscode", `{"type": "http", "url": "localhost:3000/mcp"}`, "VS Code needs an http://, https://, unix: or pipe: URL"},
		{"url without type is stdio to Claude Code", "claude-code", "opencode", `{"url": "https://x"}`, "not a valid Claude Code server: the entry: missing properties: 'command'"},
		{"case-sensitive type", "copilot-cli", "opencode", `{"type": "HTTP", "url": "https://x"}`, "type: not a transport Copilot CLI knows"},
		{"wrong type, value never shown", "claude-code", "opencode", `{"command": "x", "args": "--token=secret-in-args"}`, "not a valid Claude Code server: args: expected array, but got string"},
		{"OpenCode requires type", "opencode", "claude-code", `{"command": ["x"]}`, "not a valid OpenCode server"},
		{"unknown dialect", "nosuch-dialect", "opencode", `{}`, `unknown dialect "nosuch-dialect"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := entry(t, c.from, c.to, c.in)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("error %v, want %q", err, c.err)
			}
			if err != nil && strings.Contains(err.Error(), "secret-in-args") {
				t.Errorf("the error shows a value: %v", err)
			}
		})
	}
}

func TestNamesTargetsRefuse(t *testing.T) {
	for _, c := range []struct{ dialect, name, err string }{
		{"claude-code", "workspace", `reserves the name "workspace"`},
		{"copilot-cli", "a}b", `does not accept "}"`},
	} {
		s := &convert.Server{Name: c.name, Transport: convert.Stdio, Command: convert.Lit("x")}
		if _, _, err := convert.ToEntry(c.dialect, s); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %q: error %v, want %q", c.dialect, c.name, err, c.err)
		}
	}
}

func TestEnabledOnlyOverride(t *testing.T) {
	src := []byte(`{"mcp": {"x": {"enabled": false}}}`)
	out, losses, err := convert.ConvertFile("opencode", "opencode", src)
	if err != nil || len(losses) != 0 || !strings.Contains(string(out), `"x": {
      "enabled": false
    }`) {
		t.Errorf("OpenCode to OpenCode keeps the override: %v %v\n%s", err, losses, out)
	}
	out, losses, err = convert.ConvertFile("opencode", "claude-code", src)
	if err != nil || lossLines(losses) != "drops: x (only switches a server from another OpenCode file on or off; Claude Code has no such override)\n" {
		t.Errorf("into Claude Code: %v\n%s\n%s", err, lossLines(losses), out)
	}
	s := &convert.Server{Name: "x", EnabledOnly: true}
	if _, _, err := convert.ToEntry("vscode", s); !errors.Is(err, convert.ErrEnabledOnly) {
		t.Errorf("ToEntry: %v, want ErrEnabledOnly", err)
	}
}

func TestConvertFileErrors(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{"{\n  \"mcpServers\": {\n    \"x\": {\"command\": }\n  }\n}", "line 3:"},
		{`[]`, "not a JSON object"},
		{``, "not a JSON object"},
		{`{"mcpServers": []}`, "mcpServers must be an object"},
	} {
		if _, _, err := convert.ConvertFile("claude-code", "opencode", []byte(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		}
	}
}

func TestConvertFileVSCodeDeprecatedMap(t *testing.T) {
	out, _, err := convert.ConvertFile("vscode", "claude-code", []byte(`{"mcpServers": {"x": {"command": "y"}}}`))
	if err != nil || !strings.Contains(string(out), `"x": {`) {
		t.Errorf("VS Code's deprecated mcpServers is read when servers is absent: %v\n%s", err, out)
	}
}

func TestRenderEntry(t *testing.T) {
	v := convert.Object{
		{Key: "type", Value: "local"},
		{Key: "command", Value: []any{"a&b", "<c>"}},
		{Key: "environment", Value: convert.Object{}},
		{Key: "list", Value: []string{}},
		{Key: "n", Value: 5000},
		{Key: "on", Value: false},
		{Key: "x", Value: nil},
	}
	got := string(convert.RenderEntry(v, "\t", "\r\n"))
	want := "{\r\n\t\"type\": \"local\",\r\n\t\"command\": [\r\n\t\t\"a&b\",\r\n\t\t\"<c>\"\r\n\t],\r\n\t\"environment\": {},\r\n\t\"list\": [],\r\n\t\"n\": 5000,\r\n\t\"on\": false,\r\n\t\"x\": null\r\n}"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestLossString(t *testing.T) {
	for _, c := range []struct {
		l    convert.Loss
		want string
	}{
		{convert.Loss{Server: "gh", Field: "oauth.clientSecret", Reason: "r"}, "drops: gh: oauth.clientSecret (r)"},
		{convert.Loss{Field: "comments", Reason: "r"}, "drops: comments (r)"},
		{convert.Loss{Server: "a b", Kind: convert.Changed, Reason: "r"}, `changes: "a b" (r)`},
		{convert.Loss{Server: "x\x1b[31m", Field: "f", Reason: "r"}, `drops: "x\x1b[31m": f (r)`},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}
