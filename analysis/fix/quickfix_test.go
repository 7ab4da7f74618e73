package fix

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

var testEnv = registry.Env{Home: "/home/u", XDGConfigHome: "/home/u/.config", GOOS: "linux"}

func spanOf(s, e int) span.Span { return span.New(s, e) }

// analyze runs the single-file rules on content as the file at path.
func analyze(t *testing.T, path, content string) (*Document, []Diagnostic) {
	t.Helper()
	reg := registry.Default()
	kind, ok := reg.Match(path, testEnv)
	if !ok {
		t.Fatalf("%s is not an MCP config", path)
	}
	d := &Document{Path: path, Content: []byte(content), Kind: kind}
	ds := rules.AnalyzeFile(rules.FileInput{Path: path, Content: d.Content, Parsed: d.parsed(), Kind: kind, Registry: reg})
	return d, FromAnalysis(ds)
}

func TestQuickFixes(t *testing.T) {
	for _, tc := range []struct {
		name, path, in, code, title, want string
		safe                              bool
	}{
		{
			name: "local to stdio", path: "/p/.mcp.json", code: rules.CodeTypeNotAccepted, safe: true,
			in:    `{"mcpServers": {"fs": {"type": "local", "command": "x"}}}`,
			title: `Change type to "stdio"`,
			want:  `{"mcpServers": {"fs": {"type": "stdio", "command": "x"}}}`,
		},
		{
			name: "stdio to local", path: "/p/opencode.json", code: rules.CodeTypeNotAccepted, safe: true,
			in:    `{"mcp": {"fs": {"type": "stdio", "command": ["x"]}}}`,
			title: `Change type to "local"`,
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x"]}}}`,
		},
		{
			name: "case of a type", path: "/p/.vscode/mcp.json", code: rules.CodeTypeNotAccepted, safe: true,
			in:    `{"servers": {"w": {"type": "HTTP", "url": "https://x"}}}`,
			title: `Change type to "http"`,
			want:  `{"servers": {"w": {"type": "http", "url": "https://x"}}}`,
		},
		{
			name: "command string and args into one array", path: "/p/opencode.json", code: rules.CodeCommandForm, safe: true,
			in:    `{"mcp": {"fs": {"type": "local", "command": "npx -y", "args": ["fs", "/tmp"]}}}`,
			title: `Merge "command" and "args" into one array`,
			want:  `{"mcp": {"fs": {"type": "local", "command": ["npx", "-y", "fs", "/tmp"]}}}`,
		},
		{
			name: "one word command", path: "/p/opencode.json", code: rules.CodeCommandForm, safe: true,
			in:    `{"mcp": {"fs": {"type": "local", "command": "fs\u002dmcp"}}}`,
			title: `Write "command" as an array`,
			want:  `{"mcp": {"fs": {"type": "local", "command": ["fs\u002dmcp"]}}}`,
		},
		{
			name: "array command into existing args", path: "/p/.mcp.json", code: rules.CodeCommandForm, safe: true,
			in:    `{"mcpServers": {"fs": {"command": ["npx", "-y"], "args": ["fs"]}}}`,
			title: `Split "command" into "command" and "args"`,
			want:  `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "fs"]}}}`,
		},
		{
			name: "array command into empty args", path: "/p/.mcp.json", code: rules.CodeCommandForm, safe: true,
			in:    `{"mcpServers": {"fs": {"command": ["npx", "-y"], "args": []}}}`,
			title: `Split "command" into "command" and "args"`,
			want:  `{"mcpServers": {"fs": {"command": "npx", "args": ["-y"]}}}`,
		},
		{
			name: "args into the command array", path: "/p/opencode.json", code: rules.CodeForeignKey, safe: true,
			in:    "{\"mcp\": {\"fs\": {\n  \"type\": \"local\",\n  \"command\": [\"npx\"],\n  \"args\": [\"-y\", \"fs\"]\n}}}",
			title: `Move "args" into the "command" array`,
			want:  "{\"mcp\": {\"fs\": {\n  \"type\": \"local\",\n  \"command\": [\"npx\", \"-y\", \"fs\"]\n}}}",
		},
		{
			name: "env to environment", path: "/p/opencode.json", code: rules.CodeForeignKey, safe: true,
			in:    `{"mcp": {"fs": {"type": "local", "command": ["x"], "env": {"A": "1"}}}}`,
			title: `Rename "env" to "environment"`,
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x"], "environment": {"A": "1"}}}}`,
		},
		{
			name: "missing type", path: "/p/.mcp.json", code: rules.CodeMissingType, safe: true,
			in:    "{\"mcpServers\": {\n  \"w\": {\n    \"url\": \"https://x/sse\"\n  }\n}}",
			title: `Add "type": "sse"`,
			want:  "{\"mcpServers\": {\n  \"w\": {\n    \"type\": \"sse\",\n    \"url\": \"https://x/sse\"\n  }\n}}",
		},
		{
			name: "missing type in OpenCode", path: "/p/opencode.json", code: rules.CodeMissingType, safe: true,
			in:    `{"mcp": {"fs": {"command": ["x"]}}}`,
			title: `Add "type": "local"`,
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x"]}}}`,
		},
		{
			name: "trailing comma", path: "/p/.mcp.json", code: rules.CodeTrailingCommaJSON, safe: true,
			in:    `{"mcpServers": {"a": {"command": "x"},}}`,
			title: "Remove the trailing comma",
			want:  `{"mcpServers": {"a": {"command": "x"}}}`,
		},
		{
			name: "comment at the end of a line", path: "/p/.mcp.json", code: rules.CodeCommentInJSON,
			in:    "{\"mcpServers\": {} // none\n}",
			title: "Remove the comment",
			want:  "{\"mcpServers\": {}\n}",
		},
		{
			name: "inline block comment", path: "/p/.mcp.json", code: rules.CodeCommentInJSON,
			in:    `{"mcpServers": /* x */ {}}`,
			title: "Remove the comment",
			want:  `{"mcpServers": {}}`,
		},
		{
			name: "missing comma", path: "/p/.mcp.json", code: rules.CodeSyntaxError,
			in:    "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"} // a\n  \"b\": {\"command\": \"y\"}\n}}",
			title: "Insert the missing comma",
			want:  "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"}, // a\n  \"b\": {\"command\": \"y\"}\n}}",
		},
		{
			name: "duplicate key", path: "/p/.mcp.json", code: rules.CodeDuplicateKey,
			in:    `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`,
			title: `Remove the ignored duplicate "a"`,
			want:  `{"mcpServers": {"a": {"command": "y"}}}`,
		},
		{
			name: "servers under another tool's key", path: "/p/.mcp.json", code: rules.CodeWrongServerMapKey, safe: true,
			in:    `{"servers": {"a": {"command": "x"}}}`,
			title: `Rename "servers" to "mcpServers"`,
			want:  `{"mcpServers": {"a": {"command": "x"}}}`,
		},
		{
			name: "url without a scheme", path: "/p/.cursor/mcp.json", code: rules.CodeInvalidURL,
			in:    `{"mcpServers": {"w": {"url": "mcp.example.com/mcp"}}}`,
			title: `Add "https://"`,
			want:  `{"mcpServers": {"w": {"url": "https://mcp.example.com/mcp"}}}`,
		},
		{
			name: "interpolation", path: "/p/opencode.json", code: rules.CodeForeignInterpolation, safe: true,
			in:    `{"mcp": {"fs": {"type": "local", "command": ["x", "--root=${HOME}/src"]}}}`,
			title: "Rewrite the reference as {env:HOME}",
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x", "--root={env:HOME}/src"]}}}`,
		},
		{
			name: "interpolation with a default", path: "/p/opencode.json", code: rules.CodeForeignInterpolation,
			in:    `{"mcp": {"fs": {"type": "local", "command": ["x", "${ROOT:-/tmp}"]}}}`,
			title: "Rewrite the reference as {env:ROOT} (drops the default)",
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x", "{env:ROOT}"]}}}`,
		},
		{
			name: "VS Code variable in a Claude Code file", path: "/p/.mcp.json", code: rules.CodeForeignInterpolation, safe: true,
			in:    `{"mcpServers": {"fs": {"command": "x", "args": ["${userHome}/é"]}}}`,
			title: "Rewrite the reference as ${HOME}",
			want:  `{"mcpServers": {"fs": {"command": "x", "args": ["${HOME}/é"]}}}`,
		},
		{
			name: "escaped reference", path: "/p/opencode.json", code: rules.CodeForeignInterpolation, safe: true,
			in:    `{"mcp": {"fs": {"type": "local", "command": ["x", "\u0024{HOME}"]}}}`,
			title: "Rewrite the reference as {env:HOME}",
			want:  `{"mcp": {"fs": {"type": "local", "command": ["x", "{env:HOME}"]}}}`,
		},
		{
			name: "undeclared input with a near id", path: "/p/.vscode/mcp.json", code: rules.CodeUndefinedInput,
			in:    `{"inputs": [{"type": "promptString", "id": "gh-token", "description": "t"}], "servers": {"gh": {"command": "x", "env": {"T": "${input:GH_TOKEN}"}}}}`,
			title: "Rewrite the reference as ${input:gh-token}",
			want:  `{"inputs": [{"type": "promptString", "id": "gh-token", "description": "t"}], "servers": {"gh": {"command": "x", "env": {"T": "${input:gh-token}"}}}}`,
		},
		{
			name: "literal secret in env", path: "/p/.mcp.json", code: rules.CodeLiteralSecret,
			in:    `{"mcpServers": {"gh": {"command": "x", "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}}}}`,
			title: `Replace the secret with "${GITHUB_TOKEN}"; set GITHUB_TOKEN in your environment`,
			want:  `{"mcpServers": {"gh": {"command": "x", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}}}`,
		},
		{
			name: "literal secret in OpenCode", path: "/p/opencode.json", code: rules.CodeLiteralSecret,
			in:    `{"mcp": {"gh": {"type": "local", "command": ["x"], "environment": {"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}}}}`,
			title: `Replace the secret with "{env:GITHUB_TOKEN}"; set GITHUB_TOKEN in your environment`,
			want:  `{"mcp": {"gh": {"type": "local", "command": ["x"], "environment": {"GITHUB_TOKEN": "{env:GITHUB_TOKEN}"}}}}`,
		},
		{
			name: "secret default", path: "/p/.mcp.json", code: rules.CodeLiteralSecret,
			in:    `{"mcpServers": {"gh": {"command": "x", "env": {"TOKEN": "${GH_TOKEN:-ghp_0123456789abcdefghijklmnopqrstuvwxyzAB}"}}}}`,
			title: "Remove the secret default of ${GH_TOKEN}; set GH_TOKEN in your environment",
			want:  `{"mcpServers": {"gh": {"command": "x", "env": {"TOKEN": "${GH_TOKEN}"}}}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ds := analyze(t, tc.path, tc.in)
			var titles []string
			for _, diag := range ds {
				if diag.Code != tc.code {
					continue
				}
				for _, fx := range QuickFixes(d, diag) {
					titles = append(titles, fx.Title)
					if fx.Title != tc.title {
						continue
					}
					if got := apply(t, tc.in, fx.Edits); got != tc.want {
						t.Errorf("got  %s\nwant %s", got, tc.want)
					}
					if fx.Safe != tc.safe {
						t.Errorf("safe = %v, want %v", fx.Safe, tc.safe)
					}
					return
				}
			}
			t.Errorf("no fix %q for %s; fixes: %q; diagnostics: %+v", tc.title, tc.code, titles, ds)
		})
	}
}

// TestStaleDiagnosticGetsNoFix: a diagnostic computed for other content
// (the client's, one edit behind) yields no fix rather than a wrong edit.
func TestStaleDiagnosticGetsNoFix(t *testing.T) {
	_, ds := analyze(t, "/p/.mcp.json", `{"mcpServers": {"a": {"command": "x"}, "a": {"type": "local", "command": "y"}}}`)
	moved, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {"b": {"command": "x"}, "a": {"type": "stdio", "command": "y"}}}`)
	for _, diag := range ds {
		if fixes := QuickFixes(moved, diag); len(fixes) > 0 {
			t.Errorf("%s: stale diagnostic got fixes %+v", diag.Code, fixes)
		}
	}
	d, _ := analyze(t, "/p/.mcp.json", `{"mcpServers": {"a": {"command": "x"}}}`)
	for _, diag := range []Diagnostic{
		{Code: rules.CodeTypeNotAccepted, Span: spanOf(-1, 3)},
		{Code: rules.CodeTypeNotAccepted, Span: spanOf(0, 1000)},
		{Code: rules.CodeDuplicateKey, Span: spanOf(16, 19), Data: Data{Fix: rules.Fix{Kind: rules.FixRemoveMember, Key: "other"}}},
		{Code: rules.CodeLiteralSecret, Span: spanOf(28, 31), Data: Data{Field: "env", Fix: rules.Fix{Kind: rules.FixSecretToVariable, Key: "x", Variable: "X", Value: "${X}"}}},
	} {
		if fixes := QuickFixes(d, diag); len(fixes) > 0 {
			t.Errorf("%s at %v: got fixes %+v", diag.Code, diag.Span, fixes)
		}
	}
}

