package lsp

// The corpus: testdata/corpus/<case>/, realistic project trees holding MCP
// configuration files under their real names (a file under home/ is in the
// fake user's home directory), each with a case.md that says what the case
// is and what the product must make of it:
//
//	valid: true              every tool that reads the files accepts them
//	valid: false             at least one tool drops a file or skips an entry
//	expect <file>: a, b?     <file> must get an error or a warning, and each
//	                         listed rule code must fire on it
//
// Every other line of case.md is prose for the reader. An invalid case
// names each invalid file in an expect line; files of any case without an
// expect line must get no error. A listed code that rules.Rules does not
// define yet is logged as pending instead of failing, so the corpus can
// name rules that are still being written; once a code exists, it must
// fire. A code ending in "?" is a known gap, explained in case.md: the
// product should report it but does not yet; it is logged either way, and
// the "?" is removed once it fires. The analysis is the check CLI's: Snapshot.Diagnose over the files
// on disk, for each file the registry matches, with the CLI's default
// options.

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

const (
	corpusDir      = "../testdata/corpus"
	corpusCaseFile = "case.md"
	// The corpus must stay big enough to mean something.
	corpusMinCases = 20
	corpusMinFiles = 30
)

type corpusCase struct {
	name   string
	src    string              // the case directory in testdata
	valid  bool                // from case.md
	expect map[string][]string // slash path in the case -> expected codes
	files  []string            // every file but case.md, slash paths, sorted
}

// corpusResult is the analysis of one file of a materialized case.
type corpusResult struct {
	cas   string // case name
	rel   string // slash path in the case
	path  string // where it was materialized
	kind  *registry.FileKind
	file  *cache.File
	diags []rules.Diagnostic
}

func loadCorpus(t *testing.T) []*corpusCase {
	t.Helper()
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	var out []*corpusCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := &corpusCase{name: e.Name(), src: filepath.Join(corpusDir, e.Name()), expect: map[string][]string{}}
		err := filepath.WalkDir(c.src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(c.src, p)
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); rel != corpusCaseFile {
				c.files = append(c.files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("corpus %s: %v", c.name, err)
		}
		slices.Sort(c.files)
		c.parseCaseFile(t)
		out = append(out, c)
	}
	return out
}

// parseCaseFile reads the valid and expect lines of case.md.
func (c *corpusCase) parseCaseFile(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.src, corpusCaseFile))
	if err != nil {
		t.Fatalf("corpus %s: every case needs a %s: %v", c.name, corpusCaseFile, err)
	}
	sawValid := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "valid:"); ok {
			switch strings.TrimSpace(v) {
			case "true":
				c.valid = true
			case "false":
				c.valid = false
			default:
				t.Fatalf("corpus %s: %q: want valid: true or valid: false", c.name, line)
			}
			sawValid = true
			continue
		}
		if v, ok := strings.CutPrefix(line, "expect "); ok {
			file, codes, ok := strings.Cut(v, ":")
			file = strings.TrimSpace(file)
			if !ok || !slices.Contains(c.files, file) {
				t.Fatalf("corpus %s: %q: want \"expect <file of the case>: code, ...\"", c.name, line)
			}
			list := []string{}
			for _, code := range strings.Split(codes, ",") {
				if code = strings.TrimSpace(code); code != "" {
					list = append(list, code)
				}
			}
			c.expect[file] = list
		}
	}
	if !sawValid {
		t.Fatalf("corpus %s: %s has no \"valid: true|false\" line", c.name, corpusCaseFile)
	}
	if !c.valid && len(c.expect) == 0 {
		t.Fatalf("corpus %s: an invalid case names its invalid files in \"expect <file>: codes\" lines", c.name)
	}
}

