package convert

import (
	"strings"
)

// Text is a string value split into literal text and variable references.
// A nil or empty Text is the empty string. Readers return it canonical:
// no empty literal, no two literals in a row.
type Text []Segment

// Segment is one piece of a [Text]: literal text when Ref.Kind is zero,
// otherwise a reference.
type Segment struct {
	Lit string
	Ref Ref
}

// RefKind is what a variable reference reads.
type RefKind uint8

const (
	// EnvRef reads an environment variable: Claude Code and Copilot CLI
	// ${VAR} and ${VAR:-default}, Copilot CLI $VAR, OpenCode {env:VAR},
	// VS Code and Cursor ${env:VAR}.
	EnvRef RefKind = iota + 1
	// InputRef is VS Code's ${input:id}: a value VS Code asks the user for.
	InputRef
	// EditorRef is a VS Code predefined variable such as
	// ${workspaceFolder} or ${userHome} (Cursor knows these two).
	EditorRef
	// FileRef is OpenCode's {file:path}: the trimmed contents of a file.
	FileRef
)

// Ref is one variable reference.
type Ref struct {
	Kind RefKind
	// Name is the variable, input id, editor variable (without "${}") or
	// file path.
	Name string
	// HasDefault and Default say what an unset environment variable
	// becomes. Without a default the tool decides: Claude Code keeps the
	// text and warns. OpenCode's {env:VAR} and VS Code's ${env:VAR} give
	// an empty string, so they read as HasDefault with Default "", which
	// Claude Code writes ${VAR:-}.
	HasDefault bool
	Default    string
}

// Lit returns s as a Text without references.
func Lit(s string) Text {
	if s == "" {
		return nil
	}
	return Text{{Lit: s}}
}

// Literal returns the text and true when t has no references.
func (t Text) Literal() (string, bool) {
	var b strings.Builder
	for _, s := range t {
		if s.Ref.Kind != 0 {
			return "", false
		}
		b.WriteString(s.Lit)
	}
	return b.String(), true
}

// norm returns t canonical: literals merged, empty ones removed, nil when
// empty.
func (t Text) norm() Text {
	var out Text
	for _, s := range t {
		if s.Ref.Kind == 0 {
			if s.Lit == "" {
				continue
			}
			if n := len(out); n > 0 && out[n-1].Ref.Kind == 0 {
				out[n-1].Lit += s.Lit
				continue
			}
			out = append(out, Segment{Lit: s.Lit})
			continue
		}
		r := s.Ref
		if r.Kind != EnvRef {
			r.HasDefault, r.Default = false, ""
		} else if !r.HasDefault {
			r.Default = ""
		}
		out = append(out, Segment{Ref: r})
	}
	return out
}

// display is how a reference is written where the target has no
// equivalent: its usual spelling, so the user recognises what to replace.
func (r Ref) display() string {
	switch r.Kind {
	case EnvRef:
		if r.HasDefault && r.Default != "" {
			return "${" + r.Name + ":-" + r.Default + "}"
		}
		return "${" + r.Name + "}"
	case InputRef:
		return "${input:" + r.Name + "}"
	case EditorRef:
		return "${" + r.Name + "}"
	case FileRef:
		return "{file:" + r.Name + "}"
	}
	return ""
}

// describe names a reference for a loss reason. It never shows a default
// value, which may be a secret.
func (r Ref) describe() string {
	switch r.Kind {
	case EnvRef:
		if r.HasDefault && r.Default != "" {
			return "${" + r.Name + ":-…}"
		}
		return "${" + r.Name + "}"
	case FileRef:
		return "{file:…}"
	}
	return r.display()
}

// token is a reference found by a scanner, at [start, end) of the string.
type token struct {
	start, end int
	ref        Ref
}

// syntax is one tool's spelling of variable references.
type syntax uint8

