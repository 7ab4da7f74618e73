//go:build unix

package rules

import (
	"bytes"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// TestSuppressReadsOnlyTheComments: in JSON(C) an ignore directive counts
// only inside a comment, so Suppress must look at the parser's comments
// and nothing else. A tool's state file (~/.claude.json, tens of
// megabytes, no comments) is diagnosed again on every edit of another
// file; scanning it whole for the directive cost 44% of the server's CPU
// per edit. The test asserts on the work done, not on time: the file's
// bytes lie in memory that faults on any read outside the page holding
// its comment, and the rest of the file mentions the directive in strings
// (which do not count), so a scan of the whole text both faults and would
// find something.
func TestSuppressReadsOnlyTheComments(t *testing.T) {
	page := os.Getpagesize()
	var b strings.Builder
	b.WriteString("{\n  // the projects\n  \"history\": [")
	for b.Len() < 64*page {
		b.WriteString("\"" + ignoreDirective + " " + CodeDuplicateKey + "\", ")
	}
	b.WriteString("\"last\"]\n}\n")
	text := []byte(b.String())
	parsed := jsonc.Parse(text)
	if len(parsed.Errors) != 0 || len(parsed.Comments) != 1 || parsed.Comments[0].End > page {
		t.Fatalf("the test file does not parse as meant: %v, comments %v", parsed.Errors, parsed.Comments)
	}

	mem, err := syscall.Mmap(-1, 0, len(text)+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	content := mem[:len(text)]
	copy(content, text)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Munmap(mem); err != nil {
			t.Error(err)
		}
	})

	at := bytes.Index(text, []byte(`"history"`)) // on the line after the comment
	ds := []Diagnostic{{Span: span.New(at, at+9), Severity: SeverityWarning, Code: CodeDuplicateKey, Message: "a finding"}}
	in := SuppressInput{Path: "/home/ann/.claude.json", Content: content, Parsed: parsed, CrossFile: true}
	var got []Diagnostic
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Suppress read the file outside its comments: %v", r)
			}
		}()
		got = (&Config{}).Suppress(in, ds)
	}()
	if !reflect.DeepEqual(got, ds) {
		t.Errorf("Suppress changed the findings of a file without ignore comments: %v", got)
	}

	// The same file with the directive in its comment (on a readable
	// copy): the finding on the next line is silenced, so the guard above
	// does not pass because Suppress never looks at all.
	withIgnore := bytes.Replace(text, []byte("// the projects"), []byte("// "+ignoreDirective+" "+CodeDuplicateKey), 1)
	in = SuppressInput{Path: in.Path, Content: withIgnore, Parsed: jsonc.Parse(withIgnore), CrossFile: true}
	at = bytes.Index(withIgnore, []byte(`"history"`))
	ds[0].Span = span.New(at, at+9)
	if got := (&Config{}).Suppress(in, ds); len(got) != 0 {
		t.Errorf("the ignore comment did not silence the finding on the next line: %v", got)
	}
}
