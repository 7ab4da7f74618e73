package convert

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// ErrEnabledOnly is returned (wrapped) by [ToEntry] for an OpenCode
// {"enabled": ...} override into any other dialect: it is not a server,
// and no other tool merges files field by field. [ConvertFile] reports it
// as a loss instead.
var ErrEnabledOnly = errors.New("only switches a server from another OpenCode file on or off")

// ToEntry writes s as an entry of dialect: an [Object] with the keys in a
// conventional order (type, command, args, env, url, headers, ...), ready
// for [RenderEntry]. What the dialect cannot express is left out or
// written as close as it goes, and reported in the losses.
//
// It returns an error, and no entry, when the dialect cannot hold the
// server at all: a transport it does not have (a remote server in Claude
// Desktop, WebSocket anywhere but Claude Code), a name it skips or
// forbids, an empty command for Claude Code, a URL VS Code rejects. The
// entry it returns always validates against the dialect's schema: it is
// checked before it is returned.
//
// Defaults that differ between tools are written out when leaving them
// implicit would change behaviour:
//   - timeout: when s sets none, the default of the tool it was read from
//     (s.Origin) is written if the target has a per-server timeout with a
//     different default (OpenCode 5000 ms into Copilot CLI; Copilot CLI
//     30000 ms into OpenCode). A default the source tool did not have a
//     field for (Claude Code, VS Code, Cursor) is not invented.
//   - Copilot CLI gets "tools": ["*"] and "args": [] when absent: the
//     reference calls both required and older versions needed them.
//   - Claude Code and Copilot CLI get "type" on every remote server (a
//     url without type is a stdio server to Claude Code); stdio servers
//     get none (Claude Code's /doctor has flagged "type": "stdio").
//   - OpenCode always gets "type" (required); VS Code gets it too.
func ToEntry(dialect Dialect, s *Server) (any, []Loss, error) {
	d, err := lookup(dialect)
	if err != nil {
		return nil, nil, err
	}
	w := &writer{d: d, s: s}
	if err := w.check(); err != nil {
		return nil, nil, err
	}
	var o Object
	switch d.id {
	case schemas.ClaudeCode:
		o = w.claude()
	case schemas.ClaudeDesktop:
		o = w.desktop()
	case schemas.CopilotCLI:
		o = w.copilot()
	case schemas.OpenCode:
		o = w.opencode()
	case schemas.VSCode:
		o = w.vscode()
	case schemas.Cursor:
		o = w.cursor()
	case schemas.GeminiCLI:
		o = w.gemini()
	case schemas.RooCode:
		o = w.roo()
	case schemas.Zed:
		o = w.zed()
	case schemas.CodexCLI:
		o = w.codex()
	case schemas.Kiro, schemas.Windsurf:
		o = w.kiroWindsurf()
	}
	if w.err != nil {
		return nil, nil, w.err
	}
	if err := validateEntry(d.id, o); err != nil {
		return nil, nil, err
	}
	return o, w.losses, nil
}

// validateEntry checks a written entry against the dialect's schema
// branch: a last guard so that a server the target cannot hold becomes an
// error, not a file the tool rejects.
func validateEntry(dialect Dialect, o Object) error {
	p := Plain(o).(map[string]any)
	def, ok := schemas.ServerDef(dialect, p)
	if !ok {
		return fmt.Errorf("convert: no %s server shape for this entry", dialect)
	}
	branch, err := schemas.Branch(dialect, def)
	if err != nil {
		return err
	}
	if err := branch.Validate(p); err != nil {
		return fmt.Errorf("%s cannot hold this server: %s", info(dialect).tool, describeInvalid(err))
	}
	return nil
}

// writer builds one entry and collects its losses.
type writer struct {
	d      *dialectInfo
	s      *Server
	losses []Loss
	err    error
	// field is the model field text is writing (for spell).
	field string
}

// lose records a loss, once per field and reason.
func (w *writer) lose(field string, kind LossKind, format string, args ...any) {
	l := Loss{Server: w.s.Name, Field: field, Kind: kind, Reason: fmt.Sprintf(format, args...)}
	if !slices.Contains(w.losses, l) {
		w.losses = append(w.losses, l)
	}
}

