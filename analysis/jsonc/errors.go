package jsonc

import (
	"bytes"
	"fmt"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// MaxErrors bounds File.Errors: after MaxErrors errors, Parse reports one
// with code CodeTooManyErrors and no more. No one reads ten thousand
// diagnostics, and the bound keeps a pathological input cheap.
const MaxErrors = 1000

// errorLog records the syntax errors of one parse, dropping the ones that
// are most likely consequences of an earlier one on the same line.
//
// Within a line, one mistake commonly makes everything after it suspect: a
// missing quote turns the rest of the line inside out, strings into words
// and words into strings. Lines are short in a JSONC file, so a second real
// mistake on the same line is rare and shows up once the first is fixed.
// Hence only the first structural error of a line is kept, the policy
// go/parser has for Go code. Errors about the inside of one token
// (escapes, numbers, ...) and insertion points at the end of input are
// never consequences and are always kept.
type errorLog struct {
	src  []byte
	errs []SyntaxError
	// muted drops errors inside tokens the parser skips without analysing
	// them (content after the top-level value, or nested too deep).
	muted bool
	// lastLine is the start of the last structural error kept, -1 if none;
	// src[lastLine:knownSameLine] holds no line break.
	lastLine, knownSameLine int
}

func newErrorLog(src []byte) errorLog {
	return errorLog{src: src, lastLine: -1}
}

// report records an error unless it is to be dropped.
func (l *errorLog) report(s span.Span, code, format string, args ...any) {
	if !l.drop(s, code) {
		l.add(s, code, fmt.Sprintf(format, args...))
	}
}

// drop reports whether an error with code at s is to be dropped: muted,
// a likely consequence, or over the limit. Checking before formatting the
// message keeps an input with millions of errors cheap.
func (l *errorLog) drop(s span.Span, code string) bool {
	if l.muted || len(l.errs) > MaxErrors {
		return true
	}
	if !s.IsEmpty() && structural(code) {
		if l.sameLine(s.Start) {
			return true
		}
		l.lastLine, l.knownSameLine = s.Start, s.Start
	}
	return false
}

// add records an error drop has let through.
func (l *errorLog) add(s span.Span, code, message string) {
	if len(l.errs) == MaxErrors {
		code, message = CodeTooManyErrors, "too many errors; the rest are not reported"
	}
	l.errs = append(l.errs, SyntaxError{Span: s, Code: code, Message: message})
}

// reportRun is report for per-byte problems (invalid UTF-8, control
// characters): an error adjacent to a previous one of the same code
// extends it, giving one error per run rather than one per byte.
func (l *errorLog) reportRun(s span.Span, code, message string) {
	if n := len(l.errs); n > 0 && !l.muted {
		if last := &l.errs[n-1]; last.Code == code && last.Span.End == s.Start {
			last.Span.End = s.End
			return
		}
	}
	l.report(s, code, "%s", message)
}

// sameLine reports whether offset is on the line of the last structural
// error. Errors arrive nearly in order, so remembering how far the line is
// known to extend keeps the scanning linear even on a single-line input
// full of errors.
func (l *errorLog) sameLine(offset int) bool {
	switch {
	case l.lastLine < 0:
		return false
	case offset < l.lastLine: // reported out of order, by one token at most
		return bytes.IndexByte(l.src[offset:l.lastLine], '\n') < 0
	case offset > l.knownSameLine:
		if bytes.IndexByte(l.src[l.knownSameLine:offset], '\n') >= 0 {
			return false
		}
		l.knownSameLine = offset
	}
	return true
}

// structural reports whether errors with code can be the consequence of
// an earlier mistake on the same line. The others are about the inside of
// one token, which an earlier mistake does not change.
func structural(code string) bool {
	switch code {
	case CodeInvalidEscape, CodeControlCharacter, CodeInvalidUTF8, CodeUnterminatedComment,
		CodeSingleQuotedString, CodeInvalidNumber, CodeTooDeep:
		return false
	}
	return true
}
