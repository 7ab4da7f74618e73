package fix

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
)

func TestSetJSON(t *testing.T) {
	entry := convert.Object{{Key: "command", Value: "py"}, {Key: "args", Value: []any{"a"}}}
	tests := []struct {
		name string
		in   string
		path []string
		v    any
		want string
	}{
		{
			name: "new file",
			in:   "",
			path: []string{"mcpServers", "s"},
			v:    entry,
			want: "{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"py\",\n      \"args\": [\n        \"a\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "into an existing map, comments and other keys kept",
			in:   "{\n  // the model\n  \"model\": \"x\",\n  \"mcp\": {\n    \"a\": {\"type\": \"local\"} // keep me\n  }\n}\n",
			path: []string{"mcp", "s"},
			v:    convert.Object{{Key: "type", Value: "local"}},
			want: "{\n  // the model\n  \"model\": \"x\",\n  \"mcp\": {\n    \"a\": {\"type\": \"local\"}, // keep me\n    \"s\": {\n      \"type\": \"local\"\n    }\n  }\n}\n",
		},
		{
			name: "map created, CRLF and tabs kept",
			in:   "{\r\n\t\"$schema\": \"x\"\r\n}\r\n",
			path: []string{"mcp", "s"},
			v:    convert.Object{{Key: "enabled", Value: false}},
			want: "{\r\n\t\"$schema\": \"x\",\r\n\t\"mcp\": {\r\n\t\t\"s\": {\r\n\t\t\t\"enabled\": false\r\n\t\t}\r\n\t}\r\n}\r\n",
		},
		{
			name: "equal value: byte for byte",
			in:   "{ \"mcpServers\": { \"s\": { \"command\" : \"py\", \"args\": [\"a\"] } } }",
			path: []string{"mcpServers", "s"},
			v:    entry,
			want: "{ \"mcpServers\": { \"s\": { \"command\" : \"py\", \"args\": [\"a\"] } } }",
		},
		{
			name: "merged: a comment inside the entry stays, a gone key goes",
			in:   "{\n  \"mcpServers\": {\n    \"s\": {\n      // why py\n      \"command\": \"old\",\n      \"env\": {}\n    }\n  }\n}\n",
			path: []string{"mcpServers", "s"},
			v:    entry,
			want: "{\n  \"mcpServers\": {\n    \"s\": {\n      // why py\n      \"command\": \"py\",\n      \"args\": [\n        \"a\"\n      ]\n    }\n  }\n}\n",
		},
		{
			name: "scalar replaced in place",
			in:   "{\"mcp\": {\"s\": {\"enabled\": true, \"type\": \"local\"}}}",
			path: []string{"mcp", "s", "enabled"},
			v:    false,
			want: "{\"mcp\": {\"s\": {\"enabled\": false, \"type\": \"local\"}}}",
		},
		{
			name: "byte order mark kept",
			in:   "\ufeff{}",
			path: []string{"a"},
			v:    true,
			want: "\ufeff{\n  \"a\": true\n}",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SetJSON([]byte(tc.in), tc.path, tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			again, err := SetJSON(got, tc.path, tc.v)
			if err != nil || string(again) != string(got) {
				t.Errorf("second set changed the file: %q, %v", again, err)
			}
		})
	}
}

func TestSetJSONRefusesBrokenFiles(t *testing.T) {
	for _, in := range []string{`{"mcpServers": {`, `{"a": 1,, }`, `[1]`} {
		if _, err := SetJSON([]byte(in), []string{"mcpServers", "s"}, true); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	_, err := SetJSON([]byte(`{"a": }`), []string{"a"}, true)
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("err = %v, want ErrSyntax", err)
	}
	if _, err := SetJSON([]byte(`{"a": 1}`), []string{"a", "b"}, true); err == nil {
		t.Error("setting inside a number: no error")
	}
}

func TestRemoveJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\n  \"mcp\": {\n    \"a\": 1,\n    \"s\": {\n      \"x\": 1\n    }\n  }\n}\n", "{\n  \"mcp\": {\n    \"a\": 1\n  }\n}\n"},
		{"{\"mcp\": {\"s\": 1, \"s\": 2, \"b\": 3}}", "{\"mcp\": {\"b\": 3}}"},
		{"{\"mcp\": {\"b\": 3}}", "{\"mcp\": {\"b\": 3}}"},
		{"{\r\n  \"mcp\": {\r\n    \"s\": 1, // gone\r\n    \"b\": 2 // kept\r\n  }\r\n}", "{\r\n  \"mcp\": {\r\n    // gone\r\n    \"b\": 2 // kept\r\n  }\r\n}"},
	}
	for _, tc := range tests {
		got, err := RemoveJSON([]byte(tc.in), []string{"mcp", "s"})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestJSONLists(t *testing.T) {
	path := []string{"mcp", "excluded"}
	tests := []struct{ in, add, remove string }{
		{
			in:     "{}",
			add:    "{\n  \"mcp\": {\n    \"excluded\": [\n      \"s\"\n    ]\n  }\n}",
			remove: "{\n  \"mcp\": {\n    \"excluded\": []\n  }\n}",
		},
		{
			in:     "{\"mcp\": {\"excluded\": [\"a\"]}}",
			add:    "{\"mcp\": {\"excluded\": [\"a\", \"s\"]}}",
			remove: "{\"mcp\": {\"excluded\": [\"a\"]}}",
		},
		{
			in:     "{\n  \"mcp\": {\n    \"excluded\": [\n      \"a\", // why\n    ]\n  }\n}",
			add:    "{\n  \"mcp\": {\n    \"excluded\": [\n      \"a\", // why\n      \"s\",\n    ]\n  }\n}",
			remove: "{\n  \"mcp\": {\n    \"excluded\": [\n      \"a\", // why\n    ]\n  }\n}",
		},
	}
	for _, tc := range tests {
		added, err := AddToJSONList([]byte(tc.in), path, "s")
		if err != nil {
			t.Fatal(err)
		}
		if string(added) != tc.add {
			t.Errorf("add to %q:\ngot  %q\nwant %q", tc.in, added, tc.add)
		}
		if again, _ := AddToJSONList(added, path, "s"); string(again) != string(added) {
			t.Errorf("second add changed %q", added)
		}
		removed, err := RemoveFromJSONList(added, path, "s")
		if err != nil {
			t.Fatal(err)
		}
		if string(removed) != tc.remove {
			t.Errorf("remove from %q:\ngot  %q\nwant %q", added, removed, tc.remove)
		}
		if f := jsonc.Parse(removed); len(f.Errors) > 0 {
			t.Errorf("%q does not parse", removed)
		}
	}
	if got, _ := JSONList([]byte(`{"mcp": {"excluded": ["a", "b"]}}`), path); strings.Join(got, ",") != "a,b" {
		t.Errorf("JSONList = %q", got)
	}
}

func TestDiffEdits(t *testing.T) {
	old, new := []byte("{\"a\": 1, \"b\": 2}"), []byte("{\"a\": 1, \"b\": 3}")
	edits := DiffEdits("f", old, new)
	got, err := Apply(old, edits)
	if err != nil || string(got) != string(new) || len(edits) != 1 || edits[0].NewText != "3" {
		t.Errorf("edits %v give %q, %v", edits, got, err)
	}
	if DiffEdits("f", old, old) != nil {
		t.Error("equal contents gave edits")
	}
}

func TestTOMLKeys(t *testing.T) {
	in := "model = \"x\"\r\n\r\n# the file server\r\n[mcp_servers.fs]\r\ncommand = \"npx\" # why\r\nargs = [\"a\"]\r\n\r\n[mcp_servers.fs.env]\r\nA = \"1\"\r\n"
	path := []string{"mcp_servers", "fs"}
	off, err := SetTOMLKey([]byte(in), path, "enabled", "false")
	if err != nil {
		t.Fatal(err)
	}
	want := "model = \"x\"\r\n\r\n# the file server\r\n[mcp_servers.fs]\r\ncommand = \"npx\" # why\r\nargs = [\"a\"]\r\nenabled = false\r\n\r\n[mcp_servers.fs.env]\r\nA = \"1\"\r\n"
	if string(off) != want {
		t.Errorf("set:\ngot  %q\nwant %q", off, want)
	}
	on, err := SetTOMLKey(off, path, "enabled", "true")
	if err != nil || !strings.Contains(string(on), "enabled = true\r\n") {
		t.Errorf("replace: %q %v", on, err)
	}
	back, err := RemoveTOMLKey(off, path, "enabled")
	if err != nil || string(back) != in {
		t.Errorf("remove:\ngot  %q\nwant %q (%v)", back, in, err)
	}
	if _, err := SetTOMLKey([]byte("mcp_servers.fs = { command = \"x\" }\n"), path, "enabled", "false"); err == nil {
		t.Error("inline table: no error")
	}
	if _, err := SetTOMLKey([]byte("[mcp_servers.fs\n"), path, "enabled", "false"); !errors.Is(err, ErrSyntax) {
		t.Errorf("broken file: %v", err)
	}
}

func TestTOMLTables(t *testing.T) {
	in := "# Codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n[mcp_servers.a.env]\nX = \"1\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
	path := []string{"mcp_servers", "a"}
	got, err := SetTOMLTable([]byte(in), path, []byte("[mcp_servers.a]\ncommand = \"b\"\n"))
	want := "# Codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"b\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
	if err != nil || string(got) != want {
		t.Errorf("replace:\ngot  %q\nwant %q (%v)", got, want, err)
	}
	added, err := SetTOMLTable(got, []string{"mcp_servers", "c"}, []byte("[mcp_servers.c]\ncommand = \"c\"\n"))
	if err != nil || string(added) != want+"\n[mcp_servers.c]\ncommand = \"c\"\n" {
		t.Errorf("append: %q %v", added, err)
	}
	removed, err := RemoveTOMLTable(added, []string{"mcp_servers", "c"})
	if err != nil || string(removed) != want+"\n" {
		t.Errorf("remove: %q %v", removed, err)
	}
	removed, err = RemoveTOMLTable([]byte(in), path)
	if err != nil || string(removed) != "# Codex\nmodel = \"o3\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n" {
		t.Errorf("remove with sub-table: %q %v", removed, err)
	}
	if _, err := SetTOMLTable([]byte("[mcp_servers]\na = { command = \"x\" }\n"), path, []byte("[mcp_servers.a]\n")); err == nil {
		t.Error("inline table replaced")
	}
}
