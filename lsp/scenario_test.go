package lsp

// Data-driven scenarios: testdata/scenarios/*.txtar.
//
// Each archive holds input files under their real names (a file under
// home/ is in the fake user's home directory) and a want.json section with
// the expected diagnostics per file. Every scenario runs twice: through the
// pure analysis path (the one `mcp-lsp check` uses) and end to end over a
// JSON-RPC pipe, where each file is opened with half its text and
// completed by an incremental edit. Both must produce want.json exactly.
//
// Regenerate the expectations with: go test ./lsp -run TestScenarios -update

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

var update = flag.Bool("update", false, "rewrite the want.json section of the scenario archives")

const wantFile = "want.json"

// goldenSections are the archive sections that hold expected output, not
// input files: want.json here, and the agreement scenarios' sections
// (agree_test.go).
var goldenSections = map[string]bool{wantFile: true, agreeCheck: true, agreeEffective: true, agreeHover: true, featureGolden: true}

// goldenDiagnostic is the readable, stable form of a diagnostic in
// want.json. Ranges are LSP ranges (0-based line, UTF-16 character),
// written "line:char-line:char".
type goldenDiagnostic struct {
	Range    string          `json:"range"`
	Severity string          `json:"severity"`
	Code     string          `json:"code"`
	Message  string          `json:"message"`
	Related  []goldenRelated `json:"related,omitempty"`
	Tags     []int           `json:"tags,omitempty"`
}

type goldenRelated struct {
	Path    string `json:"path"`
	Range   string `json:"range"`
	Message string `json:"message"`
}

type scenario struct {
	set     string // the directory under testdata/ holding the archive
	name    string
	archive *txtar.Archive
	dir     string // where the input files were written
	env     registry.Env
	inputs  []string // relative paths, in archive order
}

func loadScenarios(t *testing.T) []*scenario {
	t.Helper()
	return loadArchives(t, "scenarios")
}

// loadArchives reads testdata/<dir>/*.txtar.
func loadArchives(t *testing.T, dir string) []*scenario {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	var out []*scenario
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := &scenario{name: strings.TrimSuffix(filepath.Base(f), ".txtar"), archive: ar, set: dir}
		for _, af := range ar.Files {
			if !goldenSections[af.Name] {
				sc.inputs = append(sc.inputs, af.Name)
			}
		}
		out = append(out, sc)
	}
	return out
}

func (sc *scenario) dirName() string {
	if sc.set == "" {
		return "scenarios"
	}
	return sc.set
}