// materialize copies the case into a fresh directory; home/ is the fake
// home, as in the scenarios.
func (c *corpusCase) materialize(t *testing.T) (dir string, env registry.Env) {
	t.Helper()
	dir = t.TempDir()
	for _, rel := range c.files {
		data, err := os.ReadFile(filepath.Join(c.src, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	return dir, registry.Env{Home: home, XDGConfigHome: filepath.Join(home, ".config"), GOOS: "linux"}
}

// analyze runs the check CLI's analysis on every file of the case that the
// registry knows. With workspace, the case's directory is also a workspace
// folder (and its git root), as the language server sees it, which adds the
// cross-file findings. A panic is reported against the file that caused it.
func (c *corpusCase) analyze(t *testing.T, workspace bool) []*corpusResult {
	t.Helper()
	dir, env := c.materialize(t)
	reg := registry.Default()
	// The check CLI's options without flags (no command lookup).
	opts := cache.DiagnoseOptions{Registry: reg, Env: env}
	if workspace {
		opts.Folders = []cache.Folder{{Path: dir, GitRoot: dir}}
	}
	snap := cache.NewSession(nil, nil).Snapshot()
	var out []*corpusResult
	for _, rel := range c.files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		kind, known := reg.Match(path, env)
		if !known {
			continue
		}
		r := &corpusResult{cas: c.name, rel: rel, path: path, kind: kind}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("%s/%s: analysis panicked: %v", c.name, rel, e)
				}
			}()
			f, found, ok := snap.Diagnose(path, opts)
			if !ok {
				t.Fatalf("%s/%s: the registry matches the file but Diagnose refused it", c.name, rel)
			}
			r.file, r.diags = f, found
		}()
		out = append(out, r)
	}
	return out
}

// describe renders a diagnostic as "case/file:line:col: severity code:
// message" (1-based line and byte column).
func (r *corpusResult) describe(d rules.Diagnostic) string {
	line, col, err := NewMapper(r.file.Content).LineColumn(d.Span.Start)
	if err != nil {
		return fmt.Sprintf("%s/%s:%v: %s %s: %s", r.cas, r.rel, d.Span, d.Severity, d.Code, d.Message)
	}
	return fmt.Sprintf("%s/%s:%d:%d: %s %s: %s", r.cas, r.rel, line, col, d.Severity, d.Code, d.Message)
}

func (r *corpusResult) count(sev ...rules.Severity) int {
	n := 0
	for _, d := range r.diags {
		if slices.Contains(sev, d.Severity) {
			n++
		}
	}
	return n
}

func TestCorpus_Size(t *testing.T) {
	cases := loadCorpus(t)
	files := 0
	reg := registry.Default()
	for _, c := range cases {
		for _, rel := range c.files {
			// Catches a misspelt path: a config file the registry does not
			// know would silently never be analysed.
			abs := filepath.Join("/corpus", c.name, filepath.FromSlash(rel))
			env := registry.Env{Home: filepath.Join("/corpus", c.name, "home"), GOOS: "linux"}
			_, known := reg.Match(abs, env)
			if ext := filepath.Ext(rel); (ext == ".json" || ext == ".jsonc") && !known {
				t.Errorf("%s/%s: no file kind of the registry matches this file", c.name, rel)
			}
			if known {
				files++
			}
		}
	}
	if len(cases) < corpusMinCases || files < corpusMinFiles {
		t.Errorf("corpus has %d cases and %d configuration files; want at least %d and %d", len(cases), files, corpusMinCases, corpusMinFiles)
	}
}

func TestCorpus_ValidFilesHaveNoErrors(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range c.analyze(t, false) {
				if _, listed := c.expect[r.rel]; listed {
					continue // TestCorpus_InvalidFilesAreReported
				}
				for _, d := range r.diags {
					if d.Severity == rules.SeverityError {
						t.Errorf("%s is valid, but: %s", r.rel, r.describe(d))
					} else {
						t.Logf("review: %s", r.describe(d))
					}
				}
			}
		})
	}
}