const (
	noSyntax     syntax = iota // Claude Desktop: nothing is expanded
	dollarSyntax               // Claude Code: ${VAR}, ${VAR:-default}
	dollarBare                 // Copilot CLI: the same and $VAR
	braceSyntax                // OpenCode: {env:VAR}, {file:path}
	vscodeSyntax               // VS Code: ${env:VAR}, ${input:id}, ${workspaceFolder}, ...
	cursorSyntax               // Cursor: ${env:VAR}, ${userHome}, ${workspaceFolder}
)

// scan finds the references of syntax x in s, in order.
func (x syntax) scan(s string) []token {
	var out []token
	for i := 0; i < len(s); {
		var tok token
		var ok bool
		switch x {
		case dollarSyntax, dollarBare:
			tok, ok = scanDollar(s, i, x == dollarBare)
		case braceSyntax:
			tok, ok = scanBrace(s, i)
		case vscodeSyntax, cursorSyntax:
			tok, ok = scanEditor(s, i, x == cursorSyntax)
		default:
			return nil
		}
		if ok {
			out = append(out, tok)
			i = tok.end
			continue
		}
		i++
	}
	return out
}

// read splits s into a canonical Text with syntax x.
func (x syntax) read(s string) Text {
	var t Text
	last := 0
	for _, tok := range x.scan(s) {
		t = append(t, Segment{Lit: s[last:tok.start]}, Segment{Ref: tok.ref})
		last = tok.end
	}
	t = append(t, Segment{Lit: s[last:]})
	return t.norm()
}

// scanDollar reads ${NAME}, ${NAME:-default} and, with bare, $NAME at
// s[i]. It follows Claude Code's expansion (the content of ${...} runs to
// the first "}", a default follows ":-"); a name that is not an
// identifier, such as VS Code's ${env:X}, is not an environment variable
// name a shell could set, so it is left as text. A bare $NAME follows
// mcp-lsp's diagnostics: an upper-case name shaped like an environment
// variable (HOME, GITHUB_TOKEN), not followed by a lower-case letter, so
// a "$" inside a password is not taken for a variable.
func scanDollar(s string, i int, bare bool) (token, bool) {
	if s[i] != '$' || i+1 >= len(s) {
		return token{}, false
	}
	if s[i+1] == '{' {
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return token{}, false
		}
		inner := s[i+2 : i+2+end]
		n := identLen(inner)
		switch {
		case n > 0 && n == len(inner):
			return token{i, i + 3 + end, Ref{Kind: EnvRef, Name: inner}}, true
		case n > 0 && strings.HasPrefix(inner[n:], ":-"):
			return token{i, i + 3 + end, Ref{Kind: EnvRef, Name: inner[:n], HasDefault: true, Default: inner[n+2:]}}, true
		}
		return token{}, false
	}
	if !bare || !isEnvStart(s[i+1]) {
		return token{}, false
	}
	j := i + 1
	for j < len(s) && isEnvChar(s[j]) {
		j++
	}
	if j < len(s) && 'a' <= s[j] && s[j] <= 'z' || !bareVarName(s[i+1:j]) {
		return token{}, false
	}
	return token{i, j, Ref{Kind: EnvRef, Name: s[i+1 : j]}}, true
}

// scanBrace reads OpenCode's {env:NAME} and {file:path} at s[i], as its
// regular expressions do (/\{env:([^}]+)\}/). An unset variable becomes
// "", so the reference has an empty default.
func scanBrace(s string, i int) (token, bool) {
	if s[i] != '{' {
		return token{}, false
	}
	for _, p := range []struct {
		prefix string
		kind   RefKind
	}{{"{env:", EnvRef}, {"{file:", FileRef}} {
		if !strings.HasPrefix(s[i:], p.prefix) {
			continue
		}
		start := i + len(p.prefix)
		end := strings.IndexByte(s[start:], '}')
		if end <= 0 {
			return token{}, false
		}
		r := Ref{Kind: p.kind, Name: s[start : start+end]}
		if p.kind == EnvRef {
			r.HasDefault = true
		}
		return token{i, start + end + 1, r}, true
	}
	return token{}, false
}

