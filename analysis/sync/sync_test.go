package sync

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

func source(content string) Source {
	return Source{Path: "/p/src.json", Rel: "src.json", Content: []byte(content), Dialect: "claude-code"}
}

func cursorTarget(content string) Target {
	return Target{Tool: "cursor", Dialect: "cursor", Path: "/p/.cursor/mcp.json", Rel: ".cursor/mcp.json",
		MapPath: []string{"mcpServers"}, Content: []byte(content), Exists: content != ""}
}

// TestComputeLifecycle: add, up to date, drift, forced, removal; the
// plan's edit applies to the target and gives New.
func TestComputeLifecycle(t *testing.T) {
	src := source(`{"mcpServers": {"a": {"command": "x"}}}`)
	p, err := Compute(src, nil, []Target{cursorTarget("")}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tp := p.Targets[0]
	if tp.Actions[0].Kind != Added || !tp.Changed() {
		t.Fatalf("first sync: %+v", tp.Actions)
	}
	ch := tp.Edit()
	if len(ch.Creates) != 1 || string(ch.Creates[0].Content) != string(tp.New) {
		t.Fatalf("a new target is a create: %+v", ch)
	}
	recs := p.Records
	written := string(tp.New)

	// Second run: up to date, no edit.
	p, _ = Compute(src, nil, []Target{cursorTarget(written)}, recs, Options{})
	if k := p.Targets[0].Actions[0].Kind; k != UpToDate || p.Targets[0].Edit() != nil || p.OutOfDate() {
		t.Fatalf("second sync: %v, out of date %v", k, p.OutOfDate())
	}

	// A hand edit is drift, left alone; --force overwrites.
	edited := strings.Replace(written, `"x"`, `"y"`, 1)
	p, _ = Compute(src, nil, []Target{cursorTarget(edited)}, recs, Options{})
	if tp := p.Targets[0]; tp.Actions[0].Kind != Drift || tp.Changed() || !p.OutOfDate() {
		t.Fatalf("hand edit: %+v changed=%v", tp.Actions, tp.Changed())
	}
	p, _ = Compute(src, nil, []Target{cursorTarget(edited)}, recs, Options{Force: true})
	tp = p.Targets[0]
	if tp.Actions[0].Kind != Forced || string(tp.New) != written {
		t.Fatalf("forced: %+v\n%s", tp.Actions, tp.New)
	}
	got, err := fix.Apply([]byte(edited), tp.Edit().Edits)
	if err != nil || string(got) != written {
		t.Fatalf("edit gives %q, %v", got, err)
	}

	// The server leaves the source: removed, record dropped.
	p, _ = Compute(source(`{"mcpServers": {}}`), nil, []Target{cursorTarget(written)}, recs, Options{})
	if tp := p.Targets[0]; tp.Actions[0].Kind != Removed || strings.Contains(string(tp.New), `"a"`) {
		t.Fatalf("removal: %+v\n%s", tp.Actions, tp.New)
	}
	if len(p.Records.Entries) != 0 {
		t.Errorf("records kept: %+v", p.Records.Entries)
	}
}

func TestComputeBrokenTargetUntouched(t *testing.T) {
	src := source(`{"mcpServers": {"a": {"command": "x"}}}`)
	p, err := Compute(src, nil, []Target{cursorTarget(`{"mcpServers": {`)}, nil, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	tp := p.Targets[0]
	if !errors.Is(tp.Err, fix.ErrSyntax) || tp.Changed() || tp.Edit() != nil {
		t.Fatalf("broken target: err %v, changed %v", tp.Err, tp.Changed())
	}
}

func TestResolve(t *testing.T) {
	out, subs, errs := Resolve([]byte(`{"a": "{{root}}/x", "b": "${{{V}}}", "c": "{{ nope }}"}`), Vars{VarRoot: `C:\p "q"`, "V": "TOKEN"})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "{{nope}}: unknown variable") || out != nil {
		t.Fatalf("errs %v, out %q", errs, out)
	}
	out, subs, errs = Resolve([]byte(`{"a": "{{root}}/x", "b": "${{{V}}}"}`), Vars{VarRoot: `C:\p "q"`, "V": "TOKEN"})
	if len(errs) != 0 || string(out) != `{"a": "C:\\p \"q\"/x", "b": "${TOKEN}"}` || len(subs) != 2 {
		t.Fatalf("out %s, subs %+v, errs %v", out, subs, errs)
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	r := &Records{Version: 1, Entries: []Record{{Source: "b", Target: "t", Server: "s", Hash: "h"}, {Source: "a", Target: "t", Server: "s", Hash: "h"}}}
	back, err := ParseRecords(r.Marshal())
	if err != nil || back.Entries[0].Source != "a" || string(back.Marshal()) != string(r.Marshal()) {
		t.Fatalf("%v %+v", err, back)
	}
	if _, err := ParseRecords([]byte(`{"version": 9}`)); err == nil {
		t.Error("version 9 accepted")
	}
	if HashEntry(map[string]any{"a": 1, "b": 2}) != HashEntry(map[string]any{"b": 2, "a": 1}) {
		t.Error("hash depends on key order")
	}
}

// TestComputeKeepsTheSwitch: an entry turned off in the target (OpenCode
// "enabled": false) is neither drift nor turned back on by the next sync,
// even when the entry is updated.
func TestComputeKeepsTheSwitch(t *testing.T) {
	oc := func(content string) Target {
		return Target{Tool: "opencode", Dialect: "opencode", Path: "/p/opencode.json", Rel: "opencode.json",
			MapPath: []string{"mcp"}, Keep: []string{"enabled"}, Content: []byte(content), Exists: content != ""}
	}
	p, _ := Compute(source(`{"mcpServers": {"a": {"command": "x"}}}`), nil, []Target{oc("")}, nil, Options{})
	written := string(p.Targets[0].New)
	off, err := fix.SetJSON([]byte(written), []string{"mcp", "a", "enabled"}, false)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := Compute(source(`{"mcpServers": {"a": {"command": "x"}}}`), nil, []Target{oc(string(off))}, p.Records, Options{})
	if k := p2.Targets[0].Actions[0].Kind; k != UpToDate || p2.Targets[0].Changed() {
		t.Fatalf("disabled entry: %v, changed %v", k, p2.Targets[0].Changed())
	}
	p3, _ := Compute(source(`{"mcpServers": {"a": {"command": "y"}}}`), nil, []Target{oc(string(off))}, p.Records, Options{})
	tp := p3.Targets[0]
	if tp.Actions[0].Kind != Updated || !strings.Contains(string(tp.New), `"enabled": false`) || !strings.Contains(string(tp.New), `"y"`) {
		t.Fatalf("update lost the switch: %+v\n%s", tp.Actions, tp.New)
	}
}

// TestTargetsKeepTheirShape: what "Convert to" and "Add to" write into
// existing files (ported from the conversions' own tests when both became
// this engine): VS Code's older "mcpServers" map is used when it is the
// one there; a missing server map is added after the other keys, a
// comment kept; an empty file is written whole; a file that is not an
// object, or whose map is not one, is left alone with the reason.
func TestTargetsKeepTheirShape(t *testing.T) {
	src := source("{\n\t\"mcpServers\": {\n\t\t\"fs\": {\"command\": \"npx\"}\n\t}\n}\n")
	for _, tc := range []struct {
		name, tool, path, existing, want, err string
	}{
		{name: "VS Code's older map", tool: "vscode", path: "/p/.vscode/mcp.json", existing: `{"mcpServers": {}}`,
			want: "{\"mcpServers\": {\n  \"fs\": {\n    \"type\": \"stdio\",\n    \"command\": \"npx\"\n  }\n}}"},
		{name: "a missing server map", tool: "opencode", path: "/p/opencode.json",
			existing: "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"dark\" // mine\n}\n",
			want:     "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"dark\", // mine\n  \"mcp\": {\n    \"fs\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"npx\"\n      ]\n    }\n  }\n}\n"},
		{name: "an empty file", tool: "cursor", path: "/p/.cursor/mcp.json", existing: "\n",
			want: "{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\"\n    }\n  }\n}\n"},
		{name: "not an object", tool: "opencode", path: "/p/opencode.json", existing: `[]`, err: "does not hold a JSON object"},
		{name: "a map that is not one", tool: "opencode", path: "/p/opencode.json", existing: `{"mcp": []}`, err: `"mcp" is not an object`},
		{name: "a syntax error", tool: "opencode", path: "/p/opencode.json", existing: `{"mcp": {`, err: "does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := &fix.Workspace{Registry: registry.Default(), Env: registry.Env{Home: "/home/u", GOOS: "linux"}, ProjectDir: "/p",
				File: func(p string) ([]byte, bool, error) {
					if p == tc.path {
						return []byte(tc.existing), true, nil
					}
					return nil, false, nil
				}}
			tg, err := TargetFor(ws, tc.tool, ScopeProject, "/p")
			if err != nil || tg.Path != tc.path {
				t.Fatalf("target %s, %v", tg.Path, err)
			}
			p, err := Compute(src, nil, []Target{tg}, nil, Options{Only: "fs", Force: true})
			if err != nil {
				t.Fatal(err)
			}
			tp := p.Targets[0]
			if tc.err != "" {
				if tp.Err == nil || !strings.Contains(tp.Err.Error(), tc.err) || tp.Changed() {
					t.Fatalf("err %v, want %q; changed %v", tp.Err, tc.err, tp.Changed())
				}
				return
			}
			if tp.Err != nil || string(tp.New) != tc.want {
				t.Fatalf("got\n%q\nwant\n%q (%v)", tp.New, tc.want, tp.Err)
			}
		})
	}
}