// check rejects servers the dialect cannot hold at all.
func (w *writer) check() error {
	d, s := w.d, w.s
	if s.EnabledOnly {
		if d.id == schemas.OpenCode {
			return nil
		}
		return fmt.Errorf("%w; %s has no such override", ErrEnabledOnly, d.tool)
	}
	if !d.holds(s.Transport) {
		switch {
		case s.Transport == "":
			return errors.New("the server has no transport")
		case d.id == schemas.ClaudeDesktop:
			return fmt.Errorf("Claude Desktop takes only local (stdio) servers from its config file, not %s ones (add remote servers as connectors in the app)", transportName(s.Transport))
		default:
			return fmt.Errorf("%s cannot connect to %s servers", d.tool, transportName(s.Transport))
		}
	}
	switch d.id {
	case schemas.ClaudeCode:
		if s.Name == "workspace" {
			return errors.New(`Claude Code reserves the name "workspace" and skips such a server; rename it first`)
		}
	case schemas.CopilotCLI:
		if strings.ContainsFunc(s.Name, func(r rune) bool { return r == '}' || r < 0x20 || r == 0x7f }) {
			return errors.New(`Copilot CLI does not accept "}" or control characters in server names; rename it first`)
		}
	}
	return nil
}

func transportName(t Transport) string {
	switch t {
	case WS:
		return "WebSocket"
	case SSE:
		return "SSE"
	case HTTP:
		return "Streamable HTTP"
	}
	return string(t)
}

// text writes t as the value of field (a model field name, which decides
// whether the target expands variables there); lossField names it in
// losses. References the target cannot express are written in their
// usual spelling and reported; literal text the target would take for a
// reference is reported too (no tool has an escape for it).
func (w *writer) text(field, lossField string, t Text) string {
	d := w.d
	expands := d.expands(field)
	var b strings.Builder
	var want, fallback []token // spans written as references, and as unexpressible text
	for _, seg := range t {
		if seg.Ref.Kind == 0 {
			b.WriteString(seg.Lit)
			continue
		}
		r := seg.Ref
		start := b.Len()
		if !expands {
			b.WriteString(r.display())
			if d.syntax == noSyntax {
				w.lose(lossField, Changed, "%s does not expand variables: %s stays text", d.tool, r.describe())
			} else {
				w.lose(lossField, Changed, "%s does not expand variables in %s: %s stays text", d.tool, field, r.describe())
			}
			fallback = append(fallback, token{start: start, end: b.Len()})
			continue
		}
		w.field = field
		spelled, isRef := w.spell(lossField, r)
		b.WriteString(spelled)
		tok := token{start: start, end: b.Len()}
		if isRef {
			want = append(want, tok)
		} else {
			fallback = append(fallback, tok)
		}
	}
	out := b.String()
	if expands {
		var got []token
		for _, tok := range d.syntax.scan(out) {
			if !slices.ContainsFunc(fallback, func(f token) bool { return f.start <= tok.start && tok.end <= f.end }) {
				got = append(got, token{start: tok.start, end: tok.end})
			}
		}
		if !slices.Equal(got, want) {
			w.lose(lossField, Changed, "%s would expand part of this text as a variable reference", d.tool)
		}
	}
	return out
}

