package rules

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Literal secrets in headers and environment values. MCP configuration
// files are committed (.mcp.json, .vscode/mcp.json) and copied into issue
// reports; every tool that reads them can take the value from an
// environment variable instead. The finding is a warning (every tool
// accepts the value) and never repeats the value: not in the message, not
// in Data, not even in part.

// semSecretPattern is a credential format recognised by its prefix.
type semSecretPattern struct {
	slug, name string
	re         *regexp.Regexp
}

// semSecretPatterns: the published prefixes of common credentials. Each needs
// enough characters after the prefix that an ordinary word cannot match.
var semSecretPatterns = []semSecretPattern{
	{"github-token", "GitHub token", regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`)},
	{"anthropic-api-key", "Anthropic API key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{20,}`)},
	{"openai-api-key", "OpenAI API key", regexp.MustCompile(`\bsk-(proj-|svcacct-)?[A-Za-z0-9_\-]{20,}`)},
	{"slack-token", "Slack token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`)},
	{"aws-access-key-id", "AWS access key ID", regexp.MustCompile(`\b(AKIA|ASIA)[A-Z0-9]{16}\b`)},
	{"google-api-key", "Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`)},
	{"gitlab-token", "GitLab token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`)},
	{"stripe-key", "Stripe key", regexp.MustCompile(`\b[sr]k_(live|test)_[A-Za-z0-9]{16,}`)},
	{"npm-token", "npm token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}`)},
	{"huggingface-token", "Hugging Face token", regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`)},
	{"jwt", "JSON Web Token", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}`)},
}

// semAuthScheme matches an Authorization-style value: a scheme and a literal
// credential.
var semAuthScheme = regexp.MustCompile(`(?i)^\s*(bearer|basic|token|bot)\s+(\S{8,})\s*$`)

// semSecretKeyName matches names of keys that hold credentials.
var semSecretKeyName = regexp.MustCompile(`(?i)(token|secret|passw(or)?d|pwd|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key)`)

// semSecretFields are the entry fields whose values are checked.
var semSecretFields = []string{"headers", "env", "environment"}

// literalSecrets reports literal secrets in an entry's headers and
// environment.
func (c *semantic) literalSecrets(e *semEntry) {
	for _, h := range e.secrets() {
		c.add(c.secretFinding(e, h.field, h.key, h.kind, h.value))
	}
}

// secretHit is one literal secret of an entry.
type secretHit struct {
	field, key string
	kind       semSecretKind
	value      *jsonc.Node
}

// secrets finds the literal secrets of e, and remembers their nodes
// (e.secret) so that no rule prints a part of them, whichever runs first.
func (e *semEntry) secrets() []secretHit {
	var hits []secretHit
	for _, field := range semSecretFields {
		m := e.s.Field(field)
		if m == nil || m.Value.Kind != jsonc.Object {
			continue
		}
		for _, kv := range m.Value.Members() {
			if kv.Key == nil || kv.Value.Kind != jsonc.String {
				continue
			}
			if sec, ok := semDetectSecret(field, kv.Key.Str, kv.Value.Str); ok {
				hits = append(hits, secretHit{field, kv.Key.Str, sec, kv.Value})
			}
		}
	}
	e.secretDone = true
	if len(hits) > 0 {
		e.secret = make(map[*jsonc.Node]bool, len(hits))
		for _, h := range hits {
			e.secret[h.value] = true
		}
	}
	return hits
}

// isSecret reports whether n is a literal secret of e.
func (e *semEntry) isSecret(n *jsonc.Node) bool {
	if !e.secretDone {
		e.secrets()
	}
	return e.secret[n]
}

// semSecretKind is what detectSecret found.
type semSecretKind struct {
	slug, name string // "github-token", "GitHub token"
	// scheme is the auth scheme of a "Bearer <credential>" value.
	scheme string
	// whole: the secret is the whole value (after the scheme), so a quick
	// fix may replace it with a reference.
	whole bool
	// defaultOf names the variable whose ${VAR:-default} default holds
	// the secret.
	defaultOf string
}

func (c *semantic) secretFinding(e *semEntry, field, key string, sec semSecretKind, value *jsonc.Node) Diagnostic {
	where := "header"
	if field != "headers" {
		where = field
	}
	msg := fmt.Sprintf("%s %s of server %s holds a literal %s: anyone who can read this file can use it",
		where, semQuote(key), semQuote(e.s.Name), sec.name)
	data := semData(e.s.Name, nil, "field", field, "key", key, "secret", sec.slug)
	variable := semSecretVariable(field, key, e.s.Name)
	capable, never := c.expandersOf(e.readers, field)
	ref := c.commonEnvSpelling(capable, variable)
	switch {
	case sec.defaultOf != "":
		msg = fmt.Sprintf("%s %s of server %s holds a literal %s as the default of ${%s:-…}: anyone who can read this file can use it; remove the default and set %s in the environment",
			where, semQuote(key), semQuote(e.s.Name), sec.name, sec.defaultOf, sec.defaultOf)
		data["variable"] = sec.defaultOf
		data[FixKey] = Fix{Kind: FixSecretToVariable, Key: key, Variable: sec.defaultOf}
	case ref != "" && sec.whole:
		repl := ref
		if sec.scheme != "" {
			repl = sec.scheme + " " + ref
		}
		msg += fmt.Sprintf("; write %q and set %s in the environment%s", repl, variable, c.expandsNothing(never))
		// Never safe: the variable must be set first, or the server
		// loses its credential.
		data["variable"] = variable
		data[FixKey] = Fix{Kind: FixSecretToVariable, Key: key, Value: repl, Variable: variable}
	case ref != "":
		msg += fmt.Sprintf("; reference an environment variable instead (%s)%s", ref, c.expandsNothing(never))
		data["variable"] = variable
	case !c.anyExpands(e.readers, field):
		msg += fmt.Sprintf("; %s cannot reference environment variables here, so keep this file private", readerNames(c.in, e.readers))
	}
	return Diagnostic{Span: value.Span, Severity: SeverityWarning, Code: CodeLiteralSecret, Message: msg, Data: data}
}

// expandersOf splits readers into those that expand some variable
// syntax in field and those that expand none there (VS Code in .mcp.json:
// no spelling of a reference helps them).
func (c *semantic) expandersOf(readers []*registry.Reader, field string) (capable, never []*registry.Reader) {
	for _, r := range readers {
		if forms, in := semForms(c.interp(r), field); in && forms.Empty() {
			never = append(never, r)
		} else {
			capable = append(capable, r)
		}
	}
	return capable, never
}

// expandsNothing is the note for readers that expand no variable in the
// file: " (VS Code expands no variable in this file)", "" for none.
func (c *semantic) expandsNothing(never []*registry.Reader) string {
	if len(never) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s %s no variable in this file)", readerNames(c.in, never), plural(len(never), "expands", "expand"))
}

// anyExpands reports whether some reader expands variables in field.
func (c *semantic) anyExpands(readers []*registry.Reader, field string) bool {
	for _, r := range readers {
		if forms, in := semForms(c.interp(r), field); in && !forms.Empty() {
			return true
		}
	}
	return false
}

// semDetectSecret classifies a value. A reference to a variable is not a
// secret, but the text around it and a ${VAR:-default} default are.
func semDetectSecret(field, key, value string) (semSecretKind, bool) {
	refs := interp.Scan(value, interp.All)
	trimmed := strings.TrimSpace(value)
	if field == "headers" && len(refs) == 0 {
		if m := semAuthScheme.FindStringSubmatch(value); m != nil && !semLooksHarmless(m[2]) {
			if p, ok := semKnownSecret(m[2]); ok {
				return semSecretKind{slug: p.slug, name: p.name, scheme: m[1], whole: true}, true
			}
			return semSecretKind{slug: "bearer-token", name: strings.ToLower(m[1]) + " credential", scheme: m[1], whole: true}, true
		}
	}
	var buf [4]string
	for _, part := range semLiteralParts(buf[:0], value, refs) {
		if p, ok := semKnownSecret(part); ok {
			whole := len(refs) == 0 && p.re.FindString(trimmed) == trimmed
			return semSecretKind{slug: p.slug, name: p.name, whole: whole}, true
		}
	}
	for _, r := range refs {
		if p, ok := semKnownSecret(r.Default); ok {
			return semSecretKind{slug: p.slug, name: p.name, defaultOf: r.Name}, true
		}
	}
	if len(refs) == 0 && semHighEntropy(key, trimmed) {
		return semSecretKind{slug: "high-entropy", name: "secret-looking value", whole: true}, true
	}
	return semSecretKind{}, false
}

// semHasSecret reports whether s holds a credential anywhere, in any
// of its whitespace-separated words: the guard of every rule that quotes
// text from a value other than headers and environment.
func semHasSecret(s string) bool {
	for _, w := range strings.Fields(s) {
		if _, ok := semKnownSecret(w); ok || semHighEntropy("", w) {
			return true
		}
		if k, v, ok := strings.Cut(w, "="); ok && semHighEntropy(k, v) {
			return true
		}
	}
	return false
}

// semMinSecretLen is the length of the shortest credential any pattern
// matches (a Slack token: "xoxb-" and ten characters).
const semMinSecretLen = 14

// semAnySecret matches where any of semSecretPatterns matches.
var semAnySecret = func() *regexp.Regexp {
	parts := make([]string, len(semSecretPatterns))
	for i, p := range semSecretPatterns {
		parts[i] = "(?:" + p.re.String() + ")"
	}
	return regexp.MustCompile(strings.Join(parts, "|"))
}()

// semKnownSecret returns the credential format s contains, if any.
func semKnownSecret(s string) (semSecretPattern, bool) {
	// Every format needs at least 14 characters, and one pass of the
	// combined pattern rejects the rest: values are checked per entry and
	// per keystroke, so the common case must be cheap.
	if len(s) < semMinSecretLen || !semAnySecret.MatchString(s) {
		return semSecretPattern{}, false
	}
	for _, p := range semSecretPatterns {
		if p.re.MatchString(s) {
			return p, true
		}
	}
	return semSecretPattern{}, false
}

// semLiteralParts appends to parts the parts of value outside variable
// references (a caller's array holds them for most values: every value of
// every env and headers is checked).
func semLiteralParts(parts []string, value string, refs []interp.Ref) []string {
	at := 0
	for _, r := range refs {
		parts = append(parts, value[at:r.Start])
		at = r.End
	}
	return append(parts, value[at:])
}

// semHighEntropy reports a value that looks random enough to be a credential:
// under a key named like one (API_KEY, token) a moderately random value
// of 16+ characters; under any key a very random one of 24+ characters
// mixing three character classes. Paths, URLs and words are not.
func semHighEntropy(key, v string) bool {
	// Cheapest tests first: most values are short, and the key-name regexp
	// is the most expensive test, so it runs last.
	if len(v) < 16 || semLooksHarmless(v) || strings.ContainsAny(v, " \t") {
		return false
	}
	h := semShannon(v)
	if len(v) >= 24 && h >= 4.0 && semCharClasses(v) >= 3 {
		return true
	}
	return h >= 3.0 && semSecretKeyName.MatchString(key)
}

// semLooksHarmless: URLs, paths, numbers, booleans and placeholders.
func semLooksHarmless(v string) bool {
	switch {
	case strings.Contains(v, "://"), strings.HasPrefix(v, "/"), strings.HasPrefix(v, "./"),
		strings.HasPrefix(v, "../"), strings.HasPrefix(v, "~"), semWindowsAbs(v):
		return true
	case strings.Trim(v, "0123456789.") == "":
		return true
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "changeme", "your-token-here", "your_api_key", "xxx":
		return true
	}
	return strings.Trim(strings.ToLower(v), "x*.<>_-") == "" || strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">")
}

