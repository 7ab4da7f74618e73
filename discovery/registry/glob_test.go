package registry

import "testing"

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		// "**" matches zero or more whole segments, including the root.
		{"**/.mcp.json", ".mcp.json", true},
		{"**/.mcp.json", "/.mcp.json", true},
		{"**/.mcp.json", "/home/u/proj/.mcp.json", true},
		{"**/.mcp.json", `C:\Users\me\proj\.mcp.json`, true},
		{"**/.mcp.json", "/home/u/proj/.mcp.json.bak", false},
		{"**/.mcp.json", "/home/u/proj/x.mcp.json", false},
		{"**/.vscode/mcp.json", "/p/.vscode/mcp.json", true},
		{"**/.vscode/mcp.json", "/p/mcp.json", false},
		{"**/.vscode/mcp.json", "/p/.vscode/sub/mcp.json", false},
		{"**/a/**/b", "/a/b", true},
		{"**/a/**/b", "/x/a/y/z/b", true},
		{"**/a/**", "/x/a/y", true},
		{"**/**/a", "a", true},

		// "*" and "?" stay within a segment; dots are not special.
		{"**/*.json", "/p/.mcp.json", true},
		{"**/*.json", "/p/a/b.json", true},
		{"**/User/profiles/*/mcp.json", "/c/User/profiles/abc/mcp.json", true},
		{"**/User/profiles/*/mcp.json", "/c/User/profiles/a/b/mcp.json", false},
		{"**/opencode.json?", "/p/opencode.jsonc", true},
		{"**/opencode.json?", "/p/opencode.json", false},
		{"**/a*b*c", "/axxbyyc", true},
		{"**/a*b*c", "/axxbyy", false},
		{"**/?", "/é", true}, // "?" is one character, not one byte

		// Braces, nested braces, braces spanning segments.
		{"**/{opencode,config}.json", "/p/config.json", true},
		{"**/{opencode,config}.json", "/p/other.json", false},
		{"**/.config/opencode/{config.json,opencode.json{,c}}", "/h/.config/opencode/opencode.jsonc", true},
		{"**/.config/opencode/{config.json,opencode.json{,c}}", "/h/.config/opencode/opencode.json", true},
		{"**/{Code,Code - Insiders}/User/mcp.json", "/h/.config/Code - Insiders/User/mcp.json", true},
		{"**/{.vscode/mcp,.mcp}.json", "/p/.vscode/mcp.json", true},

		// Classes.
		{"**/[.]mcp.json", "/p/.mcp.json", true},
		{"**/[!.]mcp.json", "/p/.mcp.json", false},
		{"**/[^.]mcp.json", "/p/xmcp.json", true},
		{"**/file[0-9].json", "/p/file7.json", true},
		{"**/file[0-9].json", "/p/filex.json", false},
		{"**/[]]x", "/]x", true},

		// Case-sensitive, like VS Code.
		{"**/.mcp.json", "/p/.MCP.json", false},

		// Malformed patterns match nothing.
		{"**/{a,b", "/a", false},
		{"**/a}", "/a}", false},
		{"**/[ab", "/a", false},
		{"", "", false},
	} {
		if got := MatchGlob(tc.glob, tc.path); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}

func TestGlobSpecificity(t *testing.T) {
	narrow, _ := compileGlob("**/.claude/.mcp.json")
	wide, _ := compileGlob("**/.mcp.json")
	n, ok1 := narrow.match("/p/.claude/.mcp.json", false)
	w, ok2 := wide.match("/p/.claude/.mcp.json", false)
	if !ok1 || !ok2 || !w.less(n) {
		t.Errorf("specificity: narrow %+v (%v) should beat wide %+v (%v)", n, ok1, w, ok2)
	}
	// Separators and wildcards do not count as literal characters, but
	// '-' and '!' outside classes do.
	if got := literalBytes("claude-code"); got != 11 {
		t.Errorf("literalBytes(claude-code) = %d, want 11", got)
	}
	if got := literalBytes("a*[xyz]?b"); got != 2 {
		t.Errorf("literalBytes(a*[xyz]?b) = %d, want 2", got)
	}
}
