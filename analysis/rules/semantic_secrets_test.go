package rules

import (
	"encoding/json"
	"strings"
	"testing"
)

// Test credentials are assembled at run time so that this file holds no
// string a secret scanner would take for a real token.
var (
	fakeGitHub    = "gh" + "p_" + strings.Repeat("aB3dE5gH7j", 4)[:36]
	fakeOpenAI    = "sk-" + "proj-" + strings.Repeat("Zx9Qw8Er7T", 4)
	fakeAnthropic = "sk-" + "ant-api03-" + strings.Repeat("Mn4Bv5Cx6Z", 3)
	fakeSlack     = "xo" + "xb-" + "1234567890-" + strings.Repeat("AbCdEf", 3)
	fakeAWS       = "AK" + "IA" + "IOSFODNN7EXAMPLE"
	fakeGoogle    = "AI" + "za" + strings.Repeat("Sy4Kq9Lm2Np", 4)[:35]
	fakeGitLab    = "gl" + "pat-" + strings.Repeat("Qz7Wx3Ev1R", 2)
	fakeRandom    = "q8Ff3LzR1xV9mT2bW7nK4cY6hJ0pS5dA" // 32 mixed characters
	fakeBearer    = "a1b2c3d4e5f6g7h8"
)

// containsSecret reports whether secret, or any 8-byte part of it, shows
// in d's message or data.
func containsSecret(d Diagnostic, secret string) bool {
	data, _ := json.Marshal(d.Data)
	text := d.Message + string(data)
	for i := 0; i+8 <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+8]) {
			return true
		}
	}
	return false
}

func TestLiteralBearerToken_Warning(t *testing.T) {
	src := `{"mcpServers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ` + fakeGitHub + `"}}}}`
	d := wantOne(t, semantics(t, ".mcp.json", src), CodeLiteralSecret, spanOf(t, src, `"Bearer `+fakeGitHub+`"`, 0), SeverityWarning,
		`header "Authorization" of server "github" holds a literal GitHub token: anyone who can read this file can use it; write "Bearer ${GITHUB_TOKEN}" and set GITHUB_TOKEN in the environment`)
	wantData(t, d, FixKey, Fix{Kind: FixSecretToVariable, Key: "Authorization", Value: "Bearer ${GITHUB_TOKEN}", Variable: "GITHUB_TOKEN"})
	wantData(t, d, "secret", "github-token")
}

func TestLiteralSecret_PerDialectReference(t *testing.T) {
	cases := []struct{ path, src, want string }{
		{"opencode.json", `{"mcp": {"ai": {"type": "local", "command": ["x"], "environment": {"OPENAI_API_KEY": "` + fakeOpenAI + `"}}}}`,
			`environment "OPENAI_API_KEY" of server "ai" holds a literal OpenAI API key: anyone who can read this file can use it; write "{env:OPENAI_API_KEY}" and set OPENAI_API_KEY in the environment`},
		{".vscode/mcp.json", `{"servers": {"ai": {"command": "x", "env": {"ANTHROPIC_API_KEY": "` + fakeAnthropic + `"}}}}`,
			`env "ANTHROPIC_API_KEY" of server "ai" holds a literal Anthropic API key: anyone who can read this file can use it; write "${env:ANTHROPIC_API_KEY}" and set ANTHROPIC_API_KEY in the environment`},
		{"claude_desktop_config.json", `{"mcpServers": {"slack": {"command": "x", "env": {"SLACK_BOT_TOKEN": "` + fakeSlack + `"}}}}`,
			`env "SLACK_BOT_TOKEN" of server "slack" holds a literal Slack token: anyone who can read this file can use it; Claude Desktop cannot reference environment variables here, so keep this file private`},
		{".mcp.json", `{"mcpServers": {"ctx": {"type": "http", "url": "https://x.example.com", "headers": {"X-Api-Key": "${KEY:-` + fakeGoogle + `}"}}}}`,
			`header "X-Api-Key" of server "ctx" holds a literal Google API key as the default of ${KEY:-…}: anyone who can read this file can use it; remove the default and set KEY in the environment`},
	}
	for _, tc := range cases {
		ds := only(semantics(t, tc.path, tc.src), CodeLiteralSecret)
		if len(ds) != 1 || ds[0].Message != tc.want {
			t.Errorf("%s: got\n%s\nwant %s", tc.path, dump(ds), tc.want)
		}
	}
}

