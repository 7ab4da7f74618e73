package lsp

// The oracle driver's generated workspaces and its sanitizer (see
// oracle_test.go). The workspaces mix issue 10's eight cases: invalid
// entries in ~/.claude.json and under its projects, keys a tool accepts or
// ignores, an unapproved .mcp.json with invalid entries, the reserved name
// "workspace", ${VAR} in a URL's port, the trust gate, .github/mcp.json
// beside .mcp.json, one name in several scopes, OpenCode's env against
// environment, and Gemini CLI and Codex CLI files. Every command is
// /bin/true or /bin/false and every URL a loopback one on closed port 9:
// the tools health-check what they start.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
)

// oracleOption is one choice for one file: its content ("" for no file),
// and the launch directory it needs ("" for the project).
type oracleOption struct {
	data   string
	launch string
}

// oracleDims are the files a generated workspace may hold, each with its
// choices; the first choice of each is "no file".
var oracleDims = []struct {
	path string
	opts []oracleOption
}{
	{"home/.claude.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"u1": {"command": "/bin/true"}, "ubad": {"command": "/bin/true", "args": "x y"}}}`, ""},
		{`{"mcpServers": {"u1": {"command": "/bin/true"}, "ubad": {"command": "/bin/true", "env": {"N": 1}}}, "projects": {"$DIR": {"hasTrustDialogAccepted": true, "mcpServers": {"l1": {"command": "/bin/true"}, "lbad": {"command": "/bin/true", "args": "a b"}}}}}`, ""},
		{`{"mcpServers": {"workspace": {"command": "/bin/true"}, "u1": {"command": "/bin/false"}}, "projects": {"$DIR": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["p1", "pport"]}}}`, ""},
		{`{"mcpServers": {"u1": {"url": "http://127.0.0.1:9/mcp"}, "u2": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}, "projects": {"$DIR": {"hasTrustDialogAccepted": false, "enableAllProjectMcpServers": true}}}`, ""},
		{`{"mcpServers": {"u1": {"command": "/bin/true"}}, "projects": {"$DIR/sub": {"hasTrustDialogAccepted": true, "mcpServers": {"lsub": {"command": "/bin/true"}}, "enableAllProjectMcpServers": true}, "$DIR": {"mcpServers": {"lroot": {"command": "/bin/true"}}}}}`, "sub"},
		{`{"projects": {"$DIR": {"hasTrustDialogAccepted": true, "enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["p1"], "mcpServers": {"p2": {"command": "/bin/false"}}}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/false", "args": ["user"]}}, "projects": {"$DIR": {"hasTrustDialogAccepted": true}}}`, ""},
		{"{\"mcpServers\": {\"u1\": {\"command\": \"/bin/true\"}}, // a comment\n\"projects\": {}}", ""},
	}},
	{".mcp.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"}, "p2": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true", "timeout": 30000, "enabled": false, "tools": ["*"], "cwd": "sub"}, "p2": {"command": "/bin/true", "alwaysLoad": true}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"}, "pbad": {"url": "http://127.0.0.1:9/mcp"}, "pbad2": {"command": "/bin/true", "args": "a b"}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"}, "workspace": {"command": "/bin/true"}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"}, "pport": {"type": "http", "url": "http://127.0.0.1:${PORT}/mcp"}, "pdef": {"type": "http", "url": "http://127.0.0.1:${PORT:-9}/mcp"}}}`, ""},
		{`{"mcpServers": {"u1": {"command": "/bin/false", "args": ["project"]}, "p1": {"command": "/bin/true"}, "c1": {"command": "/bin/true"}}}`, ""},
		{`{"mcpServers": {"p1": {"type": "local", "command": "/bin/true"}, "p2": {"type": "stdio", "command": "/bin/true"}, "pempty": {"command": ""}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"},}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true", "timeout": "abc"}, "p2": {"type": "sse", "url": "http://127.0.0.1:9/sse", "headers": {"X": "${TOKEN}"}}}}`, ""},
		{`{"mcpServers": {"p1": {"command": "/bin/true"}, "zero": {"type": "http", "url": "http://127.0.0.1:9/mcp", "oauth": {"clientId": "c", "callbackPort": 0}}}}`, ""},
	}},
	{"sub/.mcp.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"p1": {"command": "/bin/false", "args": ["sub"]}, "s1": {"command": "/bin/true"}}}`, "sub"},
	}},
	{".claude/settings.json", []oracleOption{
		{"", ""},
		{`{"enabledMcpjsonServers": ["p1", "s1"]}`, ""},
		{`{"enableAllProjectMcpServers": true}`, ""},
	}},
	{".claude/settings.local.json", []oracleOption{
		{"", ""},
		{`{"enableAllProjectMcpServers": true}`, ""},
		{`{"enabledMcpjsonServers": ["p1", "pport", "workspace"]}`, ""},
		{`{"enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["p2"]}`, ""},
	}},
	{".github/mcp.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"g1": {"command": "/bin/true"}}}`, ""},
		{`{"mcpServers": {"g1": {"command": "/bin/true"}, "p1": {"command": "/bin/false", "args": ["github"]}, "gport": {"type": "http", "url": "http://localhost:${PORT}/mcp"}}}`, ""},
	}},
	{"home/.copilot/mcp-config.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"c1": {"command": "/bin/true"}, "p1": {"command": "/bin/false", "args": ["user"]}}}`, ""},
		{`{"mcpServers": {"c1": {"command": "/bin/true"}, "cbad": {"command": "/bin/true", "args": "a b"}, "curl": {"url": "http://127.0.0.1:9/mcp"}}}`, ""},
	}},
	{"home/.copilot/settings.json", []oracleOption{
		{"", ""},
		{`{"disabledMcpServers": ["c1", "p1"]}`, ""},
	}},
	{"home/.config/opencode/opencode.json", []oracleOption{
		{"", ""},
		{`{"mcp": {"o1": {"type": "local", "command": ["/bin/true"]}, "o2": {"type": "remote", "url": "http://127.0.0.1:9/mcp"}}}`, ""},
		{`{"mcp": {"o1": {"type": "local", "command": ["/bin/true"], "env": {"A": "b"}}, "odis": {"type": "local", "command": ["/bin/true"], "enabled": false}}}`, ""},
		{`{"mcp": {"o1": {"type": "local", "command": ["/bin/true"], "timeout": 0}}}`, ""},
	}},
	{"opencode.jsonc", []oracleOption{
		{"", ""},
		{`{"mcp": {"o3": {"type": "local", "command": ["/bin/true"], "environment": {"A": "b"}}}}`, ""},
		{`{"mcp": {"o1": {"type": "remote", "url": "http://127.0.0.1:9/mcp"}, "o4": {"type": "local", "command": ["/bin/true"], "bogus": 1}}}`, ""},
		{`{"mcp": {"o5": {"type": "local", "command": "/bin/true"}}}`, ""},
		{"{\n  // comment\n  \"mcp\": {\"o6\": {\"type\": \"local\", \"command\": [\"/bin/true\"], \"env\": {\"A\": \"b\"},},},\n}", ""},
	}},
	{"opencode.json", []oracleOption{
		{"", ""},
		{`{"mcp": {"o7": {"type": "local", "command": ["/bin/true"]}}`, ""},
		{`{"mcp": {"o1": {"enabled": false}, "o8": {"type": "remote", "url": "http://127.0.0.1:9/mcp", "oauth": false}}}`, ""},
	}},
	{"home/.gemini/settings.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"gm1": {"command": "/bin/false"}, "gm2": {"command": "/bin/true"}}, "mcp": {"excluded": ["gm2"]}}`, ""},
		{`{"mcpServers": {"gm1": {"command": "/bin/false", "bogusKey": 1}}}`, ""},
	}},
	{"home/.gemini/mcp-server-enablement.json", []oracleOption{
		{"", ""},
		{`{"GM1": {"enabled": false}}`, ""},
	}},
	{".gemini/settings.json", []oracleOption{
		{"", ""},
		{`{"mcpServers": {"gm1": {"args": ["x"]}, "gm3": {"httpUrl": "http://127.0.0.1:9/mcp"}}}`, ""},
		{`{"mcpServers": {"gm4": {"command": "/bin/false"},}}`, ""},
		{`{"mcpServers": {"gm5": {"url": "http://127.0.0.1:9/sse", "type": "sse"}}, "mcp": {"allowed": ["gm5", "gm1"]}}`, ""},
	}},
	{"home/.codex/config.toml", []oracleOption{
		{"", ""},
		{"[mcp_servers.cx1]\ncommand = \"/bin/true\"\n", ""},
		{"[mcp_servers.cx1]\ncommand = \"/bin/true\"\n\n[mcp_servers.cx2]\nurl = \"http://127.0.0.1:9/mcp\"\n\n[mcp_servers.cxoff]\ncommand = \"/bin/true\"\nenabled = false\n", ""},
	}},
	{".codex/config.toml", []oracleOption{
		{"", ""},
		{"[mcp_servers.cx3]\ncommand = \"/bin/false\"\nargs = [\"p\"]\n", ""},
		{"[mcp_servers.cx1]\nargs = \"a b\"\n", ""},
		{"[mcp_servers.cx2]\nenv_vars = [\"X\"]\n", ""},
		{"[mcp_servers.cx4]\ncommand = \"/bin/true\"\nbogus = 1\n", ""},
		{"[mcp_servers.cx1]\nenabled = false\n", ""},
	}},
}

