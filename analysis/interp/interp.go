// Package interp finds variable references in the string values of MCP
// configuration files: ${VAR}, ${VAR:-default}, $VAR, ${env:VAR},
// ${input:id}, VS Code's predefined variables, {env:VAR} and {file:path}.
//
// It is the one scanner of the project: the rules, hover, the effective
// view and the converters all read references through it, so they agree
// on what a reference is and where it ends. It returns facts (each
// reference, its syntax, name, default and span) and holds no policy:
// which tool expands which syntax in which field comes from the registry,
// and rules turn facts into diagnostics.
//
// How a reference ends follows the tools, which all take the text of
// "${...}" up to the first "}" (Claude Code's /\$\{([^}]+)\}/ then a split
// at ":-", VS Code's resolver, OpenCode's /\{env:([^}]+)\}/). So
// "${A:-${B}}" is the reference A with the default "${B", followed by a
// literal "}": there is no nesting.
package interp

import (
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Syntax is the spelling of a variable reference.
type Syntax uint8

const (
	// Dollar is ${VAR}: Claude Code, Copilot CLI.
	Dollar Syntax = iota + 1
	// DollarDefault is ${VAR:-default}: Claude Code, Copilot CLI.
	DollarDefault
	// Bare is $VAR: Copilot CLI.
	Bare
	// DollarEnv is ${env:VAR}: VS Code, Cursor.
	DollarEnv
	// Input is ${input:id}: VS Code asks the user for the value.
	Input
	// Predefined is one of VS Code's predefined variables:
	// ${workspaceFolder}, ${userHome}, ${config:x}, ...
	Predefined
	// BraceEnv is {env:VAR}: OpenCode.
	BraceEnv
	// BraceFile is {file:path}: OpenCode.
	BraceFile

	maxSyntax
)

// Ref is one variable reference.
type Ref struct {
	Syntax Syntax
	// Name is the variable, the input id, the predefined variable
	// (with its argument: "config:python.path") or the file path.
	Name string
	// Default is the text after ":-" of ${VAR:-default}. It may be a
	// secret: never print it.
	Default string
	// Start and End are the byte offsets of the reference in the decoded
	// string.
	Start, End int
	// Span is where the reference is in the file's bytes, through JSON
	// string escapes ("\u0024{A}" is ${A}). Only [ScanString] sets it.
	Span span.Span
}

// String is the reference as messages show it. It is rebuilt from the
// name, never copied from the text: a default value may be a secret.
func (r Ref) String() string {
	switch r.Syntax {
	case Dollar, Predefined:
		return "${" + r.Name + "}"
	case DollarDefault:
		return "${" + r.Name + ":-…}"
	case Bare:
		return "$" + r.Name
	case DollarEnv:
		return "${env:" + r.Name + "}"
	case Input:
		return "${input:" + r.Name + "}"
	case BraceEnv:
		return "{env:" + r.Name + "}"
	case BraceFile:
		return "{file:" + r.Name + "}"
	}
	return ""
}

// EnvName is the environment variable the reference reads, "" if none.
// ${userHome} reads HOME.
func (r Ref) EnvName() string {
	switch r.Syntax {
	case Dollar, DollarDefault, Bare, DollarEnv, BraceEnv:
		return r.Name
	case Predefined:
		if r.Name == "userHome" {
			return "HOME"
		}
	}
	return ""
}

// HasDefault reports whether the reference says what an unset variable
// becomes: ${VAR:-default}. (Tools that turn an unset {env:VAR} or
// ${env:VAR} into "" decide that themselves; the registry records it.)
func (r Ref) HasDefault() bool { return r.Syntax == DollarDefault }

// Forms is a set of syntaxes a tool expands.
type Forms struct {
	set uint16
	// only, when not nil, limits Predefined to these names.
	only []string
}

// All is every syntax: what rules scan for to find references in another
// tool's syntax.
var All = NewForms(Dollar, DollarDefault, Bare, DollarEnv, Input, Predefined, BraceEnv, BraceFile)

// NewForms returns the set of the given syntaxes.
func NewForms(ss ...Syntax) Forms {
	var f Forms
	for _, s := range ss {
		f.set |= 1 << s
	}
	return f
}

// Has reports whether f holds s.
func (f Forms) Has(s Syntax) bool { return f.set&(1<<s) != 0 }

// Empty reports whether f holds no syntax.
func (f Forms) Empty() bool { return f.set == 0 }

// OnlyPredefined returns f with Predefined limited to the given names.
func (f Forms) OnlyPredefined(names ...string) Forms {
	f.only = names
	return f
}

// Admits reports whether f expands the reference r: its syntax is in f,
// and a predefined variable is one of the names f is limited to (Cursor
// expands ${workspaceFolderBasename} but not ${file}).
func (f Forms) Admits(r Ref) bool {
	return f.Has(r.Syntax) && (r.Syntax != Predefined || f.only == nil || contains(f.only, r.Name))
}

// spellings maps the registry's spellings of forms (tools[].interpolation
// .forms) to syntaxes. A predefined variable is spelled by itself
// (${workspaceFolder}, see predefinedSpelling); "${predefined}" stands for
// every one of VS Code's.
var spellings = map[string]Syntax{
	"${VAR}":          Dollar,
	"${VAR:-default}": DollarDefault,
	"$VAR":            Bare,
	"${env:VAR}":      DollarEnv,
	"${env:NAME}":     DollarEnv,
	"${input:id}":     Input,
	"${predefined}":   Predefined,
	"{env:VAR}":       BraceEnv,
	"{file:path}":     BraceFile,
}

// predefinedSpelling returns the variable of a registry spelling that
// names one predefined variable ("${userHome}": "userHome").
func predefinedSpelling(s string) (string, bool) {
	if n, ok := strings.CutPrefix(s, "${"); ok {
		if n, ok := strings.CutSuffix(n, "}"); ok && IsPredefined(n) {
			return n, true
		}
	}
	return "", false
}

// Spelled reports whether s is a registry spelling this package knows.
func Spelled(s string) bool {
	if _, ok := spellings[s]; ok {
		return true
	}
	_, ok := predefinedSpelling(s)
	return ok
}

// FormsOf returns the syntaxes of a tool's registry spellings, the one
// reading of them that the rules, the verdicts and the converters share.
// A tool that writes ${VAR} also takes ${VAR:-default}, and the other way
// round (the same expansion reads both). Predefined variables are the
// ones the registry names (Cursor: ${userHome}, ${workspaceFolder},
// ${workspaceFolderBasename}, ${pathSeparator}, ${/}), or all of VS
// Code's with "${predefined}".
func FormsOf(registrySpellings []string) Forms {
	var f Forms
	all := false
	var names []string
	for _, sp := range registrySpellings {
		if s, ok := spellings[sp]; ok {
			f.set |= 1 << s
			all = all || s == Predefined
		} else if n, ok := predefinedSpelling(sp); ok {
			f.set |= 1 << Predefined
			names = append(names, n)
		}
	}
	if f.Has(Predefined) && !all {
		f.only = names
	}
	if f.Has(Dollar) || f.Has(DollarDefault) {
		f.set |= 1<<Dollar | 1<<DollarDefault
	}
	return f
}

// predefined are VS Code's predefined variables (Cursor reuses some). In
// Claude Code's or Copilot CLI's syntax they would name environment
// variables that are practically never set.
var predefined = map[string]bool{
	"workspaceFolder": true, "workspaceFolderBasename": true, "workspaceRoot": true,
	"userHome": true, "cwd": true, "pathSeparator": true, "/": true, "execPath": true,
	"file": true, "fileBasename": true, "fileBasenameNoExtension": true, "fileDirname": true,
	"fileExtname": true, "fileWorkspaceFolder": true, "relativeFile": true,
	"relativeFileDirname": true, "lineNumber": true, "selectedText": true,
	"defaultBuildTask": true, "extensionInstallFolder": true,
}

// predefinedPrefixes are VS Code variables with an argument: ${config:x},
// ${command:x}, ${workspaceFolder:name}.
var predefinedPrefixes = []string{"config:", "command:", "workspaceFolder:", "workspaceFolderBasename:"}

// IsPredefined reports whether name (without "${}") is one of VS Code's
// predefined variables, with or without an argument.
func IsPredefined(name string) bool {
	if predefined[name] {
		return true
	}
	for _, p := range predefinedPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}

// Scan returns the references of the syntaxes in f in s, in order and
// without overlap. Text that is no reference in f is skipped one byte at
// a time, so a reference inside a longer one in another syntax is found
// ({env:X} inside ${env:X} when f has BraceEnv but not DollarEnv: OpenCode
// replaces that part). An unterminated reference is text.
//
// A bare $VAR is taken only in upper case (the convention for
// environment variables), shaped like a variable name, and not followed
// by a lower-case letter, so "$1", "$ref" or a "$" inside a password are
// left alone.
func Scan(s string, f Forms) []Ref {
	var out []Ref
	for i := 0; i < len(s); {
		// Every reference starts with "$" or "{": jump to the next one
		// (most strings have none, and every string is scanned).
		j := strings.IndexAny(s[i:], "${")
		if j < 0 {
			break
		}
		i += j
		if r, ok := f.at(s, i); ok {
			out = append(out, r)
			i = r.End
			continue
		}
		i++
	}
	return out
}

// ScanString scans the decoded value of string node n, a node of the
// document src, and sets each reference's Span in src.
func ScanString(src []byte, n *jsonc.Node, f Forms) []Ref {
	refs := Scan(n.Str, f)
	for i := range refs {
		refs[i].Span = n.SourceSpan(src, refs[i].Start, refs[i].End)
	}
	return refs
}

// at reads a reference starting at s[i].
func (f Forms) at(s string, i int) (Ref, bool) {
	switch {
	case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return Ref{}, false
		}
		r, ok := f.dollar(s[i+2 : i+2+end])
		r.Start, r.End = i, i+3+end
		return r, ok
	case s[i] == '$' && f.Has(Bare) && i+1 < len(s) && envStart(s[i+1]):
		j := i + 1
		for j < len(s) && envChar(s[j]) {
			j++
		}
		name := s[i+1 : j]
		if !bareName(name) || j < len(s) && 'a' <= s[j] && s[j] <= 'z' {
			return Ref{}, false
		}
		return Ref{Syntax: Bare, Name: name, Start: i, End: j}, true
	case s[i] == '{':
		for _, p := range []struct {
			prefix string
			syntax Syntax
		}{{"{env:", BraceEnv}, {"{file:", BraceFile}} {
			if !f.Has(p.syntax) || !strings.HasPrefix(s[i:], p.prefix) {
				continue
			}
			start := i + len(p.prefix)
			end := strings.IndexByte(s[start:], '}')
			if end <= 0 {
				return Ref{}, false
			}
			return Ref{Syntax: p.syntax, Name: s[start : start+end], Start: i, End: start + end + 1}, true
		}
	}
	return Ref{}, false
}

