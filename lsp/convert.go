package lsp

import (
	"log/slog"
	"reflect"
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
func toProtocolDiagnostics(snap *cache.Snapshot, f *cache.File, found []rules.Diagnostic, logger *slog.Logger) []protocol.Diagnostic {
	return convertDiagnostics(newLocator(snap, nil), f, found, logger)
}

// convertDiagnostics is toProtocolDiagnostics with the locator (and so the
// Mappers) of the caller: each file is indexed once for all the findings
// and related places that point into it.
func convertDiagnostics(loc *locator, f *cache.File, found []rules.Diagnostic, logger *slog.Logger) []protocol.Diagnostic {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := loc.cache.of(f)
	out := make([]protocol.Diagnostic, 0, len(found))
	for _, d := range found {
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
		if len(d.Data) > 0 {
			pd.Data = d.Data
		}
		out = append(out, pd)
	}
	return out
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
