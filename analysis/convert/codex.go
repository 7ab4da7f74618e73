package convert

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// Codex CLI (config.toml, [mcp_servers.<name>] tables) expands no
// variable anywhere: "${VAR}" reaches the server as written (verified with
// 0.169.0). The environment comes in only by name, in three fields, which
// the model reads as environment references and writes back from them:
//
//	env_vars = ["VAR"]                 env.VAR = ${VAR}
//	env_http_headers = { H = "VAR" }   headers.H = ${VAR}
//	bearer_token_env_var = "VAR"       headers.Authorization = Bearer ${VAR}
//
// An unset variable is left out (no variable, no header) where the tools
// that spell it ${env:VAR} give an empty string: the references read as
// having an empty default, like VS Code's. Any other reference in a value
// (text around it, a default) has no Codex spelling. A header that needs
// one is dropped rather than written with the reference as literal text:
// Codex would send "${TOKEN}" to the server as the credential.

// codexModelled are the Codex keys the model holds; every other key of a
// valid entry is kept as a Codex extra.
var codexModelled = []string{"command", "args", "env", "env_vars", "cwd", "url", "http_headers",
	"env_http_headers", "bearer_token_env_var", "tool_timeout_sec", "enabled", "enabled_tools", "scopes", "oauth"}

// codexOAuthModelled are the keys of Codex's [oauth] table the model holds.
var codexOAuthModelled = []string{"client_id", "client_secret", "callback_port"}

func (d *dialectInfo) readCodex(s *Server, def string, e entry) {
	if def == "stdioServer" {
		d.readStdio(s, e, "env")
		cwd, _ := e.str("cwd")
		s.Cwd = d.readText("cwd", cwd)
		if v, ok := e.get("env_vars"); ok {
			arr, _ := v.([]any)
			for _, x := range arr {
				name, ok := x.(string)
				if !ok {
					// { name = "VAR", source = ... }: a form the model
					// has no place for, kept as it is.
					continue
				}
				s.Env = setPair(s.Env, Pair{Name: name, Value: Text{{Ref: Ref{Kind: EnvRef, Name: name, HasDefault: true}}}})
			}
			if slices.ContainsFunc(arr, func(x any) bool { _, ok := x.(string); return !ok }) {
				s.Extras = append(s.Extras, Extra{Dialect: d.id, Key: "env_vars", Value: slices.DeleteFunc(slices.Clone(arr), func(x any) bool { _, ok := x.(string); return ok })})
			}
		}
	} else {
		d.readRemote(s, HTTP, e)
		s.Headers = d.pairs(e, "http_headers", "headers")
		if h, ok := e.object("env_http_headers"); ok {
			for _, m := range h {
				if name, ok := m.Value.(string); ok {
					s.Headers = setPair(s.Headers, Pair{Name: m.Key, Value: Text{{Ref: Ref{Kind: EnvRef, Name: name, HasDefault: true}}}})
				}
			}
		}
		if name, ok := e.str("bearer_token_env_var"); ok {
			s.Headers = setPair(s.Headers, Pair{Name: "Authorization", Value: Text{{Lit: "Bearer "}, {Ref: Ref{Kind: EnvRef, Name: name, HasDefault: true}}}})
		}
		if o, ok := e.object("oauth"); ok {
			a := &OAuth{}
			id, _ := o.str("client_id")
			a.ClientID = Lit(id)
			sec, _ := o.str("client_secret")
			a.ClientSecret = Lit(sec)
			a.CallbackPort = o.integer("callback_port")
			for _, m := range o {
				if !slices.Contains(codexOAuthModelled, m.Key) {
					s.Extras = append(s.Extras, Extra{Dialect: d.id, Key: "oauth." + m.Key, Value: m.Value})
				}
			}
			if !a.empty() {
				s.OAuth = a
			}
		}
	}
	if sc, ok := e.strs("scopes"); ok && len(sc) > 0 && s.Transport != Stdio {
		if s.OAuth == nil {
			s.OAuth = &OAuth{}
		}
		for _, x := range sc {
			s.OAuth.Scopes = append(s.OAuth.Scopes, Lit(x))
		}
	}
	if v, ok := e.get("tool_timeout_sec"); ok {
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil && f > 0 && f*1000 < math.MaxInt32 {
				s.TimeoutMs = int(math.Round(f * 1000))
			}
		}
	}
	s.Enabled = e.boolean("enabled")
	if tools, ok := e.strs("enabled_tools"); ok {
		s.Tools = tools
	}
	for _, m := range e {
		if !slices.Contains(codexModelled, m.Key) || m.Key == "scopes" && s.Transport == Stdio {
			s.Extras = append(s.Extras, Extra{Dialect: d.id, Key: m.Key, Value: m.Value})
		}
	}
}