// spell writes reference r in the target's syntax; isRef is false when it
// had to be written as plain text.
func (w *writer) spell(lossField string, r Ref) (text string, isRef bool) {
	d := w.d
	switch d.syntax {
	case dollarSyntax, dollarBare:
		switch r.Kind {
		case EnvRef:
			if !interp.IsIdent(r.Name) {
				w.lose(lossField, Changed, "%s cannot expand a variable named %q: %s stays text", d.tool, r.Name, r.describe())
				return r.display(), false
			}
			if slices.Contains(d.unsetEmpty, w.field) {
				// ${VAR} is already "" when unset here (Gemini CLI's env
				// and headers).
				if !r.HasDefault {
					w.lose(lossField, Changed, "%s turns an unset %s into an empty string in %s", d.tool, r.Name, w.field)
				}
				if !r.HasDefault || r.Default == "" {
					return "${" + r.Name + "}", true
				}
			}
			if r.HasDefault {
				return "${" + r.Name + ":-" + r.Default + "}", true
			}
			return "${" + r.Name + "}", true
		case InputRef:
			n := envName(r.Name)
			w.lose(lossField, Changed, "%s does not prompt for inputs: %s becomes the environment variable %s", d.tool, r.describe(), n)
			return "${" + n + "}", true
		case EditorRef:
			if r.Name == "userHome" {
				w.lose(lossField, Changed, "%s has no ${userHome}; it reads the environment variable HOME instead, which Windows does not set", d.tool)
				return "${HOME}", true
			}
		}
	case braceSyntax:
		switch r.Kind {
		case EnvRef:
			if strings.Contains(r.Name, "}") {
				break
			}
			w.emptyDefault(lossField, r)
			return "{env:" + r.Name + "}", true
		case FileRef:
			return "{file:" + r.Name + "}", true
		case InputRef:
			n := envName(r.Name)
			w.lose(lossField, Changed, "OpenCode does not prompt for inputs: %s becomes {env:%s}", r.describe(), n)
			return "{env:" + n + "}", true
		case EditorRef:
			if r.Name == "userHome" {
				w.lose(lossField, Changed, "OpenCode has no ${userHome}; it reads the environment variable HOME instead, which Windows does not set")
				return "{env:HOME}", true
			}
		}
	case vscodeSyntax, cursorSyntax, rooSyntax, envSyntax:
		switch r.Kind {
		case EnvRef:
			if strings.Contains(r.Name, "}") {
				break
			}
			if d.unsetLiteral {
				if !interp.IsIdent(r.Name) {
					break
				}
				if r.HasDefault {
					w.lose(lossField, Changed, "%s has no default values: %s loses its default, and an unset %s stays as text", d.tool, r.describe(), r.Name)
				}
				return "${env:" + r.Name + "}", true
			}
			w.emptyDefault(lossField, r)
			return "${env:" + r.Name + "}", true
		case InputRef:
			if d.syntax == vscodeSyntax {
				return r.display(), true
			}
			n := envName(r.Name)
			w.lose(lossField, Changed, "%s does not prompt for inputs: %s becomes ${env:%s}", d.tool, r.describe(), n)
			return "${env:" + n + "}", true
		case EditorRef:
			if len(d.syntax.scan(r.display())) == 1 {
				return r.display(), true
			}
		}
	}
	switch r.Kind {
	case FileRef:
		w.lose(lossField, Changed, "%s cannot read a value from a file: %s stays text", d.tool, r.describe())
	case EditorRef:
		w.lose(lossField, Changed, "%s has no %s: it stays text, replace it by hand", d.tool, r.describe())
	default:
		w.lose(lossField, Changed, "%s cannot express %s: it stays text", d.tool, r.describe())
	}
	return r.display(), false
}

// emptyDefault reports what happens to an environment reference in a tool
// whose only form turns an unset variable into "" (OpenCode, VS Code,
// Cursor): a default other than "" is lost, and a reference without
// default (which Claude Code keeps as text, with a warning) gives "".
func (w *writer) emptyDefault(lossField string, r Ref) {
	switch {
	case r.HasDefault && r.Default != "":
		w.lose(lossField, Changed, "%s has no default values: %s loses its default", w.d.tool, r.describe())
	case !r.HasDefault:
		w.lose(lossField, Changed, "%s turns an unset %s into an empty string", w.d.tool, r.Name)
	}
}

// key checks a map key or name for OpenCode, which substitutes {env:...}
// and {file:...} in the raw text, keys included.
func (w *writer) key(lossField, k string) string {
	if w.d.syntax == braceSyntax && len(braceSyntax.scan(k)) > 0 {
		w.lose(lossField, Changed, "OpenCode would substitute a variable in this name")
	}
	return k
}

// pairs writes env or headers (field "env" or "headers"); lossPrefix is
// the model name used in losses.
func (w *writer) pairs(field string, ps []Pair) Object {
	o := Object{}
	for _, p := range ps {
		lf := field + "." + p.Name
		if p.Null {
			if w.d.id == schemas.VSCode && field == "env" {
				o = append(o, Member{p.Name, nil})
				continue
			}
			w.lose(lf, Dropped, "only VS Code can remove a variable with null")
			continue
		}
		o = append(o, Member{w.key(lf, p.Name), w.text(field, lf, p.Value)})
	}
	return o
}

func (w *writer) args() []any {
	out := make([]any, 0, len(w.s.Args))
	for i, a := range w.s.Args {
		out = append(out, w.text("args", "args["+strconv.Itoa(i)+"]", a))
	}
	return out
}

// opt writes an optional text field.
func (w *writer) opt(o *Object, key, field, lossField string, t Text) {
	if len(t) > 0 {
		o.set(key, w.text(field, lossField, t))
	}
}