// TestFixAllLosesNothing: fix-all applies the safe fixes and leaves the
// secret, the ignored duplicate and the comment for the user.
func TestFixAllLosesNothing(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	in := `{
  "mcpServers": {
    // keep this comment
    "fs": {"type": "local", "command": ["npx", "fs"]},
    "w": {"url": "https://x/mcp", "headers": {"Authorization": "Bearer ` + secret + `"}},
    "w": {"url": "https://y/mcp"},
  }
}
`
	d, ds := analyze(t, "/p/.mcp.json", in)
	edits, n := FixAll(d, ds)
	got := apply(t, in, edits)
	want := `{
  "mcpServers": {
    // keep this comment
    "fs": {"type": "stdio", "command": "npx", "args": ["fs"]},
    "w": {"url": "https://x/mcp", "headers": {"Authorization": "Bearer ` + secret + `"}},
    "w": {"type": "http", "url": "https://y/mcp"}
  }
}
`
	if got != want {
		t.Errorf("FixAll:\n%s\nwant\n%s", got, want)
	}
	if n != 4 {
		t.Errorf("n = %d, want 4 (type, command, missing type, trailing comma)", n)
	}
	if len(jsonc.Parse([]byte(got)).Errors) > 0 {
		t.Errorf("the result does not parse")
	}
}

