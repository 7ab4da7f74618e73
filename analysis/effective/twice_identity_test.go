package effective

import (
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

// TestIdentityComparesValues: two servers have one identity exactly when
// their identity fields hold equal JSON values, whatever the key order,
// with the last of a repeated key counting; OpenCode's command array is
// its program and arguments; a server with neither command nor URL has
// none.
func TestIdentityComparesValues(t *testing.T) {
	id := func(src string) string {
		f := jsonc.Parse([]byte(src))
		var fields []Field
		for i, m := range f.Root.Members() {
			fields = append(fields, Field{Key: m.Key.Str, at: int32(i)})
		}
		return identityOf(fields, func(x Field) *jsonc.Node { return f.Root.Members()[x.at].Value })
	}
	same := [][2]string{
		{`{"command":"npx","args":["-y","a"],"env":{"A":"1","B":"2"}}`, `{"env":{"B":"2","A":"1"},"args":["-y","a"],"command":"npx"}`},
		{`{"command":"npx","env":{"A":"0","A":"1"}}`, `{"command":"npx","env":{"A":"1"}}`},
		{`{"command":["npx","-y","a"]}`, `{"command":["npx"],"args":["-y","a"]}`},
		{`{"command":["npx","-y"],"args":["a"]}`, `{"command":["npx","-y","a"]}`},
		{`{"url":"https://x","headers":{"k":"v"}}`, `{"headers":{"k":"v"},"url":"https://x"}`},
		{`{"command":"npx","description":"ignored"}`, `{"command":"npx"}`},
	}
	for _, p := range same {
		if a, b := id(p[0]), id(p[1]); a != b || a == "" {
			t.Errorf("%s and %s: identities %q and %q, want one", p[0], p[1], a, b)
		}
	}
	differ := [][2]string{
		{`{"command":"npx","args":["a b"]}`, `{"command":"npx","args":["a","b"]}`},
		{`{"command":"npx","args":["1"]}`, `{"command":"npx","args":[1]}`},
		{`{"command":"npx","env":{"A":"1"}}`, `{"command":"npx","env":{"A":"2"}}`},
		{`{"url":"https://x","headers":{"k":"v"}}`, `{"url":"https://x"}`},
		{`{"command":"npx","cwd":"/a"}`, `{"command":"npx"}`},
	}
	for _, p := range differ {
		if a, b := id(p[0]), id(p[1]); a == b {
			t.Errorf("%s and %s: one identity %q, want two", p[0], p[1], a)
		}
	}
	if got := id(`{"url":null,"env":{}}`); got != "" {
		t.Errorf("no command nor URL: identity %q, want none", got)
	}
	if got := id(`{"url":"https://x"}`); got == "" || strings.Contains(got, "command:") {
		t.Errorf("a remote server's identity %q", got)
	}
	if got := id(`{"command":"npx"}`); !strings.Contains(got, "command:") {
		t.Errorf("a local server's identity %q lacks its command", got)
	}
}

// TestIdentityIndexes: the named indexes identityOf uses name the fields
// they stand for.
func TestIdentityIndexes(t *testing.T) {
	for i, want := range map[int]string{idCommand: "command", idArgs: "args", idURL: "url", idHTTPURL: "httpUrl", idServerURL: "serverUrl"} {
		if identityFields[i] != want {
			t.Errorf("identityFields[%d] = %q, want %q", i, identityFields[i], want)
		}
	}
}