// stray reports the fields of the other transport, which only a server
// built by hand can have (readers never produce them).
func (w *writer) stray() {
	s := w.s
	if s.Transport == Stdio {
		if len(s.URL) > 0 {
			w.lose("url", Dropped, "a local server has no url")
		}
		if len(s.Headers) > 0 {
			w.lose("headers", Dropped, "a local server has no headers")
		}
		if s.HeadersHelper != "" {
			w.lose("headersHelper", Dropped, "a local server has no headers")
		}
		if !s.OAuth.empty() {
			w.lose("oauth", Dropped, "a local server has no OAuth")
		}
		for _, x := range s.Extras {
			if strings.HasPrefix(x.Key, "oauth.") && x.Dialect == w.d.id {
				w.lose(x.Key, Dropped, "a local server has no OAuth")
			}
		}
		return
	}
	if len(s.Command) > 0 || len(s.Args) > 0 {
		w.lose("command", Dropped, "a remote server has no command")
	}
	if len(s.Env) > 0 {
		w.lose("env", Dropped, "a remote server has no environment")
	}
	if len(s.EnvFile) > 0 {
		w.lose("envFile", Dropped, "a remote server has no environment")
	}
	if len(s.Cwd) > 0 {
		w.lose("cwd", Dropped, "a remote server has no working directory")
	}
}

// common reports the settings of s that the target has no place for, given
// which of them it does have.
func (w *writer) common(has ...string) {
	s, d := w.s, w.d
	can := func(f string) bool { return slices.Contains(has, f) }
	if s.Transport == Stdio {
		if len(s.Cwd) > 0 && !can("cwd") {
			w.lose("cwd", Dropped, "%s has no working-directory setting", d.tool)
		}
		if len(s.EnvFile) > 0 && !can("envFile") {
			w.lose("envFile", Dropped, "%s cannot load an env file", d.tool)
		}
	} else if s.HeadersHelper != "" && !can("headersHelper") {
		w.lose("headersHelper", Dropped, "only Claude Code runs a command to produce headers")
	}
	if s.TimeoutMs != 0 && !can("timeout") {
		if d.id == schemas.ClaudeCode {
			w.lose("timeout", Dropped, "Claude Code has no per-server timeout; MCP_TIMEOUT and MCP_TOOL_TIMEOUT apply to all servers")
		} else {
			w.lose("timeout", Dropped, "%s has no per-server timeout", d.tool)
		}
	}
	if s.Enabled != nil && !*s.Enabled && !can("enabled") {
		if d.id == schemas.CopilotCLI {
			w.lose("enabled", Dropped, "Copilot CLI ignores enabled in config files, so the server will start; disable it in the CLI")
		} else {
			w.lose("enabled", Dropped, "%s has no enabled switch in this file, so the server will start", d.tool)
		}
	}
	if s.Tools != nil && !can("tools") {
		w.lose("tools", Dropped, "%s has no per-server tool filter: every tool of the server will be available", d.tool)
	}
	if s.AlwaysLoad != nil && *s.AlwaysLoad && !can("alwaysLoad") {
		w.lose("alwaysLoad", Dropped, "%s has no setting to load a server's tools up front", d.tool)
	}
	for _, x := range s.Extras {
		if x.Dialect != d.id {
			w.lose(x.Key, Dropped, "a %s setting that %s does not have", info(x.Dialect).tool, d.tool)
		}
	}
}

// extras appends the extras of the target dialect that are not inside
// oauth, in their source order.
func (w *writer) extras(o *Object) {
	for _, x := range w.s.Extras {
		if x.Dialect == w.d.id && !strings.HasPrefix(x.Key, "oauth.") {
			o.set(x.Key, x.Value)
		}
	}
}

// timeout returns the timeout to write into a dialect with a per-server
// timeout, 0 for none. See ToEntry.
func (w *writer) timeout() int {
	if w.s.TimeoutMs != 0 {
		return w.s.TimeoutMs
	}
	if def := info(w.s.Origin).defaultTimeout; def != 0 && def != w.d.defaultTimeout {
		return def
	}
	return 0
}

