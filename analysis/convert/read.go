package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/schemas"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// FromEntry reads one server entry of dialect (the value of the member
// named name in the dialect's server map).
//
// The entry must be valid for its tool, as the dialect's schema says
// (validated against the branch schemas.ServerDef picks): converting an
// entry the tool itself skips would only move the problem, so the error
// says which field is wrong (run `mcp-lsp check` for the details). The
// exception is keys the tool does not know: Claude Code and Copilot CLI
// drop them silently, so they are dropped here too, each reported as a
// loss. Errors and losses never quote a value.
func FromEntry(dialect Dialect, name string, entry *jsonc.Node) (*Server, []Loss, error) {
	d, err := lookup(dialect)
	if err != nil {
		return nil, nil, err
	}
	v, err := decode(entry)
	if err != nil {
		return nil, nil, err
	}
	return d.fromValue(name, v)
}

// decode converts a node to an ordered value: Object, []any, string,
// json.Number, bool or nil. Of duplicate keys the last one wins, at its
// own position, as in rules.ServerMap.Servers: that is what every tool
// reads.
func decode(n *jsonc.Node) (any, error) {
	if n == nil {
		return nil, errors.New("missing value")
	}
	switch n.Kind {
	case jsonc.Object:
		var o Object
		for _, m := range n.Members() {
			if m.Key == nil || n.Get(m.Key.Str) != m {
				continue
			}
			v, err := decode(m.Value)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{m.Key.Str, v})
		}
		if o == nil {
			o = Object{}
		}
		return o, nil
	case jsonc.Array:
		out := make([]any, 0, len(n.Elements()))
		for _, e := range n.Elements() {
			v, err := decode(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case jsonc.String:
		return n.Str, nil
	case jsonc.Number:
		return json.Number(n.Str), nil
	case jsonc.True:
		return true, nil
	case jsonc.False:
		return false, nil
	case jsonc.Null:
		return nil, nil
	}
	return nil, fmt.Errorf("incomplete value at byte %d", n.Span.Start)
}

// nestedKeys are the keys of the objects inside an entry whose unknown
// keys are dropped like unknown entry keys (the tools strip them too).
var nestedKeys = map[Dialect]map[string][]string{
	schemas.ClaudeCode: {"oauth": {"clientId", "callbackPort", "authServerMetadataUrl", "scopes", "xaa"}},
	schemas.OpenCode:   {"oauth": {"clientId", "clientSecret", "scope", "redirectUri", "callbackPort", "authorizationEndpoint", "tokenEndpoint"}},
	schemas.VSCode:     {"oauth": {"clientId"}},
	schemas.Cursor:     {"auth": {"CLIENT_ID", "CLIENT_SECRET", "scopes"}},
	schemas.CodexCLI:   {"oauth": {"client_id", "client_secret", "callback_port", "callback_url", "token_endpoint_auth_method", "authorization_server_issuer"}},
	schemas.GeminiCLI: {"oauth": {"enabled", "clientId", "clientSecret", "authorizationUrl", "tokenUrl", "scopes",
		"audiences", "redirectUri", "tokenParamName"}},
}

func (d *dialectInfo) fromValue(name string, v any) (*Server, []Loss, error) {
	obj, ok := v.(Object)
	if !ok {
		return nil, nil, fmt.Errorf("a %s server must be an object", d.tool)
	}
	def, ok := schemas.ServerDef(d.id, Plain(obj).(map[string]any))
	if !ok {
		return nil, nil, fmt.Errorf("type: not a transport %s knows (it skips this entry)", d.tool)
	}
	branch, err := schemas.Branch(d.id, def)
	if err != nil {
		return nil, nil, err
	}

	var losses []Loss
	unknown := func(field string) {
		reason := d.tool + " ignores it"
		if d.id == schemas.OpenCode {
			reason = "OpenCode rejects the whole file because of it"
		}
		losses = append(losses, Loss{Server: name, Field: field, Kind: Dropped, Reason: "not a " + d.tool + " setting; " + reason})
	}
	var known Object
	for _, m := range obj {
		if _, ok := branch.Properties[m.Key]; !ok {
			unknown(m.Key)
			continue
		}
		if keys, ok := nestedKeys[d.id][m.Key]; ok {
			if inner, ok := m.Value.(Object); ok {
				var kept Object
				for _, im := range inner {
					if slices.Contains(keys, im.Key) {
						kept = append(kept, im)
					} else {
						unknown(m.Key + "." + im.Key)
					}
				}
				if kept == nil {
					kept = Object{}
				}
				m.Value = kept
			}
		}
		known = append(known, m)
	}
	if err := branch.Validate(Plain(known)); err != nil {
		return nil, nil, fmt.Errorf("not a valid %s server: %s (run mcp-lsp check for details)", d.tool, describeInvalid(err))
	}

	s := &Server{Name: name, Origin: d.id}
	e := entry(known)
	switch d.id {
	case schemas.ClaudeCode:
		d.readClaude(s, def, e)
	case schemas.ClaudeDesktop:
		d.readStdio(s, e, "env")
	case schemas.CopilotCLI:
		d.readCopilot(s, def, e)
	case schemas.OpenCode:
		d.readOpenCode(s, def, e)
	case schemas.VSCode:
		d.readVSCode(s, def, e)
	case schemas.Cursor:
		d.readCursor(s, def, e)
	case schemas.GeminiCLI:
		losses = append(losses, d.readGemini(s, def, e)...)
	case schemas.RooCode:
		d.readRoo(s, def, e)
	case schemas.Kiro, schemas.Windsurf:
		d.readKiroWindsurf(s, def, e)
	case schemas.Zed:
		if def == "extensionServer" {
			return nil, nil, errors.New("Zed starts this server from an extension, and the entry holds only the extension's settings: there is no command or url to convert")
		}
		d.readZed(s, def, e)
	case schemas.CodexCLI:
		d.readCodex(s, def, e)
	}
	return s, losses, nil
}

// describeInvalid summarises a validation error by its first leaf: where
// and what. The validator's messages name types, keywords and allowed
// values, never the value found (format is not asserted), so they are
// safe to show.
func describeInvalid(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var leaves []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortFunc(leaves, func(a, b *jsonschema.ValidationError) int {
		return strings.Compare(a.InstanceLocation+" "+a.KeywordLocation, b.InstanceLocation+" "+b.KeywordLocation)
	})
	leaf := leaves[0]
	where := "the entry"
	if p, err := schemas.InstancePointer(leaf.InstanceLocation); err == nil && p != "" {
		where = strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", ".")
	}
	return where + ": " + leaf.Message
}

// entry reads typed values from a validated entry. The schema has
// already checked every type, so a mismatch cannot happen; the accessors
// still check, and treat a mismatch as absent, rather than panic.
type entry Object

func (e entry) get(key string) (any, bool) { return Object(e).Get(key) }

func (e entry) str(key string) (string, bool) {
	v, _ := e.get(key)
	s, ok := v.(string)
	return s, ok
}

func (e entry) strs(key string) ([]string, bool) {
	v, ok := e.get(key)
	arr, isArr := v.([]any)
	if !ok || !isArr {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out, true
}

func (e entry) integer(key string) int {
	v, _ := e.get(key)
	if n, ok := v.(json.Number); ok {
		if i, err := strconv.ParseInt(n.String(), 10, 0); err == nil {
			return int(i)
		}
		if f, err := n.Float64(); err == nil { // 5e3 is an integer too
			return int(f)
		}
	}
	return 0
}

func (e entry) boolean(key string) *bool {
	v, _ := e.get(key)
	if b, ok := v.(bool); ok {
		return &b
	}
	return nil
}

func (e entry) object(key string) (entry, bool) {
	v, _ := e.get(key)
	o, ok := v.(Object)
	return entry(o), ok
}

// extra keeps key as an extra of dialect d when present.
func (e entry) extra(s *Server, d Dialect, key, as string) {
	if v, ok := e.get(key); ok {
		s.Extras = append(s.Extras, Extra{Dialect: d, Key: as, Value: v})
	}
}

// pairs reads an env or headers map. VS Code also allows numbers (taken
// as their text, as VS Code passes them) and null (unset the variable).
func (d *dialectInfo) pairs(e entry, key, field string) []Pair {
	v, _ := e.get(key)
	o, _ := v.(Object)
	var out []Pair
	for _, m := range o {
		switch x := m.Value.(type) {
		case string:
			out = append(out, Pair{Name: m.Key, Value: d.readText(field, x)})
		case json.Number:
			out = append(out, Pair{Name: m.Key, Value: Lit(x.String())})
		case nil:
			out = append(out, Pair{Name: m.Key, Null: true})
		}
	}
	return out
}

func (d *dialectInfo) texts(field string, ss []string) []Text {
	if len(ss) == 0 {
		return nil
	}
	out := make([]Text, len(ss))
	for i, s := range ss {
		out[i] = d.readText(field, s)
	}
	return out
}

// readStdio reads command, args and the environment map named envKey.
func (d *dialectInfo) readStdio(s *Server, e entry, envKey string) {
	s.Transport = Stdio
	cmd, _ := e.str("command")
	s.Command = d.readText("command", cmd)
	args, _ := e.strs("args")
	s.Args = d.texts("args", args)
	s.Env = d.pairs(e, envKey, "env")
}

// readRemote reads url and headers.
func (d *dialectInfo) readRemote(s *Server, t Transport, e entry) {
	s.Transport = t
	u, _ := e.str("url")
	s.URL = d.readText("url", u)
	s.Headers = d.pairs(e, "headers", "headers")
}

// scopes splits a space-separated scope string (Claude Code "scopes",
// OpenCode "scope") into one Text per scope.
func scopes(t Text) []Text {
	var out []Text
	var cur Text
	flush := func() {
		if c := cur.norm(); len(c) > 0 {
			out = append(out, c)
		}
		cur = nil
	}
	for _, seg := range t {
		if seg.Ref.Kind != 0 {
			cur = append(cur, seg)
			continue
		}
		parts := strings.FieldsFunc(seg.Lit, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
		startsSpace := seg.Lit != "" && strings.ContainsRune(" \t\n\r", rune(seg.Lit[0]))
		endsSpace := seg.Lit != "" && strings.ContainsRune(" \t\n\r", rune(seg.Lit[len(seg.Lit)-1]))
		if startsSpace {
			flush()
		}
		for i, p := range parts {
			if i > 0 {
				flush()
			}
			cur = append(cur, Segment{Lit: p})
		}
		if endsSpace {
			flush()
		}
	}
	flush()
	return out
}

func (d *dialectInfo) readClaude(s *Server, def string, e entry) {
	switch def {
	case "stdioServer":
		d.readStdio(s, e, "env")
	case "sseServer":
		d.readRemote(s, SSE, e)
	case "httpServer":
		d.readRemote(s, HTTP, e)
	case "wsServer":
		d.readRemote(s, WS, e)
	}
	s.HeadersHelper, _ = e.str("headersHelper")
	s.AlwaysLoad = e.boolean("alwaysLoad")
	if o, ok := e.object("oauth"); ok {
		a := &OAuth{}
		id, _ := o.str("clientId")
		a.ClientID = d.readText("oauth", id)
		a.CallbackPort = o.integer("callbackPort")
		md, _ := o.str("authServerMetadataUrl")
		a.AuthServerMetadataURL = d.readText("oauth", md)
		sc, _ := o.str("scopes")
		a.Scopes = scopes(d.readText("oauth", sc))
		o.extra(s, d.id, "xaa", "oauth.xaa")
		if !a.empty() {
			s.OAuth = a
		}
	}
}

func (d *dialectInfo) readCopilot(s *Server, def string, e entry) {
	if def == "localServer" {
		d.readStdio(s, e, "env")
		cwd, _ := e.str("cwd")
		s.Cwd = d.readText("cwd", cwd)
	} else {
		t := HTTP
		if typ, _ := e.str("type"); typ == "sse" {
			t = SSE
		}
		d.readRemote(s, t, e)
	}
	if tools, ok := e.strs("tools"); ok && !slices.Contains(tools, "*") {
		s.Tools = tools
	}
	s.TimeoutMs = e.integer("timeout")
	if dt, ok := e.str("deferTools"); ok {
		always := dt == "never"
		s.AlwaysLoad = &always
	}
	e.extra(s, d.id, "disableToolCache", "disableToolCache")
	e.extra(s, d.id, "slowConnectionThresholdMs", "slowConnectionThresholdMs")
	e.extra(s, d.id, "filterMapping", "filterMapping")
	id, hasID := e.str("oauthClientId")
	sc, _ := e.strs("oauthScopes")
	if hasID || len(sc) > 0 {
		a := &OAuth{ClientID: d.readText("oauth", id)}
		for _, x := range sc {
			a.Scopes = append(a.Scopes, d.readText("oauth", x))
		}
		if !a.empty() {
			s.OAuth = a
		}
	}
	e.extra(s, d.id, "oauthPublicClient", "oauthPublicClient")
	e.extra(s, d.id, "oauthGrantType", "oauthGrantType")
	e.extra(s, d.id, "oidc", "oidc")
}

// readOpenCode reads an OpenCode entry. "remote" is read as Streamable
// HTTP: OpenCode tries it first and falls back to SSE, and nothing in
// the entry says which one the server speaks. Writing "http" for it
// elsewhere is right for every server that speaks Streamable HTTP; a
// server that only speaks SSE needs "type": "sse" by hand. That is not
// reported as a loss, because it cannot be known from the file.
func (d *dialectInfo) readOpenCode(s *Server, def string, e entry) {
	switch def {
	case "enabledOverride":
		s.EnabledOnly = true
		s.Enabled = e.boolean("enabled")
		return
	case "localServer":
		s.Transport = Stdio
		cmd, _ := e.strs("command")
		if len(cmd) > 0 {
			s.Command = d.readText("command", cmd[0])
			s.Args = d.texts("args", cmd[1:])
		}
		s.Env = d.pairs(e, "environment", "env")
	case "remoteServer":
		d.readRemote(s, HTTP, e)
		switch o := mustGet(e, "oauth").(type) {
		case bool: // only false is valid
			s.OAuth = &OAuth{Disabled: true}
		case Object:
			oe := entry(o)
			a := &OAuth{}
			txt := func(k string) Text { v, _ := oe.str(k); return d.readText("oauth", v) }
			a.ClientID = txt("clientId")
			a.ClientSecret = txt("clientSecret")
			a.Scopes = scopes(txt("scope"))
			a.RedirectURI = txt("redirectUri")
			a.CallbackPort = oe.integer("callbackPort")
			a.AuthorizationEndpoint = txt("authorizationEndpoint")
			a.TokenEndpoint = txt("tokenEndpoint")
			if !a.empty() {
				s.OAuth = a
			}
		}
	}
	s.Enabled = e.boolean("enabled")
	s.TimeoutMs = e.integer("timeout")
}

func mustGet(e entry, key string) any { v, _ := e.get(key); return v }

// readVSCode reads a VS Code entry. A "transport" field forces the remote
// transport, so it decides between http and sse when present.
func (d *dialectInfo) readVSCode(s *Server, def string, e entry) {
	if def == "stdioServer" {
		d.readStdio(s, e, "env")
		f, _ := e.str("envFile")
		s.EnvFile = d.readText("envFile", f)
		cwd, _ := e.str("cwd")
		s.Cwd = d.readText("cwd", cwd)
		e.extra(s, d.id, "dev", "dev")
		e.extra(s, d.id, "sandboxEnabled", "sandboxEnabled")
		e.extra(s, d.id, "sandbox", "sandbox")
	} else {
		t := HTTP
		typ, _ := e.str("type")
		if tr, ok := e.str("transport"); ok {
			typ = tr
		}
		if typ == "sse" {
			t = SSE
		}
		d.readRemote(s, t, e)
		if o, ok := e.object("oauth"); ok {
			id, _ := o.str("clientId")
			if a := (&OAuth{ClientID: d.readText("oauth", id)}); !a.empty() {
				s.OAuth = a
			}
		}
		e.extra(s, d.id, "dev", "dev")
	}
	e.extra(s, d.id, "version", "version")
	e.extra(s, d.id, "gallery", "gallery")
}

func (d *dialectInfo) readCursor(s *Server, def string, e entry) {
	if def == "stdioServer" {
		d.readStdio(s, e, "env")
		f, _ := e.str("envFile")
		s.EnvFile = d.readText("envFile", f)
		return
	}
	t := HTTP
	if typ, _ := e.str("type"); typ == "sse" {
		t = SSE
	}
	d.readRemote(s, t, e)
	if o, ok := e.object("auth"); ok {
		a := &OAuth{}
		id, _ := o.str("CLIENT_ID")
		a.ClientID = d.readText("oauth", id)
		sec, _ := o.str("CLIENT_SECRET")
		a.ClientSecret = d.readText("oauth", sec)
		sc, _ := o.strs("scopes")
		for _, x := range sc {
			a.Scopes = append(a.Scopes, d.readText("oauth", x))
		}
		if !a.empty() {
			s.OAuth = a
		}
	}
}

// readGemini reads a Gemini CLI entry. httpUrl beats url, and url beats
// command (verified, 0.61.0): the fields of the transport Gemini CLI does
// not use are reported as dropped. includeTools is the tool filter;
// excludeTools, trust, description and the Google authentication settings
// are Gemini CLI's own.
func (d *dialectInfo) readGemini(s *Server, def string, e entry) []Loss {
	var losses []Loss
	unused := func(field, why string) {
		if _, ok := e.get(field); ok {
			losses = append(losses, Loss{Server: s.Name, Field: field, Kind: Dropped, Reason: "Gemini CLI does not use it: " + why})
		}
	}
	switch def {
	case "stdioServer":
		d.readStdio(s, e, "env")
		cwd, _ := e.str("cwd")
		s.Cwd = d.readText("cwd", cwd)
	default:
		t := HTTP
		if def == "sseServer" {
			t = SSE
		}
		d.readRemote(s, t, e)
		if u, ok := e.str("httpUrl"); ok {
			unused("url", "httpUrl beats url")
			s.URL = d.readText("url", u)
		}
		unused("command", "a url beats command")
		unused("args", "a url beats command")
		unused("env", "a url beats command")
		unused("cwd", "a url beats command")
	}
	if tools, ok := e.strs("includeTools"); ok && len(tools) > 0 {
		s.Tools = tools
	} else {
		e.extra(s, d.id, "includeTools", "includeTools")
	}
	if v, ok := e.get("timeout"); ok {
		switch t := v.(type) {
		case string: // coerced by Gemini CLI
			if n, err := strconv.Atoi(t); err == nil {
				s.TimeoutMs = n
			}
		default:
			s.TimeoutMs = e.integer("timeout")
		}
	}
	for _, k := range []string{"excludeTools", "trust", "description", "tcp", "authProviderType", "targetAudience", "targetServiceAccount"} {
		e.extra(s, d.id, k, k)
	}
	if o, ok := e.object("oauth"); ok {
		a := &OAuth{}
		txt := func(k string) Text { v, _ := o.str(k); return d.readText("oauth", v) }
		a.ClientID = txt("clientId")
		a.ClientSecret = txt("clientSecret")
		a.AuthorizationEndpoint = txt("authorizationUrl")
		a.TokenEndpoint = txt("tokenUrl")
		a.RedirectURI = txt("redirectUri")
		sc, _ := o.strs("scopes")
		for _, x := range sc {
			a.Scopes = append(a.Scopes, d.readText("oauth", x))
		}
		if !a.empty() {
			s.OAuth = a
		}
		for _, k := range []string{"enabled", "audiences", "tokenParamName"} {
			o.extra(s, d.id, k, "oauth."+k)
		}
	}
	return losses
}

// secondsMs reads a timeout in seconds (a JSON number, perhaps with a
// fraction) as milliseconds.
func (e entry) secondsMs(key string) int {
	v, _ := e.get(key)
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil {
			return int(f * 1000)
		}
	}
	return 0
}

// readRoo reads a Roo Code entry: "disabled": true is the server switched
// off; timeout is in seconds; alwaysAllow, disabledTools and watchPaths
// are Roo Code's own.
func (d *dialectInfo) readRoo(s *Server, def string, e entry) {
	switch def {
	case "stdioServer":
		d.readStdio(s, e, "env")
		cwd, _ := e.str("cwd")
		s.Cwd = d.readText("cwd", cwd)
	case "sseServer":
		d.readRemote(s, SSE, e)
	default:
		d.readRemote(s, HTTP, e)
	}
	if b := e.boolean("disabled"); b != nil && *b {
		off := false
		s.Enabled = &off
	}
	s.TimeoutMs = e.secondsMs("timeout")
	for _, k := range []string{"alwaysAllow", "disabledTools", "watchPaths"} {
		e.extra(s, d.id, k, k)
	}
}

// readZed reads a Zed context server: enabled, timeout in seconds; remote
// and the older source are Zed's own.
func (d *dialectInfo) readZed(s *Server, def string, e entry) {
	if def == "stdioServer" {
		d.readStdio(s, e, "env")
	} else {
		d.readRemote(s, HTTP, e)
	}
	s.Enabled = e.boolean("enabled")
	s.TimeoutMs = e.secondsMs("timeout")
	e.extra(s, d.id, "remote", "remote")
	e.extra(s, d.id, "source", "source")
}

// readKiroWindsurf reads a Kiro or Windsurf entry: command, or a url
// (Windsurf's serverUrl first, as its examples write it); "disabled":
// true is the server switched off; autoApprove and disabledTools are the
// tool's own. Neither says which HTTP transport a url speaks: it is read
// as Streamable HTTP.
func (d *dialectInfo) readKiroWindsurf(s *Server, def string, e entry) {
	if def == "stdioServer" {
		d.readStdio(s, e, "env")
	} else {
		d.readRemote(s, HTTP, e)
		if u, ok := e.str("serverUrl"); ok {
			s.URL = d.readText("url", u)
			e.extra(s, d.id, "url", "url")
		}
		e.extra(s, d.id, "env", "env") // Kiro lists env for remote servers too
	}
	if b := e.boolean("disabled"); b != nil && *b {
		off := false
		s.Enabled = &off
	}
	for _, k := range []string{"autoApprove", "disabledTools"} {
		e.extra(s, d.id, k, k)
	}
}
