package lsp

import (
	"bytes"
	"log/slog"
	"reflect"
	"slices"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// RulesDocURL is where each rule code is documented; diagnostics link to
// it through codeDescription so editors can show the rule's page.
const RulesDocURL = "https://github.com/mcp-lsp/mcp-lsp/blob/main/docs/rules.md"

// ruleDocURL is the documentation of one rule code: its anchor in
// RulesDocURL (diagnostics' codeDescription and hover link the same page).
func ruleDocURL(code string) string { return RulesDocURL + "#" + code }

// codeDescriptions holds one CodeDescription per rule code, shared by
// every diagnostic with that code (nothing modifies them): a 1,000-server
// file's 1,300 diagnostics built and spelled the same link each.
var codeDescriptions sync.Map // code -> *protocol.CodeDescription

func codeDescription(code string) *protocol.CodeDescription {
	if cd, ok := codeDescriptions.Load(code); ok {
		return cd.(*protocol.CodeDescription)
	}
	cd, _ := codeDescriptions.LoadOrStore(code, &protocol.CodeDescription{Href: uri.URI(ruleDocURL(code))})
	return cd.(*protocol.CodeDescription)
}

// toProtocolDiagnostics converts analysis findings on file f (and related
// places in other files of snap) to LSP diagnostics. This and the Mapper
// are the only places where byte offsets become UTF-16 positions.
//
// A finding's Data is left out: it is what its quick fixes need, and
// textDocument/codeAction finds the finding again in the snapshot by the
// code and range the client echoes (quickFixActions). Sent, it was a
// third of a publication's bytes (170 of 560 per diagnostic on a
// 1,000-server file), which the client decodes on every edit and keeps.
func toProtocolDiagnostics(snap *cache.Snapshot, f *cache.File, found []rules.Diagnostic, logger *slog.Logger) []protocol.Diagnostic {
	return convertDiagnostics(newLocator(snap, nil), f, found, logger)
}

// convertDiagnostics is toProtocolDiagnostics with the locator (and so the
// Mappers) of the caller: each file is indexed once for all the findings
// and related places that point into it.
func convertDiagnostics(loc *locator, f *cache.File, found []rules.Diagnostic, logger *slog.Logger) []protocol.Diagnostic {
	out, _ := convertReusing(loc, f, found, nil, logger)
	return out
}

// converted is one file's findings as last converted, for the next
// conversion of the same file (convertReusing). Read-only once made.
type converted struct {
	uri     protocol.DocumentURI // the file's own, in related information
	content []byte
	found   []rules.Diagnostic
	diags   []protocol.Diagnostic // diags[i] is found[i] converted,
	ok      []bool                // unless !ok[i] (dropped)
	reused  int                   // findings taken from the last, for tests
}

// convertReusing is convertDiagnostics that takes a finding's conversion
// from prev, the file's last, where it must be the same: the finding is
// the same (at the same index of the sorted list) and everything it
// points at in the file lies before the first byte where the file's text
// changed, so that its positions are the same. An edit of a large file
// changes few of its findings, and leaves the positions of those before
// it as they were: a 1,000-server file's 1,300 findings were each mapped
// and built again. It returns the record for the next call.
func convertReusing(loc *locator, f *cache.File, found []rules.Diagnostic, prev *converted, logger *slog.Logger) ([]protocol.Diagnostic, *converted) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	self := pathToURI(f.Path)
	if f.Overlay != nil {
		self = protocol.DocumentURI(f.Overlay.URI)
	}
	next := &converted{uri: self, content: f.Content, found: found, diags: make([]protocol.Diagnostic, len(found)), ok: make([]bool, len(found))}
	same := 0 // the text's common prefix with prev's
	if prev != nil && prev.uri == self {
		same = commonPrefix(prev.content, f.Content)
	}
	var m *Mapper // made when a finding needs it
	out := make([]protocol.Diagnostic, 0, len(found))
	for i, d := range found {
		if prev != nil && i < len(prev.found) && prev.ok[i] && before(d, f.Path, same) && sameFinding(&d, &prev.found[i]) {
			next.diags[i], next.ok[i] = prev.diags[i], true
			next.reused++
			out = append(out, prev.diags[i])
			continue
		}
		if m == nil {
			m = loc.cache.of(f)
		}
		rng, err := m.Range(d.Span)
		if err != nil {
			// A span outside the file is a bug in a rule; drop the one
			// finding rather than the whole publication.
			logger.Error("diagnostic span out of range", "code", d.Code, "path", f.Path, "error", err)
			continue
		}
		pd := protocol.Diagnostic{
			Range:           rng,
			Severity:        protocol.DiagnosticSeverity(d.Severity),
			Code:            d.Code,
			CodeDescription: codeDescription(d.Code),
			Source:          "mcp-lsp",
			Message:         d.Message,
		}
		for _, t := range d.Tags {
			pd.Tags = append(pd.Tags, protocol.DiagnosticTag(t))
		}
		for _, r := range d.Related {
			rl, ok := relatedLocation(loc, f, m, r)
			if ok {
				pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: rl, Message: r.Message})
			}
		}
		next.diags[i], next.ok[i] = pd, true
		out = append(out, pd)
	}
	return out, next
}

// before reports whether every place finding d points at in its file
// (path) ends before offset at, so that its positions are those of the
// same offsets in any text with the same first at bytes. A related place
// in another file depends on that file: never.
func before(d rules.Diagnostic, path string, at int) bool {
	if d.Span.End >= at {
		return false
	}
	for _, r := range d.Related {
		if (r.Path != "" && r.Path != path) || r.Span.End >= at {
			return false
		}
	}
	return true
}

// sameFinding reports whether a and b convert alike in the same text
// (their Data is not converted).
func sameFinding(a, b *rules.Diagnostic) bool {
	return a.Span == b.Span && a.Severity == b.Severity && a.Code == b.Code && a.Message == b.Message &&
		slices.Equal(a.Tags, b.Tags) && slices.Equal(a.Related, b.Related)
}

// commonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time (bytes.Equal is vectorised).
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	const block = 4096
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func relatedLocation(loc *locator, f *cache.File, m *Mapper, r rules.Related) (protocol.Location, bool) {
	targetURI := pathToURI(f.Path)
	if f.Overlay != nil {
		targetURI = protocol.DocumentURI(f.Overlay.URI)
	}
	if r.Path != "" && r.Path != f.Path {
		targetURI = loc.uri(r.Path)
		m = loc.mapper(r.Path)
	}
	rng, err := m.Range(r.Span)
	if err != nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: targetURI, Range: rng}, true
}

// diagnosticEqual compares two converted diagnostics, so unchanged results
// are not sent again.
func diagnosticEqual(a, b protocol.Diagnostic) bool { return reflect.DeepEqual(a, b) }
