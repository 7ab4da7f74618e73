package analysis_test

import (
	"bytes"
	"hash/fnv"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// fuzzEnv is the user environment of the fuzzed workspace: every template
// variable has a value, so every "home" kind has a path.
var fuzzEnv = registry.Env{
	Home:           "/home/u",
	OpenCodeConfig: "/home/u/extra/opencode-extra.json",
	GOOS:           "linux",
}

// fuzzProject is the workspace folder (and git root) of the fuzzed file.
const fuzzProject = "/w/proj"

// fuzzNeighbours are fixed files around the fuzzed one, so the cross-file
// computation has definitions to compare it with. A fuzzed file at one of
// these paths replaces the neighbour.
var fuzzNeighbours = map[string]string{
	fuzzProject + "/.mcp.json":     `{"mcpServers": {"a": {"command": "node"}, "b": {"type": "http", "url": "https://x.example/"}}}`,
	fuzzProject + "/opencode.json": `{"mcp": {"a": {"type": "local", "command": ["node", "s.js"]}, "é": {"type": "remote", "url": "https://y.example/"}}}`,
	"/home/u/.claude.json":         `{"mcpServers": {"a": {"command": "npx"}}, "projects": {"/w/proj": {"mcpServers": {"b": {"command": "x"}}}}}`,
}

// kindPaths maps each registry kind to a path the registry matches to
// it: a home kind's resolved path, or its first glob made concrete in
// the project.
var kindPaths = sync.OnceValues(func() (map[string]string, error) {
	reg := registry.Default()
	out := map[string]string{}
	for _, k := range reg.Kinds() {
		var p string
		if ps := k.ResolvePaths(fuzzEnv); k.Location == registry.Home && len(ps) > 0 {
			p = ps[0]
		} else if len(k.Globs) > 0 {
			g := k.Globs[0]
			if i := strings.IndexByte(g, '{'); i >= 0 {
				j := strings.IndexByte(g[i:], '}') + i
				alt, _, _ := strings.Cut(g[i+1:j], ",")
				g = g[:i] + alt + g[j+1:]
			}
			p = path.Join(fuzzProject, strings.ReplaceAll(strings.TrimPrefix(g, "**/"), "*", "x"))
		}
		// The project as the workspace folder: every reader of the kind,
		// VS Code's of .mcp.json and Kilo Code's of .cursor/mcp.json
		// included.
		if got, ok := reg.MatchIn(p, fuzzEnv, []string{fuzzProject}, nil); !ok || got != k {
			return nil, &kindPathError{k.ID, p}
		}
		out[k.ID] = p
	}
	return out, nil
})

type kindPathError struct{ kind, path string }

func (e *kindPathError) Error() string {
	return "no path for kind " + e.kind + " (tried " + e.path + ")"
}

// fuzzKind picks the kind named id, or one chosen by its hash, so every
// mutation of the kind argument still analyses some kind.
func fuzzKind(id string) *registry.FileKind {
	kinds := registry.Default().Kinds() // with every reader
	if i := slices.IndexFunc(kinds, func(k *registry.FileKind) bool { return k.ID == id }); i >= 0 {
		return kinds[i]
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return kinds[h.Sum32()%uint32(len(kinds))]
}

// fuzzResolver answers without touching the machine, both ways, so the
// rules that need a resolver run too.
type fuzzResolver struct{}

func (fuzzResolver) LookPath(command, dir string) bool { return len(command)%2 == 0 }
func (fuzzResolver) FileExists(path string) bool       { return len(path)%2 == 0 }

func parseAs(p string, content []byte) *jsonc.File {
	if strings.EqualFold(path.Ext(p), ".toml") {
		return toml.Parse(content)
	}
	return jsonc.Parse(content)
}

// FuzzAnalyzeFile analyses content as the file kind named kind (any kind
// of the registry, JSON or TOML) on its own and in a small workspace, and
// checks what every consumer of the findings relies on: no panic, the
// content left alone, the same findings twice in a row (the memos), and
// every span inside its document and on a character boundary, whether
// it is a finding's, a related place's or a quick fix's edit. The seed
// corpus in testdata/fuzz/FuzzAnalyzeFile holds the corpus files of
// testdata/corpus and broken variants, so a plain "go test" runs them.
func FuzzAnalyzeFile(f *testing.F) {
	f.Add("mcp-json", []byte(`{"mcpServers": {"a": {"command": "node", "args": ["${X:-é}"]}}}`))
	f.Add("nyzhi-project", []byte("[mcp.servers.a]\r\ncommand = \"node\"\r\nargs = [\"\\u00e9\"]\n"))
	paths, err := kindPaths()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kindID string, content []byte) {
		kind := fuzzKind(kindID)
		p := paths[kind.ID]
		orig := bytes.Clone(content)
		parsed := parseAs(p, content)
		in := rules.FileInput{
			Path:     p,
			Content:  content,
			Parsed:   parsed,
			Kind:     kind,
			Resolver: fuzzResolver{},
			Config:   rules.Config{CommandLookup: true},
		}
		ds := rules.AnalyzeFile(in)
		if !bytes.Equal(content, orig) {
			t.Fatal("AnalyzeFile modified its input")
		}
		if again := rules.AnalyzeFile(in); !reflect.DeepEqual(ds, again) {
			t.Fatalf("a second analysis differs:\n%v\n%v", ds, again)
		}
		files := map[string][]byte{p: content}
		for np, text := range fuzzNeighbours {
			if np != p {
				files[np] = []byte(text)
			}
		}
		checkFindings(t, p, files, ds)

		doc := &fix.Document{Path: p, Content: content, Parsed: parsed, Kind: kind}
		fds := fix.FromAnalysis(ds)
		for _, fd := range fds {
			for _, fx := range fix.QuickFixes(doc, fd) {
				checkEdits(t, "quick fix "+fx.Title+" of "+fd.Code, p, content, fx.Edits)
			}
		}
		edits, _ := fix.FixAll(doc, fds)
		checkEdits(t, "fix all", p, content, edits)

		for path, ds := range crossFile(files) {
			checkFindings(t, path, files, ds)
		}
		checkConversions(t, files)
	})
}