// oracleGenerated are the generated workspaces: the same 40 on every run
// (a fixed seed per workspace), each holding about half of the files.
func oracleGenerated() []oracleCase {
	var out []oracleCase
	for i := 0; i < 40; i++ {
		r := rand.New(rand.NewPCG(10, uint64(i)))
		c := oracleCase{name: fmt.Sprintf("gen/%02d", i), files: map[string][]byte{}}
		for _, d := range oracleDims {
			if r.IntN(2) == 0 {
				continue
			}
			o := d.opts[1+r.IntN(len(d.opts)-1)]
			c.files[d.path] = []byte(o.data + "\n")
			if o.launch != "" {
				c.launch = o.launch
			}
		}
		if len(c.files) == 0 {
			c.files[".mcp.json"] = []byte(oracleDims[1].opts[1].data + "\n")
		}
		out = append(out, c)
	}
	return out
}

var (
	// A string value of a key that names a program (command, args[0] of
	// OpenCode's command, headersHelper, a hook's command...).
	sanJSONStr = regexp.MustCompile(`("[A-Za-z_]*(?:[Cc]ommand|[Hh]elper|[Rr]efresh|[Ee]xport)"\s*:\s*)("(?:[^"\\]|\\.)*")`)
	sanJSONArr = regexp.MustCompile(`("[A-Za-z_]*(?:[Cc]ommand|[Hh]elper)"\s*:\s*\[\s*)("(?:[^"\\]|\\.)*")`)
	sanTOML    = regexp.MustCompile(`(\b[A-Za-z_]*command\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*')`)
	sanURL     = regexp.MustCompile(`(?i)\b(https?|wss?)://([^/"'\s?#,}\]\\]*)`)
	// What the sanitizer cannot vouch for: a program key followed by
	// anything but a string or a list (a comment, say), Codex's notify,
	// Gemini's tcp transport.
	sanKey    = regexp.MustCompile(`(?i)("[a-z_]*(?:command|helper|refresh|export)"\s*:\s*|\b[a-z_]*command\s*=\s*)(.)`)
	sanRefuse = regexp.MustCompile(`(?i)\bnotify\b|"tcp"\s*:`)
)

