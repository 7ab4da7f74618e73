package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// wholeFile is AnalyzeFile without the file memo (analyzeWhole), in a
// cache of its own.
func wholeFile(in FileInput) []Diagnostic {
	in.Cache = NewCache()
	if in.Registry == nil {
		in.Registry = registry.Default()
	}
	if in.Parsed == nil {
		in.Parsed = jsonc.Parse(in.Content)
	}
	in.Kind = restrictReaders(in.Kind, &in.Config)
	in.index = &parseIndex{}
	return analyzeWhole(in)
}

// reparse is in with other content, parsed as in was.
func reparse(in FileInput, content string) FileInput {
	in.Content = []byte(content)
	if strings.HasSuffix(in.Path, ".toml") {
		in.Parsed = toml.Parse(in.Content)
	} else {
		in.Parsed = jsonc.Parse(in.Content)
	}
	return in
}

// TestByEntrySameAsWhole: on every file of the scenarios and agreement
// scenarios, as written, with CRLF line ends, with non-ASCII text before
// everything and with a severity override, AnalyzeFile gives what the
// whole-file analysis gives: on a first analysis (every server judged),
// on a second one (every server from the file memo), and after an edit
// inside the file that moves what follows it.
func TestByEntrySameAsWhole(t *testing.T) {
	files := scenarioFiles(t)
	byEntry := 0
	for _, base := range files {
		text := string(base.Content)
		variants := map[string]string{
			"as written": text,
			"crlf":       strings.ReplaceAll(text, "\n", "\r\n"),
		}
		if i := strings.IndexByte(text, '{'); i >= 0 && !strings.HasSuffix(base.Path, ".toml") {
			variants["non-ascii first"] = text[:i+1] + "\n  // é€😀\n" + text[i+1:]
		}
		for name, content := range variants {
			for _, severity := range []map[string]Severity{nil, {CodeUnpinnedPackage: SeverityOff, CodeUnknownKey: SeverityError, CodeForeignKey: SeverityHint}} {
				in := reparse(base, content)
				in.Config.Severity = severity
				in.Cache = NewCache()
				want := wholeFile(in)
				for _, pass := range []string{"first", "second"} {
					if got := AnalyzeFile(in); !reflect.DeepEqual(got, want) {
						t.Errorf("%s (%s, %s analysis, severities %v):\n%s\nwant (whole file):\n%s", in.Path, name, pass, severity, memoDump(got), memoDump(want))
					}
				}
				// An edit in the middle of the file: a longer string value
				// there, or some text (a syntax error) if it has none.
				mid := len(content) / 2
				edited := content[:mid] + "xé" + content[mid:]
				if q := strings.IndexByte(content[mid:], '"'); q >= 0 {
					at := mid + q + 1
					edited = content[:at] + "é-longer-" + content[at:]
				}
				ed := reparse(in, edited)
				if got, want := AnalyzeFile(ed), wholeFile(ed); !reflect.DeepEqual(got, want) {
					t.Errorf("%s (%s, edited at %d, severities %v):\n%s\nwant (whole file):\n%s", in.Path, name, mid, severity, memoDump(got), memoDump(want))
				}
				x := in
				x.Kind = restrictReaders(x.Kind, &x.Config)
				x.index = &parseIndex{}
				if _, ok := analyzeByEntry(x); ok {
					byEntry++
				}
			}
		}
	}
	if byEntry < len(files) {
		t.Errorf("only %d of %d analyses went server by server: the test compares little", byEntry, 6*len(files))
	}
}

// TestEditInsideOneServerRejudgesOnlyIt: in a 1,000-server .mcp.json read
// by four tools, with non-ASCII text and CRLF line ends before the
// edited server, an edit inside server 500 that makes it longer judges
// that server only (one entry for each per-entry memo), and every other
// server's findings are where they are in a fresh analysis of the new
// text: the ones before it unmoved, the ones after it moved by the
// edit's length.
func TestEditInsideOneServerRejudgesOnlyIt(t *testing.T) {
	text := string(benchgen.MCPJSON(1000, true, true))
	text = strings.Replace(text, "{\n", "{\r\n  // Überprüfung der Server: 日本語 😀\r\n", 1)
	text = strings.Replace(text, `"server-00001": {`+"\n", `"server-00001": {`+"\r\n", 1)
	kind := workspaceKind(t)
	cache := NewCache()
	res := fakeResolver{programs: map[string]bool{"npx": true}}
	analyze := func(text string) []Diagnostic {
		content := []byte(text)
		return AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: content, Parsed: jsonc.Parse(content), Kind: kind, Cache: cache, Resolver: res})
	}
	before := analyze(text)
	if len(before) < 1000 {
		t.Fatalf("%d findings, want one per npx server at least", len(before))
	}
	content := []byte(text)
	if whole := wholeFile(FileInput{Path: "/p/.mcp.json", Content: content, Parsed: jsonc.Parse(content), Kind: kind, Resolver: res}); !reflect.DeepEqual(before, whole) {
		t.Fatal("the first analysis, server by server on both cores, differs from the whole-file analysis")
	}
	at := strings.Index(text, `"@example/server-500"`) + len(`"@example/server-`)
	edited := text[:at] + "ünïcode-" + text[at:]
	delta := len("ünïcode-")
	computed, judged := cache.Computed(), cache.judged
	after := analyze(edited)
	if n := cache.Computed() - computed; n < 1 || n > 3 {
		t.Errorf("the edit judged %d entries, want server 500's only (one per memo, 3 at most)", n)
	}
	if n := cache.judged - judged; n != 1 {
		t.Errorf("the edit judged %d servers, want server 500 only", n)
	}
	cold := NewCache()
	content = []byte(edited)
	want := AnalyzeFile(FileInput{Path: "/p/.mcp.json", Content: content, Parsed: jsonc.Parse(content), Kind: kind, Cache: cold, Resolver: res})
	if !reflect.DeepEqual(after, want) {
		t.Fatalf("after the edit:\n%s\nwant (a fresh analysis):\n%s", memoDump(after[:min(len(after), 20)]), memoDump(want[:min(len(want), 20)]))
	}
	// The findings of the others: the same, moved by delta after the edit.
	moved := 0
	var edited500 []Diagnostic
	for _, d := range after {
		if s, _ := d.Data["server"].(string); s == "server-00500" {
			edited500 = append(edited500, d)
		}
	}
	var others []Diagnostic
	for _, d := range before {
		if s, _ := d.Data["server"].(string); s == "server-00500" {
			continue
		}
		if d.Span.Start > at {
			d = rebase(d, delta)
			moved++
		}
		others = append(others, d)
	}
	var afterOthers []Diagnostic
	for _, d := range after {
		if s, _ := d.Data["server"].(string); s != "server-00500" {
			afterOthers = append(afterOthers, d)
		}
	}
	if moved < 500 || !reflect.DeepEqual(afterOthers, others) {
		t.Errorf("the other servers' findings (%d moved) are not the earlier ones re-based", moved)
	}
	if !strings.Contains(fmt.Sprint(edited500), "server-ünïcode-500") {
		t.Errorf("server 500's findings after the edit do not name its new package: %v", edited500)
	}
	// A command lookup that changes its answer is asked again: every npx
	// server gets command-not-found.
	res.programs["npx"] = false
	notFound := 0
	for _, d := range analyze(edited) {
		if d.Code == CodeCommandNotFound {
			notFound++
		}
	}
	if notFound < 600 {
		t.Errorf("%d command-not-found after npx went missing, want one per npx server", notFound)
	}
}
