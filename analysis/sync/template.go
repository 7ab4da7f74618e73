package sync

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Template variables. A source may write {{root}}, {{runtime.python}} or
// {{NAME}} for a value given with `--var NAME=VALUE` anywhere in its text
// (the VaultSpec ADR's escape hatch, seed 003); they are replaced before
// the source is parsed, each value escaped for the JSON string it lands
// in. A {{...}} that names no known variable is an error, not text left
// for the tool: every tool would pass it through literally, and the
// server would start with "{{root}}" as its argument.

// Variable names of the values sync always knows.
const (
	VarRoot   = "root"           // the project root, absolute
	VarPython = "runtime.python" // the Python to run the server with
)

// Vars are the values of the template variables: VarRoot, VarPython when
// a Python was found, and every --var. The caller looks them up (the
// Python is found by stat and PATH lookup, never run); this package does
// no I/O.
type Vars map[string]string

// Substitution is one value sync put into a server, for the output to
// say: a {{...}} variable, or the ADR's automatic resolution of a bare
// "python" command or "--root .".
type Substitution struct {
	// Server is the server's name; "" for a variable outside any server.
	Server string
	// What was replaced: "{{runtime.python}}", `"command": "python"`,
	// "--root .".
	What  string
	Value string
	// Line is the 1-based line of a {{...}} in the source; 0 for an
	// automatic resolution.
	Line int
}

// TemplateError is a {{...}} that cannot be resolved: an unknown name, or
// a known one without a value (no Python found).
type TemplateError struct {
	Line, Col int // 1-based; Col in bytes
	Name      string
	Reason    string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("line %d:%d: {{%s}}: %s", e.Line, e.Col, e.Name, e.Reason)
}

// Host is what the template values need of the machine, given by the
// caller so that this package does no I/O: whether a file exists, and a
// command's path on PATH. The Python is looked up, never run.
type Host struct {
	GOOS     string
	IsFile   func(path string) bool
	LookPath func(name string) (string, bool)
}

// TemplateValues are the values of a source's template variables, the
// one place `mcp-lsp sync` and the editor's "Update from" take them from:
// {{root}} is the project root, {{runtime.python}} the Python FindPython
// finds, then the values recorded at the source's last sync
// (Records.Vars), then given (--var), each overriding the ones before.
func TemplateValues(root, srcPath string, recorded, given Vars, h Host) Vars {
	values := Vars{VarRoot: root}
	if py, ok := FindPython(filepath.Dir(srcPath), root, h); ok {
		values[VarPython] = py
	}
	for k, v := range recorded {
		values[k] = v
	}
	for k, v := range given {
		values[k] = v
	}
	return values
}

// FindPython is {{runtime.python}}: the virtualenv Python beside the
// source, else the project's, else python3 (or python) on PATH.
func FindPython(sourceDir, root string, h Host) (string, bool) {
	rel := filepath.Join(".venv", "bin", "python")
	if h.GOOS == "windows" {
		rel = filepath.Join(".venv", "Scripts", "python.exe")
	}
	for _, dir := range []string{sourceDir, root} {
		if p := filepath.Join(dir, rel); h.IsFile != nil && h.IsFile(p) {
			return p, true
		}
	}
	if h.LookPath == nil {
		return "", false
	}
	for _, name := range []string{"python3", "python"} {
		if p, ok := h.LookPath(name); ok {
			return p, true
		}
	}
	return "", false
}

// RememberedVars are the values worth recording for the source's next
// sync (Records.Vars): of the variables src uses, those given with --var
// now or recorded before (given first), not root (the project root each
// time), nor one that looks like a secret (the records are committed;
// such a value is given with --var each time).
func RememberedVars(src []byte, recorded, given Vars) Vars {
	var out Vars
	for _, p := range Placeholders(src) {
		v, ok := given[p.Name]
		if !ok {
			v, ok = recorded[p.Name]
		}
		if !ok || p.Name == VarRoot || rules.LooksLikeSecret(p.Name, v) {
			continue
		}
		if out == nil {
			out = Vars{}
		}
		out[p.Name] = v
	}
	return out
}

// Placeholder is one {{...}} of a template (interp.Placeholder).
type Placeholder = interp.Placeholder

// Placeholders finds every {{...}} in src (interp.Placeholders, which the
// rule for placeholders left in tools' files scans with too).
func Placeholders(src []byte) []Placeholder { return interp.Placeholders(src) }

