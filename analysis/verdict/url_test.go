package verdict

import "testing"

// TestParseWHATWG_MatchesNode20 pins ParseURL to what `new URL(s)`
// did in Node.js 20.20 for each input (run by hand; Copilot CLI runs on
// Node and validates server urls this way before expanding variables).
func TestParseWHATWG_MatchesNode20(t *testing.T) {
	cases := []struct {
		in     string
		ok     bool
		scheme string
	}{
		{"https://api.githubcopilot.com/mcp/", true, "https"},
		{"http://localhost:3000/mcp", true, "http"},
		{"https://${HOST}/mcp", true, "https"}, // "$", "{", "}" are allowed in a domain
		{"http://localhost:${PORT}/mcp", false, ""},
		{"${API_URL}", false, ""},
		{"${API_URL}/mcp", false, ""},
		{"not a url", false, ""},
		{"localhost:3000/mcp", true, "localhost"}, // scheme "localhost", opaque path
		{"https://api.example.com/mcp?key=${KEY}", true, "https"},
		{"https://${env:HOST}/x", false, ""}, // the ':' starts a port
		{"http://exa mple.com", false, ""},
		{"https://x.com:99999/", false, ""},
		{"https://x.com:65535/", true, "https"},
		{"https:///mcp", true, "https"},
		{"https://", false, ""},
		{"https://user@", false, ""},
		{"http://[::1]:3000/mcp", true, "http"},
		{"http://[::1/mcp", false, ""},
		{"https://user:pw@x.com/", true, "https"},
		{"https://{env:HOST}/x", false, ""},
		{"https://x.com/${P}", true, "https"},
		{"unix:///tmp/x.sock", true, "unix"},
		{"pipe:///x", true, "pipe"},
		{"https://x.com:/m", true, "https"},
		{"http://%41.com/", true, "http"},
		{`https://x.y/\path`, true, "https"},
		{"https://exa\tmple.com", true, "https"},
		{"  https://x.com  ", true, "https"},
		{"https://a..b/", true, "https"},
		{"https://ex%ample.com/", false, ""},
		{"https://ex^ample.com/", false, ""},
		{"http://1.2.3.4/", true, "http"},
		{"http://1.2.3.256/", false, ""},
		{"http://0x7f.1/", true, "http"},
		{"http://1.2.3.4.5/", false, ""},
		{"http://example.123/", false, ""},
		{"foo://host with space/", false, ""},
		{"mailto:someone@example.com", true, "mailto"},
		{"file:///etc/hosts", true, "file"},
		{"", false, ""},
		{"1http://x", false, ""},
	}
	for _, tc := range cases {
		scheme, ok := ParseURL(tc.in)
		if ok != tc.ok || scheme != tc.scheme {
			t.Errorf("ParseURL(%q) = %q, %v; want %q, %v", tc.in, scheme, ok, tc.scheme, tc.ok)
		}
	}
}
