package cache

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// TestConcurrentDiagnoseAnalysesOnce: the diagnostics worker and a code
// action request Diagnose the same file of the same snapshot at once
// (VS Code asks for code actions right after each change). They share one
// analysis of the file and one workspace analysis, not one each.
func TestConcurrentDiagnoseAnalysesOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	var servers []string
	for i := range 300 {
		servers = append(servers, fmt.Sprintf(`"s%d": {"command": "npx", "args": ["-y", "pkg%d"], "env": {"TOKEN": "${TOKEN_%d}"}}`, i, i, i))
	}
	write(t, path, `{"mcpServers": {`+strings.Join(servers, ", ")+`}}`)
	opts := DiagnoseOptions{Registry: registry.Default(), Env: registry.Env{Home: t.TempDir(), GOOS: "linux"}, Base: rules.Config{CommandLookup: true}, Folders: []Folder{{Path: dir}}}
	s := NewSession(nil, nil)
	snap := s.Snapshot()

	const n = 8
	var (
		start      = make(chan struct{})
		wg         sync.WaitGroup
		found      [n][]rules.Diagnostic
		workspaces [n]*WorkspaceAnalysis
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if i%2 == 0 {
				workspaces[i] = snap.Workspace(opts)
			}
			_, found[i], _ = snap.Diagnose(path, opts)
			if i%2 == 1 {
				workspaces[i] = snap.Workspace(opts)
			}
		}()
	}
	close(start)
	wg.Wait()

	if got := s.analysesMade(); got != 1 {
		t.Errorf("%d concurrent Diagnose calls on one snapshot made %d analyses of the file, want 1", n, got)
	}
	for i := range n {
		if workspaces[i] != workspaces[0] {
			t.Errorf("caller %d got its own workspace analysis: it was computed more than once", i)
		}
		if len(found[i]) == 0 || len(found[i]) != len(found[0]) {
			t.Errorf("caller %d: %d findings, caller 0: %d", i, len(found[i]), len(found[0]))
		}
	}
}

// TestAnalysisWaiterComputesWhenTheFirstPanics: a caller waiting for an
// analysis in progress is not left hanging when that analysis panics: it
// computes the findings itself.
func TestAnalysisWaiterComputesWhenTheFirstPanics(t *testing.T) {
	s := NewSession(nil, nil)
	snap := s.Snapshot()
	key := analysisKey{config: "k"}
	started, release := make(chan struct{}), make(chan struct{})
	go func() {
		defer func() { recover() }()
		s.analyses.get(snap, "p", key, func(*existsLog) []rules.Diagnostic {
			close(started)
			<-release
			panic("analysis failed")
		})
	}()
	<-started
	result := make(chan []rules.Diagnostic)
	go func() {
		result <- s.analyses.get(snap, "p", key, func(*existsLog) []rules.Diagnostic { return []rules.Diagnostic{{}} })
	}()
	time.Sleep(10 * time.Millisecond) // let it start waiting
	close(release)
	select {
	case found := <-result:
		if len(found) != 1 {
			t.Errorf("the waiter got %d findings, want its own 1", len(found))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiter hangs after the analysis it waited for panicked")
	}
}