// TestNoSecretInTitles runs every fix and conversion over files full of
// secrets: no title says any of them.
func TestNoSecretInTitles(t *testing.T) {
	secrets := []string{
		"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
		"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
		"xoxb-1234567890-abcdefghij",
		"Zq8#xT2!mLp9$wR4vK7@nB3&hJ6*cF1",
	}
	files := map[string]string{
		"/p/.mcp.json": `{"mcpServers": {
  "a": {"type": "local", "command": "run --token=` + secrets[0] + `", "env": {"API_KEY": "` + secrets[1] + `"}},
  "b": {"url": "https://x/` + secrets[2] + `", "headers": {"Authorization": "Bearer ` + secrets[0] + `", "X-Key": "${K:-` + secrets[1] + `}"}},
  "c": {"command": "x", "env": {"PASSWORD": "` + secrets[3] + `"}}
}}`,
		"/p/opencode.json": `{"mcp": {
  "a": {"type": "remote", "url": "https://x/mcp", "oauth": {"clientId": "id", "clientSecret": "` + secrets[3] + `"}, "headers": {"Authorization": "Bearer ${TOKEN}"}},
  "b": {"type": "local", "command": "run ` + secrets[2] + `", "env": {"SLACK": "` + secrets[2] + `"}}
}}`,
	}
	ws := &Workspace{Registry: registry.Default(), Env: testEnv, ProjectDir: "/p", File: func(p string) ([]byte, bool, error) {
		c, ok := files[p]
		return []byte(c), ok, nil
	}}
	for path, content := range files {
		d, ds := analyze(t, path, content)
		var titles []string
		for _, diag := range ds {
			for _, fx := range QuickFixes(d, diag) {
				titles = append(titles, fx.Title)
			}
		}
		for _, c := range FileConversions(d, ws) {
			titles = append(titles, c.Title, c.Disabled)
			for _, l := range c.Losses {
				titles = append(titles, l.String())
			}
		}
		if len(titles) == 0 {
			t.Errorf("%s: nothing offered", path)
		}
		for _, title := range titles {
			for _, s := range secrets {
				for _, part := range []string{s, s[:12], s[len(s)-12:]} {
					if strings.Contains(title, part) {
						t.Errorf("%s: title %q shows a secret", path, title)
					}
				}
			}
		}
	}
}

