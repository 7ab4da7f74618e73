package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Flags may follow the operands in every command, as people type them
// (`check . --format json`, `effective DIR --tool vscode`): the same
// output as with the flags first.
func TestFlagsAfterOperands(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".mcp.json": "{\r\n  \"mcpServers\": {\"ünï\": {\"type\": \"local\", \"command\": \"x\"}}\r\n}\r\n",
	})
	for _, tc := range []struct {
		name         string
		first, after []string
	}{
		{"check", []string{"check", "--format", "json", "--fail-on", "never", dir}, []string{"check", dir, "--format", "json", "--fail-on", "never"}},
		{"effective", []string{"effective", "--tool", "vscode", "--format", "json", dir}, []string{"effective", dir, "--tool", "vscode", "--format", "json"}},
	} {
		want, wantErr, wantCode := runCLI(t, tc.first...)
		got, gotErr, gotCode := runCLI(t, tc.after...)
		if want == "" || wantCode != 0 {
			t.Fatalf("%s with the flags first: exit %d, %q %q", tc.name, wantCode, want, wantErr)
		}
		if got != want || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("%s with the flags after the operand: exit %d, %q %q; want exit %d, %q", tc.name, gotCode, got, gotErr, wantCode, want)
		}
	}

	// Too many directories for effective: said, not the whole usage.
	_, errOut, code := runCLI(t, "effective", dir, filepath.Join(dir, "x"))
	if code != 2 || !strings.Contains(errOut, "one directory at most") {
		t.Errorf("effective with two directories: exit %d, %q", code, errOut)
	}
}
