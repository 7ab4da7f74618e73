package fix

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// Fix is one quick fix for one diagnostic.
type Fix struct {
	Title string
	// Safe marks a fix that "fix all" (source.fixAll) may apply without
	// the user looking at it: the rule said so (rules.Fix.Safe) and
	// the edit loses nothing the rule did not know about.
	Safe bool
	// lossy marks an edit that loses something the rule did not see (a
	// default the file gained since): never safe.
	lossy bool
	// Preferred marks the fix that properly addresses the problem, the
	// one an editor's "auto fix" applies.
	Preferred bool
	// Edits are all in the diagnostic's file, sorted.
	Edits []Edit
}

// fixer computes the fixes of one rule from the fix the rule offers
// (diag.Data.Fix, of a kind rules.RuleFixes lists for the code). It
// checks the tree at the diagnostic's span before trusting Data, and
// returns nothing when the file no longer looks like the diagnostic says.
// Whether a fix is safe is the rule's word, not the fixer's.
type fixer func(d *Document, diag Diagnostic) []Fix

// fixers maps rule codes to their fixers; codes without an entry have
// none (docs/rules.md lists the codes and their kinds of fix).
var fixers = map[string]fixer{
	rules.CodeTrailingCommaJSON:    fixTrailingComma,
	rules.CodeCommentInJSON:        fixComment,
	rules.CodeSyntaxError:          fixSyntax,
	rules.CodeDuplicateKey:         fixDuplicateKey,
	rules.CodeTypeNotAccepted:      fixTypeValue,
	rules.CodeUnknownServerType:    fixTypeValue,
	rules.CodeMissingType:          fixMissingType,
	rules.CodeForeignKey:           fixForeignKey,
	rules.CodeCommandForm:          fixCommandForm,
	rules.CodeUnknownKey:           fixRenameKey,
	rules.CodeWrongServerMapKey:    fixRenameKey,
	rules.CodeMissingServerMap:     fixRenameKey,
	rules.CodeInvalidURL:           fixURLScheme,
	rules.CodeForeignInterpolation: fixInterpolation,
	rules.CodeUndefinedInput:       fixInterpolation,
	rules.CodeLiteralSecret:        fixLiteralSecret,
	rules.CodeDuplicateServer:      fixDuplicateServer,
	rules.CodeUnusedIgnore:         fixComment,
	rules.CodeWindowsCmdWrapper:    fixWrapCommand,
	rules.CodeServerStartedTwice:   fixDuplicateServer,
	rules.CodeApproveEverything:    fixRemoveSetting,
}

// QuickFixes returns the fixes for one diagnostic of doc, each with
// edits that apply cleanly to doc's content.
func QuickFixes(doc *Document, diag Diagnostic) []Fix {
	f := fixers[diag.Code]
	if f == nil || !slices.Contains(rules.RuleFixes[diag.Code], diag.Data.Fix.Kind) ||
		!doc.isJSON() || diag.Span.Start < 0 || diag.Span.End > len(doc.Content) || diag.Span.End < diag.Span.Start {
		return nil
	}
	var out []Fix
	for _, fx := range f(doc, diag) {
		sortEdits(fx.Edits)
		if len(fx.Edits) == 0 || !applies(doc, fx.Edits) {
			continue
		}
		fx.Safe = diag.Data.Fix.Safe && !fx.lossy
		out = append(out, fx)
	}
	return out
}

// applies checks that edits apply to doc and do not overlap.
func applies(doc *Document, edits []Edit) bool {
	for i := 1; i < len(edits); i++ {
		if overlaps(edits[i-1], edits[i]) {
			return false
		}
	}
	_, err := Apply(doc.Content, edits)
	return err == nil
}

// FixAll combines the safe fix of every diagnostic that has one, in
// order, skipping a fix whose edits touch an earlier one's (the next run
// picks it up) or that would add a syntax error. It returns the edits
// and how many fixes they make. The editor's fix-all (source.fixAll) and
// `mcp-lsp check --fix` both apply exactly these edits.
func FixAll(doc *Document, diags []Diagnostic) ([]Edit, int) { return fixAll(doc, diags, false) }

// FixAllUnsafe is [FixAll] with the fixes that change what the file
// means as well (`check --fix --unsafe`): a removal, a suggested key, a
// secret moved into a variable. For a diagnostic with several fixes it
// takes the safe one, else the preferred one, else the first.
func FixAllUnsafe(doc *Document, diags []Diagnostic) ([]Edit, int) { return fixAll(doc, diags, true) }

func fixAll(doc *Document, diags []Diagnostic, unsafe bool) ([]Edit, int) {
	var chosen []Edit
	n := 0
	before := len(doc.parsed().Errors)
	for _, diag := range diags {
		if !unsafe && !diag.Data.Fix.Safe {
			continue // the rule says no fix of it is safe: none is picked
		}
		fx, ok := pick(QuickFixes(doc, diag), unsafe)
		if !ok {
			continue
		}
		if slices.ContainsFunc(fx.Edits, func(e Edit) bool {
			return slices.ContainsFunc(chosen, func(c Edit) bool { return touches(e, c) })
		}) {
			continue
		}
		next := append(slices.Clone(chosen), fx.Edits...)
		sortEdits(next)
		out, err := Apply(doc.Content, next)
		if err != nil || len(jsonc.Parse(out).Errors) > before {
			continue
		}
		chosen = next
		n++
	}
	return chosen, n
}

// pick chooses the fix fix-all applies for one diagnostic: the first safe
// one; with unsafe, failing that, the preferred one, else the first.
func pick(fixes []Fix, unsafe bool) (Fix, bool) {
	if i := slices.IndexFunc(fixes, func(f Fix) bool { return f.Safe }); i >= 0 {
		return fixes[i], true
	}
	if !unsafe || len(fixes) == 0 {
		return Fix{}, false
	}
	if i := slices.IndexFunc(fixes, func(f Fix) bool { return f.Preferred }); i >= 0 {
		return fixes[i], true
	}
	return fixes[0], true
}

// touches is overlaps, stricter: edits of two different fixes must not
// even meet, since each was computed without the other.
func touches(a, b Edit) bool {
	return a.Path == b.Path && a.Span.Start <= b.Span.End && b.Span.Start <= a.Span.End
}
