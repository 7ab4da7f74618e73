package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// githubCommandLine is one workflow command as the Actions runner reads
// it (actions/runner, ActionCommand.TryParseV2): "::name k=v,k=v::data",
// properties split on "," and each on its first "=", then unescaped.
type githubCommandLine struct {
	name  string
	props map[string]string
	data  string
}

func parseGitHubCommand(t *testing.T, line string) githubCommandLine {
	t.Helper()
	rest, ok := strings.CutPrefix(line, "::")
	head, data, ok2 := strings.Cut(rest, "::")
	if !ok || !ok2 {
		t.Fatalf("not a workflow command: %q", line)
	}
	name, props, _ := strings.Cut(head, " ")
	c := githubCommandLine{name: name, props: map[string]string{}, data: unescapeGitHub(data, false)}
	for _, kv := range strings.Split(props, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("property without '=' in %q", line)
		}
		c.props[k] = unescapeGitHub(v, true)
	}
	return c
}

// unescapeGitHub is the runner's unescaping, "%25" last.
func unescapeGitHub(s string, property bool) string {
	pairs := []string{"%0D", "\r", "%0A", "\n"}
	if property {
		pairs = append(pairs, "%3A", ":", "%2C", ",")
	}
	return strings.NewReplacer(append(pairs, "%25", "%")...).Replace(s)
}

// TestGitHubEscaping: every character the runner treats specially comes
// out escaped, and reads back as written; nothing else is touched.
func TestGitHubEscaping(t *testing.T) {
	t.Chdir(t.TempDir())
	msg := "100% sure: a, b\r\nsecond line %0A not a newline ::warning::injected"
	results := []checkResult{
		{Path: filepath.Join("we:ird,dir%", ".mcp.json"), Severity: "error", Code: "syntax-error", Message: msg,
			Range: protocol.Range{Start: protocol.Position{Line: 0, Character: 4}, End: protocol.Position{Line: 2, Character: 0}}},
		{Path: ".mcp.json", Severity: "warning", Code: "literal-secret", Message: "plain"},
		{Path: ".mcp.json", Severity: "info", Code: "file-not-read-by", Message: "i"},
		{Path: ".mcp.json", Severity: "hint", Code: "empty-server-map", Message: "h"},
	}
	var out bytes.Buffer
	if err := writeGitHub(&out, results); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		"::error file=we%3Aird%2Cdir%25/.mcp.json,line=1,col=5,endLine=3,endColumn=1,title=syntax-error::100%25 sure: a, b%0D%0Asecond line %250A not a newline ::warning::injected",
		"::warning file=.mcp.json,line=1,col=1,endLine=1,endColumn=1,title=literal-secret::plain",
		"::notice file=.mcp.json,line=1,col=1,endLine=1,endColumn=1,title=file-not-read-by::i",
		"::notice file=.mcp.json,line=1,col=1,endLine=1,endColumn=1,title=empty-server-map::h",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
	// The runner gets back exactly what was meant; the "::" inside the
	// message is data, not a second command.
	c := parseGitHubCommand(t, lines[0])
	if c.name != "error" || c.data != msg || c.props["file"] != "we:ird,dir%/.mcp.json" || c.props["title"] != "syntax-error" || len(c.props) != 6 {
		t.Errorf("read back: %+v", c)
	}
}

// TestGitHubFormatEndToEnd runs `check --format github` on a CRLF file
// with non-ASCII server names, in a directory whose name needs escaping,
// and reads each line back as the runner would: positions in 1-based
// UTF-16 columns, levels by severity, the rule code as title.
func TestGitHubFormatEndToEnd(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	dir := writeTree(t, map[string]string{
		"a,b:c%/.mcp.json": "{\r\n  \"mcpServers\": {\r\n    \"😀é\": {\"type\": \"local\", \"command\": \"x\"},\r\n" +
			"    \"a%b:c,d\": {\"type\": \"http\", \"url\": \"https://api.example.com\", \"headers\": {\"Authorization\": \"Bearer " + secret + "\"}}\r\n  }\r\n}\r\n",
	})
	t.Chdir(dir)
	out, errOut, code := runCLI(t, "check", "--format", "github", ".")
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr %s", code, errOut)
	}
	if strings.Contains(out, secret) {
		t.Errorf("the secret was printed")
	}
	got := map[string]githubCommandLine{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		c := parseGitHubCommand(t, line)
		if c.props["file"] != "a,b:c%/.mcp.json" {
			t.Errorf("file %q in %q", c.props["file"], line)
		}
		got[c.props["title"]] = c
	}
	typ, ok := got["type-not-accepted"]
	if !ok {
		t.Fatalf("no type-not-accepted annotation:\n%s", out)
	}
	// "\"local\"" is at UTF-16 columns 21-28 of line 3 (bytes 24-31).
	if typ.name != "error" || typ.props["line"] != "3" || typ.props["col"] != "21" || typ.props["endLine"] != "3" || typ.props["endColumn"] != "28" {
		t.Errorf("type-not-accepted: %+v", typ)
	}
	sec, ok := got["literal-secret"]
	if !ok || sec.name != "warning" || !strings.Contains(sec.data, `"a%b:c,d"`) || sec.props["line"] != "4" {
		t.Errorf("literal-secret: %+v\n%s", sec, out)
	}
}
