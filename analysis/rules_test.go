package analysis

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from the rule list")

// TestRulesDoc keeps docs/rules.md in step with Rules: the table there is
// generated from the list (go test ./analysis -run TestRulesDoc -update).
func TestRulesDoc(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Code] {
			t.Errorf("rule code %q listed twice", r.Code)
		}
		seen[r.Code] = true
		if r.Summary == "" || r.Severity < SeverityError || r.Severity > SeverityHint {
			t.Errorf("rule %q: needs a summary and a default severity", r.Code)
		}
	}
	path := filepath.Join("..", "docs", "rules.md")
	want := renderRulesDoc()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/rules.md is out of date: run go test ./analysis -run TestRulesDoc -update")
	}
}

func renderRulesDoc() []byte {
	var b strings.Builder
	b.WriteString(`# mcp-lsp rules

Every diagnostic carries one of these codes (the editor links it here).
Codes are stable. Change a rule's severity, or turn it off, per code: in the
editor setting ` + "`mcpLsp.rules`" + ` or in the project file ` + "`.mcp-lsp.json`" + `
(` + "`{\"rules\": {\"duplicate-key\": \"off\"}}`" + `).

Default severities follow one principle: **error** when at least one tool that
reads the file drops the whole file or skips the entry; **warning** when every
reader accepts it but something is silently ignored or almost certainly not
meant; **info** and **hint** for notes.

This file is generated from the rule list in ` + "`analysis/`" + `
(` + "`go test ./analysis -run TestRulesDoc -update`" + `).

| code | default | what it reports |
|---|---|---|
`)
	for _, r := range Rules {
		fmt.Fprintf(&b, "| <a id=\"%s\"></a>`%s` | %s | %s |\n", r.Code, r.Code, r.Severity, strings.ReplaceAll(r.Summary, "|", "\\|"))
	}
	return []byte(b.String())
}
