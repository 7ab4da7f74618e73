// Package rules holds every rule of a single MCP configuration file, each
// one value (code, default severity, check; see Rules), and turns what
// package verdict decides about each entry into findings. It never decides
// a reader's treatment of an entry itself.
//
// Everything here is pure: no I/O, no goroutines, no clocks. Inputs are
// byte slices and parsed trees; outputs are protocol-neutral values with
// byte-offset spans (see package span). The language server and the check
// CLI convert these values to their own representations in one place each,
// so the same finding reads the same in an editor and in CI.
package rules

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Severity orders findings by how badly a tool that reads the file is
// affected. The numeric values match LSP's DiagnosticSeverity so the
// conversion is trivial, but nothing here depends on LSP.
type Severity int

const (
	// SeverityError: at least one tool that reads the file drops the whole
	// file or skips the entry.
	SeverityError Severity = 1
	// SeverityWarning: every reader accepts it, but something is silently
	// stripped or ignored, or the result is almost certainly not meant.
	SeverityWarning Severity = 2
	// SeverityInformation: a note, e.g. a file only some tools read.
	SeverityInformation Severity = 3
	// SeverityHint: the mildest note, e.g. a deprecated spelling.
	SeverityHint Severity = 4
)

// String returns the lower-case name used by the CLI ("error", "warning",
// "info", "hint").
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "unknown"
}

// Tag mirrors the LSP diagnostic tags without depending on LSP.
type Tag int

const (
	// TagUnnecessary marks code that can be removed (faded out by editors).
	TagUnnecessary Tag = 1
	// TagDeprecated marks a deprecated spelling (struck through by editors).
	TagDeprecated Tag = 2
)

// Related points at another place that explains a finding, e.g. the
// duplicate key that wins over the flagged one. Path is empty for a place
// in the same file.
type Related struct {
	Path    string    `json:"path,omitempty"`
	Span    span.Span `json:"span"`
	Message string    `json:"message"`
}

// Diagnostic is one finding in one file.
type Diagnostic struct {
	Span     span.Span `json:"span"`
	Severity Severity  `json:"severity"`
	// Code is the stable rule code (see docs/rules.md). Users configure
	// rules by it and quick fixes dispatch on it, so codes never change.
	Code    string    `json:"code"`
	Message string    `json:"message"`
	Related []Related `json:"related,omitempty"`
	Tags    []Tag     `json:"tags,omitempty"`
	// Data carries facts about the finding (the server, the tools, the
	// field) and, under "fix", the quick fix the rule offers (a [Fix]).
	// It must never contain a secret value. It is read-only once the
	// finding is made: memos of findings (Cache) and of publications
	// share it between every copy of the finding they hand out.
	Data map[string]any `json:"data,omitempty"`
}

// compareDiagnostics is the order of SortDiagnostics.
func compareDiagnostics(a, b *Diagnostic) int {
	// Not cmp.Or, which compares the strings of findings that differ
	// in position already.
	if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Span.End, b.Span.End); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// SortDiagnostics orders diagnostics by position, then code and message, so
// output is deterministic (schema validators and map iteration are not).
//
// The sort is stable. It sorts indexes, not the findings (112 bytes each,
// which a stable sort of 1,300 moved about many times over), and leaves
// a list sorted already as it is.
func SortDiagnostics(ds []Diagnostic) {
	order := compareDiagnostics
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = order(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	idx := make([]int32, len(ds))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := order(&ds[a], &ds[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]Diagnostic, len(ds))
	for i, j := range idx {
		out[i] = ds[j]
	}
	copy(ds, out)
}

// MergeSorted returns a new list of the findings of a and b, each sorted
// by SortDiagnostics, in that order: what SortDiagnostics makes of a
// followed by b (the sort is stable, so a finding of a comes before an
// equal one of b), in one pass. The server merges a file's cross-file
// findings into its own this way.
func MergeSorted(a, b []Diagnostic) []Diagnostic {
	if len(a)+len(b) == 0 && a == nil {
		return nil // as slices.Clone(a) with nothing appended
	}
	out := make([]Diagnostic, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compareDiagnostics(&b[0], &a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}
