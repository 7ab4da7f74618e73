package convert_test

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

// TestRoundTripProperty generates servers each dialect can say and
// converts them A -> B -> A. When A -> B reports no loss, the server must
// come back unchanged (compared with Normalized) and B -> A must report
// no loss either. Otherwise the fields that changed must be among the
// fields A -> B reported, and each reported field must have changed or be
// reported again on the way back. Every entry written must validate against its
// dialect's schema, and reading it back must report nothing.
func TestRoundTripProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(20261105))
	n := 400
	if testing.Short() {
		n = 60
	}
	lossless := map[string]int{}
	for _, a := range convert.Dialects() {
		generated := 0
		for tries := 0; generated < n && tries < 20*n; tries++ {
			gen := genServer(rng, a)
			eA, losses, err := convert.ToEntry(a, gen)
			if err != nil {
				t.Fatalf("%s: writing a generated server: %v\n%s", a, err, dump(gen))
			}
			if len(losses) > 0 {
				continue // the random text happened to look like a variable to A
			}
			generated++
			s0 := reread(t, a, gen.Name, eA)
			if !reflect.DeepEqual(s0.Normalized(), gen.Normalized()) {
				t.Fatalf("%s: the entry does not read back as written:\n%s\ngenerated:\n%s\nread:\n%s", a, render(eA), dump(gen.Normalized()), dump(s0.Normalized()))
			}
			for _, b := range convert.Dialects() {
				eB, lossAB, err := convert.ToEntry(b, s0)
				if err != nil {
					if holds(b, s0) {
						t.Errorf("%s -> %s: unexpected error %v\n%s", a, b, err, render(eA))
					}
					continue
				}
				sB := reread(t, b, gen.Name, eB)
				eA2, lossBA, err := convert.ToEntry(a, sB)
				if err != nil {
					t.Errorf("%s -> %s -> %s: %v\n%s\n%s", a, b, a, err, render(eA), render(eB))
					continue
				}
				s1 := reread(t, a, gen.Name, eA2)
				diff := diffFields(s0.Normalized(), s1.Normalized())
				reported := lossFields(lossAB)
				if len(lossAB) == 0 {
					lossless[a+" -> "+b]++
					if len(diff) > 0 || len(lossBA) > 0 {
						t.Errorf("%s -> %s reported no loss, but the round trip changed %v (losses back: %v)\n%s\n%s\n%s", a, b, diff, lossBA, render(eA), render(eB), render(eA2))
					}
					continue
				}
				// Nothing changes silently, and every reported loss is
				// real: the field comes back changed, or the way back has
				// to report it too (a variable that B keeps as text in A's
				// own spelling comes back as a variable only by accident).
				back := lossFields(lossBA)
				for _, f := range diff {
					if !slices.Contains(reported, f) {
						t.Errorf("%s -> %s: %s changed silently\nlosses: %v\n%s\n%s\n%s", a, b, f, lossAB, render(eA), render(eB), render(eA2))
					}
				}
				for _, f := range reported {
					if !slices.Contains(diff, f) && !slices.Contains(back, f) {
						t.Errorf("%s -> %s: %s reported, but it round-trips\nlosses: %v\n%s\n%s\n%s", a, b, f, lossAB, render(eA), render(eB), render(eA2))
					}
				}
			}
		}
		if generated < n {
			t.Errorf("%s: only %d of %d samples were expressible", a, generated, n)
		}
	}
	// Every pair must have been exercised without loss at least once,
	// except into Claude Desktop, which takes no remote server.
	for _, a := range convert.Dialects() {
		for _, b := range convert.Dialects() {
			if lossless[a+" -> "+b] == 0 {
				t.Errorf("%s -> %s: no lossless sample", a, b)
			}
		}
	}
}

// holds reports whether dialect b has s's transport at all.
func holds(b string, s *convert.Server) bool {
	switch b {
	case schemas.ClaudeDesktop:
		return s.Transport == convert.Stdio
	case schemas.ClaudeCode:
		return true
	case schemas.Zed, schemas.CodexCLI:
		return s.Transport == convert.Stdio || s.Transport == convert.HTTP
	}
	return s.Transport != convert.WS
}

