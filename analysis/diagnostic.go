package analysis

import "github.com/mcp-lsp/mcp-lsp/analysis/rules"

// A finding, its severity, tags and related places (see analysis/rules).

// Severity is rules.Severity.
type Severity = rules.Severity

const SeverityError = rules.SeverityError
const SeverityWarning = rules.SeverityWarning
const SeverityInformation = rules.SeverityInformation
const SeverityHint = rules.SeverityHint

// Tag is rules.Tag.
type Tag = rules.Tag

const TagUnnecessary = rules.TagUnnecessary
const TagDeprecated = rules.TagDeprecated

// Related is rules.Related.
type Related = rules.Related

// Diagnostic is rules.Diagnostic.
type Diagnostic = rules.Diagnostic

// SortDiagnostics: see rules.SortDiagnostics.
func SortDiagnostics(ds []rules.Diagnostic) { rules.SortDiagnostics(ds) }
