package lsp

// Code action goldens: testdata/codeactions/*.txtar.
//
// Each archive holds input files under their real names (home/ is the
// fake user's home directory) and, in its comment, directives:
//
//	at: FILE TEXT     ask at the first occurrence of TEXT in FILE; a "|" in
//	                  TEXT marks the cursor, two mark a selection (default:
//	                  the start of TEXT)
//	code: FILE CODE   ask at the first diagnostic with CODE published for FILE
//	only: KIND        context.only
//	apply: TITLE      apply the action with this title
//	client: PROFILE   run with one client profile only (see clientProfiles);
//	                  by default every archive runs with "full" (lazy edits
//	                  through codeAction/resolve) and "eager" (no resolve),
//	                  which must give the same results
//	secret: TEXT      TEXT must appear in no title, data, reason or log
//	secret-gone:      ...and in none of the files the action writes
//	errors-after: WHY the files written may still have error diagnostics
//
// The sections want/actions (kind: title per offered action),
// want/diagnostics (what the server reports on every written file after
// the action is applied) and want/FILE (each written file, byte for byte)
// are the expectations. The test client applies edits itself, as an
// editor does: file creations, text edits mapped through the Mapper,
// versions checked. Regenerate with: go test ./lsp -run TestCodeActionGoldens -update

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// clientProfiles are the client capabilities the goldens run with.
var clientProfiles = map[string]map[string]any{
	// full: VS Code-like. Lazy edits, file creation, disabled reasons.
	"full": clientCaps(true, true, true, true),
	// eager: no codeAction/resolve; every edit comes with the action.
	"eager": clientCaps(false, true, true, true),
	// no-create: versioned edits but no resource operations.
	"no-create": clientCaps(true, true, false, true),
	// no-create-no-disabled: nor any way to show why an action is off.
	"no-create-no-disabled": clientCaps(true, true, false, false),
	// changes-only: a plain `changes` map, the oldest kind of edit.
	"changes-only": clientCaps(false, false, false, true),
}

func clientCaps(resolve, documentChanges, create, disabled bool) map[string]any {
	ca := map[string]any{
		"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "refactor.rewrite", "source", "source.fixAll"}}},
		"isPreferredSupport":       true,
		"disabledSupport":          disabled,
	}
	if resolve {
		ca["dataSupport"] = true
		ca["resolveSupport"] = map[string]any{"properties": []string{"edit"}}
	}
	we := map[string]any{"documentChanges": documentChanges}
	if create {
		we["resourceOperations"] = []string{"create", "rename", "delete"}
	}
	return map[string]any{
		"textDocument": map[string]any{"codeAction": ca},
		"workspace":    map[string]any{"configuration": true, "workspaceEdit": we},
	}
}

// initializeWith performs the handshake with raw capabilities.
func (c *testClient) initializeWith(root string, caps map[string]any) {
	c.t.Helper()
	params := map[string]any{"capabilities": caps, "processId": nil, "rootUri": nil}
	if root != "" {
		params["workspaceFolders"] = []map[string]any{{"uri": string(pathToURI(root)), "name": "root"}}
	}
	if err := c.call(protocol.MethodInitialize, params, &json.RawMessage{}); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
}

// editor is the test client's side of the files: the buffers it opened
// (what it sent the server) over the disk, and the workspace edits it
// applies like an editor would.
type editor struct {
	t       *testing.T
	c       *testClient
	buffers map[string]string
}

func newEditor(t *testing.T, c *testClient) *editor {
	return &editor{t: t, c: c, buffers: map[string]string{}}
}

// open opens path with its disk content, or with text when given.
func (e *editor) open(path string, text ...string) protocol.DocumentURI {
	e.t.Helper()
	var content string
	if len(text) > 0 {
		content = text[0]
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			e.t.Fatal(err)
		}
		content = string(b)
	}
	e.buffers[path] = content
	return e.c.open(path, content)
}

// content is path as the editor sees it.
func (e *editor) content(path string) (string, bool) {
	if b, ok := e.buffers[path]; ok {
		return b, true
	}
	b, err := os.ReadFile(path)
	return string(b), err == nil
}

