package convert

import (
	"strings"
	"sync"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
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
	// ${workspaceFolder} or ${userHome} (Cursor and Roo Code know some of
	// them: registry.json lists which).
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
	cursorSyntax               // Cursor: ${env:VAR}, ${userHome}, ${workspaceFolder}, ...
	rooSyntax                  // Roo Code: ${env:VAR}, ${workspaceFolder}
	envSyntax                  // Windsurf: ${env:VAR}
)

// forms are the syntaxes the tool expands, read by package interp, the
// scanner the diagnostics use too.
func (x syntax) forms() interp.Forms {
	switch x {
	case dollarSyntax:
		return interp.NewForms(interp.Dollar, interp.DollarDefault)
	case dollarBare:
		return interp.NewForms(interp.Dollar, interp.DollarDefault, interp.Bare)
	case braceSyntax:
		return interp.NewForms(interp.BraceEnv, interp.BraceFile)
	case vscodeSyntax:
		return interp.NewForms(interp.DollarEnv, interp.Input, interp.Predefined)
	case cursorSyntax:
		return registryForms()["cursor"]
	case rooSyntax:
		return registryForms()["roo-code"]
	case envSyntax:
		return interp.NewForms(interp.DollarEnv)
	}
	return interp.Forms{}
}

// registryForms are the syntaxes the registry lists for the tools whose
// predefined variables are a subset of VS Code's, read by interp.FormsOf
// as the diagnostics read them: which of ${workspaceFolder},
// ${workspaceFolderBasename}, ${userHome}... Cursor and Roo Code expand is
// said in one place, registry.json.
var registryForms = sync.OnceValue(func() map[registry.ToolID]interp.Forms {
	out := map[registry.ToolID]interp.Forms{}
	for _, t := range registry.Default().Tools() {
		out[t.ID] = interp.FormsOf(t.Interpolation.Forms)
	}
	return out
})

// scan finds the references of syntax x in s, in order.
func (x syntax) scan(s string) []token {
	var out []token
	for _, r := range interp.Scan(s, x.forms()) {
		out = append(out, token{r.Start, r.End, refOf(r)})
	}
	return out
}

// refOf is the model of a reference. An unset ${env:NAME} becomes "" in
// VS Code (Cursor is assumed to do the same), an unset {env:NAME} in
// OpenCode: they read as an empty default.
func refOf(r interp.Ref) Ref {
	switch r.Syntax {
	case interp.Dollar, interp.Bare:
		return Ref{Kind: EnvRef, Name: r.Name}
	case interp.DollarDefault:
		return Ref{Kind: EnvRef, Name: r.Name, HasDefault: true, Default: r.Default}
	case interp.DollarEnv, interp.BraceEnv:
		return Ref{Kind: EnvRef, Name: r.Name, HasDefault: true}
	case interp.Input:
		return Ref{Kind: InputRef, Name: r.Name}
	case interp.Predefined:
		return Ref{Kind: EditorRef, Name: r.Name}
	case interp.BraceFile:
		return Ref{Kind: FileRef, Name: r.Name}
	}
	return Ref{}
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
		case 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || '0' <= n[0] && n[0] <= '9' {
		n = "_" + n
	}
	return n
}
