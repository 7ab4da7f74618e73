package sync

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
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