// setPair sets p in ps, replacing a pair of the same name (Codex's
// env_vars beat env, its env_http_headers beat http_headers, and its
// bearer token beats an Authorization header).
func setPair(ps []Pair, p Pair) []Pair {
	for i := range ps {
		if ps[i].Name == p.Name {
			ps[i] = p
			return ps
		}
	}
	return append(ps, p)
}

// envOnly returns the reference when t is exactly one environment
// reference (a VS Code input counts: it becomes the environment variable
// a tool without prompts reads, as for the other dialects).
func (w *writer) envOnly(lossField string, t Text) (Ref, bool) {
	if len(t) != 1 || t[0].Ref.Kind == 0 {
		return Ref{}, false
	}
	return w.codexRef(lossField, t[0].Ref)
}

// codexRef turns r into the environment variable Codex reads by name, and
// reports what changes on the way; false when r is no environment value.
func (w *writer) codexRef(lossField string, r Ref) (Ref, bool) {
	switch r.Kind {
	case InputRef:
		n := envName(r.Name)
		w.lose(lossField, Changed, "Codex CLI does not prompt for inputs: %s becomes the environment variable %s", r.describe(), n)
		return Ref{Kind: EnvRef, Name: n, HasDefault: true}, true
	case EnvRef:
		switch {
		case r.HasDefault && r.Default != "":
			w.lose(lossField, Changed, "Codex CLI has no default values: %s loses its default", r.describe())
		case !r.HasDefault:
			w.lose(lossField, Changed, "Codex CLI leaves the value out when %s is unset", r.Name)
		}
		return r, true
	}
	return Ref{}, false
}