func TestDetectSecret(t *testing.T) {
	cases := []struct {
		field, key, value, slug string
	}{
		{"env", "GITHUB_PERSONAL_ACCESS_TOKEN", fakeGitHub, "github-token"},
		{"env", "AWS_ACCESS_KEY_ID", fakeAWS, "aws-access-key-id"},
		{"env", "GITLAB_TOKEN", fakeGitLab, "gitlab-token"},
		{"env", "API_KEY", fakeRandom, "high-entropy"},
		{"env", "WHATEVER", fakeRandom, "high-entropy"},
		{"headers", "Authorization", "Bearer " + fakeBearer, "bearer-token"},
		{"headers", "Authorization", "token " + fakeGitHub, "github-token"},
		{"headers", "X-Key", "prefix-" + fakeOpenAI, "openai-api-key"},
		// Not secrets: references, paths, URLs, words, short values.
		{"headers", "Authorization", "Bearer ${GITHUB_TOKEN}", ""},
		{"headers", "Authorization", "Bearer {env:TOKEN}", ""},
		{"headers", "Authorization", "Bearer $TOKEN", ""},
		{"headers", "Authorization", "Bearer <your-token>", ""},
		{"env", "API_KEY", "${API_KEY}", ""},
		{"env", "PATH", "/usr/local/bin:/usr/bin:/bin", ""},
		{"env", "BASE_URL", "https://api.example.com/v1/endpoint", ""},
		{"env", "DEBUG", "true", ""},
		{"env", "PORT", "8080", ""},
		{"env", "TOKEN", "changeme", ""},
		{"env", "TOKEN", "xxxxxxxxxxxxxxxxxxxx", ""},
		{"env", "NODE_OPTIONS", "--max-old-space-size=4096", ""},
		{"env", "TENANT", "3f2c1e9a-1b2c-4d5e-8f90-a1b2c3d4e5f6", ""}, // a UUID under a plain key
		{"env", "PROJECT", "my-project-name", ""},
	}
	for _, tc := range cases {
		sec, ok := semDetectSecret(tc.field, tc.key, tc.value)
		if ok != (tc.slug != "") || sec.slug != tc.slug {
			t.Errorf("detectSecret(%s, %s, %q) = %q, want %q", tc.field, tc.key, tc.value, sec.slug, tc.slug)
		}
	}
}

// TestSecretsNeverPrinted runs every rule (syntax, semantic, schema) with
// a resolver on files full of secrets in every place a rule quotes from,
// and checks that no message and no Data holds any 8-byte part of them.
func TestSecretsNeverPrinted(t *testing.T) {
	secrets := []string{fakeGitHub, fakeOpenAI, fakeAnthropic, fakeSlack, fakeAWS, fakeGoogle, fakeGitLab, fakeRandom, fakeBearer}
	files := map[string]string{
		".mcp.json": `{"mcpServers": {
			"a": {"type": "HTTP", "url": "not a url?key=` + fakeRandom + `", "headers": {"Authorization": "Bearer ` + fakeBearer + `", "X-Key": "{env:X}` + fakeOpenAI + `$ABCDEFGH"}},
			"b": {"command": "", "env": {"GITHUB_TOKEN": "` + fakeGitHub + `", "SLACK": "${S:-` + fakeSlack + `}", "AWS": "$AWSKEY` + fakeAWS + `"}, "environment": {"K": "` + fakeGoogle + `"}},
			"c": {"url": "https://x.example.com/mcp", "headers": {"Authorization": "token ` + fakeGitLab + `"}},
			"workspace": {"command": ["npx"], "env": {"ANTHROPIC_API_KEY": "` + fakeAnthropic + `"}}}}`,
		"opencode.json": `{"mcp": {"x": {"type": "stdio", "command": "npx", "env": {"OPENAI_API_KEY": "` + fakeOpenAI + `"}, "environment": {"T": "${T}` + fakeRandom + `"}},
			"y": {"type": "remote", "url": "localhost?token=` + fakeGitHub + `", "headers": {"Authorization": "Bearer ` + fakeBearer + `"}}}}`,
		".vscode/mcp.json": `{"servers": {"z": {"url": "https://x.example.com", "headers": {"Authorization": "Bearer ${input:t}` + fakeAWS + `"}},
			"cmdline": {"command": "./run --token=` + fakeGitHub + `", "env": {"K": "` + fakeRandom + `"}}}}`,
		"opencode.jsonc": `{"mcp": {"w": {"type": "local", "command": "server --key ` + fakeAnthropic + `"}}}`,
	}
	for path, src := range files {
		in := FileInput{Path: "/work/proj/" + path, Content: []byte(src), Resolver: fakeResolver{}}
		in.Kind = kindFor(t, in.Path)
		ds := AnalyzeFile(in)
		if len(only(ds, CodeLiteralSecret)) == 0 && path != "opencode.jsonc" { // its secret is in "command"
			t.Errorf("%s: no literal-secret found", path)
		}
		for _, d := range ds {
			for _, s := range secrets {
				if containsSecret(d, s) {
					t.Errorf("%s: %s leaks a secret: %s %v", path, d.Code, d.Message, d.Data)
				}
			}
		}
	}
}
