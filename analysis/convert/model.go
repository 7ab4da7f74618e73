package convert

import (
	"fmt"
	"slices"
	"strings"
)

// Dialect is a registry dialect id: "claude-code", "claude-desktop",
// "copilot-cli", "cursor", "opencode" or "vscode" (the constants of package
// schemas). A plain string, so callers can pass registry and schema ids
// without conversions.
type Dialect = string

// Transport is how a client reaches a server.
type Transport string

const (
	// Stdio starts a local process: Claude Code "stdio", Copilot CLI
	// "local"/"stdio", OpenCode "local", VS Code/Cursor "stdio".
	Stdio Transport = "stdio"
	// HTTP is Streamable HTTP: "http" and its alias "streamable-http", and
	// OpenCode's "remote" (which tries Streamable HTTP first, then SSE).
	HTTP Transport = "http"
	// SSE is the legacy HTTP+SSE transport.
	SSE Transport = "sse"
	// WS is WebSocket, which only Claude Code reads.
	WS Transport = "ws"
)

// Server is one MCP server in a form every supported dialect maps to and
// from. It holds the union of what the dialects can say, so a conversion
// loses only what the target cannot express, and each such loss is
// reported by name.
//
// Strings that a tool may expand are [Text] values: literal text and
// variable references kept apart, because each tool spells references
// differently and expands them in different fields. Optional text fields
// are absent when empty: no tool gives an empty cwd, envFile or clientId a
// meaning different from leaving it out.
type Server struct {
	// Name is the key of the entry in its server map.
	Name string
	// Origin is the dialect the server was read from. It decides the
	// defaults that applied in the source file (OpenCode's timeout is
	// 5000 ms, Copilot CLI's 30000 ms), so a conversion can write them
	// out when the target's default differs. Empty for a server built by
	// hand: then no source default is assumed.
	Origin Dialect
	// EnabledOnly marks OpenCode's {"enabled": b} entry, which switches a
	// server defined in another OpenCode file on or off (OpenCode merges
	// files field by field). Only Enabled is meaningful then, and only
	// OpenCode can hold it.
	EnabledOnly bool

	Transport Transport
	Command   Text   // stdio: the program
	Args      []Text // stdio: its arguments
	Env       []Pair // stdio: environment variables, in source order
	EnvFile   Text   // stdio: VS Code and Cursor envFile
	Cwd       Text   // stdio: Copilot CLI and VS Code cwd
	URL       Text   // remote: the endpoint
	Headers   []Pair // remote: HTTP headers, in source order
	// HeadersHelper is Claude Code's shell command printing headers. It is
	// run by a shell, which does its own expansion, so it is kept verbatim.
	HeadersHelper string
	OAuth         *OAuth // remote: nil when the entry says nothing about OAuth

	// TimeoutMs is the per-server timeout in milliseconds (Copilot CLI,
	// OpenCode); 0 when the entry sets none and the source tool's default
	// applies (see Origin).
	TimeoutMs int
	// Enabled is OpenCode's switch; nil when absent (enabled). An explicit
	// true matters in OpenCode, where it overrides a false from another
	// file.
	Enabled *bool
	// Tools is Copilot CLI's tool filter: nil for all tools (["*"] or
	// absent), an empty non-nil slice for none.
	Tools []string
	// AlwaysLoad loads the server's tools up front instead of deferring
	// them: Claude Code alwaysLoad, Copilot CLI deferTools "never" (true)
	// or "auto" (false). nil when absent.
	AlwaysLoad *bool

	// Extras are settings only one dialect has and the model does not
	// name (Copilot CLI filterMapping, VS Code dev, Claude Code oauth.xaa,
	// ...), kept raw with their dialect so that converting back to that
	// dialect restores them. Any other dialect reports them as losses.
	Extras []Extra
}

// Pair is one environment variable or header.
type Pair struct {
	Name  string
	Value Text
	// Null is VS Code's env value null, which removes the variable from
	// the server's environment. No other dialect can say it.
	Null bool
}

// OAuth holds the OAuth client settings of a remote server. Each dialect
// has a subset: Claude Code clientId, callbackPort, authServerMetadataUrl,
// scopes; OpenCode clientId, clientSecret, scope, redirectUri,
// callbackPort, authorizationEndpoint, tokenEndpoint, or false; Copilot
// CLI oauthClientId, oauthScopes; VS Code clientId; Cursor auth
// CLIENT_ID, CLIENT_SECRET, scopes.
type OAuth struct {
	// Disabled is OpenCode's "oauth": false: never start OAuth, even when
	// the server answers 401. The other fields are then empty.
	Disabled     bool
	ClientID     Text
	ClientSecret Text
	// Scopes are the scopes to request, one per element. Claude Code and
	// OpenCode write them space-separated in one string (OAuth scopes
	// cannot contain spaces, so splitting is lossless).
	Scopes                []Text
	CallbackPort          int
	RedirectURI           Text
	AuthServerMetadataURL Text
	AuthorizationEndpoint Text
	TokenEndpoint         Text
}

// empty reports whether o says nothing.
func (o *OAuth) empty() bool {
	return o == nil || !o.Disabled && len(o.ClientID) == 0 && len(o.ClientSecret) == 0 &&
		len(o.Scopes) == 0 && o.CallbackPort == 0 && len(o.RedirectURI) == 0 &&
		len(o.AuthServerMetadataURL) == 0 && len(o.AuthorizationEndpoint) == 0 && len(o.TokenEndpoint) == 0
}