// vscodeVars are VS Code's predefined variables (without the "${}").
var vscodeVars = map[string]bool{
	"workspaceFolder": true, "workspaceFolderBasename": true, "workspaceRoot": true,
	"userHome": true, "cwd": true, "pathSeparator": true, "/": true, "execPath": true,
	"file": true, "fileBasename": true, "fileBasenameNoExtension": true, "fileDirname": true,
	"fileExtname": true, "fileWorkspaceFolder": true, "relativeFile": true,
	"relativeFileDirname": true, "lineNumber": true, "selectedText": true,
	"defaultBuildTask": true, "extensionInstallFolder": true,
}

// vscodePrefixes are VS Code variables with an argument: ${config:x},
// ${command:x}, ${workspaceFolder:name}.
var vscodePrefixes = []string{"config:", "command:", "workspaceFolder:", "workspaceFolderBasename:"}

// scanEditor reads VS Code's variables at s[i] (VS Code's resolver takes
// ${...} up to the first "}"), or with cursor only the ones Cursor is
// reported to know: ${env:NAME}, ${userHome}, ${workspaceFolder}. An
// unset ${env:NAME} becomes "" in VS Code; Cursor is assumed to do the
// same. A bare ${VAR} is not a VS Code variable and stays text.
func scanEditor(s string, i int, cursor bool) (token, bool) {
	if s[i] != '$' || i+1 >= len(s) || s[i+1] != '{' {
		return token{}, false
	}
	end := strings.IndexByte(s[i+2:], '}')
	if end < 0 {
		return token{}, false
	}
	inner := s[i+2 : i+2+end]
	tok := token{start: i, end: i + 3 + end}
	if name, ok := strings.CutPrefix(inner, "env:"); ok && name != "" {
		tok.ref = Ref{Kind: EnvRef, Name: name, HasDefault: true}
		return tok, true
	}
	if cursor {
		if inner == "userHome" || inner == "workspaceFolder" {
			tok.ref = Ref{Kind: EditorRef, Name: inner}
			return tok, true
		}
		return token{}, false
	}
	if id, ok := strings.CutPrefix(inner, "input:"); ok && id != "" {
		tok.ref = Ref{Kind: InputRef, Name: id}
		return tok, true
	}
	if vscodeVars[inner] {
		tok.ref = Ref{Kind: EditorRef, Name: inner}
		return tok, true
	}
	for _, p := range vscodePrefixes {
		if strings.HasPrefix(inner, p) && len(inner) > len(p) {
			tok.ref = Ref{Kind: EditorRef, Name: inner}
			return tok, true
		}
	}
	return token{}, false
}

// identLen is the length of the identifier ([A-Za-z_][A-Za-z0-9_]*) at the
// start of s.
func identLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || isAlpha(s[i]) || i > 0 && isDigit(s[i])) {
		i++
	}
	return i
}

// isIdent reports whether s is an identifier, the names ${VAR} can read.
func isIdent(s string) bool { return s != "" && identLen(s) == len(s) }

// bareVarName reports whether the upper-case run after a bare "$" is
// shaped like an environment variable name rather than part of a key
// ("$AKIA..."): words joined by "_", or one short word. Same rule as
// mcp-lsp's interpolation diagnostics.
func bareVarName(name string) bool {
	return len(name) <= 40 && (strings.Contains(strings.Trim(name, "_"), "_") || len(name) <= 12)
}

func isAlpha(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isEnvStart(c byte) bool { return c == '_' || 'A' <= c && c <= 'Z' }
func isEnvChar(c byte) bool  { return isEnvStart(c) || isDigit(c) }

// envName turns a VS Code input id into the environment variable a tool
// without prompts reads instead: upper case, other characters as "_"
// ("github-token" -> GITHUB_TOKEN).
func envName(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case 'A' <= c && c <= 'Z', isDigit(c), c == '_':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || isDigit(n[0]) {
		n = "_" + n
	}
	return n
}
