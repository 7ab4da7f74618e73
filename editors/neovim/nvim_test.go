// Package neovim tests mcp-lsp with a real editor client: Neovim's own LSP
// client, run headless. It needs `nvim` (Debian's 0.7.2 in CI), and fails
// without it: a test that skips where its program is missing passes
// unnoticed.
package neovim

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type report struct {
	Error string `json:"error"`
	Steps struct {
		Started            bool `json:"started"`
		DiagnosticsArrived bool `json:"diagnostics_arrived"`
		Diagnostics        []struct {
			Code     string `json:"code"`
			Lnum     int    `json:"lnum"`
			Col      int    `json:"col"`
			EndCol   int    `json:"end_col"`
			Severity int    `json:"severity"`
			Message  string `json:"message"`
		} `json:"diagnostics"`
		Hover           any      `json:"hover"`
		Actions         []string `json:"actions"`
		Applied         string   `json:"applied"`
		CleanAfterFix   bool     `json:"clean_after_fix"`
		FinalText       string   `json:"final_text"`
		CodeLensArrived bool     `json:"codelens_arrived"`
		SyncActions     []string `json:"sync_actions"`
		SyncAdded       any      `json:"sync_added"`
		SwitchActions   []string `json:"switch_actions"`
		SwitchApplied   any      `json:"switch_applied"`
		CodeLens        []struct {
			Line    int    `json:"line"`
			Title   string `json:"title"`
			Command string `json:"command"`
		} `json:"codelens"`
	} `json:"steps"`
}

func TestNeovimClient(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim not found: this test needs Neovim (apt-get install neovim; .ci/run installs it)")
	}
	readServerSources(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "mcp-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/mcp-lsp").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	root := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// A broken .mcp.json: a trailing comma (Claude Code and Copilot CLI
	// drop the whole file).
	const broken = "{\n  \"mcpServers\": {\n    \"filesystem\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\"]},\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	// OpenCode is in use in this project, without the server: "Add to
	// OpenCode" is offered on it. Neovim 0.7 does not announce
	// documentChanges, so the server sends it no file creations: the
	// files the sync actions write exist already (a project that synced
	// before, a Claude Code settings file); creating them is covered by
	// the code action goldens.
	for name, content := range map[string]string{
		"opencode.json":               "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n",
		".mcp-lsp/sync.json":          "{\n  \"version\": 1,\n  \"entries\": []\n}\n",
		".claude/settings.local.json": "{}\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reportPath := filepath.Join(tmp, "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "--noplugin", "-c", "luafile e2e.lua")
	cmd.Env = append(os.Environ(), "MCP_LSP_BIN="+bin, "MCP_LSP_ROOT="+root, "MCP_LSP_REPORT="+reportPath, "HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("bad report: %v\n%s", err, data)
	}
	if r.Error != "" {
		t.Fatalf("the Lua script failed: %s\n%s", r.Error, data)
	}
	s := r.Steps
	if !s.DiagnosticsArrived {
		t.Fatalf("no diagnostics reached Neovim: %s", data)
	}
	found := false
	for _, d := range s.Diagnostics {
		if d.Code == "trailing-comma-in-strict-json" && d.Lnum == 2 && d.Col == 95 && d.EndCol == 96 && d.Severity == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("want the trailing comma at 2:95-96 as an error; got %+v", s.Diagnostics)
	}
	hover, _ := s.Hover.(string)
	if !strings.Contains(hover, "**filesystem**") || !strings.Contains(hover, "Claude Code") {
		t.Errorf("hover does not show the effective server: %q", hover)
	}
	if s.Applied == "" {
		t.Errorf("no quick fix was applied; actions offered: %q", s.Actions)
	}
	if !s.CleanAfterFix {
		t.Errorf("errors remain after the fix; text:\n%s", s.FinalText)
	}
	var v any
	if err := json.Unmarshal([]byte(s.FinalText), &v); err != nil {
		t.Errorf("the fixed file is not valid JSON: %v\n%s", err, s.FinalText)
	}
	// Above the server, once the file is fixed: what each tool does with
	// it. Nobody approved it for Claude Code, and Copilot CLI reads the
	// file only in a trusted folder.
	if !s.CodeLensArrived {
		t.Fatalf("no code lens reached Neovim: %s", data)
	}
	var lenses []string
	for _, l := range s.CodeLens {
		if l.Line != 2 {
			t.Errorf("a code lens on line %d, want 2 (the server's name): %+v", l.Line, l)
		}
		lenses = append(lenses, l.Title)
	}
	if got, want := strings.Join(lenses, " | "), "Claude Code: pending approval | GitHub Copilot CLI: folder not trusted | OpenCode: not read here | VS Code: starts | Kilo Code: starts"; got != want {
		t.Errorf("code lenses %q, want %q", got, want)
	}

	// The sync actions, applied by Neovim: the server added to OpenCode's
	// file (and the sync recorded), then turned off for Claude Code in
	// .claude/settings.local.json.
	if added, _ := s.SyncAdded.(string); added != "Add to OpenCode (in opencode.json)" {
		t.Errorf("Add to OpenCode not applied (got %v); actions offered: %q", s.SyncAdded, s.SyncActions)
	}
	if applied, _ := s.SwitchApplied.(string); applied != "Disable in Claude Code (disabledMcpjsonServers in .claude/settings.local.json)" {
		t.Errorf("Disable in Claude Code not applied (got %v); actions offered: %q", s.SwitchApplied, s.SwitchActions)
	}
	var oc struct {
		MCP map[string]struct {
			Type    string   `json:"type"`
			Command []string `json:"command"`
		} `json:"mcp"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(root, "opencode.json")), &oc); err != nil {
		t.Errorf("opencode.json after Add to OpenCode: %v", err)
	} else if fs := oc.MCP["filesystem"]; fs.Type != "local" || strings.Join(fs.Command, " ") != "npx -y @modelcontextprotocol/server-filesystem" {
		t.Errorf("opencode.json after Add to OpenCode: %+v", oc)
	}
	if recs := string(readFile(t, filepath.Join(root, ".mcp-lsp", "sync.json"))); !strings.Contains(recs, `"server": "filesystem"`) || !strings.Contains(recs, `"target": "opencode.json"`) {
		t.Errorf("the sync is not recorded: %s", recs)
	}
	var local struct {
		Disabled []string `json:"disabledMcpjsonServers"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(root, ".claude", "settings.local.json")), &local); err != nil || strings.Join(local.Disabled, ",") != "filesystem" {
		t.Errorf(".claude/settings.local.json after Disable in Claude Code: %+v (%v)", local, err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
	}
	return b
}

// readServerSources reads every Go file of the module (and this script):
// go test caches a result against the files the test reads, and this test
// builds the server in a subprocess, which the cache does not see. Without
// this, a change to the server would leave a stale "(cached)" pass.
func readServerSources(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".lua") || strings.HasSuffix(p, ".json") && strings.Contains(p, "registry")) {
			_, err := os.ReadFile(p)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
