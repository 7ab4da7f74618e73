package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReleaseScript runs scripts/release.sh for this machine's target only
// (each target is a full build; CI has little CPU) and checks what it
// promises: the asset name the Action downloads, the stamped version and
// commit (`--version`), -trimpath, a static build, and SHA256SUMS.
func TestReleaseScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	releases := t.TempDir()
	out := filepath.Join(releases, "v1.2.3-rc.1")
	target := runtime.GOOS + "/" + runtime.GOARCH
	cmd := exec.Command("bash", "../../scripts/release.sh", "v1.2.3-rc.1")
	cmd.Env = append(os.Environ(), "OUT="+out, "TARGETS="+target)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, msg)
	}
	name := "mcp-lsp-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	bin := filepath.Join(out, name)
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	version, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	wantPrefix := "mcp-lsp v1.2.3-rc.1 (commit " + strings.TrimSpace(string(head))
	if !strings.HasPrefix(string(version), wantPrefix) || !strings.Contains(string(version), runtime.GOOS+"/"+runtime.GOARCH+")") {
		t.Errorf("--version: %q, want prefix %q", version, wantPrefix)
	}
	if v2, _ := exec.Command(bin, "version").Output(); string(v2) != string(version) {
		t.Errorf("version and --version differ: %q, %q", v2, version)
	}

	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	// (With -trimpath, go records no -ldflags; --version above shows them.)
	for _, want := range []string{"\tbuild\t-trimpath=true\n", "\tbuild\tCGO_ENABLED=0\n"} {
		if !strings.Contains(string(info), want) {
			t.Errorf("build info lacks %q:\n%s", want, info)
		}
	}
	root, _ := filepath.Abs("../..")
	if data, _ := os.ReadFile(bin); strings.Contains(string(data), root) {
		t.Errorf("the binary holds the build machine's path %s (no -trimpath?)", root)
	}

	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(bin)
	sum := sha256.Sum256(data)
	if want := hex.EncodeToString(sum[:]) + "  " + name + "\n"; string(sums) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", sums, want)
	}

	// The Action's install step downloads this release and checks it
	// against SHA256SUMS...
	runner := t.TempDir()
	env := map[string]string{"RUNNER_TEMP": runner, "INPUT_VERSION": "v1.2.3-rc.1", "MCP_LSP_RELEASES_URL": "file://" + releases, "GOPROXY": "off"}
	stdout, stderr, code := runActionScript(t, runner, env, "install")
	if installed := strings.TrimSpace(stdout); code != 0 || !strings.Contains(stderr, "installed the v1.2.3-rc.1 release binary") || installed != filepath.Join(runner, "mcp-lsp-bin", "mcp-lsp"+filepath.Ext(name)) {
		t.Errorf("install from the release: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	} else if got, _ := os.ReadFile(installed); string(got) != string(data) {
		t.Errorf("installed binary differs from the release's")
	}
	// ...and refuses a binary that does not match (then go install, here
	// without a module proxy, fails: no unchecked binary is ever run).
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Repeat("0", 64)+"  "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runner = t.TempDir()
	env["RUNNER_TEMP"] = runner
	_, stderr, code = runActionScript(t, runner, env, "install")
	if code == 0 || !strings.Contains(stderr, "checksum of "+name+" does not match") {
		t.Errorf("install with a bad checksum: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(runner, "mcp-lsp-bin", "mcp-lsp"+filepath.Ext(name))); err == nil {
		t.Errorf("a binary with a bad checksum was left installed")
	}

	bad := exec.Command("bash", "../../scripts/release.sh", "1.2.3")
	bad.Env = append(os.Environ(), "OUT="+out, "TARGETS="+target)
	if msg, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(msg), "should look like v1.2.3") {
		t.Errorf("a version without v: %v %s", err, msg)
	}
}
