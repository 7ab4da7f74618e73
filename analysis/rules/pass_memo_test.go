package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestServersJudgedAloneAsInALargeFile: what the schema and semantic
// checks keep for a pass (commonTypes, commonType) or reuse from one
// server to the next (the verdicts' scratch, the semantic entry) must
// not carry one server's answer over to another. Every server of a large file, made of
// shapes and type spellings that differ in what those answers depend on
// (readers, type, url or command), gets the findings it gets alone in a
// file, moved to where it is.
func TestServersJudgedAloneAsInALargeFile(t *testing.T) {
	k, ok := registry.Default().Kind("mcp-json")
	if !ok {
		t.Fatal("no mcp-json kind")
	}
	bodies := []string{
		`{"type": "http", "url": "https://a.example/mcp"}`,
		`{"type": "local", "command": "npx", "args": ["-y", "x"]}`,
		`{"type": "http", "command": "npx"}`,
		`{"type": "sse", "url": "https://b.example/sse"}`,
		`{"type": "streamable-http", "url": "https://c.example/mcp"}`,
		`{"type": "HTTP", "url": "https://d.example/mcp"}`,
		`{"type": "ws", "url": "wss://e.example/mcp"}`,
		`{"type": "remote", "url": "https://f.example/mcp"}`,
		`{"type": "stdio", "command": "uvx", "args": ["pkg"]}`,
		`{"type": "bogus", "url": "https://g.example/mcp"}`,
		`{"type": "local", "url": "https://h.example/mcp"}`,
		`{"command": 1}`,
		`{"command": "npx", "args": "not-an-array", "env": {"A": 1}}`,
		`{"type": "http", "url": 5, "headers": []}`,
		`{"command": "x", "foo": true, "transport": "stdio"}`,
		`{"type": "stdio", "command": "npx", "args": ["-y", "@a/b"], "cwd": 3}`,
	}
	// Many servers, so that the file's first analysis splits them across
	// both cores (judgeEntries), each body more than once and in an
	// order that puts different shapes next to each other.
	var servers []string
	for i := 0; i < 600; i++ {
		servers = append(servers, bodies[(i*7+i/len(bodies))%len(bodies)])
	}
	const head = "{\n  \"mcpServers\": {\n"
	var b strings.Builder
	b.WriteString(head)
	starts := make([]int, len(servers))
	for i, body := range servers {
		if i > 0 {
			b.WriteString(",\n")
		}
		starts[i] = b.Len()
		fmt.Fprintf(&b, "    \"s%03d\": %s", i, body)
	}
	b.WriteString("\n  }\n}\n")
	src := []byte(b.String())
	if len(src) < asideSize {
		t.Fatalf("the file is %d bytes, too small to be split (%d)", len(src), asideSize)
	}
	all := AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: src, Parsed: jsonc.Parse(src), Kind: k, Cache: NewCache()})
	byServer := make([][]Diagnostic, len(servers))
	for _, d := range all {
		i := len(starts) - 1
		for i > 0 && starts[i] > d.Span.Start {
			i--
		}
		byServer[i] = append(byServer[i], d)
	}
	typeFindings := 0
	for i, body := range servers {
		one := []byte(head + fmt.Sprintf("    \"s%03d\": %s", i, body) + "\n  }\n}\n")
		alone := AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: one, Parsed: jsonc.Parse(one), Kind: k, Cache: NewCache()})
		shift := starts[i] - len(head)
		var want []string
		for _, d := range alone {
			want = append(want, fmt.Sprintf("%d-%d %s %s", d.Span.Start+shift, d.Span.End+shift, d.Code, d.Message))
			if d.Code == CodeTypeNotAccepted {
				typeFindings++
			}
		}
		var got []string
		for _, d := range byServer[i] {
			got = append(got, fmt.Sprintf("%d-%d %s %s", d.Span.Start, d.Span.End, d.Code, d.Message))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("server %d %s:\nin the file:\n%s\nalone:\n%s", i, body, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if typeFindings < 100 {
		t.Errorf("only %d type-not-accepted findings: the shapes do not exercise commonType", typeFindings)
	}
}