// checkConversions computes every conversion code action of every JSON
// file of the workspace (whole files, and a server at a time into every
// tool's file through the sync engine, as "Convert to" and "Add to" do),
// and checks
// their changes: a file is created only where none exists, and the edits
// of an existing one are inside it, on character boundaries, apply, and
// add no syntax error. The fuzzed file is a source, and a target of its
// neighbours' servers.
func checkConversions(t *testing.T, files map[string][]byte) {
	t.Helper()
	reg := registry.Default()
	ws := &fix.Workspace{
		Registry: reg, Env: fuzzEnv, ProjectDir: fuzzProject,
		File: func(p string) ([]byte, bool, error) {
			c, ok := files[p]
			return c, ok, nil
		},
	}
	for p, content := range files {
		kind, ok := reg.Match(p, fuzzEnv)
		if !ok {
			t.Fatalf("no kind for %s", p)
		}
		doc := &fix.Document{Path: p, Content: content, Parsed: parseAs(p, content), Kind: kind}
		type change struct {
			what string
			ch   *fix.Change
		}
		var changes []change
		for _, c := range fix.FileConversions(doc, ws) {
			if ch, err := c.Change(); err == nil {
				changes = append(changes, change{c.Title + " of " + p, ch})
			}
		}
		seen := map[string]bool{}
		for i := range content {
			if i == 0 || content[i-1] != '{' {
				continue // a server's entry is an object: try just inside each
			}
			if name, ok := fix.ServerAt(doc, i, i); ok && !seen[name] {
				seen[name] = true
				for tool, ch := range serverCopies(ws, doc, name) {
					changes = append(changes, change{"a copy of " + name + " of " + p + " for " + tool, ch})
				}
			}
		}
		for _, c := range changes {
			ch, what := c.ch, c.what
			for _, cr := range ch.Creates {
				if _, exists := files[cr.Path]; exists {
					t.Fatalf("%s: creates %s, which exists", what, cr.Path)
				}
			}
			for _, tp := range ch.Paths() {
				edits := ch.EditsFor(tp)
				if len(edits) == 0 {
					continue
				}
				tc, ok := files[tp]
				if !ok {
					t.Fatalf("%s: edits %s, which does not exist", what, tp)
				}
				checkEdits(t, what, tp, tc, edits)
				out, _ := fix.Apply(tc, edits)
				if before, after := len(parseAs(tp, tc).Errors), len(parseAs(tp, out).Errors); after > before {
					t.Fatalf("%s: %d syntax errors in %s after the edits, %d before:\n%s", what, after, tp, before, out)
				}
			}
		}
	}
}

