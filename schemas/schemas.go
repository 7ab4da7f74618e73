// Package schemas holds one hand-written JSON Schema (draft 2020-12) per
// MCP configuration dialect, embedded in the binary and compiled once.
//
// A dialect is the way one tool reads its MCP configuration file:
// "claude-code" (.mcp.json, ~/.claude.json), "claude-desktop"
// (claude_desktop_config.json), "copilot-cli" (mcp-config.json, .mcp.json,
// .github/mcp.json), "cursor" (.cursor/mcp.json), "opencode"
// (opencode.json, opencode.jsonc), "vscode" (.vscode/mcp.json),
// "roo-code" (.roo/mcp.json, mcp_settings.json), "kiro"
// (.kiro/settings/mcp.json), "windsurf" (mcp_config.json), "zed" (context_servers in
// Zed's settings.json) and "codex-cli" (config.toml: the schema validates
// the decoded TOML tree).
//
// Each schema is self-contained (no cross-file $ref) so that it can also be
// written out for other editors. Every server shape lives in $defs under a
// stable name (for example "stdioServer", "httpServer"). The analysis layer
// picks the shape from the entry itself (its type, or command versus url;
// see [ServerDef]) and validates the entry against that one branch with
// [Branch]: validating against a union would produce errors such as
// "doesn't validate with any of the schemas", which say nothing useful about
// which field is wrong. The whole-file schema from [Compiled] contains the
// same choice as an if/then dispatcher (#/$defs/server) for editors and for
// tests.
//
// Instances are decoded JSON, as the jsonschema library expects: the output
// of an encoding/json Decoder with UseNumber, decoded into an interface{}.
// Error locations need [InstancePointer] before they can be looked up.
package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The dialect names, which are also the schema file names without the
// ".schema.json" suffix.
const (
	ClaudeCode    = "claude-code"
	ClaudeDesktop = "claude-desktop"
	CodexCLI      = "codex-cli"
	CopilotCLI    = "copilot-cli"
	Cursor        = "cursor"
	GeminiCLI     = "gemini-cli"
	Kiro          = "kiro"
	OpenCode      = "opencode"
	RooCode       = "roo-code"
	VSCode        = "vscode"
	VSCodeDotMCP  = "vscode-dot-mcp"
	Windsurf      = "windsurf"
	Zed           = "zed"
)

// idPrefix is the base of every schema's $id. The URLs are names, never
// fetched: a stable $id lets an editor cache a written-out schema and lets
// the compiler resolve the schema's own "#/$defs/..." references.
const idPrefix = "https://mcp-lsp.dev/schemas/"

const fileSuffix = ".schema.json"

//go:embed *.schema.json
var files embed.FS

// errRefused is returned for every URL the compiler tries to load. All
// schemas are added to the compiler from the embedded files before
// compiling, so a load request can only come from a $ref to something that
// is not embedded: the language server must never reach the network or the
// disk because of a schema, so that is an error, not a fallback.
var errRefused = errors.New("schemas: loading schemas from URLs is disabled; only the embedded schemas are available")

// dialect is the lazily compiled state of one schema.
type dialect struct {
	name string
	once sync.Once
	root *jsonschema.Schema
	defs map[string]*jsonschema.Schema // by $defs name; all compiled together with root
	err  error
}

// dialects is built once from the embedded file names and never modified
// afterwards, so reading it needs no lock; each entry guards its own
// compilation with its sync.Once.
var dialects = func() map[string]*dialect {
	names, err := fs.Glob(files, "*"+fileSuffix)
	if err != nil {
		panic(err) // only for a malformed pattern
	}
	m := make(map[string]*dialect, len(names))
	for _, n := range names {
		d := strings.TrimSuffix(n, fileSuffix)
		m[d] = &dialect{name: d}
	}
	return m
}()

