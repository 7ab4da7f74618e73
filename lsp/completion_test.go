package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

func (c *testClient) complete(uri protocol.DocumentURI, p protocol.Position) *protocol.CompletionList {
	c.t.Helper()
	var list *protocol.CompletionList
	err := c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: p,
	}}, &list)
	if err != nil {
		c.t.Fatalf("completion: %v", err)
	}
	if list == nil {
		c.t.Fatal("completion returned null")
	}
	return list
}

// TestCompletionOverPipe: a half-typed key after a non-ASCII server name
// (UTF-16 columns, CRLF lines) gets the server's fields as snippets; the
// value of "type" gets the transports; elsewhere the list is empty.
func TestCompletionOverPipe(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	mcp := filepath.Join(proj, ".mcp.json")
	text := "{\r\n  \"mcpServers\": {\r\n    \"𝔣s\": {\"co\r\n"
	if err := os.WriteFile(mcp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	var res protocol.InitializeResult
	err := c.call(protocol.MethodInitialize, protocol.InitializeParams{
		Capabilities: protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
			Completion: &protocol.CompletionTextDocumentClientCapabilities{
				CompletionItem: &protocol.CompletionTextDocumentClientCapabilitiesItem{SnippetSupport: true},
			},
		}},
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(pathToURI(proj)), Name: "proj"}},
	}, &res)
	if err != nil {
		t.Fatal(err)
	}
	if res.Capabilities.CompletionProvider == nil {
		t.Fatal("no completionProvider capability")
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
	uri := c.open(mcp, text)

	// Line 2 is `    "𝔣s": {"co`: 𝔣 is two UTF-16 units, so "co ends at 15.
	list := c.complete(uri, pos(2, 15))
	var cmd *protocol.CompletionItem
	for i := range list.Items {
		if list.Items[i].Label == "command" {
			cmd = &list.Items[i]
		}
	}
	if cmd == nil {
		t.Fatalf("no command in %+v", list.Items)
	}
	wantRange := protocol.Range{Start: pos(2, 12), End: pos(2, 15)}
	if cmd.TextEdit == nil || cmd.TextEdit.Range != wantRange || cmd.TextEdit.NewText != `"command": $0` ||
		cmd.InsertTextFormat != protocol.InsertTextFormatSnippet || cmd.Kind != protocol.CompletionItemKindProperty {
		t.Errorf("command item = %+v (edit %+v)", cmd, cmd.TextEdit)
	}

	// Complete the file to a "type" value.
	full := "{\r\n  \"mcpServers\": {\r\n    \"𝔣s\": {\"type\": \"\"}\r\n  }\r\n}\r\n"
	c.change(uri, nil, full)
	list = c.complete(uri, pos(2, 21)) // between the quotes of ""
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
		if it.Kind != protocol.CompletionItemKindEnumMember {
			t.Errorf("%s kind %v", it.Label, it.Kind)
		}
	}
	if got := strings.Join(labels, " "); !strings.HasPrefix(got, `"stdio" "sse" "http"`) || !strings.Contains(got, `"local"`) {
		t.Errorf("type values = %s", got)
	}
	if !list.Items[0].Preselect {
		t.Error("the first common value should be preselected")
	}

	// Outside any server entry: an empty list, not null.
	if list := c.complete(uri, pos(0, 0)); len(list.Items) != 0 || list.IsIncomplete {
		t.Errorf("outside an entry: %+v", list)
	}
}

// TestCompletionCodexTOML: in a project's .codex/config.toml over the
// pipe, an empty line under [mcp_servers.<name>] (a non-ASCII name, CRLF
// lines) gets the fields of a url server as `key = ` snippets, and the
// value of enabled gets true and false.
func TestCompletionCodexTOML(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(proj, ".codex", "config.toml")
	text := "[mcp_servers.\"𝔴eb\"]\r\nurl = \"https://x.example/mcp\"\r\nbear\r\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	var res protocol.InitializeResult
	err := c.call(protocol.MethodInitialize, protocol.InitializeParams{
		Capabilities: protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{
			Completion: &protocol.CompletionTextDocumentClientCapabilities{
				CompletionItem: &protocol.CompletionTextDocumentClientCapabilitiesItem{SnippetSupport: true},
			},
		}},
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(pathToURI(proj)), Name: "proj"}},
	}, &res)
	if err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
	uri := c.open(path, text)

	list := c.complete(uri, pos(2, 4)) // after "bear"
	var item *protocol.CompletionItem
	for i := range list.Items {
		if list.Items[i].Label == "bearer_token_env_var" {
			item = &list.Items[i]
		}
		if l := list.Items[i].Label; l == "command" || l == "env_vars" || l == "url" {
			t.Errorf("%s offered on a url server", l)
		}
	}
	if item == nil {
		t.Fatalf("no bearer_token_env_var in %+v", list.Items)
	}
	if want := (protocol.Range{Start: pos(2, 0), End: pos(2, 4)}); item.TextEdit == nil || item.TextEdit.Range != want ||
		item.TextEdit.NewText != "bearer_token_env_var = $0" || item.InsertTextFormat != protocol.InsertTextFormatSnippet {
		t.Errorf("item = %+v (edit %+v)", item, item.TextEdit)
	}

	c.change(uri, nil, "[mcp_servers.\"𝔴eb\"]\r\nurl = \"https://x.example/mcp\"\r\nenabled = \r\n")
	list = c.complete(uri, pos(2, 10))
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label+"="+it.TextEdit.NewText)
	}
	if got := strings.Join(labels, " "); got != "true=true false=false" {
		t.Errorf("enabled values: %s", got)
	}
}