// semShannon is the Shannon entropy of s in bits per byte.
func semShannon(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// semCharClasses counts lower case, upper case, digits and other characters.
func semCharClasses(s string) int {
	var lower, upper, digit, other int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			lower = 1
		case 'A' <= c && c <= 'Z':
			upper = 1
		case urlDigit(c):
			digit = 1
		default:
			other = 1
		}
	}
	return lower + upper + digit + other
}

// semSecretVariable proposes the environment variable to hold a secret: the
// env key itself when it is a variable name, else one derived from the
// server's name ("github" + Authorization -> GITHUB_TOKEN).
func semSecretVariable(field, key, server string) string {
	if field != "headers" && interp.IsIdent(key) {
		return key
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(server) {
		switch {
		case 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	base := strings.Trim(b.String(), "_")
	if base == "" || urlDigit(base[0]) {
		base = "MCP_" + base
	}
	if strings.Contains(strings.ToLower(key), "key") {
		return strings.TrimSuffix(base, "_") + "_API_KEY"
	}
	return strings.TrimSuffix(base, "_") + "_TOKEN"
}

// LooksLikeSecret reports whether value, under the name key, is what
// literal-secret reports in an env entry or a header: sync does not
// record such a --var value in the project's committed records.
func LooksLikeSecret(key, value string) bool {
	_, env := semDetectSecret("env", key, value)
	_, header := semDetectSecret("headers", key, value)
	return env || header
}