// oauthLosses reports the OAuth settings the target has no place for.
func (w *writer) oauthLosses(has ...string) {
	a := w.s.OAuth
	if a.empty() {
		return
	}
	tool := w.d.tool
	if a.Disabled && !slices.Contains(has, "disabled") {
		w.lose("oauth", Dropped, "%s cannot turn off OAuth for a server", tool)
	}
	field := func(name string, set bool) {
		if set && !slices.Contains(has, name) {
			w.lose("oauth."+name, Dropped, "%s has no OAuth %s setting", tool, name)
		}
	}
	if len(a.ClientSecret) > 0 && !slices.Contains(has, "clientSecret") {
		if w.d.id == schemas.ClaudeCode {
			w.lose("oauth.clientSecret", Dropped, "Claude Code keeps the client secret out of its config; pass it with claude mcp add --client-secret or MCP_CLIENT_SECRET")
		} else {
			w.lose("oauth.clientSecret", Dropped, "%s has no client secret in its config", tool)
		}
	}
	field("clientId", len(a.ClientID) > 0)
	field("scopes", len(a.Scopes) > 0)
	field("callbackPort", a.CallbackPort != 0)
	field("redirectUri", len(a.RedirectURI) > 0)
	field("authServerMetadataUrl", len(a.AuthServerMetadataURL) > 0)
	field("authorizationEndpoint", len(a.AuthorizationEndpoint) > 0)
	field("tokenEndpoint", len(a.TokenEndpoint) > 0)
}

// joinScopes writes scopes space-separated.
func (w *writer) joinScopes(field string) string {
	parts := make([]string, len(w.s.OAuth.Scopes))
	for i, sc := range w.s.OAuth.Scopes {
		parts[i] = w.text(field, "oauth.scopes", sc)
	}
	return strings.Join(parts, " ")
}

func (w *writer) listScopes(field string) []any {
	out := make([]any, len(w.s.OAuth.Scopes))
	for i, sc := range w.s.OAuth.Scopes {
		out[i] = w.text(field, "oauth.scopes", sc)
	}
	return out
}

// stdio writes command, args and env (under envKey) the common way.
func (w *writer) stdio(o *Object, envKey string, alwaysArgs bool) {
	s := w.s
	o.set("command", w.text("command", "command", s.Command))
	if len(s.Args) > 0 || alwaysArgs {
		o.set("args", w.args())
	}
	if len(s.Env) > 0 {
		if env := w.pairs("env", s.Env); len(env) > 0 {
			o.set(envKey, env)
		}
	}
}

// remote writes url and headers.
func (w *writer) remote(o *Object) {
	s := w.s
	o.set("url", w.text("url", "url", s.URL))
	if len(s.Headers) > 0 {
		if h := w.pairs("headers", s.Headers); len(h) > 0 {
			o.set("headers", h)
		}
	}
}

func (w *writer) claude() Object {
	s := w.s
	w.stray()
	w.common("headersHelper", "alwaysLoad")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", false)
		if cmd := o[0].Value.(string); cmd == "" {
			w.err = errors.New("Claude Code skips a server with an empty command")
		}
	} else {
		o.set("type", string(s.Transport))
		w.remote(&o)
		if s.HeadersHelper != "" {
			o.set("headersHelper", s.HeadersHelper)
		}
		if s.Transport == WS {
			if !s.OAuth.empty() {
				w.lose("oauth", Dropped, "Claude Code has no OAuth settings for WebSocket servers")
			}
			for _, x := range s.Extras {
				if x.Dialect == w.d.id && strings.HasPrefix(x.Key, "oauth.") {
					w.lose(x.Key, Dropped, "Claude Code has no OAuth settings for WebSocket servers")
				}
			}
		} else {
			var oa Object
			if a := s.OAuth; !a.empty() {
				w.oauthLosses("clientId", "scopes", "callbackPort", "authServerMetadataUrl")
				w.opt(&oa, "clientId", "oauth", "oauth.clientId", a.ClientID)
				if a.CallbackPort != 0 {
					oa.set("callbackPort", a.CallbackPort)
				}
				w.opt(&oa, "authServerMetadataUrl", "oauth", "oauth.authServerMetadataUrl", a.AuthServerMetadataURL)
				if len(a.Scopes) > 0 {
					oa.set("scopes", w.joinScopes("oauth"))
				}
			}
			for _, x := range s.Extras {
				if k, ok := strings.CutPrefix(x.Key, "oauth."); ok && x.Dialect == w.d.id {
					oa.set(k, x.Value)
				}
			}
			if len(oa) > 0 {
				o.set("oauth", oa)
			}
		}
	}
	if s.AlwaysLoad != nil {
		o.set("alwaysLoad", *s.AlwaysLoad)
	}
	return o
}