// Dialects returns the names of all dialects that have a schema, sorted.
func Dialects() []string {
	names := make([]string, 0, len(dialects))
	for n := range dialects {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Raw returns the text of the dialect's schema, or nil for an unknown
// dialect. It is meant for hover text, completion, and writing the schema
// out for other editors. Each call returns a fresh copy, so the caller may
// modify it.
func Raw(dialect string) []byte {
	if _, ok := dialects[dialect]; !ok {
		return nil
	}
	b, err := files.ReadFile(dialect + fileSuffix) // ReadFile copies
	if err != nil {
		return nil
	}
	return b
}

// Compiled returns the dialect's whole-file schema, compiled on first use.
// The result is shared and safe for concurrent Validate calls.
func Compiled(dialect string) (*jsonschema.Schema, error) {
	d, err := load(dialect)
	if err != nil {
		return nil, err
	}
	return d.root, nil
}

// Branch returns the compiled sub-schema at "#/$defs/<def>" of the dialect's
// schema, for example Branch("claude-code", "httpServer"). Use it to validate
// one server entry against the shape its own type (or command versus url)
// selects, so that errors name the offending field instead of a failed
// union. All definitions are compiled together with the whole schema, so
// Branch costs a map lookup after the first call.
func Branch(dialect, def string) (*jsonschema.Schema, error) {
	d, err := load(dialect)
	if err != nil {
		return nil, err
	}
	s, ok := d.defs[def]
	if !ok {
		return nil, fmt.Errorf("schemas: dialect %q has no definition %q", dialect, def)
	}
	return s, nil
}

// PropertyDoc returns the description of a property of the definition def
// (a $defs name, or "" for the top level of the file), for hover. It follows
// a definition's own $ref (the Claude Code top level refers to
// "claudeJsonFile"), but not the if/then dispatch of "server": ask the
// branch ("stdioServer", ...) for the properties of a server.
func PropertyDoc(dialect, def, property string) (description string, ok bool) {
	var s *jsonschema.Schema
	var err error
	if def == "" {
		s, err = Compiled(dialect)
	} else {
		s, err = Branch(dialect, def)
	}
	if err != nil {
		return "", false
	}
	// Bounded: $ref chains in these schemas are short, and a cycle made only
	// of $refs would already have failed to compile.
	for i := 0; s != nil && i < 8; i, s = i+1, s.Ref {
		if p, ok := s.Properties[property]; ok {
			return p.Description, p.Description != ""
		}
	}
	return "", false
}

// InstancePointer converts the InstanceLocation of a jsonschema
// ValidationError into an RFC 6901 JSON Pointer, as hujson's Value.Find
// expects. The library escapes each token twice, for a JSON Pointer ("~"
// and "/") and then for a URL path (url.PathEscape), so a server named
// "my server" is reported at "/mcpServers/my%20server" and one named "a}" at
// "/mcpServers/a%7D". Server names are object keys chosen by users, so the
// URL escaping must be undone before the location can be looked up.
func InstancePointer(loc string) (string, error) {
	if loc == "" {
		return "", nil
	}
	tokens := strings.Split(loc, "/")
	for i, tok := range tokens {
		t, err := url.PathUnescape(tok)
		if err != nil {
			return "", fmt.Errorf("schemas: bad instance location %q: %w", loc, err)
		}
		tokens[i] = t
	}
	return strings.Join(tokens, "/"), nil
}

// load compiles the dialect's schema once and returns its state.
func load(name string) (*dialect, error) {
	d, ok := dialects[name]
	if !ok {
		return nil, fmt.Errorf("schemas: unknown dialect %q (known: %s)", name, strings.Join(Dialects(), ", "))
	}
	d.once.Do(func() { d.root, d.defs, d.err = compile(name, trusted) })
	return d, d.err
}

// How compile treats the embedded schema (see trusted.go).
const (
	trusted   = false // compiled without validating it against the meta-schema
	validated = true  // validated against the meta-schema first, as the library does
)

// compile compiles the root and every $defs entry of one dialect with a
// single compiler. Compiling the definitions through the same compiler
// returns the very *Schema objects the root refers to, so a branch and the
// matching part of the whole-file schema behave identically. It all happens
// inside one sync.Once because a jsonschema.Compiler is not safe for
// concurrent use.
func compile(name string, validate bool) (*jsonschema.Schema, map[string]*jsonschema.Schema, error) {
	raw := Raw(name)
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("schemas: %s: %w", name, err)
	}

	id := schemaURL(name)
	c, text, ok := trustedCompiler(raw)
	if validate || !ok {
		c, text = newCompiler(), raw
	}
	if err := c.AddResource(id, bytes.NewReader(text)); err != nil {
		return nil, nil, fmt.Errorf("schemas: %s: %w", name, err)
	}
	root, err := c.Compile(id)
	if err != nil {
		return nil, nil, err
	}
	defs := make(map[string]*jsonschema.Schema, len(doc.Defs))
	for def := range doc.Defs {
		s, err := c.Compile(id + "#/$defs/" + escapePointer(def))
		if err != nil {
			return nil, nil, err
		}
		defs[def] = s
	}
	if c.Draft != jsonschema.Draft2020 {
		restoreDraft(root)
		for _, s := range defs {
			restoreDraft(s)
		}
	}
	return root, defs, nil
}

// newCompiler returns a compiler configured the way every dialect needs.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	// The files declare $schema too; setting the draft here as well means a
	// schema that lost its $schema is still read as 2020-12 rather than as
	// whatever the library's default happens to be.
	c.Draft = jsonschema.Draft2020
	// Keep description, default and deprecated on the compiled schemas, so
	// that hover and completion can use the compiled tree.
	c.ExtractAnnotations = true
	// "format" stays an annotation (AssertFormat is false): the tools do not
	// agree on URL checking (Claude Code and OpenCode accept any string,
	// Copilot CLI parses it before expanding variables), and Go's URL parser
	// is not the tools' parser, so URL diagnostics belong to the analysis
	// layer, which knows about interpolation.
	c.LoadURL = refuseURL
	return c
}

// refuseURL replaces the library's loader, which would otherwise fetch
// http(s) and file URLs. See errRefused.
func refuseURL(u string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%w (asked for %s)", errRefused, u)
}

// schemaURL is the $id of the dialect's schema.
func schemaURL(dialect string) string {
	return idPrefix + dialect + fileSuffix
}

// escapePointer escapes a $defs name as a JSON Pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