// TestEveryFixApplies runs every fix of every diagnostic of the scenario
// inputs: each must apply cleanly and add no syntax error.
func TestEveryFixApplies(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.txtar"))
	if len(archives) == 0 {
		t.Fatal("no scenarios found")
	}
	count := 0
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			path := "/p/" + f.Name
			if strings.HasPrefix(f.Name, "home/") {
				path = "/home/u/" + strings.TrimPrefix(f.Name, "home/")
			}
			if _, ok := registry.Default().Match(path, testEnv); !ok || f.Name == "want.json" {
				continue
			}
			d, ds := analyze(t, path, string(f.Data))
			before := len(d.parsed().Errors)
			for _, diag := range ds {
				if k := diag.Data.Fix.Kind; k != "" && !slices.Contains(rules.RuleFixes[diag.Code], k) {
					t.Errorf("%s %s: %s offers a %q fix, which rules.RuleFixes does not list for it", filepath.Base(a), f.Name, diag.Code, k)
				}
				for _, fx := range QuickFixes(d, diag) {
					count++
					out, err := Apply(d.Content, fx.Edits)
					if err != nil {
						t.Errorf("%s %s: %q: %v", filepath.Base(a), f.Name, fx.Title, err)
						continue
					}
					after := len(jsonc.Parse(out).Errors)
					if after > before || diag.Code == rules.CodeSyntaxError && after >= before {
						t.Errorf("%s %s: %q leaves %d syntax errors (had %d):\n%s", filepath.Base(a), f.Name, fx.Title, after, before, out)
					}
				}
			}
			edits, _ := FixAll(d, ds)
			if _, err := Apply(d.Content, edits); err != nil {
				t.Errorf("%s %s: fix all: %v", filepath.Base(a), f.Name, err)
			}
		}
	}
	if count == 0 {
		t.Error("no fix ran")
	}
}

