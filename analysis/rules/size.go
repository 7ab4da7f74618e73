package rules

import (
	"fmt"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// CodeFileTooLarge is the rule code of a configuration file too large to
// analyse.
const CodeFileTooLarge = "file-too-large"

// MaxConfigSize is the largest file analysed, unless its kind is a tool's
// state file (registry.FileKind.Skim). A configuration a person writes is
// a few kilobytes; 1,000 servers are 300 KB. A file of 16 MB is generated
// or a mistake, and analysing it on every keystroke would stall the
// diagnostics of every other file, so it gets one finding instead. The
// limit applies to an open editor buffer too: the client has already sent
// the text, but analysing it is the cost being bounded, not reading it.
const MaxConfigSize = 16 << 20

// sizeRules are the rules of size.go.
var sizeRules = []Rule{
	{CodeFileTooLarge, SeverityWarning, "The file is larger than 16 MB, too large for a configuration file a person edits; it is not analysed.", reportedIn("TooLarge, by the caller that reads the file")},
}

// TooLarge is the one finding of a file of size bytes that is not
// analysed: over limit, MaxConfigSize or (for a state file) the most
// that is ever read.
func TooLarge(size, limit int64) Diagnostic {
	return Diagnostic{
		Span:     span.New(0, 0),
		Severity: SeverityWarning,
		Code:     CodeFileTooLarge,
		Message:  fmt.Sprintf("file too large to analyse: %d bytes, more than %s; no other problem is reported", size, byteSize(limit)),
		Data:     map[string]any{"size": size, "limit": limit},
	}
}

// byteSize writes n bytes for people: "16 MB", "17.5 MB", "900 bytes".
func byteSize(n int64) string {
	const mb = 1 << 20
	switch {
	case n < mb:
		return fmt.Sprintf("%d bytes", n)
	case n%mb == 0:
		return fmt.Sprintf("%d MB", n/mb)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/mb)
}
