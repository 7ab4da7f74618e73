// Package format formats JSON and JSONC config files with hujson's
// opinionated layout, adapted to the editor's options, and expresses the
// result as minimal, protocol-neutral byte-span edits.
//
// It is pure: no I/O, no goroutines, and it never modifies its input
// (hujson.Parse aliases the buffer and Value.Format rewrites it in place,
// so everything is done on a copy).
package format

import (
	"bytes"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Options are the editor's formatting preferences.
type Options struct {
	// TabSize is the width of one indentation level in spaces when
	// InsertSpaces is set; values below 1 mean 4.
	TabSize int
	// InsertSpaces indents with TabSize spaces per level instead of tabs.
	InsertSpaces bool
	// InsertFinalNewline ends the file with a line break. Without it the
	// file keeps whether it had one.
	InsertFinalNewline bool
}

// Edit replaces the bytes of Span in the original text with NewText.
type Edit struct {
	Span    span.Span
	NewText string
}

var bom = []byte("\xEF\xBB\xBF")

// Format returns src formatted, and false when src must not be formatted:
// it has syntax errors (formatting a broken file could lose data) or no
// value at all. The result keeps a leading byte order mark and the file's
// line endings (CRLF when its first line break is CRLF).
func Format(src []byte, opts Options) ([]byte, bool) {
	if f := jsonc.Parse(src); len(f.Errors) > 0 || f.Root == nil {
		return nil, false
	}
	body := bytes.Clone(src) // hujson aliases and mutates its input
	hasBOM := bytes.HasPrefix(body, bom)
	if hasBOM {
		body = body[len(bom):] // hujson rejects a BOM
	}
	crlf := firstBreakIsCRLF(body)
	v, err := hujson.Parse(body)
	if err != nil {
		// Where jsonc is more lenient than hujson (line comments ended by
		// a lone CR or by the end of input): leave the file alone.
		return nil, false
	}
	v.Format()
	out := v.Pack() // "\n" line breaks, tab indentation, one final "\n"

	out = reindent(out, opts)
	if !opts.InsertFinalNewline && !endsWithBreak(src) {
		out = bytes.TrimSuffix(out, []byte("\n"))
	}
	if crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if hasBOM {
		out = append(bytes.Clone(bom), out...)
	}
	return out, true
}

// Edits returns the edits that format src, one per changed hunk of lines,
// sorted and non-overlapping; none when src is already formatted or must
// not be formatted (see Format).
func Edits(src []byte, opts Options) []Edit {
	out, ok := Format(src, opts)
	if !ok || bytes.Equal(out, src) {
		return nil
	}
	return Diff(src, out)
}

// firstBreakIsCRLF reports whether the first line break of b is "\r\n".
func firstBreakIsCRLF(b []byte) bool {
	i := bytes.IndexByte(b, '\n')
	return i > 0 && b[i-1] == '\r'
}

func endsWithBreak(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

// reindent replaces the leading tabs of every line with the requested
// indentation. JSON strings cannot contain a raw line break, so the start
// of a line is never inside a string; leading tabs are indentation (of a
// value or of a comment line), never content.
func reindent(b []byte, opts Options) []byte {
	if !opts.InsertSpaces {
		return b
	}
	size := opts.TabSize
	if size < 1 {
		size = 4
	}
	unit := strings.Repeat(" ", size)
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/4)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		n := 0
		for n < len(line) && line[n] == '\t' {
			n++
		}
		for range n {
			out.WriteString(unit)
		}
		out.Write(line[n:])
	}
	return out.Bytes()
}