// version is the client's version of an open file.
func (e *editor) version(path string) int32 {
	e.c.mu.Lock()
	defer e.c.mu.Unlock()
	return e.c.versions[pathToURI(path)]
}

type wireEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes"`
	DocumentChanges []json.RawMessage                            `json:"documentChanges"`
}

type wireDocChange struct {
	Kind    string               `json:"kind"`
	URI     protocol.DocumentURI `json:"uri"`
	Options struct {
		Overwrite      bool `json:"overwrite"`
		IgnoreIfExists bool `json:"ignoreIfExists"`
	} `json:"options"`
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

// apply applies a workspace edit and returns the paths it wrote, in
// order. Files open in the editor change in their buffers; others on
// disk. It fails the test on anything an editor would refuse.
func (e *editor) apply(raw json.RawMessage) []string {
	e.t.Helper()
	var we wireEdit
	if err := json.Unmarshal(raw, &we); err != nil {
		e.t.Fatalf("bad workspace edit: %v", err)
	}
	if we.Changes != nil && we.DocumentChanges != nil {
		e.t.Fatalf("workspace edit has both changes and documentChanges")
	}
	work := map[string]string{}
	var order []string
	get := func(path string) string {
		if s, ok := work[path]; ok {
			return s
		}
		s, ok := e.content(path)
		if !ok {
			e.t.Fatalf("edit of %s, which does not exist", path)
		}
		return s
	}
	edit := func(uri protocol.DocumentURI, edits []protocol.TextEdit) {
		path, _ := uriToPath(uri)
		out, err := applyTextEdits(get(path), edits)
		if err != nil {
			e.t.Fatalf("edit of %s: %v", path, err)
		}
		work[path] = out
		if !slices.Contains(order, path) {
			order = append(order, path)
		}
	}
	uris := make([]protocol.DocumentURI, 0, len(we.Changes))
	for u := range we.Changes {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	for _, u := range uris {
		edit(u, we.Changes[u])
	}
	for _, r := range we.DocumentChanges {
		var dc wireDocChange
		if err := json.Unmarshal(r, &dc); err != nil {
			e.t.Fatalf("bad document change %s: %v", r, err)
		}
		switch dc.Kind {
		case "create":
			path, _ := uriToPath(dc.URI)
			if _, exists := e.content(path); exists || work[path] != "" {
				if !dc.Options.IgnoreIfExists && !dc.Options.Overwrite {
					e.t.Fatalf("create of existing %s", path)
				}
				if !dc.Options.Overwrite {
					continue
				}
			}
			work[path] = ""
			order = append(order, path)
		case "":
			path, _ := uriToPath(dc.TextDocument.URI)
			if v := dc.TextDocument.Version; v != nil {
				if _, open := e.buffers[path]; !open || *v != e.version(path) {
					e.t.Fatalf("edit of %s for version %d; the editor has version %d (open: %v)", path, *v, e.version(path), open)
				}
			}
			edit(dc.TextDocument.URI, dc.Edits)
		default:
			e.t.Fatalf("unexpected resource operation %q", dc.Kind)
		}
	}
	// Write back: buffers through didChange, other files on disk and then
	// opened, so the server analyses every written file.
	for _, path := range order {
		if _, open := e.buffers[path]; open {
			e.buffers[path] = work[path]
			e.c.change(pathToURI(path), nil, work[path])
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(work[path]), 0o644); err != nil {
			e.t.Fatal(err)
		}
		e.open(path)
	}
	return order
}

// applyTextEdits applies LSP text edits the way the specification says:
// all ranges refer to the original text, they must not overlap, and
// insertions at one position apply in array order.
func applyTextEdits(content string, edits []protocol.TextEdit) (string, error) {
	m := NewMapper([]byte(content))
	type pending struct {
		sp   span.Span
		text string
	}
	var ps []pending
	for _, te := range edits {
		sp, err := m.Span(te.Range)
		if err != nil {
			return "", err
		}
		ps = append(ps, pending{sp, te.NewText})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].sp.Start < ps[j].sp.Start })
	var b strings.Builder
	at := 0
	for _, p := range ps {
		if p.sp.Start < at {
			return "", fmt.Errorf("overlapping edits at %v", p.sp)
		}
		b.WriteString(content[at:p.sp.Start])
		b.WriteString(p.text)
		at = p.sp.End
	}
	b.WriteString(content[at:])
	return b.String(), nil
}