func TestCorpus_InvalidFilesAreReported(t *testing.T) {
	for _, c := range loadCorpus(t) {
		if len(c.expect) == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range c.analyze(t, false) {
				codes, listed := c.expect[r.rel]
				if !listed {
					continue
				}
				fired := map[string]bool{}
				for _, d := range r.diags {
					fired[d.Code] = true
					t.Logf("%s", r.describe(d))
				}
				var defined, pending, gaps []string
				for _, code := range codes {
					if gap, ok := strings.CutSuffix(code, "?"); ok {
						gaps = append(gaps, gap)
					} else if _, ok := rules.RuleByCode(code); ok {
						defined = append(defined, code)
					} else {
						pending = append(pending, code)
					}
				}
				for _, code := range defined {
					if !fired[code] {
						t.Errorf("%s: rule %q exists but did not fire", r.rel, code)
					}
				}
				if len(pending) > 0 {
					t.Logf("%s: pending, not defined in rules.Rules yet: %s", r.rel, strings.Join(pending, ", "))
				}
				for _, code := range gaps {
					if fired[code] {
						t.Logf("%s: known gap %q is fixed: drop the \"?\" in case.md", r.rel, code)
					} else {
						t.Logf("%s: known gap: %q does not fire (see case.md)", r.rel, code)
					}
				}
				if r.count(rules.SeverityError, rules.SeverityWarning) == 0 {
					if len(pending) > 0 || len(gaps) > 0 {
						t.Logf("%s: pending, nothing reports this file as an error or warning yet", r.rel)
					} else {
						t.Errorf("%s: want at least one error or warning, got none", r.rel)
					}
				}
			}
		})
	}
}

// TestCorpus_NoPanicsAndSpansInRange runs every corpus file through both
// paths, the check CLI's and the language server's (with cross-file
// findings, whose related locations point into other files).
func TestCorpus_NoPanicsAndSpansInRange(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range slices.Concat(c.analyze(t, false), c.analyze(t, true)) {
				m := NewMapper(r.file.Content)
				for _, d := range r.diags {
					if _, err := m.Range(d.Span); err != nil {
						t.Errorf("%s: %s %v: %v", r.rel, d.Code, d.Span, err)
					}
					if _, ok := rules.RuleByCode(d.Code); !ok {
						t.Errorf("%s: code %q is not in rules.Rules (%s)", r.rel, d.Code, d.Message)
					}
					for _, rel := range d.Related {
						rm := m
						if rel.Path != "" && rel.Path != r.path {
							content, err := os.ReadFile(rel.Path)
							if err != nil {
								t.Errorf("%s: %s: related path: %v", r.rel, d.Code, err)
								continue
							}
							rm = NewMapper(content)
						}
						if _, err := rm.Range(rel.Span); err != nil {
							t.Errorf("%s: %s: related %s %v: %v", r.rel, d.Code, rel.Path, rel.Span, err)
						}
					}
				}
				// The conversion the server and the CLI use drops nothing.
				snap := cache.NewSession(nil, nil).Snapshot()
				if got := toProtocolDiagnostics(snap, r.file, r.diags, nil); len(got) != len(r.diags) {
					t.Errorf("%s: %d diagnostics converted, want %d", r.rel, len(got), len(r.diags))
				}
			}
		})
	}
}

// TestCorpus_ValidFilesMatchSchemas holds the corpus and the dialect
// schemas to each other: each file of a valid case validates against the
// schema of every dialect that reads it (.mcp.json against Claude Code's
// and Copilot CLI's). ~/.claude.json is checked against claudeJsonFile, in
// which the top-level mcpServers is optional.
func TestCorpus_ValidFilesMatchSchemas(t *testing.T) {
	for _, c := range loadCorpus(t) {
		if !c.valid {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range c.analyze(t, false) {
				if !r.kind.DeclaresServers() {
					continue
				}
				doc := verdict.Decode(jsonc.Parse(r.file.Content).Root)
				for _, reader := range r.kind.Readers {
					dialect := string(reader.Dialect)
					if !slices.Contains(schemas.Dialects(), dialect) {
						continue
					}
					s, err := schemas.Compiled(dialect)
					if r.kind.ID == "claude-user-state" {
						s, err = schemas.Branch(dialect, "claudeJsonFile")
					}
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Validate(doc); err != nil {
						t.Errorf("%s does not match the %s schema: %v", r.rel, dialect, err)
					}
				}
			}
		})
	}
}