// Extra is one dialect-specific setting. Key is the entry key, or
// "oauth.<key>" for a key inside Claude Code's oauth object. Value is
// JSON as [RenderEntry] takes it (objects as [Object], to keep their
// order).
type Extra struct {
	Dialect Dialect
	Key     string
	Value   any
}

// LossKind says how a field was lost.
type LossKind uint8

const (
	// Dropped: the field is not in the output.
	Dropped LossKind = iota
	// Changed: the output has the field, but the target tool reads it
	// differently (a variable it will not expand, text it will expand, an
	// unset variable that becomes empty, SSE that becomes "remote").
	Changed
)

// Verb is how the CLI introduces a loss of this kind: "drops" or
// "changes".
func (k LossKind) Verb() string {
	if k == Changed {
		return "changes"
	}
	return "drops"
}

// Loss is something a conversion could not carry over faithfully. It
// names fields and variables, never values: a reason never contains a
// header, an environment value, a default or any other text of the
// file, because any of them may be a secret.
type Loss struct {
	// Server is the server's name; empty for a file-level loss (a
	// top-level key that is not a server map, comments).
	Server string
	// Field is the model's name of the field: "oauth.clientSecret",
	// "env.API_KEY", "args[2]", "timeout", or a dialect's own key for an
	// extra ("filterMapping"). Empty when the whole server is concerned.
	Field  string
	Kind   LossKind
	Reason string
}

// String is the loss as the CLI prints it:
// `drops: github: oauth.clientSecret (Claude Code keeps ...)`, or without
// the field when the whole server is concerned.
func (l Loss) String() string {
	var b strings.Builder
	b.WriteString(l.Kind.Verb())
	b.WriteString(":")
	if l.Server != "" {
		b.WriteString(" ")
		b.WriteString(displayName(l.Server))
		if l.Field != "" {
			b.WriteString(":")
		}
	}
	if l.Field != "" {
		b.WriteString(" ")
		b.WriteString(l.Field)
	}
	fmt.Fprintf(&b, " (%s)", l.Reason)
	return b.String()
}

// displayName quotes a server name when printing it bare could mislead:
// when it is empty, has spaces, colons or quotes, or is not printable.
func displayName(name string) string {
	if name == "" || strings.ContainsAny(name, " :\"'()") || strings.ContainsFunc(name, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r == 0xfffd || r >= 0x80 && r < 0xa0
	}) {
		return fmt.Sprintf("%q", name)
	}
	return name
}

// Normalized returns a copy of s in which equal behaviour means equal
// values, for comparing servers (reflect.DeepEqual) after a round trip:
// defaults are filled in or left out consistently (TimeoutMs 0 becomes
// the Origin tool's default, Enabled true and AlwaysLoad false become
// nil), text is merged into canonical segments, empty lists become nil
// (except Tools, where empty means "no tools"), extras are sorted, and
// Origin is cleared.
func (s *Server) Normalized() *Server {
	c := *s
	if c.TimeoutMs == 0 {
		c.TimeoutMs = info(s.Origin).defaultTimeout
	}
	c.Origin = ""
	if c.Enabled != nil && *c.Enabled {
		c.Enabled = nil
	}
	if c.AlwaysLoad != nil && !*c.AlwaysLoad {
		c.AlwaysLoad = nil
	}
	c.Command = c.Command.norm()
	c.Args = normTexts(c.Args)
	c.Env = normPairs(c.Env)
	c.Headers = normPairs(c.Headers)
	c.EnvFile = c.EnvFile.norm()
	c.Cwd = c.Cwd.norm()
	c.URL = c.URL.norm()
	if c.Tools != nil {
		c.Tools = slices.Clone(c.Tools)
	}
	if c.OAuth.empty() {
		c.OAuth = nil
	} else {
		o := *c.OAuth
		o.ClientID = o.ClientID.norm()
		o.ClientSecret = o.ClientSecret.norm()
		o.Scopes = normTexts(o.Scopes)
		o.RedirectURI = o.RedirectURI.norm()
		o.AuthServerMetadataURL = o.AuthServerMetadataURL.norm()
		o.AuthorizationEndpoint = o.AuthorizationEndpoint.norm()
		o.TokenEndpoint = o.TokenEndpoint.norm()
		c.OAuth = &o
	}
	if len(c.Extras) == 0 {
		c.Extras = nil
	} else {
		c.Extras = slices.Clone(c.Extras)
		slices.SortStableFunc(c.Extras, func(a, b Extra) int {
			return strings.Compare(a.Dialect+"\x00"+a.Key, b.Dialect+"\x00"+b.Key)
		})
	}
	return &c
}

func normTexts(ts []Text) []Text {
	if len(ts) == 0 {
		return nil
	}
	out := make([]Text, len(ts))
	for i, t := range ts {
		out[i] = t.norm()
	}
	return out
}

func normPairs(ps []Pair) []Pair {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Pair, len(ps))
	for i, p := range ps {
		out[i] = Pair{Name: p.Name, Value: p.Value.norm(), Null: p.Null}
		if p.Null {
			out[i].Value = nil
		}
	}
	return out
}