func (w *writer) desktop() Object {
	w.stray()
	w.common()
	var o Object
	w.stdio(&o, "env", false)
	return o
}

func (w *writer) copilot() Object {
	s := w.s
	w.stray()
	w.common("cwd", "timeout", "tools", "alwaysLoad")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", true)
		w.opt(&o, "cwd", "cwd", "cwd", s.Cwd)
	} else {
		o.set("type", string(s.Transport))
		w.remote(&o)
	}
	tools := []any{"*"}
	if s.Tools != nil {
		tools = make([]any, len(s.Tools))
		for i, t := range s.Tools {
			tools[i] = t
		}
	}
	o.set("tools", tools)
	if t := w.timeout(); t != 0 {
		o.set("timeout", t)
	}
	if s.AlwaysLoad != nil {
		if *s.AlwaysLoad {
			o.set("deferTools", "never")
		} else {
			o.set("deferTools", "auto")
		}
	}
	w.extras(&o)
	if !s.OAuth.empty() && s.Transport != Stdio {
		w.oauthLosses("clientId", "scopes")
		a := s.OAuth
		w.opt(&o, "oauthClientId", "oauth", "oauth.clientId", a.ClientID)
		if len(a.Scopes) > 0 {
			if len(a.ClientID) == 0 {
				w.lose("oauth.scopes", Dropped, "Copilot CLI sends oauthScopes only with an oauthClientId")
			} else {
				o.set("oauthScopes", w.listScopes("oauth"))
			}
		}
	}
	// Copilot's OAuth extras (oauthPublicClient, ...) were appended by
	// extras in their source order, before oauthClientId; move them after
	// it, where a reader looks for them.
	var head, tail Object
	for _, m := range o {
		if strings.HasPrefix(m.Key, "oauth") || m.Key == "oidc" {
			tail = append(tail, m)
		} else {
			head = append(head, m)
		}
	}
	slices.SortStableFunc(tail, func(a, b Member) int { return oauthRank(a.Key) - oauthRank(b.Key) })
	return append(head, tail...)
}

func oauthRank(k string) int {
	switch k {
	case "oauthClientId":
		return 0
	case "oauthScopes":
		return 1
	}
	return 2
}

// opencode writes an OpenCode entry. SSE has no OpenCode type of its own:
// "remote" tries Streamable HTTP first and then SSE, so an SSE server
// still connects; the loss says so because the type changed.
func (w *writer) opencode() Object {
	s := w.s
	var o Object
	if s.EnabledOnly {
		if s.Enabled != nil {
			o.set("enabled", *s.Enabled)
		} else {
			o.set("enabled", true)
		}
		return o
	}
	w.stray()
	w.common("enabled", "timeout")
	w.key("name", s.Name)
	if s.Transport == Stdio {
		o.set("type", "local")
		cmd := []any{}
		if len(s.Command) > 0 || len(s.Args) > 0 {
			cmd = append(cmd, w.text("command", "command", s.Command))
			cmd = append(cmd, w.args()...)
		}
		o.set("command", cmd)
		if len(s.Env) > 0 {
			if env := w.pairs("env", s.Env); len(env) > 0 {
				o.set("environment", env)
			}
		}
	} else {
		o.set("type", "remote")
		if s.Transport == SSE {
			w.lose("type", Changed, "OpenCode has no SSE-only type: \"remote\" tries Streamable HTTP first, then falls back to SSE")
		}
		w.remote(&o)
		if a := s.OAuth; !a.empty() {
			w.oauthLosses("disabled", "clientId", "clientSecret", "scopes", "callbackPort", "redirectUri", "authorizationEndpoint", "tokenEndpoint")
			if a.Disabled {
				o.set("oauth", false)
			} else {
				var oa Object
				w.opt(&oa, "clientId", "oauth", "oauth.clientId", a.ClientID)
				w.opt(&oa, "clientSecret", "oauth", "oauth.clientSecret", a.ClientSecret)
				if len(a.Scopes) > 0 {
					oa.set("scope", w.joinScopes("oauth"))
				}
				w.opt(&oa, "redirectUri", "oauth", "oauth.redirectUri", a.RedirectURI)
				if a.CallbackPort != 0 {
					if a.CallbackPort > 65535 {
						w.lose("oauth.callbackPort", Dropped, "OpenCode takes only ports 1-65535")
					} else {
						oa.set("callbackPort", a.CallbackPort)
					}
				}
				w.opt(&oa, "authorizationEndpoint", "oauth", "oauth.authorizationEndpoint", a.AuthorizationEndpoint)
				w.opt(&oa, "tokenEndpoint", "oauth", "oauth.tokenEndpoint", a.TokenEndpoint)
				if len(oa) > 0 {
					o.set("oauth", oa)
				}
			}
		}
	}
	if s.Enabled != nil {
		o.set("enabled", *s.Enabled)
	}
	if t := w.timeout(); t != 0 {
		o.set("timeout", t)
	}
	return o
}

