// Package neovim tests mcp-lsp with a real editor client: Neovim's own LSP
// client, run headless. It needs `nvim` (Debian's 0.7.2 in CI); without it
// the test is skipped, unless MCP_LSP_REQUIRE_NVIM=1 (set by .ci/run) makes
// that a failure.
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
		if os.Getenv("MCP_LSP_REQUIRE_NVIM") == "1" {
			t.Fatal("nvim not found, and MCP_LSP_REQUIRE_NVIM=1")
		}
		t.Skip("nvim not installed")
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
	if got, want := strings.Join(lenses, " | "), "Claude Code: pending approval | GitHub Copilot CLI: folder not trusted"; got != want {
		t.Errorf("code lenses %q, want %q", got, want)
	}
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