// oracleSanitizeAll makes every file harmless (oracleSanitize).
func oracleSanitizeAll(files map[string][]byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, data := range files {
		s, err := oracleSanitize(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out[name] = []byte(s)
	}
	return out, nil
}

// oracleSanitize rewrites every program to /bin/true (/bin/false and ""
// stay) and every URL's host to 127.0.0.1:9 (a loopback host with a
// variable port stays), keeping the rest of the text byte for byte so
// that syntax errors stay. Text it cannot vouch for is an error.
func oracleSanitize(s string) (string, error) {
	prog := func(re *regexp.Regexp) {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			sub := re.FindStringSubmatch(m)
			v := strings.Trim(sub[2], `"'`)
			if v == "/bin/true" || v == "/bin/false" || v == "" {
				return m
			}
			return sub[1] + `"/bin/true"`
		})
	}
	prog(sanJSONStr)
	prog(sanJSONArr)
	prog(sanTOML)
	s = sanURL.ReplaceAllStringFunc(s, func(m string) string {
		sub := sanURL.FindStringSubmatch(m)
		auth := sub[2]
		if i := strings.LastIndex(auth, "@"); i >= 0 {
			auth = auth[i+1:]
		}
		host, port, _ := strings.Cut(auth, ":")
		if (host == "127.0.0.1" || host == "localhost") && (port == "9" || strings.ContainsAny(port, "${")) {
			return sub[1] + "://" + auth
		}
		return sub[1] + "://127.0.0.1:9"
	})
	if m := sanRefuse.FindString(s); m != "" {
		return "", fmt.Errorf("refused: %q", m)
	}
	for _, m := range sanKey.FindAllStringSubmatchIndex(s, -1) {
		next := s[m[4]:m[5]]
		if next == "{" || next == "[" || next == `"` || next == "'" || strings.ContainsAny(next, "0123456789-tfn") {
			continue
		}
		return "", fmt.Errorf("refused: a program key followed by %q", next)
	}
	return s, nil
}