// vscode writes a VS Code entry, with "type" always (the reference lists
// it as required for stdio).
func (w *writer) vscode() Object {
	s := w.s
	w.stray()
	w.common("cwd", "envFile")
	o := Object{{"type", string(s.Transport)}}
	if s.Transport == Stdio {
		w.stdio(&o, "env", false)
		w.opt(&o, "envFile", "envFile", "envFile", s.EnvFile)
		w.opt(&o, "cwd", "cwd", "cwd", s.Cwd)
	} else {
		w.remote(&o)
		if u, _ := o.Get("url"); !vscodeURL(u.(string)) {
			w.err = errors.New("VS Code needs an http://, https://, unix: or pipe: URL")
		}
		if a := s.OAuth; !a.empty() {
			w.oauthLosses("clientId")
			if len(a.ClientID) > 0 {
				o.set("oauth", Object{{"clientId", w.text("oauth", "oauth.clientId", a.ClientID)}})
			}
		}
	}
	w.extras(&o)
	return o
}

// vscodeURL mirrors the VS Code schema's url pattern.
func vscodeURL(u string) bool {
	for _, p := range []string{"http://", "https://", "unix:", "pipe:", "${"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// cursor writes a Cursor entry. type is written only for SSE: Cursor
// infers stdio from command and Streamable HTTP from url, and its
// documented examples leave type out.
func (w *writer) cursor() Object {
	s := w.s
	w.stray()
	w.common("envFile")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", false)
		w.opt(&o, "envFile", "envFile", "envFile", s.EnvFile)
		return o
	}
	if s.Transport == SSE {
		o.set("type", "sse")
	}
	w.remote(&o)
	if a := s.OAuth; !a.empty() {
		w.oauthLosses("clientId", "clientSecret", "scopes")
		var oa Object
		w.opt(&oa, "CLIENT_ID", "oauth", "oauth.clientId", a.ClientID)
		w.opt(&oa, "CLIENT_SECRET", "oauth", "oauth.clientSecret", a.ClientSecret)
		if len(a.Scopes) > 0 {
			oa.set("scopes", w.listScopes("oauth"))
		}
		if len(oa) > 0 {
			o.set("auth", oa)
		}
	}
	return o
}

// gemini writes a Gemini CLI entry: command for stdio, httpUrl for
// Streamable HTTP (unambiguous in every release: before 0.61.0 a url
// without type was SSE), "type": "sse" with url for SSE.
func (w *writer) gemini() Object {
	s := w.s
	w.stray()
	w.common("cwd", "timeout", "tools")
	var o Object
	switch s.Transport {
	case Stdio:
		w.stdio(&o, "env", false)
		w.opt(&o, "cwd", "cwd", "cwd", s.Cwd)
	case SSE:
		o.set("type", "sse")
		w.remote(&o)
	default:
		o.set("httpUrl", w.text("url", "url", s.URL))
		if len(s.Headers) > 0 {
			if h := w.pairs("headers", s.Headers); len(h) > 0 {
				o.set("headers", h)
			}
		}
	}
	if t := w.timeout(); t != 0 {
		o.set("timeout", t)
	}
	if s.Tools != nil {
		if len(s.Tools) == 0 {
			w.lose("tools", Dropped, "Gemini CLI reads an empty includeTools as no filter: every tool of the server will be available")
		} else {
			tools := make([]any, len(s.Tools))
			for i, t := range s.Tools {
				tools[i] = t
			}
			o.set("includeTools", tools)
		}
	}
	w.extras(&o)
	if s.Transport != Stdio {
		var oa Object
		if a := s.OAuth; !a.empty() {
			w.oauthLosses("clientId", "clientSecret", "scopes", "redirectUri", "authorizationEndpoint", "tokenEndpoint")
			w.opt(&oa, "clientId", "oauth", "oauth.clientId", a.ClientID)
			w.opt(&oa, "clientSecret", "oauth", "oauth.clientSecret", a.ClientSecret)
			w.opt(&oa, "authorizationUrl", "oauth", "oauth.authorizationEndpoint", a.AuthorizationEndpoint)
			w.opt(&oa, "tokenUrl", "oauth", "oauth.tokenEndpoint", a.TokenEndpoint)
			if len(a.Scopes) > 0 {
				oa.set("scopes", w.listScopes("oauth"))
			}
			w.opt(&oa, "redirectUri", "oauth", "oauth.redirectUri", a.RedirectURI)
		}
		for _, x := range s.Extras {
			if k, ok := strings.CutPrefix(x.Key, "oauth."); ok && x.Dialect == w.d.id {
				oa.set(k, x.Value)
			}
		}
		if len(oa) > 0 {
			o.set("oauth", oa)
		}
	}
	return o
}

// seconds writes a timeout in milliseconds as the whole seconds of a tool
// whose timeout is in seconds (Roo Code, Zed), rounded up, within
// [low, high] (high 0: no limit); a change is reported.
func (w *writer) seconds(ms, low, high int) int {
	sec := (ms + 999) / 1000
	if sec < low {
		sec = low
	}
	if high > 0 && sec > high {
		sec = high
	}
	if sec*1000 != ms {
		w.lose("timeout", Changed, "%s takes the timeout in whole seconds from %d to %d: %d ms becomes %d s", w.d.tool, low, high, ms, sec)
	}
	return sec
}

// roo writes a Roo Code entry: type only for a remote server (required
// there, "sse" or "streamable-http"), "disabled": true for a server that
// is off, timeout in seconds (1 to 3600).
func (w *writer) roo() Object {
	s := w.s
	w.stray()
	w.common("cwd", "timeout", "enabled")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", false)
		if cmd := o[0].Value.(string); cmd == "" {
			w.err = errors.New("Roo Code refuses a server with an empty command")
		}
		w.opt(&o, "cwd", "cwd", "cwd", s.Cwd)
	} else {
		if s.Transport == SSE {
			o.set("type", "sse")
		} else {
			o.set("type", "streamable-http")
		}
		if len(s.URL) > 0 && s.URL[0].Ref.Kind != 0 {
			w.lose("url", Changed, "Roo Code checks that the url is a valid URL before it expands variables: a url that starts with a variable makes it refuse the file")
		}
		w.remote(&o)
		w.oauthLosses()
	}
	if s.Enabled != nil && !*s.Enabled {
		o.set("disabled", true)
	}
	if t := w.timeout(); t != 0 {
		o.set("timeout", w.seconds(t, 1, 3600))
	}
	w.extras(&o)
	return o
}