// codex writes a Codex CLI entry: command for stdio, url for Streamable
// HTTP (Codex has no SSE). Environment references move to the fields
// that take a variable by name (see the comment at the top of this file).
func (w *writer) codex() Object {
	s := w.s
	w.stray()
	w.common("cwd", "timeout", "enabled", "tools")
	var o Object
	if s.Transport == Stdio {
		o.set("command", w.text("command", "command", s.Command))
		if len(s.Args) > 0 {
			o.set("args", w.args())
		}
		env := Object{}
		var vars []any
		for _, p := range s.Env {
			lf := "env." + p.Name
			if p.Null {
				w.lose(lf, Dropped, "only VS Code can remove a variable with null")
				continue
			}
			if len(p.Value) == 1 && p.Value[0].Ref.Kind == EnvRef && p.Value[0].Ref.Name != p.Name {
				r := p.Value[0].Ref
				w.lose(lf, Changed, "Codex CLI forwards a variable only under its own name: %s stays text; forward %s with env_vars and read it under that name", r.describe(), r.Name)
				env = append(env, Member{p.Name, r.display()})
				continue
			}
			if r, ok := w.envOnly(lf, p.Value); ok && r.Name == p.Name {
				vars = append(vars, r.Name)
				continue
			} else if ok {
				// An input whose variable has another name.
				w.lose(lf, Changed, "Codex CLI forwards a variable only under its own name: %s stays text; forward %s with env_vars and read it under that name", p.Value[0].Ref.describe(), r.Name)
				env = append(env, Member{p.Name, p.Value[0].Ref.display()})
				continue
			}
			env = append(env, Member{p.Name, w.text("env", lf, p.Value)})
		}
		if len(env) > 0 {
			o.set("env", env)
		}
		if len(vars) > 0 {
			o.set("env_vars", vars)
		}
		w.opt(&o, "cwd", "cwd", "cwd", s.Cwd)
	} else {
		o.set("url", w.text("url", "url", s.URL))
		headers, byVar := Object{}, Object{}
		for _, p := range s.Headers {
			lf := "headers." + p.Name
			if p.Null {
				w.lose(lf, Dropped, "only VS Code can remove a variable with null")
				continue
			}
			if lit, ok := p.Value.Literal(); ok {
				headers = append(headers, Member{p.Name, lit})
				continue
			}
			if strings.EqualFold(p.Name, "Authorization") && len(p.Value) == 2 && p.Value[0].Ref.Kind == 0 && p.Value[0].Lit == "Bearer " {
				if _, taken := o.Get("bearer_token_env_var"); !taken {
					if r, ok := w.codexRef(lf, p.Value[1].Ref); ok {
						o.set("bearer_token_env_var", r.Name)
						continue
					}
				}
			}
			if r, ok := w.envOnly(lf, p.Value); ok {
				byVar = append(byVar, Member{p.Name, r.Name})
				continue
			}
			w.lose(lf, Dropped, "Codex CLI expands no variables and takes a header from a variable only whole (env_http_headers); put the whole value in one environment variable")
		}
		if len(headers) > 0 {
			o.set("http_headers", headers)
		}
		if len(byVar) > 0 {
			o.set("env_http_headers", byVar)
		}
	}
	if t := w.timeout(); t != 0 {
		o.set("tool_timeout_sec", codexSeconds(t))
	}
	if s.Enabled != nil {
		o.set("enabled", *s.Enabled)
	}
	if s.Tools != nil {
		tools := make([]any, len(s.Tools))
		for i, t := range s.Tools {
			tools[i] = t
		}
		o.set("enabled_tools", tools)
	}
	if a := s.OAuth; !a.empty() && s.Transport != Stdio {
		w.oauthLosses("clientId", "clientSecret", "callbackPort", "scopes")
		if len(a.Scopes) > 0 {
			o.set("scopes", w.listScopes("oauth"))
		}
	}
	for _, x := range s.Extras {
		if x.Dialect != w.d.id || strings.HasPrefix(x.Key, "oauth.") {
			continue
		}
		if prev, ok := o.Get(x.Key); ok && x.Key == "env_vars" {
			// The { name = ... } forms after the plain names.
			more, _ := x.Value.([]any)
			o.set(x.Key, append(prev.([]any), more...))
			continue
		}
		o.set(x.Key, x.Value)
	}
	if s.Transport != Stdio {
		var oa Object
		if a := s.OAuth; !a.empty() {
			w.opt(&oa, "client_id", "oauth", "oauth.clientId", a.ClientID)
			if len(a.ClientSecret) > 0 && len(a.ClientID) == 0 {
				w.lose("oauth.clientSecret", Dropped, "Codex CLI takes a client secret only with a client id")
			} else {
				w.opt(&oa, "client_secret", "oauth", "oauth.clientSecret", a.ClientSecret)
			}
			if a.CallbackPort != 0 {
				if a.CallbackPort > 65535 {
					w.lose("oauth.callbackPort", Dropped, "Codex CLI takes only ports 1-65535")
				} else {
					oa.set("callback_port", a.CallbackPort)
				}
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
	return o
}

// codexSeconds writes a timeout in milliseconds as Codex's seconds.
func codexSeconds(ms int) any {
	if ms%1000 == 0 {
		return ms / 1000
	}
	return json.Number(strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
}

// isCodex reports whether d is Codex CLI's dialect, whose files are TOML.
func isCodex(d Dialect) bool { return d == schemas.CodexCLI }