// dollar classifies the content of "${...}".
func (f Forms) dollar(inner string) (Ref, bool) {
	if name, ok := strings.CutPrefix(inner, "env:"); ok && name != "" && f.Has(DollarEnv) {
		return Ref{Syntax: DollarEnv, Name: name}, true
	}
	if id, ok := strings.CutPrefix(inner, "input:"); ok && id != "" && f.Has(Input) {
		return Ref{Syntax: Input, Name: id}, true
	}
	if f.Has(Predefined) && IsPredefined(inner) && (f.only == nil || contains(f.only, inner)) {
		return Ref{Syntax: Predefined, Name: inner}, true
	}
	n := identLen(inner)
	switch {
	case n > 0 && n == len(inner) && f.Has(Dollar):
		return Ref{Syntax: Dollar, Name: inner}, true
	case n > 0 && strings.HasPrefix(inner[n:], ":-") && f.Has(DollarDefault):
		return Ref{Syntax: DollarDefault, Name: inner[:n], Default: inner[n+2:]}, true
	}
	return Ref{}, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// IsIdent reports whether s is an identifier ([A-Za-z_][A-Za-z0-9_]*),
// the names ${VAR} can read.
func IsIdent(s string) bool { return s != "" && identLen(s) == len(s) }

// identLen is the length of the identifier at the start of s.
func identLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || 'a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z' || i > 0 && '0' <= s[i] && s[i] <= '9') {
		i++
	}
	return i
}

// bareName reports whether the upper-case run after a bare "$" is shaped
// like an environment variable name (HOME, GITHUB_TOKEN) rather than a
// stretch of a password or key ("$AKIA..."): words joined by "_", or one
// short word.
func bareName(name string) bool {
	return len(name) <= 40 && (strings.Contains(strings.Trim(name, "_"), "_") || len(name) <= 12)
}

func envStart(c byte) bool { return c == '_' || 'A' <= c && c <= 'Z' }
func envChar(c byte) bool  { return envStart(c) || '0' <= c && c <= '9' }

// EnvVars returns the environment variables s reads in the syntaxes of f,
// in order and without repeats; required is false for a variable read
// only with a default (${VAR:-x}), which does not depend on it.
func EnvVars(s string, f Forms) (names []string, required []bool) {
	seen := map[string]int{}
	for _, r := range Scan(s, f) {
		name := r.EnvName()
		if name == "" {
			continue
		}
		req := !r.HasDefault()
		if i, ok := seen[name]; ok {
			required[i] = required[i] || req
			continue
		}
		seen[name] = len(names)
		names = append(names, name)
		required = append(required, req)
	}
	return names, required
}