// serverCopies is the change of writing the server called name of doc
// into each tool's project file (forced over a server of that name), by
// tool: what "Convert to <Tool>" and "Add to <Tool>" apply.
func serverCopies(ws *fix.Workspace, doc *fix.Document, name string) map[string]*fix.Change {
	out := map[string]*fix.Change{}
	for _, r := range doc.Kind.Readers {
		if len(r.ServerMaps) == 0 {
			continue
		}
		src := mcpsync.Source{Path: doc.Path, Rel: mcpsync.RelName(ws.ProjectDir, doc.Path), Content: doc.Content, Dialect: string(r.Dialect)}
		for _, tool := range mcpsync.Tools(ws.Registry) {
			t, err := mcpsync.TargetFor(ws, tool, mcpsync.ScopeProject, ws.ProjectDir)
			if err != nil {
				continue
			}
			plan, err := mcpsync.Compute(src, nil, []mcpsync.Target{t}, nil, mcpsync.Options{Only: name, Force: true})
			if err != nil || len(plan.Targets) != 1 {
				continue
			}
			if ch := plan.Targets[0].Edit(); ch != nil {
				out[tool] = ch
			}
		}
		break
	}
	return out
}

// crossFile computes the cross-file findings of the workspace files, as
// the language server does for its workspace folder.
func crossFile(files map[string][]byte) map[string][]rules.Diagnostic {
	reg := registry.Default()
	parsed := map[string]*jsonc.File{}
	get := func(p string) *jsonc.File {
		if f, ok := parsed[p]; ok {
			return f
		}
		content, ok := files[p]
		if !ok {
			return nil
		}
		f := parseAs(p, content)
		parsed[p] = f
		return f
	}
	var results []*effective.Result
	for _, tool := range reg.Tools() {
		if tool.Profile == nil {
			continue
		}
		results = append(results, effective.Compute(effective.Input{
			Tool: tool, Env: fuzzEnv, LaunchDir: fuzzProject, GitRoot: fuzzProject,
			Files: get, Registry: reg,
		}))
	}
	return effective.CrossFile(results, func(p string) string { return p })
}

// checkFindings checks the spans of the findings of the file at p, and of
// their related places in p or in other files.
func checkFindings(t *testing.T, p string, files map[string][]byte, ds []rules.Diagnostic) {
	t.Helper()
	content, ok := files[p]
	if !ok {
		t.Fatalf("findings for %s, which is not in the workspace: %v", p, ds)
	}
	for _, d := range ds {
		checkSpan(t, d.Code+" in "+p, content, d.Span)
		for _, r := range d.Related {
			rp := r.Path
			if rp == "" {
				rp = p
			}
			rc, ok := files[rp]
			if !ok {
				t.Fatalf("%s in %s: related place in %s, which is not in the workspace", d.Code, p, rp)
			}
			checkSpan(t, d.Code+" in "+p+": related "+r.Message, rc, r.Span)
		}
	}
}

// checkEdits checks that edits are of file p, in order, inside content and
// on character boundaries, and that they apply.
func checkEdits(t *testing.T, what, p string, content []byte, edits []fix.Edit) {
	t.Helper()
	for _, e := range edits {
		if e.Path != p {
			t.Fatalf("%s: edit of %s, want %s", what, e.Path, p)
		}
		checkSpan(t, what, content, e.Span)
	}
	if _, err := fix.Apply(content, edits); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// checkSpan checks that s lies inside content and starts and ends on
// character boundaries: where a decoder stepping through content stops
// (an invalid byte is a character of its own, as the mapper counts it).
func checkSpan(t *testing.T, what string, content []byte, s span.Span) {
	t.Helper()
	if s.Start < 0 || s.End < s.Start || s.End > len(content) {
		t.Fatalf("%s: span %v outside the document of %d bytes", what, s, len(content))
	}
	if !onBoundary(content, s.Start) || !onBoundary(content, s.End) {
		t.Fatalf("%s: span %v cuts through a character: %q", what, s, content[max(s.Start-4, 0):min(s.End+4, len(content))])
	}
}

// onBoundary reports whether offset is a character boundary of content.
// Decoding is self-synchronising except around invalid bytes, so it
// starts from the nearest earlier ASCII byte.
func onBoundary(content []byte, offset int) bool {
	if offset == 0 || offset == len(content) {
		return true
	}
	i := offset - 1
	for i > 0 && content[i] >= utf8.RuneSelf {
		i--
	}
	for i < offset {
		_, size := utf8.DecodeRune(content[i:])
		i += size
	}
	return i == offset
}