// reread renders an entry, parses it and reads it back, checking that it
// validates against the dialect's schema and reads without loss.
func reread(t *testing.T, dialect, name string, entry any) *convert.Server {
	t.Helper()
	text := convert.RenderEntry(entry, "  ", "\n")
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", dialect, err, text)
	}
	def, ok := schemas.ServerDef(dialect, v.(map[string]any))
	if !ok {
		t.Fatalf("%s: no shape for\n%s", dialect, text)
	}
	branch, err := schemas.Branch(dialect, def)
	if err != nil {
		t.Fatal(err)
	}
	if err := branch.Validate(v); err != nil {
		t.Fatalf("%s: does not validate: %v\n%s", dialect, err, text)
	}
	f := jsonc.Parse(text)
	s, losses, err := convert.FromEntry(dialect, name, f.Root)
	if err != nil || len(losses) > 0 {
		t.Fatalf("%s: reading back: %v %v\n%s", dialect, err, losses, text)
	}
	return s
}

func render(v any) string { return string(convert.RenderEntry(v, "  ", "\n")) }

func dump(s *convert.Server) string {
	b, _ := json.MarshalIndent(s, "", "  ")
	return string(b)
}

// lossFields are the distinct fields of losses, sorted.
func lossFields(ls []convert.Loss) []string {
	var out []string
	for _, l := range ls {
		if !slices.Contains(out, l.Field) {
			out = append(out, l.Field)
		}
	}
	slices.Sort(out)
	return out
}

