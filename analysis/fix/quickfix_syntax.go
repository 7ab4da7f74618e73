package fix

import (
	"fmt"
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// Fixes for the syntax rules: what keeps a strict JSON reader from
// reading the file, and keys of which only the last counts.

// fixTrailingComma deletes a trailing comma. Nothing is lost: the comma
// separates nothing.
func fixTrailingComma(d *Document, diag Diagnostic) []Fix {
	sp := diag.Span
	if sp.Len() != 1 || d.Content[sp.Start] != ',' || !slices.Contains(d.parsed().TrailingCommas, sp) {
		return nil
	}
	return []Fix{{Title: "Remove the trailing comma", Preferred: true, Edits: []Edit{d.edit(sp.Start, sp.End, "")}}}
}

// fixComment deletes a comment: with its line when it has the line to
// itself, else with the blanks before it. Not safe: the comment's text is
// lost (the user may want to keep it elsewhere).
func fixComment(d *Document, diag Diagnostic) []Fix {
	sp := diag.Span
	if !slices.Contains(d.parsed().Comments, sp) {
		return nil
	}
	src := d.Content
	start, end := sp.Start, sp.End
	switch {
	case startsLine(src, start) && endsLine(src, end):
		start, end = lineStart(src, start), nextLine(src, end)
	case endsLine(src, end):
		for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
			start--
		}
	default:
		end = skipBlanks(src, end)
	}
	return []Fix{{Title: "Remove the comment", Preferred: true, Edits: []Edit{d.edit(start, end, "")}}}
}

// fixSyntax repairs the one syntax error whose fix is certain: a missing
// comma between two members or elements goes right after the first, when
// that leaves the file with fewer errors.
func fixSyntax(d *Document, diag Diagnostic) []Fix {
	if f := diag.Data.Fix; f.Kind != rules.FixInsertText || f.Value != "," {
		return nil
	}
	at := d.tokenBefore(diag.Span.Start)
	if at == 0 || slices.Contains([]byte("{[,:"), d.Content[at-1]) {
		return nil
	}
	edits := []Edit{d.edit(at, at, diag.Data.Fix.Value)}
	// The comma must repair the file, not move the error elsewhere:
	// {"a": 1 "b"} is missing a colon as much as a comma.
	if out, err := Apply(d.Content, edits); err != nil || len(jsonc.Parse(out).Errors) >= len(d.parsed().Errors) {
		return nil
	}
	return []Fix{{Title: "Insert the missing comma", Preferred: true, Edits: edits}}
}

// fixDuplicateKey removes a key that a later one of the same name
// overrides. Not safe: the ignored value may be the one the user meant.
func fixDuplicateKey(d *Document, diag Diagnostic) []Fix {
	obj, i, ok := d.memberOfKey(diag.Span)
	if !ok {
		return nil
	}
	key := obj.Members()[i].Key.Str
	if f := diag.Data.Fix; f.Kind != rules.FixRemoveMember || key != f.Key || obj.Get(key) == obj.Members()[i] {
		return nil // no longer a duplicate, or no longer this key
	}
	return []Fix{{
		Title:     fmt.Sprintf("Remove the ignored duplicate %s", quote(key)),
		Preferred: true,
		Edits:     d.removeMember(obj, i),
	}}
}
