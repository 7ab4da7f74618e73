package verdict

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a validator for the WHATWG URL Standard's basic URL
// parser (no base URL), the parser behind JavaScript's `new URL(s)`. Copilot
// CLI checks a server's url with it before expanding variables ("url:
// Invalid url" for "not a url" and for "${PORT}" in the port: verified with
// Copilot CLI 1.0.102), so its verdict must be predicted exactly, not
// approximated with net/url, which accepts much more.
//
// It reports only failure or success: the parser's "validation errors"
// (backslashes, tabs inside, a missing "//") do not make new URL throw.
// Two parts are simplified and err on the side of accepting: the file
// scheme is not parsed further, and non-ASCII domains are assumed to pass
// IDNA (UTS #46) processing.

// urlSpecialSchemes are the schemes with special parsing rules; their URLs
// need a host.
var urlSpecialSchemes = map[string]bool{"ftp": true, "file": true, "http": true, "https": true, "ws": true, "wss": true}

// ParseURL reports whether s is an absolute URL to `new URL(s)`, and
// its scheme (lower case) when it is.
func ParseURL(s string) (scheme string, ok bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)

	// Scheme: an ASCII letter, then letters, digits, "+", "-", ".", then ":".
	if s == "" || !urlAlpha(s[0]) {
		return "", false
	}
	i := 1
	for i < len(s) && (urlAlpha(s[i]) || urlDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i == len(s) || s[i] != ':' {
		return "", false // no scheme, and there is no base URL to resolve against
	}
	scheme = strings.ToLower(s[:i])
	rest := s[i+1:]

	special := urlSpecialSchemes[scheme]
	var authority string
	switch {
	case scheme == "file":
		return scheme, true
	case special:
		// "special authority ignore slashes": any run of / and \ is skipped,
		// so "https:example.com" and "https:///example.com" both parse.
		rest = strings.TrimLeft(rest, `/\`)
		authority = rest[:urlIndexAny(rest, `/\?#`)]
	case strings.HasPrefix(rest, "//"):
		rest = rest[2:]
		authority = rest[:urlIndexAny(rest, "/?#")]
	default:
		return scheme, true // an opaque path ("mailto:x", "localhost:3000/mcp")
	}

	hostPort := authority
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		hostPort = authority[at+1:]
		if special && hostPort == "" {
			return "", false // credentials without a host
		}
	}
	host, port := urlSplitHostPort(hostPort)
	if port != "" && !urlValidPort(port) {
		return "", false
	}
	if host == "" {
		if special {
			return "", false // "https://" has no host
		}
		return scheme, true
	}
	if !urlValidHost(host, special) {
		return "", false
	}
	return scheme, true
}

// urlSplitHostPort splits at the first ':' outside brackets.
func urlSplitHostPort(s string) (host, port string) {
	inBrackets := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				return s[:i], s[i+1:]
			}
		}
	}
	return s, ""
}

// urlValidPort: digits only, at most 65535. An empty port is allowed.
func urlValidPort(p string) bool {
	for i := 0; i < len(p); i++ {
		if !urlDigit(p[i]) {
			return false
		}
	}
	t := strings.TrimLeft(p, "0")
	if t == "" {
		return true
	}
	n, err := strconv.ParseUint(t, 10, 32)
	return err == nil && n <= 65535
}

// urlForbiddenHost are the forbidden host code points; forbiddenDomain adds
// "%" (after percent-decoding), the C0 controls and DEL.
const urlForbiddenHost = "\x00\t\n\r #/:<>?@[\\]^|"

func urlValidHost(h string, special bool) bool {
	if h[0] == '[' {
		if h[len(h)-1] != ']' {
			return false
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		return err == nil && a.Is6() && a.Zone() == ""
	}
	if !special {
		// An opaque host: percent signs are allowed, the rest of the
		// forbidden host code points are not.
		return !strings.ContainsAny(h, urlForbiddenHost)
	}
	d := urlPercentDecode(h)
	if !utf8.ValidString(d) {
		return false
	}
	d = strings.ToLower(d)
	for i := 0; i < len(d); i++ {
		if c := d[i]; c < 0x20 || c == 0x7f || c == '%' || strings.IndexByte(urlForbiddenHost, c) >= 0 {
			return false
		}
	}
	if d == "" {
		return false
	}
	if urlEndsInANumber(d) {
		return urlValidIPv4(d)
	}
	return true
}

// urlPercentDecode decodes %XX sequences; a "%" not followed by two hex
// digits stays as it is (and is then a forbidden domain code point).
func urlPercentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && urlHex(s[i+1]) && urlHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// urlEndsInANumber: the last label (ignoring one trailing dot) is all digits
// or a 0x hex number, so the host is parsed as IPv4.
func urlEndsInANumber(d string) bool {
	labels := strings.Split(d, ".")
	if labels[len(labels)-1] == "" {
		if len(labels) == 1 {
			return false
		}
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := urlIPv4Number(last)
	return ok
}

// urlValidIPv4 applies the IPv4 parser: up to four parts, each decimal, octal
// (leading 0) or hex (0x); every part but the last at most 255, the last
// filling the remaining bytes.
func urlValidIPv4(d string) bool {
	parts := strings.Split(d, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return false
	}
	for i, p := range parts {
		n, ok := urlIPv4Number(p)
		if !ok {
			return false
		}
		if i < len(parts)-1 && n > 255 {
			return false
		}
		if i == len(parts)-1 && n >= 1<<(8*(5-len(parts))) {
			return false
		}
	}
	return true
}

func urlIPv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		// Too large for 64 bits still fails the range check; anything else
		// is not a number.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 63, true
		}
		return 0, false
	}
	return n, true
}

func urlIndexAny(s, chars string) int {
	if i := strings.IndexAny(s, chars); i >= 0 {
		return i
	}
	return len(s)
}

func urlAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func urlDigit(c byte) bool { return '0' <= c && c <= '9' }
func urlHex(c byte) bool {
	return urlDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
