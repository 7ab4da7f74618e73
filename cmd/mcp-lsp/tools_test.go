package main

import (
	"os"
	"os/exec"
	"testing"
)

// requireProgram finds a program a test needs: at the path in envVar if
// set, else on PATH. Missing, the test is skipped on a developer machine
// but fails in CI (CI set, as .ci/run and every CI service do), so that
// CI can never pass by not running it.
func requireProgram(t *testing.T, name, envVar string) string {
	t.Helper()
	if p := os.Getenv(envVar); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", envVar, p, err)
		}
		return p
	}
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not found (set %s or put it on PATH; .ci/run installs it), and CI is set", name, envVar)
	}
	t.Skipf("%s not installed (.ci/run installs it; set %s to use another copy)", name, envVar)
	return ""
}
