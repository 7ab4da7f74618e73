package effective

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/interp"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// Strings that look like credentials even outside env and headers: an
// argument such as --api-key=sk-..., a token prefix, a URL query value.
var (
	tokenPrefix = regexp.MustCompile(`\b(ghp_|gho_|ghu_|ghs_|github_pat_|sk-|sk-ant-|xox[abpr]-|AKIA|AIza|glpat-)[A-Za-z0-9_\-]{8,}`)
	keyedValue  = regexp.MustCompile(`(?i)((?:token|secret|password|passwd|api[-_]?key|auth|bearer)[A-Za-z_\-]*[=:]\s*)([^\s&]+)`)
	bearer      = regexp.MustCompile(`(?i)(bearer\s+)([^\s$]\S*)`)
)

// MaskIfSecret hides what looks like a credential in a value shown in
// hover (a command argument, a URL). Interpolation references such as
// ${GITHUB_TOKEN} are not secrets and stay visible.
func MaskIfSecret(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q.Set(k, "SECRET")
		}
		u.RawQuery = strings.ReplaceAll(q.Encode(), "SECRET", rules.Masked)
		if u.User != nil {
			u.User = url.User(rules.Masked)
		}
		s = u.String()
	}
	s = tokenPrefix.ReplaceAllString(s, rules.Masked)
	s = keyedValue.ReplaceAllStringFunc(s, func(m string) string {
		parts := keyedValue.FindStringSubmatch(m)
		if refs := interp.Scan(parts[2], interp.All); len(refs) > 0 && !slices.ContainsFunc(refs, func(r interp.Ref) bool { return r.Default != "" }) {
			return m // a reference, not a value; a default could be one
		}
		return parts[1] + rules.Masked
	})
	s = bearer.ReplaceAllString(s, "${1}"+rules.Masked)
	return s
}
