package toml

import (
	"strings"
	"testing"
)

// TestRenameKey: every place a TOML document names a table is renamed,
// in each shape Codex CLI's config.toml may use, and nothing else.
func TestRenameKey(t *testing.T) {
	path := []string{"mcp_servers", "fs"}
	for _, tc := range []struct {
		name, src, newName, want string
	}{
		{"header and sub-table", "[mcp_servers.fs]\ncommand = \"npx\"\n\n[mcp_servers.fs.env]\nA = \"1\"\n\n[mcp_servers.other]\ncommand = \"fs\"\n",
			"files", "[mcp_servers.files]\ncommand = \"npx\"\n\n[mcp_servers.files.env]\nA = \"1\"\n\n[mcp_servers.other]\ncommand = \"fs\"\n"},
		{"dotted keys at the root", "mcp_servers.fs.command = \"npx\"\nmcp_servers.fs.args = [\"-y\"]\n",
			"files", "mcp_servers.files.command = \"npx\"\nmcp_servers.files.args = [\"-y\"]\n"},
		{"dotted keys in the map's table", "[mcp_servers]\nfs.command = \"npx\"\nfs.env.A = \"1\"\n",
			"files", "[mcp_servers]\nfiles.command = \"npx\"\nfiles.env.A = \"1\"\n"},
		{"inline", "mcp_servers = { fs = { command = \"npx\" }, b = { command = \"fs\" } }\n",
			"files", "mcp_servers = { files = { command = \"npx\" }, b = { command = \"fs\" } }\n"},
		{"quoted segments, non-ASCII name, CRLF", "# ü comment\r\n[\"mcp_servers\".\"fs\"]\r\ncommand = \"npx\"\r\n[mcp_servers.'fs'.env]\r\nA = \"1\"\r\n",
			"fïlès ü", "# ü comment\r\n[\"mcp_servers\".\"fïlès ü\"]\r\ncommand = \"npx\"\r\n[mcp_servers.\"fïlès ü\".env]\r\nA = \"1\"\r\n"},
		{"name needing escapes", "[mcp_servers.fs]\ncommand = \"npx\"\n",
			`a"b\c`, "[mcp_servers.\"a\\\"b\\\\c\"]\ncommand = \"npx\"\n"},
		{"BOM", "\uFEFF[mcp_servers.fs]\ncommand = \"npx\"\n", "files", "\uFEFF[mcp_servers.files]\ncommand = \"npx\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edits, err := RenameKey([]byte(tc.src), path, tc.newName)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(applyKeyEdits([]byte(tc.src), edits)); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestRenameKeyRefuses(t *testing.T) {
	path := []string{"mcp_servers", "fs"}
	for _, tc := range []struct {
		name, src, newName, want string
	}{
		{"syntax error", "[mcp_servers.fs]\ncommand = \n", "files", "not valid TOML"},
		{"name taken", "[mcp_servers.fs]\ncommand = \"a\"\n[mcp_servers.files]\ncommand = \"b\"\n", "files", "break the file"},
		{"not named", "[mcp_servers.other]\ncommand = \"a\"\n", "files", "not named"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RenameKey([]byte(tc.src), path, tc.newName)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