// KnownVars lists the variables a template may use besides the --var
// names, for messages.
var KnownVars = []string{VarRoot, VarPython}

// Resolve replaces each {{...}} of a JSON source with its value, escaped
// for a JSON string. It returns every error, one per placeholder, and no
// content when there is any.
func Resolve(src []byte, vars Vars) ([]byte, []Substitution, []error) {
	ps := Placeholders(src)
	if len(ps) == 0 {
		return src, nil, nil
	}
	var out bytes.Buffer
	var subs []Substitution
	var errs []error
	at := 0
	for _, p := range ps {
		line, col := position(src, p.Start)
		v, ok := vars[p.Name]
		if !ok {
			reason := "unknown variable (known: " + strings.Join(knownNames(vars), ", ") + "; give others with --var NAME=VALUE)"
			if p.Name == VarPython {
				reason = "no Python found: no .venv beside the source or in the project, and no python3 on PATH (give one with --var runtime.python=PATH)"
			}
			errs = append(errs, &TemplateError{Line: line, Col: col, Name: p.Name, Reason: reason})
			continue
		}
		out.Write(src[at:p.Start])
		out.WriteString(escapeJSON(v))
		at = p.End
		subs = append(subs, Substitution{What: "{{" + p.Name + "}}", Value: v, Line: line})
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	out.Write(src[at:])
	return out.Bytes(), subs, nil
}

func knownNames(vars Vars) []string {
	names := slices.Clone(KnownVars)
	for k := range vars {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}

// AutoResolve applies the ADR's automatic resolution (seed 003, 4.2) to a
// server read from an extension's mcp.json: a bare "python" or "python3"
// command becomes vars[VarPython], and "--root ." (or "--root=.") the
// absolute root. It changes s in place and returns what it substituted.
// A command that is not a bare python, or a Python not found, is left.
func AutoResolve(s *convert.Server, vars Vars) []Substitution {
	var subs []Substitution
	if cmd, ok := s.Command.Literal(); ok && (cmd == "python" || cmd == "python3") {
		if py, ok := vars[VarPython]; ok {
			s.Command = convert.Lit(py)
			subs = append(subs, Substitution{Server: s.Name, What: fmt.Sprintf("%q command", cmd), Value: py})
		}
	}
	root, ok := vars[VarRoot]
	if !ok {
		return subs
	}
	for i := range s.Args {
		a, ok := s.Args[i].Literal()
		if !ok {
			continue
		}
		switch {
		case a == "." && i > 0 && literal(s.Args[i-1]) == "--root":
			s.Args[i] = convert.Lit(root)
			subs = append(subs, Substitution{Server: s.Name, What: "--root .", Value: root})
		case a == "--root=.":
			s.Args[i] = convert.Lit("--root=" + root)
			subs = append(subs, Substitution{Server: s.Name, What: "--root=.", Value: root})
		}
	}
	return subs
}

func literal(t convert.Text) string {
	s, _ := t.Literal()
	return s
}

// escapeJSON escapes s for the inside of a JSON string.
func escapeJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// position is the 1-based line and byte column of off.
func position(src []byte, off int) (line, col int) {
	line = bytes.Count(src[:off], []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return line, col
}

// TemplateFindings are the editor's errors for a sync template: one per
// {{...}} that Resolve refuses with vars (the same decision, the same
// words as `mcp-lsp sync`), over the placeholder's bytes.
func TemplateFindings(src []byte, vars Vars) []rules.Diagnostic {
	_, _, errs := Resolve(src, vars)
	var out []rules.Diagnostic
	for _, err := range errs {
		te, ok := err.(*TemplateError)
		if !ok {
			continue
		}
		start := lineStart(src, te.Line) + te.Col - 1
		end := start
		for _, p := range Placeholders(src) {
			if p.Start == start {
				end = p.End
				break
			}
		}
		out = append(out, rules.Diagnostic{
			Span:     span.New(start, end),
			Severity: rules.SeverityError,
			Code:     rules.CodeTemplateVariable,
			Message:  fmt.Sprintf("{{%s}}: %s", te.Name, te.Reason),
			Data:     map[string]any{"variable": te.Name},
		})
	}
	return out
}

// lineStart is the byte offset of the 1-based line (position's inverse).
func lineStart(src []byte, line int) int {
	at := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			return len(src)
		}
		at += i + 1
	}
	return at
}