// zed writes a Zed context server: command with args (required, even
// empty) or url; enabled when set; timeout in seconds.
func (w *writer) zed() Object {
	s := w.s
	w.stray()
	w.common("timeout", "enabled")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", true)
	} else {
		w.remote(&o)
		w.oauthLosses()
	}
	if s.Enabled != nil {
		o.set("enabled", *s.Enabled)
	}
	if t := w.timeout(); t != 0 {
		o.set("timeout", w.seconds(t, 0, 0))
	}
	w.extras(&o)
	return o
}

// kiroWindsurf writes a Kiro or Windsurf entry: command with args (Kiro's
// docs require args, so it is always written) or the url (Windsurf's
// serverUrl), "disabled": true for a server that is off. Neither has a
// transport setting, so an SSE server is written as a plain url.
func (w *writer) kiroWindsurf() Object {
	s := w.s
	w.stray()
	w.common("enabled")
	var o Object
	if s.Transport == Stdio {
		w.stdio(&o, "env", w.d.id == schemas.Kiro)
	} else {
		if s.Transport == SSE {
			w.lose("type", Changed, "%s has no transport setting: it is given only the url, not that the server speaks SSE", w.d.tool)
		}
		key := "url"
		if w.d.id == schemas.Windsurf {
			key = "serverUrl"
		}
		o.set(key, w.text("url", "url", s.URL))
		if len(s.Headers) > 0 {
			if h := w.pairs("headers", s.Headers); len(h) > 0 {
				o.set("headers", h)
			}
		}
		w.oauthLosses()
	}
	if s.Enabled != nil && !*s.Enabled {
		o.set("disabled", true)
	}
	w.extras(&o)
	return o
}