// diffFields names the fields in which two normalized servers differ, as
// losses name them.
func diffFields(x, y *convert.Server) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("type", x.Transport != y.Transport)
	add("command", !reflect.DeepEqual(x.Command, y.Command))
	for i := range max(len(x.Args), len(y.Args)) {
		add("args["+strconv.Itoa(i)+"]", i >= len(x.Args) || i >= len(y.Args) || !reflect.DeepEqual(x.Args[i], y.Args[i]))
	}
	pairs := func(prefix string, a, b []convert.Pair) {
		keys := map[string]bool{}
		find := func(ps []convert.Pair, k string) *convert.Pair {
			for i := range ps {
				if ps[i].Name == k {
					return &ps[i]
				}
			}
			return nil
		}
		for _, p := range append(slices.Clone(a), b...) {
			if keys[p.Name] {
				continue
			}
			keys[p.Name] = true
			add(prefix+p.Name, !reflect.DeepEqual(find(a, p.Name), find(b, p.Name)))
		}
	}
	pairs("env.", x.Env, y.Env)
	pairs("headers.", x.Headers, y.Headers)
	add("envFile", !reflect.DeepEqual(x.EnvFile, y.EnvFile))
	add("cwd", !reflect.DeepEqual(x.Cwd, y.Cwd))
	add("url", !reflect.DeepEqual(x.URL, y.URL))
	add("headersHelper", x.HeadersHelper != y.HeadersHelper)
	add("timeout", x.TimeoutMs != y.TimeoutMs)
	add("enabled", !reflect.DeepEqual(x.Enabled, y.Enabled))
	add("tools", !reflect.DeepEqual(x.Tools, y.Tools))
	add("alwaysLoad", !reflect.DeepEqual(x.AlwaysLoad, y.AlwaysLoad))
	ox, oy := x.OAuth, y.OAuth
	if ox == nil {
		ox = &convert.OAuth{}
	}
	if oy == nil {
		oy = &convert.OAuth{}
	}
	add("oauth", ox.Disabled != oy.Disabled)
	add("oauth.clientId", !reflect.DeepEqual(ox.ClientID, oy.ClientID))
	add("oauth.clientSecret", !reflect.DeepEqual(ox.ClientSecret, oy.ClientSecret))
	add("oauth.scopes", !reflect.DeepEqual(ox.Scopes, oy.Scopes))
	add("oauth.callbackPort", ox.CallbackPort != oy.CallbackPort)
	add("oauth.redirectUri", !reflect.DeepEqual(ox.RedirectURI, oy.RedirectURI))
	add("oauth.authServerMetadataUrl", !reflect.DeepEqual(ox.AuthServerMetadataURL, oy.AuthServerMetadataURL))
	add("oauth.authorizationEndpoint", !reflect.DeepEqual(ox.AuthorizationEndpoint, oy.AuthorizationEndpoint))
	add("oauth.tokenEndpoint", !reflect.DeepEqual(ox.TokenEndpoint, oy.TokenEndpoint))
	extras := func(s *convert.Server, k string) any {
		for _, e := range s.Extras {
			if e.Key == k {
				return e
			}
		}
		return nil
	}
	seen := map[string]bool{}
	for _, e := range append(slices.Clone(x.Extras), y.Extras...) {
		if !seen[e.Key] {
			seen[e.Key] = true
			add(e.Key, !reflect.DeepEqual(extras(x, e.Key), extras(y, e.Key)))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// gen generates values with a fixed-seed source.
type gen struct {
	r *rand.Rand
	d string
}

func (g gen) chance(p float64) bool { return g.r.Float64() < p }

func (g gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// literal is random text with characters that look like the start of a
// reference in some dialect, so that hazards come up.
func (g gen) literal() string {
	parts := []string{"a", "b", "Z", "_", "/", ":", "-", " ", "é", "1", "$", "{", "}", "env", "${", "{env:", "X", "https://", "🚀"}
	var b strings.Builder
	for range 1 + g.r.Intn(5) {
		b.WriteString(parts[g.r.Intn(len(parts))])
	}
	return b.String()
}

// refs are the references dialect d can express exactly.
func (g gen) ref() (convert.Ref, bool) {
	name := g.pick("HOME", "API_KEY", "TOKEN_2", "_X", "PORT")
	switch g.d {
	case schemas.ClaudeCode, schemas.CopilotCLI, schemas.GeminiCLI:
		r := convert.Ref{Kind: convert.EnvRef, Name: name}
		if g.chance(0.4) {
			r.HasDefault, r.Default = true, g.pick("", "x", "/tmp/a b", "8080")
		}
		return r, true
	case schemas.OpenCode:
		if g.chance(0.2) {
			return convert.Ref{Kind: convert.FileRef, Name: g.pick("~/.secret", "token.txt")}, true
		}
		return convert.Ref{Kind: convert.EnvRef, Name: name, HasDefault: true}, true
	case schemas.VSCode:
		switch g.r.Intn(3) {
		case 0:
			return convert.Ref{Kind: convert.InputRef, Name: g.pick("api-key", "token")}, true
		case 1:
			return convert.Ref{Kind: convert.EditorRef, Name: g.pick("workspaceFolder", "userHome", "pathSeparator")}, true
		}
		return convert.Ref{Kind: convert.EnvRef, Name: name, HasDefault: true}, true
	case schemas.Cursor:
		if g.chance(0.3) {
			return convert.Ref{Kind: convert.EditorRef, Name: g.pick("workspaceFolder", "userHome")}, true
		}
		return convert.Ref{Kind: convert.EnvRef, Name: name, HasDefault: true}, true
	case schemas.Kiro:
		r := convert.Ref{Kind: convert.EnvRef, Name: name}
		if g.chance(0.3) {
			r.HasDefault, r.Default = true, g.pick("", "x")
		}
		return r, true
	case schemas.Windsurf:
		return convert.Ref{Kind: convert.EnvRef, Name: name, HasDefault: true}, true
	case schemas.RooCode:
		if g.chance(0.5) {
			// Roo Code expands every string: fewer references, or no
			// sample reaches Claude Desktop without a loss.
			return convert.Ref{}, false
		}
		if g.chance(0.3) {
			return convert.Ref{Kind: convert.EditorRef, Name: "workspaceFolder"}, true
		}
		return convert.Ref{Kind: convert.EnvRef, Name: name}, true
	}
	return convert.Ref{}, false
}

// expands repeats the converters' table for the generator: which fields a
// dialect expands.
func expands(d, field string) bool {
	switch d {
	case schemas.ClaudeCode:
		return slices.Contains([]string{"command", "args", "env", "url", "headers"}, field)
	case schemas.CopilotCLI:
		return field == "env" || field == "headers"
	case schemas.OpenCode, schemas.VSCode, schemas.GeminiCLI, schemas.RooCode:
		return true
	case schemas.Kiro:
		return field == "env" || field == "headers"
	case schemas.Windsurf:
		return slices.Contains([]string{"command", "args", "env", "url", "headers"}, field)
	case schemas.Cursor:
		return slices.Contains([]string{"command", "args", "env", "url", "headers", "oauth"}, field)
	}
	return false
}

// text generates a value of field, with references where d expands it.
func (g gen) text(field string, nonEmpty bool) convert.Text {
	var t convert.Text
	for range g.r.Intn(3) + 1 {
		if expands(g.d, field) && g.chance(0.4) {
			if r, ok := g.ref(); ok {
				if g.d == schemas.GeminiCLI && (field == "env" || field == "headers") && r.Kind == convert.EnvRef {
					// Gemini CLI turns an unset variable into "" there.
					r.HasDefault = true
				}
				t = append(t, convert.Segment{Ref: r})
				continue
			}
		}
		t = append(t, convert.Segment{Lit: g.literal()})
	}
	if !nonEmpty && g.chance(0.2) {
		return nil
	}
	return t
}

func (g gen) url() convert.Text {
	t := convert.Text{{Lit: "https://" + g.pick("example.com", "mcp.example.org:8443", "ü.example") + "/"}}
	if g.chance(0.5) {
		t = append(t, g.text("url", true)...)
	}
	return t
}

func (g gen) pairs(field string, allowNull bool) []convert.Pair {
	var out []convert.Pair
	for i := range g.r.Intn(4) {
		p := convert.Pair{Name: g.pick("A", "API_KEY", "Authorization", "X-Ünï", "lower") + strconv.Itoa(i)}
		if allowNull && g.chance(0.15) {
			p.Null = true
		} else {
			p.Value = g.text(field, false)
		}
		out = append(out, p)
	}
	return out
}

func boolp(b bool) *bool { return &b }

// genServer generates a server dialect d can express.
func genServer(r *rand.Rand, d string) *convert.Server {
	g := gen{r, d}
	s := &convert.Server{Name: g.pick("srv", "données", "日本", "a b"), Origin: d}
	transports := map[string][]convert.Transport{
		schemas.ClaudeCode:    {convert.Stdio, convert.HTTP, convert.SSE, convert.WS},
		schemas.ClaudeDesktop: {convert.Stdio},
		schemas.CopilotCLI:    {convert.Stdio, convert.HTTP, convert.SSE},
		schemas.OpenCode:      {convert.Stdio, convert.HTTP},
		schemas.VSCode:        {convert.Stdio, convert.HTTP, convert.SSE},
		schemas.Cursor:        {convert.Stdio, convert.HTTP, convert.SSE},
		schemas.GeminiCLI:     {convert.Stdio, convert.HTTP, convert.SSE},
		schemas.RooCode:       {convert.Stdio, convert.HTTP, convert.SSE},
		schemas.Zed:           {convert.Stdio, convert.HTTP},
		schemas.CodexCLI:      {convert.Stdio, convert.HTTP},
		schemas.Kiro:          {convert.Stdio, convert.HTTP},
		schemas.Windsurf:      {convert.Stdio, convert.HTTP},
	}[d]
	s.Transport = transports[r.Intn(len(transports))]
	if s.Transport == convert.Stdio {
		s.Command = g.text("command", true)
		for range r.Intn(4) {
			s.Args = append(s.Args, g.text("args", true))
		}
		s.Env = g.pairs("env", d == schemas.VSCode)
	} else {
		s.URL = g.url()
		s.Headers = g.pairs("headers", false)
	}
	timeout := func() {
		if g.chance(0.5) {
			s.TimeoutMs = []int{1, 2500, 60000, 120000}[r.Intn(4)]
			if d == schemas.CodexCLI && s.TimeoutMs == 60000 {
				s.TimeoutMs = 90000 // Codex CLI's default, which another tool need not keep
			}
		}
	}
	switch d {
	case schemas.ClaudeCode:
		if g.chance(0.3) {
			s.AlwaysLoad = boolp(g.chance(0.5))
		}
		if s.Transport != convert.Stdio && g.chance(0.3) {
			s.HeadersHelper = g.pick("print-headers", "sh -c 'echo {}'")
		}
		if s.Transport == convert.HTTP || s.Transport == convert.SSE {
			if g.chance(0.5) {
				o := &convert.OAuth{}
				if g.chance(0.6) {
					o.ClientID = g.text("oauth", true)
				}
				if g.chance(0.5) {
					o.CallbackPort = []int{8080, 70000}[r.Intn(2)]
				}
				if g.chance(0.4) {
					o.AuthServerMetadataURL = convert.Lit("https://auth.example.com/.well-known")
				}
				if g.chance(0.5) {
					o.Scopes = []convert.Text{convert.Lit("read"), convert.Lit("write:all")}
				}
				s.OAuth = o
			}
			if g.chance(0.2) {
				s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "oauth.xaa", Value: true})
			}
		}
	case schemas.CopilotCLI:
		timeout()
		if s.Transport == convert.Stdio && g.chance(0.4) {
			s.Cwd = g.text("cwd", true)
		}
		if g.chance(0.4) {
			s.Tools = []string{}
			if g.chance(0.7) {
				s.Tools = []string{"read_file", "search"}
			}
		}
		if g.chance(0.3) {
			s.AlwaysLoad = boolp(g.chance(0.5))
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "disableToolCache", Value: true})
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "filterMapping", Value: "markdown"})
		}
		if s.Transport != convert.Stdio {
			if g.chance(0.5) {
				o := &convert.OAuth{}
				if g.chance(0.7) {
					o.ClientID = g.text("oauth", true)
				}
				if len(o.ClientID) > 0 && g.chance(0.5) {
					o.Scopes = []convert.Text{convert.Lit("repo"), convert.Lit("read:org")}
				}
				if len(o.ClientID) > 0 {
					s.OAuth = o
				}
			}
			if g.chance(0.2) {
				s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "oauthGrantType", Value: "client_credentials"})
			}
		}
	case schemas.OpenCode:
		timeout()
		if g.chance(0.4) {
			s.Enabled = boolp(g.chance(0.5))
		}
		if s.Transport != convert.Stdio && g.chance(0.5) {
			if g.chance(0.3) {
				s.OAuth = &convert.OAuth{Disabled: true}
			} else {
				o := &convert.OAuth{ClientID: g.text("oauth", false), ClientSecret: g.text("oauth", false)}
				if g.chance(0.5) {
					o.Scopes = []convert.Text{convert.Lit("org:read"), convert.Lit("x")}
				}
				if g.chance(0.3) {
					o.CallbackPort = 19876
				}
				if g.chance(0.3) {
					o.RedirectURI = convert.Lit("http://127.0.0.1:19876/cb")
				}
				if g.chance(0.2) {
					o.AuthorizationEndpoint = convert.Lit("https://a.example/authorize")
					o.TokenEndpoint = convert.Lit("https://a.example/token")
				}
				s.OAuth = o
			}
		}
	case schemas.VSCode:
		if s.Transport == convert.Stdio {
			if g.chance(0.3) {
				s.Cwd = g.text("cwd", true)
			}
			if g.chance(0.3) {
				s.EnvFile = g.text("envFile", true)
			}
			if g.chance(0.2) {
				s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "sandboxEnabled", Value: true})
			}
		} else if g.chance(0.4) {
			s.OAuth = &convert.OAuth{ClientID: g.text("oauth", true)}
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "version", Value: "1.2.3"})
		}
	case schemas.GeminiCLI:
		timeout()
		if s.Transport == convert.Stdio && g.chance(0.4) {
			s.Cwd = g.text("cwd", true)
		}
		if g.chance(0.3) {
			s.Tools = []string{"read_file", "search"}
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "trust", Value: true})
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "excludeTools", Value: []any{"delete"}})
		}
		if s.Transport != convert.Stdio && g.chance(0.4) {
			o := &convert.OAuth{ClientID: g.text("oauth", true)}
			if g.chance(0.5) {
				o.Scopes = []convert.Text{convert.Lit("openid"), convert.Lit("email")}
			}
			if g.chance(0.3) {
				o.AuthorizationEndpoint = convert.Lit("https://a.example/authorize")
				o.TokenEndpoint = convert.Lit("https://a.example/token")
			}
			s.OAuth = o
			if g.chance(0.2) {
				s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "oauth.enabled", Value: true})
			}
		}
	case schemas.RooCode:
		if g.chance(0.3) {
			s.TimeoutMs = []int{1000, 30000, 120000}[r.Intn(3)]
		}
		if g.chance(0.2) {
			s.Enabled = boolp(false)
		}
		if s.Transport == convert.Stdio && g.chance(0.2) {
			s.Cwd = g.text("cwd", true)
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "alwaysAllow", Value: []any{"read_file"}})
		}
	case schemas.Kiro, schemas.Windsurf:
		if g.chance(0.2) {
			s.Enabled = boolp(false)
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "disabledTools", Value: []any{"delete"}})
		}
	case schemas.Zed:
		if g.chance(0.5) {
			s.TimeoutMs = []int{1000, 30000, 120000}[r.Intn(3)]
		}
		if g.chance(0.4) {
			s.Enabled = boolp(g.chance(0.5))
		}
		if s.Transport == convert.Stdio && g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "remote", Value: true})
		}
	case schemas.CodexCLI:
		// Variables come in by name only: env_vars, env_http_headers,
		// bearer_token_env_var. An unset one is left out, which reads as
		// an empty default.
		byName := func(name string) convert.Text {
			return convert.Text{{Ref: convert.Ref{Kind: convert.EnvRef, Name: name, HasDefault: true}}}
		}
		timeout()
		if g.chance(0.4) {
			s.Enabled = boolp(g.chance(0.5))
		}
		if g.chance(0.3) {
			s.Tools = []string{"read_file", "search"}
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "startup_timeout_sec", Value: json.Number("30")})
		}
		if g.chance(0.2) {
			s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "disabled_tools", Value: []any{"delete"}})
		}
		if s.Transport == convert.Stdio {
			if g.chance(0.5) {
				n := g.pick("API_KEY", "GITHUB_TOKEN")
				s.Env = append(s.Env, convert.Pair{Name: n, Value: byName(n)})
			}
			if g.chance(0.3) {
				s.Cwd = g.text("cwd", true)
			}
		} else {
			if g.chance(0.4) {
				s.Headers = append(s.Headers, convert.Pair{Name: "X-Api-Key", Value: byName(g.pick("API_KEY", "KEY_2"))})
			}
			if g.chance(0.4) {
				s.Headers = append(s.Headers, convert.Pair{Name: "Authorization", Value: append(convert.Text{{Lit: "Bearer "}}, byName("TOKEN")...)})
			}
			if g.chance(0.4) {
				o := &convert.OAuth{ClientID: g.text("oauth", true)}
				if g.chance(0.5) {
					o.ClientSecret = g.text("oauth", true)
				}
				if g.chance(0.3) {
					o.CallbackPort = 8080
				}
				if g.chance(0.4) {
					o.Scopes = []convert.Text{convert.Lit("read"), convert.Lit("write")}
				}
				s.OAuth = o
				if g.chance(0.2) {
					s.Extras = append(s.Extras, convert.Extra{Dialect: d, Key: "oauth.callback_url", Value: "http://127.0.0.1:8080/callback"})
				}
			}
		}
	case schemas.Cursor:
		if s.Transport == convert.Stdio {
			if g.chance(0.3) {
				s.EnvFile = g.text("envFile", true)
			}
		} else if g.chance(0.4) {
			s.OAuth = &convert.OAuth{ClientID: g.text("oauth", false), ClientSecret: g.text("oauth", false)}
			if g.chance(0.5) {
				s.OAuth.Scopes = []convert.Text{convert.Lit("read")}
			}
		}
	}
	return s
}

// TestGeneratorCoversFields makes sure the generator above produces every
// field, so the property test is not vacuous.
func TestGeneratorCoversFields(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	seen := map[string]bool{}
	for _, d := range convert.Dialects() {
		for range 300 {
			s := genServer(rng, d)
			v := reflect.ValueOf(*s)
			for i := range v.NumField() {
				if !v.Field(i).IsZero() {
					seen[v.Type().Field(i).Name] = true
				}
			}
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(convert.Server{})) {
		if !seen[f.Name] && f.Name != "EnabledOnly" {
			t.Errorf("the generator never sets %s", f.Name)
		}
	}
}