// wireAction is a code action as the client receives it.
type wireAction struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
	IsPreferred bool              `json:"isPreferred"`
	Disabled    *struct {
		Reason string `json:"reason"`
	} `json:"disabled"`
	Edit json.RawMessage `json:"edit"`
	Data json.RawMessage `json:"data"`
}

// codeActions asks for code actions and returns them with the raw reply.
func (c *testClient) codeActions(uri protocol.DocumentURI, rng protocol.Range, diags []protocol.Diagnostic, only ...string) ([]wireAction, string) {
	c.t.Helper()
	ctxDiags := diags
	if ctxDiags == nil {
		ctxDiags = []protocol.Diagnostic{}
	}
	params := map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        rng,
		"context":      map[string]any{"diagnostics": ctxDiags},
	}
	if len(only) > 0 {
		params["context"].(map[string]any)["only"] = only
	}
	var raw json.RawMessage
	if err := c.call(protocol.MethodTextDocumentCodeAction, params, &raw); err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	var actions []wireAction
	if err := json.Unmarshal(raw, &actions); err != nil {
		c.t.Fatalf("codeAction result %s: %v", raw, err)
	}
	if actions == nil {
		c.t.Fatalf("codeAction result is null, want a list")
	}
	return actions, string(raw)
}

// resolve resolves an action's edit through codeAction/resolve.
func (c *testClient) resolve(a wireAction) (wireAction, string, error) {
	var raw json.RawMessage
	if err := c.call(methodCodeActionResolve, a, &raw); err != nil {
		return wireAction{}, "", err
	}
	var out wireAction
	if err := json.Unmarshal(raw, &out); err != nil {
		c.t.Fatalf("resolve result %s: %v", raw, err)
	}
	return out, string(raw), nil
}

// latestDiagnostics waits for the diagnostics of the open path's current
// version and returns them.
func (e *editor) latestDiagnostics(path string) []protocol.Diagnostic {
	e.t.Helper()
	v := e.version(path)
	p := e.c.waitDiagnostics(pathToURI(path), fmt.Sprintf("version %d", v), func(p publishParams) bool {
		return p.Version != nil && *p.Version == v
	})
	return p.Diagnostics
}

// actionCase is one archive of testdata/codeactions.
type actionCase struct {
	name    string
	archive *txtar.Archive
	dir     string
	env     registry.Env
}

