package lsp

import (
	"bytes"
	"cmp"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// RulesDocURL is where each rule code is documented; diagnostics link to
// it through codeDescription so editors can show the rule's page.
const RulesDocURL = "https://github.com/mcp-lsp/mcp-lsp/blob/main/docs/rules.md"

// ruleDocURL is the documentation of one rule code: its anchor in
// RulesDocURL (diagnostics' codeDescription and hover link the same page).
func ruleDocURL(code string) string { return RulesDocURL + "#" + code }

// ruleCodes holds, per rule code, the code as a diagnostic's Code (an
// interface: boxing the string for each diagnostic was an allocation per
// finding, 33,000 on the minified 20,000-server file) and its one
// CodeDescription, shared by every diagnostic with that code (nothing
// modifies them): a 1,000-server file's 1,700 diagnostics built and
// spelled the same link each.
var ruleCodes sync.Map // code -> ruleCode

type ruleCode struct {
	code any // a string
	desc *protocol.CodeDescription
}

func ruleCodeOf(code string) ruleCode {
	if rc, ok := ruleCodes.Load(code); ok {
		return rc.(ruleCode)
	}
	rc, _ := ruleCodes.LoadOrStore(code, ruleCode{code: code, desc: &protocol.CodeDescription{Href: uri.URI(ruleDocURL(code))}})
	return rc.(ruleCode)
}

func codeDescription(code string) *protocol.CodeDescription { return ruleCodeOf(code).desc }

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
// conversion of the same file (convertReusing). Read-only once made; its
// diags may be the very list convertReusing returned, which is read-only
// too.
type converted struct {
	uri     protocol.DocumentURI // the file's own, in related information
	content []byte
	found   []rules.Diagnostic
	diags   []protocol.Diagnostic // diags[i] is found[i] converted,
	ok      []bool                // unless !ok[i] (dropped)
	out     []protocol.Diagnostic // what convertReusing returned
	reused  int                   // findings taken from the last, for tests
}

// convertReusing is convertDiagnostics that takes a finding's conversion
// from prev, the file's last, where it must be the same but for a shift
// of lines: an edit of a large file changes few of its findings, leaves
// the positions of those before it as they were, and moves those on the
// lines after it by as many lines as it added or removed. A 1,000-server
// file's 1,670 findings were each mapped and built again on every
// keystroke. It returns the record for the next call.
//
// A finding before the edit (everything it points at in the file ends
// before the first byte that changed) is taken over if prev has the same
// finding. One after it (everything it points at in the file starts on a
// line that begins after the last changed byte) is taken over, its lines
// shifted, if prev has the same finding at the offsets before the edit. A
// related place in another file depends on that file: such findings are
// converted again.
func convertReusing(loc *locator, f *cache.File, found []rules.Diagnostic, prev *converted, logger *slog.Logger) ([]protocol.Diagnostic, *converted) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	self := pathToURI(f.Path)
	if f.Overlay != nil {
		self = protocol.DocumentURI(f.Overlay.URI)
	}
	if prev != nil && prev.uri == self && unchanged(prev, f, found) {
		// Nothing changed (the file is re-diagnosed for an edit of
		// another, or opened over the disk's bytes just analysed): the
		// last result is the result, not a new list of every finding
		// (33,000 of them, 5 MB, in the minified 20,000-server file).
		next := *prev
		next.found, next.content, next.reused = found, f.Content, len(found)
		return prev.out, &next
	}
	next := &converted{uri: self, content: f.Content, found: found, diags: make([]protocol.Diagnostic, len(found)), ok: make([]bool, len(found))}
	var ch change
	if prev != nil && prev.uri == self {
		ch = changeBetween(prev.content, f.Content)
	} else {
		prev = nil
	}
	var m *Mapper // made when a finding needs it
	j := 0        // the first of prev.found that may still match a finding
	for i, d := range found {
		if prev != nil {
			shift, lines, near := 0, 0, true
			switch {
			case before(d, f.Path, ch.start):
				near = false
			case onLinesAfter(d, f.Path, ch.nextLine):
				shift, lines, near = ch.shift, ch.lines, false
			}
			// Both lists are sorted (rules.SortDiagnostics), and the
			// edit keeps the order of what it leaves: a merge finds the
			// finding's last conversion, findings added or removed
			// anywhere notwithstanding.
			for !near && j < len(prev.found) && sortsBefore(&prev.found[j], &d, shift) {
				j++
			}
			if !near && j < len(prev.found) && prev.ok[j] && sameFinding(&d, &prev.found[j], shift) {
				pd := shiftLines(prev.diags[j], self, lines)
				j++
				next.diags[i], next.ok[i] = pd, true
				next.reused++
				continue
			}
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
		rc := ruleCodeOf(d.Code)
		pd := protocol.Diagnostic{
			Range:           rng,
			Severity:        protocol.DiagnosticSeverity(d.Severity),
			Code:            rc.code,
			CodeDescription: rc.desc,
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
	}
	if !slices.Contains(next.ok, false) {
		// Nothing dropped: the record's list is the result (both are
		// read-only), not a second copy of 1,670 diagnostics per edit.
		next.out = next.diags
		return next.out, next
	}
	next.out = make([]protocol.Diagnostic, 0, len(found))
	for i, ok := range next.ok {
		if ok {
			next.out = append(next.out, next.diags[i])
		}
	}
	return next.out, next
}

// unchanged reports whether f's text and findings are those prev was
// converted from, every place they point at being in f (a related place
// in another file depends on that file).
func unchanged(prev *converted, f *cache.File, found []rules.Diagnostic) bool {
	if len(prev.content) != len(f.Content) || len(prev.found) != len(found) {
		return false
	}
	if len(f.Content) > 0 && &prev.content[0] != &f.Content[0] && !bytes.Equal(prev.content, f.Content) {
		return false
	}
	for i := range found {
		d := &found[i]
		if !sameFinding(d, &prev.found[i], 0) {
			return false
		}
		for _, r := range d.Related {
			if r.Path != "" && r.Path != f.Path {
				return false
			}
		}
	}
	return true
}

// change is where a file's new text differs from its last: bytes before
// start are the same, and so are the last bytes from end on (end is an
// offset in the new text, shift the difference in length). Lines from
// the one starting at nextLine on (an offset in the new text) are the
// same text as the old text's lines from nextLine-shift on, which is a
// line start too, lines further down: positions on them are positions of
// the old text moved by lines (negative: lines removed).
type change struct {
	start, end, shift int
	nextLine          int
	lines             int
}

// changeBetween finds the change from old to new. Identical texts have
// no change (start and end at the end of the text). Line breaks are the
// Mapper's: \n, \r\n and a lone \r.
func changeBetween(old, new []byte) change {
	start, tail := span.CommonEnds(old, new)
	c := change{start: start, end: len(new) - tail, shift: len(new) - len(old)}
	oldEnd := len(old) - tail
	// The first line start in new whose line break lies in the common
	// tail (so that it is a line start in old too), or the end of the
	// change where it ends with a \n in both texts (an inserted line).
	if c.end > 0 && new[c.end-1] == '\n' && oldEnd > 0 && old[oldEnd-1] == '\n' {
		c.nextLine = c.end
	} else {
		c.nextLine = lineStartAfter(new, c.end)
	}
	if c.nextLine > len(new) {
		return c
	}
	// Count the breaks from the start of the change, or from the \r
	// before it, which may pair with a \n that changed.
	from := start
	if from > 0 && new[from-1] == '\r' {
		from--
	}
	c.lines = lineBreaks(new[from:c.nextLine]) - lineBreaks(old[from:c.nextLine-c.shift])
	return c
}

// lineStartAfter is the start of the first line whose line break begins
// at or after offset at in b, or len(b)+1 when there is none.
func lineStartAfter(b []byte, at int) int {
	i := bytes.IndexAny(b[at:], "\r\n")
	if i < 0 {
		return len(b) + 1
	}
	i += at
	if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		i++
	}
	return i + 1
}

// lineBreaks counts the line breaks in b, which does not end in the
// middle of a \r\n.
func lineBreaks(b []byte) int {
	return bytes.Count(b, []byte("\n")) + bytes.Count(b, []byte("\r")) - bytes.Count(b, []byte("\r\n"))
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

// onLinesAfter reports whether every place finding d points at in its
// file (path) starts at or after offset line, the start of a line: the
// text from each one's line start on is unchanged since the last version.
func onLinesAfter(d rules.Diagnostic, path string, line int) bool {
	if d.Span.Start < line {
		return false
	}
	for _, r := range d.Related {
		if (r.Path != "" && r.Path != path) || r.Span.Start < line {
			return false
		}
	}
	return true
}

// sortsBefore reports whether p, a finding in the last text, sorts before
// d, one in the new, moved back by shift, in rules.SortDiagnostics' order.
func sortsBefore(p, d *rules.Diagnostic, shift int) bool {
	if c := cmp.Compare(p.Span.Start, d.Span.Start-shift); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(p.Span.End, d.Span.End-shift); c != 0 {
		return c < 0
	}
	if c := strings.Compare(p.Code, d.Code); c != 0 {
		return c < 0
	}
	return p.Message < d.Message
}

// sameFinding reports whether a, in the new text, and b, in the last,
// convert alike but for their positions, where a's offsets are b's plus
// shift (their Data is not converted).
func sameFinding(a, b *rules.Diagnostic, shift int) bool {
	if a.Span.Start != b.Span.Start+shift || a.Span.End != b.Span.End+shift || a.Severity != b.Severity ||
		a.Code != b.Code || a.Message != b.Message || !slices.Equal(a.Tags, b.Tags) || len(a.Related) != len(b.Related) {
		return false
	}
	for i, r := range a.Related {
		q := b.Related[i]
		if r.Path != q.Path || r.Message != q.Message || r.Span.Start != q.Span.Start+shift || r.Span.End != q.Span.End+shift {
			return false
		}
	}
	return true
}

// shiftLines is d, converted in the last text, moved down by lines (up
// when negative), with its related places in the file (self).
func shiftLines(d protocol.Diagnostic, self protocol.DocumentURI, lines int) protocol.Diagnostic {
	if lines == 0 {
		return d
	}
	d.Range = shiftRange(d.Range, lines)
	if len(d.RelatedInformation) > 0 {
		d.RelatedInformation = slices.Clone(d.RelatedInformation)
		for i := range d.RelatedInformation {
			if l := &d.RelatedInformation[i].Location; l.URI == self {
				l.Range = shiftRange(l.Range, lines)
			}
		}
	}
	return d
}

func shiftRange(r protocol.Range, lines int) protocol.Range {
	r.Start.Line = uint32(int(r.Start.Line) + lines)
	r.End.Line = uint32(int(r.End.Line) + lines)
	return r
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
