package fix

import (
	"encoding/json"
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
	// Two changes lines apart: two edits, each of the bytes that differ;
	// the lines between are not rewritten.
	o := []byte("[a]\r\nx = 1 # one\r\n# keep\r\ny = 2\r\n\r\n[a.env]\r\nK = \"v\"\r\n")
	n := []byte("[a]\r\nx = 3 # one\r\n# keep\r\ny = 2\r\n\r\n[a.env]\r\nK = \"v\"\r\nL = \"w\"\r\n")
	edits = DiffEdits("f", o, n)
	got, err = Apply(o, edits)
	if err != nil || string(got) != string(n) || len(edits) != 2 || edits[0].NewText != "3" || edits[1].NewText != "L = \"w\"\r\n" {
		t.Errorf("edits %q give %q, %v", edits, got, err)
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

// obj builds a convert.Object from key, value pairs.
func obj(kv ...any) convert.Object {
	var o convert.Object
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, convert.Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

// TestSetTOMLEditsInPlace: a server table of Codex CLI's config.toml
// updated to a new version is edited where it differs, and only there:
// the comments inside and around it, its key order, CRLF line endings,
// the other keys and tables stay byte for byte.
func TestSetTOMLEditsInPlace(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	in := crlf(`# Codex settings
model = "o3"

# the database, synced from .mcp.json
[mcp_servers.db]
args = ["--read-write"] # a hand edit
# the server itself
command = 'psql-mcp'
cwd = "/srv" # gone from the source

[mcp_servers.db.env]
PGHOST = "localhost" # the local one

[mcp_servers.docs]
command = "docs-mcp"

[profiles.fast]
model = "o4-mini"
`)
	path := []string{"mcp_servers", "db"}
	v := obj("command", "psql-mcp", "args", []any{"--read-only"}, "env", obj("PGHOST", "localhost", "PGPORT", "5432"),
		"http_headers", obj("X-Team", "data"), "startup_timeout_sec", json.Number("20"))
	got, err := SetTOML([]byte(in), path, v)
	want := crlf(`# Codex settings
model = "o3"

# the database, synced from .mcp.json
[mcp_servers.db]
args = ["--read-only"] # a hand edit
# the server itself
command = 'psql-mcp'
startup_timeout_sec = 20

[mcp_servers.db.env]
PGHOST = "localhost" # the local one
PGPORT = "5432"

[mcp_servers.db.http_headers]
X-Team = "data"

[mcp_servers.docs]
command = "docs-mcp"

[profiles.fast]
model = "o4-mini"
`)
	if err != nil || string(got) != want {
		t.Fatalf("update:\ngot  %q\nwant %q (%v)", got, want, err)
	}
	// The same value, keys in another order: nothing changes.
	again, err := SetTOML(got, path, obj("startup_timeout_sec", 20, "env", obj("PGPORT", "5432", "PGHOST", "localhost"),
		"args", []any{"--read-only"}, "http_headers", obj("X-Team", "data"), "command", "psql-mcp"))
	if err != nil || string(again) != string(got) {
		t.Errorf("same value rewrote the file:\n%q (%v)", again, err)
	}
	// A new server goes after the last [mcp_servers.*] table, before
	// the tables of other settings.
	added, err := SetTOML(got, []string{"mcp_servers", "données"}, obj("command", "x"))
	wantAdded := strings.Replace(want, crlf("command = \"docs-mcp\"\n"), crlf("command = \"docs-mcp\"\n\n[mcp_servers.\"données\"]\ncommand = \"x\"\n"), 1)
	if err != nil || string(added) != wantAdded {
		t.Errorf("add:\ngot  %q\nwant %q (%v)", added, wantAdded, err)
	}
	// Removing it gives the file back.
	removed, err := RemoveTOML(added, []string{"mcp_servers", "données"})
	if err != nil || string(removed) != want {
		t.Errorf("remove:\ngot  %q\nwant %q (%v)", removed, want, err)
	}
	// A server with sub-tables goes whole; the comment above it stays.
	gone, err := RemoveTOML(got, path)
	wantGone := crlf(`# Codex settings
model = "o3"

# the database, synced from .mcp.json
[mcp_servers.docs]
command = "docs-mcp"

[profiles.fast]
model = "o4-mini"
`)
	if err != nil || string(gone) != wantGone {
		t.Errorf("remove with sub-tables:\ngot  %q\nwant %q (%v)", gone, wantGone, err)
	}
}

// TestSetTOMLOtherShapes: servers written as inline tables or with dotted
// keys are edited in their own shape; a file with no server, or empty,
// gets a [mcp_servers.<name>] table at its end; a broken file is refused.
func TestSetTOMLOtherShapes(t *testing.T) {
	path := []string{"mcp_servers", "a"}
	for _, c := range []struct{ name, in, want string }{
		{"inline server", "[mcp_servers]\na = { command = \"x\" } # inline\n",
			"[mcp_servers]\na = { command = \"y\", env = { K = \"1\" } } # inline\n"},
		{"dotted keys", "[mcp_servers.a]\ncommand = \"x\"\nenv.K = \"0\" # dotted\nenv.GONE = \"1\"\n",
			"[mcp_servers.a]\ncommand = \"y\"\nenv.K = \"1\" # dotted\n"},
		{"dotted keys of the root", "model = \"o3\"\nmcp_servers.a.command = \"x\"\n",
			"model = \"o3\"\nmcp_servers.a.command = \"y\"\nmcp_servers.a.env = { K = \"1\" }\n"},
		{"no server yet", "# Codex\nmodel = \"o3\"\n",
			"# Codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"y\"\n\n[mcp_servers.a.env]\nK = \"1\"\n"},
		{"no final line break", "model = \"o3\"",
			"model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"y\"\n\n[mcp_servers.a.env]\nK = \"1\""},
		{"empty file", "", "[mcp_servers.a]\ncommand = \"y\"\n\n[mcp_servers.a.env]\nK = \"1\"\n"},
	} {
		got, err := SetTOML([]byte(c.in), path, obj("command", "y", "env", obj("K", "1")))
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q (%v)", c.name, got, c.want, err)
		}
	}
	if _, err := SetTOML([]byte("[mcp_servers.a\ncommand = \"x\"\n"), path, obj("command", "y")); !errors.Is(err, ErrSyntax) {
		t.Errorf("broken file: %v", err)
	}
	// A table made by dotted keys with a [header] sub-table after it: a
	// dotted key-value added after its last part would land in the
	// sub-table. The check of the result refuses it.
	in := "[fruit]\napple.color = \"red\"\n\n[fruit.apple.texture]\nsmooth = true\n"
	if got, err := SetTOML([]byte(in), []string{"fruit", "apple", "taste"}, "sweet"); err == nil || got != nil {
		t.Errorf("a misplaced key-value was written: %q %v", got, err)
	}
	if _, err := SetTOML([]byte("mcp_servers = \"x\"\n"), path, obj("command", "y")); err == nil {
		t.Error("a string as the server map: no error")
	}
}

// TestRemoveTOMLLastTable: removing the last table of a config.toml (its
// sub-tables with it) takes the blank lines before it too, so the file
// ends with its last line of content, not a blank line; CRLF and LF, a
// non-ASCII name, trailing blank lines after it; the only table leaves
// an empty file.
func TestRemoveTOMLLastTable(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"LF", "model = \"o3\"\n\n[mcp_servers.\"données\"]\ncommand = \"x\"\n\n[mcp_servers.\"données\".env]\nK = \"é\"\n",
			"model = \"o3\"\n"},
		{"CRLF, blank lines around", "# é\r\nmodel = \"o3\"\r\n\r\n\r\n[mcp_servers.\"données\"]\r\ncommand = \"x\"\r\n\r\n",
			"# é\r\nmodel = \"o3\"\r\n"},
		{"not the last table", "[mcp_servers.\"données\"]\ncommand = \"x\"\n\n[mcp_servers.b]\ncommand = \"y\"\n",
			"[mcp_servers.b]\ncommand = \"y\"\n"},
		{"the only table", "[mcp_servers.\"données\"]\r\ncommand = \"x\"\r\n", ""},
	} {
		got, err := RemoveTOML([]byte(c.in), []string{"mcp_servers", "données"})
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q (%v)", c.name, got, c.want, err)
		}
	}
}