func (ac *actionCase) directive(name string) []string {
	var out []string
	for _, line := range strings.Split(string(ac.archive.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

func (ac *actionCase) section(name string) ([]byte, bool) {
	for _, f := range ac.archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func (ac *actionCase) materialize(t *testing.T) {
	t.Helper()
	ac.dir = t.TempDir()
	for _, f := range ac.archive.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		p := filepath.Join(ac.dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// "$DIR" stands for the workspace, as in the scenarios.
		if err := os.WriteFile(p, bytes.ReplaceAll(f.Data, []byte("$DIR"), []byte(ac.dir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(ac.dir, "home")
	ac.env = registry.Env{Home: home, XDGConfigHome: filepath.Join(home, ".config"), GOOS: "linux"}
}

func (ac *actionCase) rel(path string) string {
	r, err := filepath.Rel(ac.dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// caseResult is what one run of an archive produced.
type caseResult struct {
	actions     string
	diagnostics string
	files       map[string]string // relative path -> content written
}

// run runs the archive with a client profile.
func (ac *actionCase) run(t *testing.T, profile string) caseResult {
	t.Helper()
	ac.materialize(t)
	c := startServer(t, Options{Env: ac.env})
	c.initializeWith(ac.dir, clientProfiles[profile])
	ed := newEditor(t, c)

	var file, rest string
	var at bool
	if v := ac.directive("at"); len(v) > 0 {
		file, rest, _ = strings.Cut(v[0], " ")
		at = true
	} else if v := ac.directive("code"); len(v) > 0 {
		file, rest, _ = strings.Cut(v[0], " ")
	} else {
		t.Fatalf("%s: no at: or code: directive", ac.name)
	}
	path := filepath.Join(ac.dir, filepath.FromSlash(file))
	uri := ed.open(path)
	published := ed.latestDiagnostics(path)
	content, _ := ed.content(path)

	var rng protocol.Range
	if at {
		rng = markerRange(t, content, rest)
	} else {
		p := c.waitDiagnostics(uri, "code "+rest, func(p publishParams) bool {
			return slices.ContainsFunc(p.Diagnostics, func(d protocol.Diagnostic) bool { return fmt.Sprint(d.Code) == rest })
		})
		published = p.Diagnostics
		i := slices.IndexFunc(published, func(d protocol.Diagnostic) bool { return fmt.Sprint(d.Code) == rest })
		rng = published[i].Range
	}
	// Like VS Code: the context holds the diagnostics touching the range.
	var ctxDiags []protocol.Diagnostic
	for _, d := range published {
		if !after(d.Range.Start, rng.End) && !after(rng.Start, d.Range.End) {
			ctxDiags = append(ctxDiags, d)
		}
	}
	actions, raw := c.codeActions(uri, rng, ctxDiags, ac.directive("only")...)
	secrets := ac.directive("secret")
	var lines []string
	for _, a := range actions {
		line := a.Kind + ": " + a.Title
		if a.Disabled != nil {
			line += " [disabled: " + a.Disabled.Reason + "]"
		}
		lines = append(lines, line)
		for _, s := range secrets {
			if strings.Contains(a.Title, s) || strings.Contains(string(a.Data), s) || a.Disabled != nil && strings.Contains(a.Disabled.Reason, s) {
				t.Errorf("secret in action %q", a.Title)
			}
		}
		checkActionShape(t, profile, a)
	}
	res := caseResult{actions: strings.Join(lines, "\n") + "\n", files: map[string]string{}}

	if titles := ac.directive("apply"); len(titles) > 0 {
		i := slices.IndexFunc(actions, func(a wireAction) bool { return a.Title == titles[0] })
		if i < 0 {
			t.Fatalf("no action %q; got:\n%s", titles[0], res.actions)
		}
		a := actions[i]
		if a.Edit == nil {
			resolved, rawResolved, err := c.resolve(a)
			if err != nil {
				t.Fatalf("resolve %q: %v", a.Title, err)
			}
			for _, s := range secrets {
				if strings.Contains(string(resolved.Data), s) || strings.Contains(resolved.Title, s) {
					t.Errorf("secret in resolved action")
				}
			}
			if resolved.Title != a.Title || resolved.Edit == nil {
				t.Fatalf("resolve returned %s", rawResolved)
			}
			a = resolved
		}
		written := ed.apply(a.Edit)
		var diagLines []string
		for _, p := range written {
			text, _ := ed.content(p)
			res.files[ac.rel(p)] = strings.ReplaceAll(text, ac.dir, "$DIR")
			if _, ok := registry.Default().Match(p, ac.env); !ok {
				continue // not an MCP file (the sync records): no diagnostics
			}
			for _, d := range ed.latestDiagnostics(p) {
				if d.Severity == protocol.DiagnosticSeverityError && len(ac.directive("errors-after")) == 0 {
					t.Errorf("error after applying %q: %s: %s", a.Title, ac.rel(p), d.Message)
				}
				if crossFileCodes[fmt.Sprint(d.Code)] {
					continue // depends on which tools exist, not on the edit
				}
				diagLines = append(diagLines, fmt.Sprintf("%s %s: %s %v", ac.rel(p), formatRange(d.Range), severityName(d.Severity), d.Code))
			}
			if len(ac.directive("secret-gone")) > 0 {
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("the secret is still in %s", ac.rel(p))
					}
				}
			}
		}
		res.diagnostics = strings.Join(diagLines, "\n") + "\n"
	}
	logs := c.logBuf.String()
	for _, s := range secrets {
		if strings.Contains(logs, s) {
			t.Errorf("secret in the server's log")
		}
	}
	_ = raw
	return res
}

// crossFileCodes are left out of want/diagnostics: whether a converted
// server shadows another depends on which tools the registry models (a
// tool reading both files), not on the edit. They are still checked for
// errors.
var crossFileCodes = map[string]bool{
	rules.CodeShadowedServer: true, rules.CodeDuplicateServer: true,
	rules.CodeOverridesServer: true, rules.CodeMergedTransport: true,
}

// checkActionShape checks what a profile allows: lazy edits only with
// resolve, file creations only with resource operations, disabled only
// where the client shows reasons.
func checkActionShape(t *testing.T, profile string, a wireAction) {
	t.Helper()
	caps := clientProfiles[profile]
	ca := caps["textDocument"].(map[string]any)["codeAction"].(map[string]any)
	we := caps["workspace"].(map[string]any)["workspaceEdit"].(map[string]any)
	_, resolve := ca["resolveSupport"]
	switch {
	case a.Disabled != nil:
		if !ca["disabledSupport"].(bool) {
			t.Errorf("%s: disabled action %q for a client without disabledSupport", profile, a.Title)
		}
	case a.Edit == nil:
		if !resolve || a.Data == nil {
			t.Errorf("%s: action %q has neither an edit nor resolve data", profile, a.Title)
		}
	default:
		var w wireEdit
		_ = json.Unmarshal(a.Edit, &w)
		if w.DocumentChanges != nil && !we["documentChanges"].(bool) {
			t.Errorf("%s: documentChanges for a client without them", profile)
		}
		_, create := we["resourceOperations"]
		if bytes.Contains(a.Edit, []byte(`"kind":"create"`)) && !create {
			t.Errorf("%s: file creation for a client without resource operations", profile)
		}
	}
}

// after reports whether position a is after b.
func after(a, b protocol.Position) bool {
	return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
}

// markerRange finds text in content ("|" marks the cursor, two mark a
// selection) and returns its LSP range.
func markerRange(t *testing.T, content, text string) protocol.Range {
	t.Helper()
	plain := strings.ReplaceAll(text, "|", "")
	i := strings.Index(content, plain)
	if i < 0 {
		t.Fatalf("%q not found", plain)
	}
	start, end := i, i
	if j := strings.Index(text, "|"); j >= 0 {
		start, end = i+j, i+j
		if k := strings.Index(text[j+1:], "|"); k >= 0 {
			end = i + j + k
		}
	}
	m := NewMapper([]byte(content))
	rng, err := m.Range(span.New(start, end))
	if err != nil {
		t.Fatal(err)
	}
	return rng
}

func loadActionCases(t *testing.T) []*actionCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "codeactions", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no code action archives: %v", err)
	}
	var out []*actionCase
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &actionCase{name: strings.TrimSuffix(filepath.Base(f), ".txtar"), archive: ar})
	}
	return out
}

func TestCodeActionGoldens(t *testing.T) {
	for _, ac := range loadActionCases(t) {
		t.Run(ac.name, func(t *testing.T) {
			profiles := ac.directive("client")
			if len(profiles) == 0 {
				profiles = []string{"full", "eager"}
			}
			var first *caseResult
			for _, profile := range profiles {
				if _, ok := clientProfiles[profile]; !ok {
					t.Fatalf("unknown client profile %q", profile)
				}
				got := ac.run(t, profile)
				if first == nil {
					first = &got
					if *update {
						ac.write(t, got)
					}
					ac.compare(t, profile, got)
					continue
				}
				if !equalResults(*first, got) {
					t.Errorf("%s differs from %s:\n%s\n%v", profile, profiles[0], got.actions, got.files)
				}
			}
		})
	}
}

func equalResults(a, b caseResult) bool {
	if a.actions != b.actions || a.diagnostics != b.diagnostics || len(a.files) != len(b.files) {
		return false
	}
	for k, v := range a.files {
		if b.files[k] != v {
			return false
		}
	}
	return true
}

func (ac *actionCase) compare(t *testing.T, profile string, got caseResult) {
	t.Helper()
	check := func(name, got string) {
		want, ok := ac.section(name)
		if !ok {
			t.Errorf("%s: no %s section (run with -update)", profile, name)
			return
		}
		if string(want) != got {
			t.Errorf("%s: %s differs\n--- want\n%s--- got\n%s", profile, name, want, got)
		}
	}
	check("want/actions", got.actions)
	if len(ac.directive("apply")) == 0 {
		return
	}
	check("want/diagnostics", got.diagnostics)
	for name, content := range got.files {
		check("want/"+name, content)
	}
	for _, f := range ac.archive.Files {
		if name, ok := strings.CutPrefix(f.Name, "want/"); ok && name != "actions" && name != "diagnostics" {
			if _, written := got.files[name]; !written {
				t.Errorf("%s: %s was not written", profile, name)
			}
		}
	}
}

// write replaces the want/ sections with got.
func (ac *actionCase) write(t *testing.T, got caseResult) {
	t.Helper()
	var files []txtar.File
	for _, f := range ac.archive.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			files = append(files, f)
		}
	}
	files = append(files, txtar.File{Name: "want/actions", Data: []byte(got.actions)})
	if len(ac.directive("apply")) > 0 {
		files = append(files, txtar.File{Name: "want/diagnostics", Data: []byte(got.diagnostics)})
		names := make([]string, 0, len(got.files))
		for n := range got.files {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			files = append(files, txtar.File{Name: "want/" + n, Data: []byte(got.files[n])})
		}
	}
	ac.archive.Files = files
	path := filepath.Join("..", "testdata", "codeactions", ac.name+".txtar")
	if err := os.WriteFile(path, txtar.Format(ac.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

// actionProject writes files under a fresh workspace folder and starts a
// server with a client profile on it.
func actionProject(t *testing.T, profile string, files map[string]string) (*testClient, *editor, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	c := startServer(t, Options{Env: registry.Env{Home: home, GOOS: "linux"}})
	c.initializeWith(dir, clientProfiles[profile])
	return c, newEditor(t, c), dir
}

func titlesOf(actions []wireAction) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Kind+": "+a.Title)
	}
	return out
}

func TestCodeActionProviderAdvertised(t *testing.T) {
	c := startServer(t, Options{})
	var res struct {
		Capabilities struct {
			CodeActionProvider struct {
				CodeActionKinds []string `json:"codeActionKinds"`
				ResolveProvider bool     `json:"resolveProvider"`
			} `json:"codeActionProvider"`
		} `json:"capabilities"`
	}
	if err := c.call(protocol.MethodInitialize, map[string]any{"capabilities": map[string]any{}}, &res); err != nil {
		t.Fatal(err)
	}
	p := res.Capabilities.CodeActionProvider
	if !p.ResolveProvider || !slices.Equal(p.CodeActionKinds, []string{"quickfix", "refactor.rewrite", "source.fixAll"}) {
		t.Errorf("codeActionProvider = %+v", p)
	}
}

// TestCodeActionKindsByOnly: context.only selects kinds; fix-all is
// offered only when asked for (editors run source actions on demand).
func TestCodeActionKindsByOnly(t *testing.T) {
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": `{"mcpServers": {"fs": {"type": "local", "command": "npx"},}}`})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	diags := ed.latestDiagnostics(path)
	rng := markerRange(t, `{"mcpServers": {"fs": {"type": "local", "command": "npx"},}}`, `"lo|cal"`)
	kinds := func(only ...string) []string {
		actions, _ := c.codeActions(uri, rng, diags, only...)
		var ks []string
		for _, a := range actions {
			if !slices.Contains(ks, a.Kind) {
				ks = append(ks, a.Kind)
			}
		}
		return ks
	}
	for _, tc := range []struct {
		only []string
		want []string
	}{
		{nil, []string{"quickfix", "refactor.rewrite"}},
		{[]string{"quickfix"}, []string{"quickfix"}},
		{[]string{"refactor"}, []string{"refactor.rewrite"}},
		{[]string{"source"}, []string{"source.fixAll"}},
		{[]string{"source.fixAll"}, []string{"source.fixAll"}},
		{[]string{"source.organizeImports"}, nil},
	} {
		if got := kinds(tc.only...); !slices.Equal(got, tc.want) {
			t.Errorf("only %v: kinds %v, want %v", tc.only, got, tc.want)
		}
	}
}

// TestQuickFixWithoutContextDiagnostics: a client that sends no
// diagnostics gets the fixes of what the server finds in the range.
func TestQuickFixWithoutContextDiagnostics(t *testing.T) {
	text := `{"mcpServers": {"fs": {"type": "local", "command": "npx"}}}`
	c, ed, dir := actionProject(t, "eager", map[string]string{".mcp.json": text})
	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	actions, _ := c.codeActions(uri, markerRange(t, text, `"lo|cal"`), nil, "quickfix")
	if got := titlesOf(actions); !slices.Equal(got, []string{`quickfix: Change type to "stdio"`}) {
		t.Fatalf("actions %v", got)
	}
	var d protocol.Diagnostic
	if len(actions[0].Diagnostics) != 1 || json.Unmarshal(actions[0].Diagnostics[0], &d) != nil || d.Code != "type-not-accepted" {
		t.Errorf("the action does not name the diagnostic it fixes: %s", actions[0].Diagnostics)
	}
}

// TestCodeActionsNeedLiteralSupport: a client that takes only commands
// gets no actions (mcp-lsp has no commands), not actions it cannot run.
func TestCodeActionsNeedLiteralSupport(t *testing.T) {
	text := `{"mcpServers": {"fs": {"type": "local", "command": "npx"}}}`
	dir := t.TempDir()
	c := startServer(t, Options{Env: registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"}})
	c.initializeWith(dir, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}})
	ed := newEditor(t, c)
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path, text)
	diags := ed.latestDiagnostics(path)
	if actions, raw := c.codeActions(uri, markerRange(t, text, `"lo|cal"`), diags); len(actions) != 0 {
		t.Errorf("actions for a client without literal support: %s", raw)
	}
}

func TestCodeActionsOnOtherFiles(t *testing.T) {
	c, ed, dir := actionProject(t, "full", map[string]string{"package.json": `{"name": "x",}`})
	uri := ed.open(filepath.Join(dir, "package.json"))
	if actions, raw := c.codeActions(uri, protocol.Range{}, nil); len(actions) != 0 {
		t.Errorf("actions for package.json: %s", raw)
	}
	untitled := protocol.DocumentURI("untitled:Untitled-1")
	if actions, raw := c.codeActions(untitled, protocol.Range{}, nil); len(actions) != 0 {
		t.Errorf("actions for an untitled buffer: %s", raw)
	}
}

// TestResolveDataHoldsNamesOnly: what the client keeps between the two
// requests is the file, the server and the target, nothing of the
// content.
func TestResolveDataHoldsNamesOnly(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	text := `{"mcpServers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "` + secret + `"}}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text})
	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	actions, raw := c.codeActions(uri, markerRange(t, text, `|"gh"`), nil, "refactor")
	if len(actions) == 0 {
		t.Fatal("no conversions")
	}
	if strings.Contains(raw, secret) {
		t.Errorf("the secret is in the listing: %s", raw)
	}
	for _, a := range actions {
		var data map[string]any
		if err := json.Unmarshal(a.Data, &data); err != nil {
			t.Fatalf("%q: data %s", a.Title, a.Data)
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range data {
				if !yield(k) {
					return
				}
			}
		})
		names := []string{"server", "to", "uri"} // a conversion
		if data["action"] != nil {
			names = []string{"action", "server", "tool", "uri"} // a sync action
		}
		if !slices.Equal(keys, names) || data["server"] != "gh" || data["uri"] != string(uri) {
			t.Errorf("%q: data %s", a.Title, a.Data)
		}
	}
}

// TestResolveRecomputesOnCurrentContent: resolve computes the edit from
// the files as they are when the user picks the action.
func TestResolveRecomputesOnCurrentContent(t *testing.T) {
	text := `{"mcpServers": {"fs": {"command": "npx", "args": ["old"]}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	actions, _ := c.codeActions(uri, markerRange(t, text, `|"fs"`), nil, "refactor")
	i := slices.IndexFunc(actions, func(a wireAction) bool { return a.Title == "Convert to Cursor" })
	if i < 0 {
		t.Fatalf("actions %v", titlesOf(actions))
	}
	ed.buffers[path] = strings.Replace(text, "old", "new", 1)
	c.change(uri, nil, ed.buffers[path])
	ed.latestDiagnostics(path)
	resolved, raw, err := c.resolve(actions[i])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw, `\"new\"`) || strings.Contains(raw, `\"old\"`) {
		t.Errorf("resolve used stale content: %s", raw)
	}
	ed.apply(resolved.Edit)
	if got, _ := ed.content(filepath.Join(dir, ".cursor", "mcp.json")); !strings.Contains(got, `"new"`) {
		t.Errorf("created %q", got)
	}
}

// TestResolveOfStaleActionIsContentModified: when the action no longer
// exists as offered (the server was renamed), resolve says
// ContentModified and the client asks again.
func TestResolveOfStaleActionIsContentModified(t *testing.T) {
	text := `{"mcpServers": {"fs": {"command": "npx"}}}`
	c, ed, dir := actionProject(t, "full", map[string]string{".mcp.json": text})
	path := filepath.Join(dir, ".mcp.json")
	uri := ed.open(path)
	actions, _ := c.codeActions(uri, markerRange(t, text, `|"fs"`), nil, "refactor")
	if len(actions) == 0 {
		t.Fatal("no conversions")
	}
	ed.buffers[path] = strings.Replace(text, `"fs"`, `"files"`, 1)
	c.change(uri, nil, ed.buffers[path])
	ed.latestDiagnostics(path)
	_, _, err := c.resolve(actions[0])
	if got := wireCode(t, err); got != protocol.CodeContentModified {
		t.Errorf("resolve of a stale action: %v (code %d), want ContentModified", err, got)
	}
}

// TestConversionIntoOpenBufferIsVersioned: a target open in the editor
// is edited as the buffer is (unsaved changes included), with its
// version, so the editor refuses the edit if the buffer moved on.
func TestConversionIntoOpenBufferIsVersioned(t *testing.T) {
	text := `{"mcpServers": {"fs": {"command": "npx"}}}`
	c, ed, dir := actionProject(t, "eager", map[string]string{
		".mcp.json":        text,
		".cursor/mcp.json": `{"mcpServers": {}}`,
	})
	target := filepath.Join(dir, ".cursor", "mcp.json")
	tu := ed.open(target)
	unsaved := "{\n  \"mcpServers\": {\n    \"git\": {\"command\": \"git-mcp\"}\n  }\n}\n"
	ed.buffers[target] = unsaved
	c.change(tu, nil, unsaved)
	ed.latestDiagnostics(target)

	uri := ed.open(filepath.Join(dir, ".mcp.json"))
	actions, raw := c.codeActions(uri, markerRange(t, text, `|"fs"`), nil, "refactor")
	i := slices.IndexFunc(actions, func(a wireAction) bool { return a.Title == "Convert to Cursor" })
	if i < 0 {
		t.Fatalf("actions %v", titlesOf(actions))
	}
	if !strings.Contains(raw, `"version":2`) {
		t.Errorf("the edit of the open target is not versioned: %s", raw)
	}
	ed.apply(actions[i].Edit)
	want := "{\n  \"mcpServers\": {\n    \"git\": {\"command\": \"git-mcp\"},\n    \"fs\": {\n      \"command\": \"npx\"\n    }\n  }\n}\n"
	if got := ed.buffers[target]; got != want {
		t.Errorf("target buffer:\n%s\nwant\n%s", got, want)
	}
	if b, _ := os.ReadFile(target); string(b) != `{"mcpServers": {}}` {
		t.Errorf("the disk was written: %s", b)
	}
}