func TestDecodeData(t *testing.T) {
	// As a client sends Data back: an untyped JSON object.
	d := DecodeData([]byte(`{"fix": {"kind": "rename-key", "key": "env", "value": "environment", "safe": true}, "tools": "opencode", "extra": {"x": 1}}`))
	if want := (rules.Fix{Kind: rules.FixRenameKey, Key: "env", Value: "environment", Safe: true}); d.Fix != want || !d.Tools.Has("opencode") {
		t.Errorf("DecodeData = %+v", d)
	}
	if d := DecodeData([]byte(`{"fix": 3}`)); d.Fix != (rules.Fix{}) {
		t.Errorf("mangled data decodes to %+v, want zero", d)
	}
	if d := DecodeData([]byte(`not json`)); d.Key != "" {
		t.Errorf("bad json decodes to %+v", d)
	}
}

func TestNotJSONGetsNothing(t *testing.T) {
	d := &Document{Path: "/p/config.toml", Content: []byte(`x = 1`)}
	diag := Diagnostic{Code: rules.CodeTrailingCommaJSON, Span: spanOf(0, 1), Data: Data{Fix: rules.Fix{Kind: rules.FixRemoveText, Safe: true}}}
	if fixes := QuickFixes(d, diag); fixes != nil {
		t.Errorf("fixes for a TOML file: %+v", fixes)
	}
}

// TestFixDataDecides: the rule's Fix, not the code, says what to do and
// whether it is safe; a kind the code does not offer gets nothing.
func TestFixDataDecides(t *testing.T) {
	src := `{"mcpServers": {"a": {"type": "local", "command": "x"}}}`
	d, _ := analyze(t, "/p/.mcp.json", src)
	at := spanOf(strings.Index(src, `"local"`), strings.Index(src, `"local"`)+len(`"local"`))
	for _, tc := range []struct {
		fix       rules.Fix
		wantFixes int
		wantSafe  bool
	}{
		{rules.Fix{Kind: rules.FixReplaceValue, Key: "type", Value: "stdio", Safe: true}, 1, true},
		{rules.Fix{Kind: rules.FixReplaceValue, Key: "type", Value: "stdio"}, 1, false},
		{rules.Fix{Kind: rules.FixRenameKey, Key: "type", Value: "stdio", Safe: true}, 0, false},
		{rules.Fix{Kind: rules.FixReplaceValue, Key: "command", Value: "stdio", Safe: true}, 0, false},
	} {
		fixes := QuickFixes(d, Diagnostic{Code: rules.CodeTypeNotAccepted, Span: at, Data: Data{Fix: tc.fix}})
		if len(fixes) != tc.wantFixes || len(fixes) == 1 && fixes[0].Safe != tc.wantSafe {
			t.Errorf("%+v: got %+v", tc.fix, fixes)
		}
	}
}

// TestEveryRuleFixHasAFixer: the codes rules.RuleFixes lists are the
// codes package fix has a fixer for.
func TestEveryRuleFixHasAFixer(t *testing.T) {
	for code := range rules.RuleFixes {
		if fixers[code] == nil {
			t.Errorf("%s offers a fix that no fixer reads", code)
		}
	}
	for code := range fixers {
		if len(rules.RuleFixes[code]) == 0 {
			t.Errorf("fixer for %s, which rules.RuleFixes does not list", code)
		}
	}
}
