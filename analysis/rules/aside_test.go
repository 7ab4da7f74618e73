package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestProjectRulesAsideSameFindings: the project rules run on another
// core for a large file (projectRulesAside), with the same findings in the
// same order as when they run in line, on a file where they find plenty
// (home paths, credentials over http, templates, approvals, unpinned
// packages) beside the other checks' findings. Run it with -race too.
func TestProjectRulesAsideSameFindings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `"s%d": {"command": "npx", "args": ["-y", "@x/p%d", "/home/ann/x"], "env": {"K": "v"}}`, i, i)
		case 1:
			fmt.Fprintf(&b, `"s%d": {"type": "http", "url": "http://h%d.example.com/mcp", "headers": {"Authorization": "Bearer abc"}}`, i, i)
		case 2:
			fmt.Fprintf(&b, `"s%d": {"command": "uvx", "args": "bad"}`, i)
		case 3:
			fmt.Fprintf(&b, `"s%d": {"command": "node", "args": ["{{x}}"], "autoApprove": ["*"]}`, i)
		}
	}
	b.WriteString("}}")
	src := []byte(b.String())
	k, _ := registry.Default().Kind("mcp-json")
	run := func() []Diagnostic {
		return AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: src, Parsed: jsonc.Parse(src), Kind: k, Cache: NewCache()})
	}
	defer func(saved int) { asideSize = saved }(asideSize)
	asideSize = 1 << 40
	want := run()
	asideSize = 1
	got := run()
	codes := map[string]bool{}
	for _, d := range got {
		codes[d.Code] = true
	}
	for _, c := range []string{CodeHomeDirectoryPath, CodeUnpinnedPackage, CodeTemplateLeft} {
		if !codes[c] {
			t.Errorf("no %s among the findings: the test file no longer exercises the project rules", c)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the findings differ when the project rules run aside: %d findings, %d in line", len(got), len(want))
	}
}

// TestMayNameHome: the quick test before homeDir never says no to a
// string homeDir matches.
func TestMayNameHome(t *testing.T) {
	for _, s := range []string{"/home/ann/x", "--root=/HOME/bob/", `C:\Users\ann\x`, "c:/users/ann/", "x /Users/ann/y", "/home", "nothing here", "homeless", ""} {
		if homeDir.MatchString(s) && !mayNameHome(s) {
			t.Errorf("mayNameHome(%q) is false but homeDir matches", s)
		}
	}
	if mayNameHome("npx -y @example/server") {
		t.Errorf("mayNameHome is true for a string without home or users")
	}
}