// materialize writes the inputs under a fresh directory; home/ becomes the
// fake home directory. "$DIR" in an input stands for that directory, so a
// file can name an absolute path (the projects keys of ~/.claude.json).
func (sc *scenario) materialize(t *testing.T) {
	t.Helper()
	sc.dir = t.TempDir()
	for _, af := range sc.archive.Files {
		if goldenSections[af.Name] {
			continue
		}
		p := filepath.Join(sc.dir, filepath.FromSlash(af.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, sc.input(af.Name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(sc.dir, "home")
	sc.env = registry.Env{Home: home, XDGConfigHome: filepath.Join(home, ".config"), GOOS: "linux"}
}

// directive returns the value of a "name: value" line in the archive's
// comment: skip-lsp, for input that cannot travel over JSON-RPC unchanged
// (invalid UTF-8 arrives as U+FFFD); the agreement scenarios' launch;
// pad (see input).
func (sc *scenario) directive(name string) (string, bool) {
	if vs := sc.directives(name); len(vs) > 0 {
		return vs[0], true
	}
	return "", false
}

// directives returns the values of every "name: value" line, in order.
func (sc *scenario) directives(name string) []string {
	var out []string
	for _, line := range strings.Split(string(sc.archive.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// folders is the scenario's workspace folder; it is a git root when the
// archive holds a file under .git/.
func (sc *scenario) folders() []cache.Folder {
	f := cache.Folder{Path: sc.dir}
	for _, af := range sc.archive.Files {
		if strings.HasPrefix(af.Name, ".git/") {
			f.GitRoot = sc.dir
		}
	}
	return []cache.Folder{f}
}

func (sc *scenario) content(name string) []byte {
	for _, af := range sc.archive.Files {
		if af.Name == name {
			return af.Data
		}
	}
	return nil
}

// input is the content of an input file as materialized: "$DIR" replaced
// by the scenario's directory, and padded with spaces to the size a "pad:
// NAME SIZE" directive gives it (a file too large for an archive).
func (sc *scenario) input(name string) []byte {
	data := bytes.ReplaceAll(sc.content(name), []byte("$DIR"), []byte(sc.dir))
	if v, ok := sc.directive("pad"); ok {
		var file string
		var size int
		if _, err := fmt.Sscanf(v, "%s %d", &file, &size); err != nil {
			panic(fmt.Sprintf("%s: bad pad directive %q: %v", sc.name, v, err))
		}
		if file == name && size > len(data) {
			data = append(data, bytes.Repeat([]byte(" "), size-len(data))...)
		}
	}
	return data
}

func (sc *scenario) rel(path string) string {
	r, err := filepath.Rel(sc.dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

func (sc *scenario) want(t *testing.T) map[string][]goldenDiagnostic {
	t.Helper()
	want := map[string][]goldenDiagnostic{}
	data := sc.content(wantFile)
	if data == nil {
		if !*update {
			t.Fatalf("%s has no %s section (run with -update)", sc.name, wantFile)
		}
		return want
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: bad %s: %v", sc.name, wantFile, err)
	}
	return want
}

func formatRange(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

func severityName(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityError:
		return "error"
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	case protocol.DiagnosticSeverityInformation:
		return "info"
	case protocol.DiagnosticSeverityHint:
		return "hint"
	}
	return "unknown"
}

// toGolden converts wire diagnostics to their want.json form.
func (sc *scenario) toGolden(ds []protocol.Diagnostic) []goldenDiagnostic {
	out := []goldenDiagnostic{}
	for _, d := range ds {
		g := goldenDiagnostic{
			Range:    formatRange(d.Range),
			Severity: severityName(d.Severity),
			Code:     fmt.Sprint(d.Code),
			Message:  d.Message,
		}
		for _, tag := range d.Tags {
			g.Tags = append(g.Tags, int(tag))
		}
		for _, r := range d.RelatedInformation {
			p, _ := uriToPath(r.Location.URI)
			g.Related = append(g.Related, goldenRelated{Path: sc.rel(p), Range: formatRange(r.Location.Range), Message: r.Message})
		}
		out = append(out, g)
	}
	return out
}

// analysisResults runs the check CLI's path: a snapshot over the disk.
func (sc *scenario) analysisResults(t *testing.T) map[string][]goldenDiagnostic {
	t.Helper()
	reg := registry.Default()
	snap := cache.NewSession(nil, nil).Snapshot()
	got := map[string][]goldenDiagnostic{}
	for _, name := range sc.inputs {
		path := filepath.Join(sc.dir, filepath.FromSlash(name))
		f, found, ok := snap.Diagnose(path, cache.DiagnoseOptions{Registry: reg, Env: sc.env, Folders: sc.folders()})
		if !ok || len(found) == 0 {
			continue
		}
		got[name] = sc.toGolden(toProtocolDiagnostics(snap, f, found, nil))
	}
	return got
}

// lspResults opens every input over LSP in two steps (open with the first
// half, then an incremental edit appending the rest) and collects what
// the server publishes for the final versions.
func (sc *scenario) lspResults(t *testing.T, want map[string][]goldenDiagnostic) map[string][]goldenDiagnostic {
	t.Helper()
	// Command lookup depends on the machine's PATH: off, as in check.
	c := startServer(t, Options{Env: sc.env, NoCommandLookup: true})
	c.initialize(sc.dir)
	uris := map[string]protocol.DocumentURI{}
	for _, name := range sc.inputs {
		path := filepath.Join(sc.dir, filepath.FromSlash(name))
		text := string(sc.input(name))
		cut := len(text) / 2
		for cut > 0 && cut < len(text) && (text[cut]&0xC0 == 0x80 || text[cut-1] == '\r') {
			cut-- // do not split a character or a CRLF
		}
		uri := c.open(path, text[:cut])
		end, err := NewMapper([]byte(text[:cut])).OffsetPosition(cut)
		if err != nil {
			t.Fatal(err)
		}
		c.change(uri, &protocol.Range{Start: end, End: end}, text[cut:])
		uris[name] = uri
	}
	// A sentinel opened last: once its diagnostics arrive, the server has
	// analysed a snapshot holding every input.
	sentinel := c.open(filepath.Join(sc.dir, "sentinel", ".mcp.json"), "{")
	c.waitDiagnostics(sentinel, "sentinel", func(p publishParams) bool { return len(p.Diagnostics) > 0 })

	got := map[string][]goldenDiagnostic{}
	for _, name := range sc.inputs {
		uri := uris[name]
		if len(want[name]) > 0 && !*update {
			c.waitDiagnostics(uri, "final version", func(p publishParams) bool {
				return p.Version != nil && *p.Version == 2 && slices.EqualFunc(sc.toGolden(p.Diagnostics), want[name], goldenEqual)
			})
		}
		c.mu.Lock()
		p, ok := c.published[uri]
		c.mu.Unlock()
		if ok && len(p.Diagnostics) > 0 {
			if p.Version == nil || *p.Version != 2 {
				t.Errorf("%s: diagnostics for version %v, want 2", name, p.Version)
			}
			got[name] = sc.toGolden(p.Diagnostics)
		}
	}
	return got
}

func goldenEqual(a, b goldenDiagnostic) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestScenarios(t *testing.T) {
	for _, sc := range loadScenarios(t) {
		t.Run(sc.name, func(t *testing.T) {
			sc.materialize(t)
			want := sc.want(t)
			if reason, only := sc.directive("lsp-only"); only {
				// A rule of files the check CLI never reads (a sync
				// template): the editor alone reports it.
				t.Logf("analysis driver skipped: %s", reason)
				if *update {
					want = sc.lspResults(t, nil)
					sc.writeWant(t, want)
				}
				compare(t, "lsp", want, sc.lspResults(t, want))
				return
			}
			got := sc.analysisResults(t)
			if *update {
				sc.writeWant(t, got)
				want = got
			}
			compare(t, "analysis", want, got)
			if reason, skip := sc.directive("skip-lsp"); skip {
				t.Logf("lsp driver skipped: %s", reason)
				return
			}
			compare(t, "lsp", want, sc.lspResults(t, want))
		})
	}
}

func compare(t *testing.T, driver string, want, got map[string][]goldenDiagnostic) {
	t.Helper()
	w, _ := json.MarshalIndent(want, "", "  ")
	g, _ := json.MarshalIndent(got, "", "  ")
	if !bytes.Equal(w, g) {
		t.Errorf("%s driver: diagnostics differ\n--- want\n%s\n--- got\n%s", driver, w, g)
	}
}

func (sc *scenario) writeWant(t *testing.T, got map[string][]goldenDiagnostic) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	sc.setWant(t, append(data, '\n'))
}

// setWant replaces the archive's want.json section with data and writes
// the archive back.
func (sc *scenario) setWant(t *testing.T, data []byte) {
	t.Helper()
	sc.setSections(t, txtar.File{Name: wantFile, Data: data})
}

// setSections replaces the given golden sections (appended in the order
// given, after the inputs) and writes the archive back.
func (sc *scenario) setSections(t *testing.T, sections ...txtar.File) {
	t.Helper()
	var files []txtar.File
	for _, af := range sc.archive.Files {
		if !slices.ContainsFunc(sections, func(s txtar.File) bool { return s.Name == af.Name }) {
			files = append(files, af)
		}
	}
	sc.archive.Files = append(files, sections...)
	path := filepath.Join("..", "testdata", sc.dirName(), sc.name+".txtar")
	if err := os.WriteFile(path, txtar.Format(sc.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}
