package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
	"github.com/mcp-lsp/mcp-lsp/discovery"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// rawClientCaps are the client capabilities go.lsp.dev/protocol v0.12.0
// does not model (LSP 3.17 relative watch patterns, 3.16 code action
// resolve and workspace edit resource operations) or that we read before
// the typed decode.
type rawClientCaps struct {
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration    bool `json:"dynamicRegistration"`
			RelativePatternSupport bool `json:"relativePatternSupport"`
		} `json:"didChangeWatchedFiles"`
		WorkspaceEdit struct {
			DocumentChanges    bool     `json:"documentChanges"`
			ResourceOperations []string `json:"resourceOperations"`
		} `json:"workspaceEdit"`
		// LSP 3.16-3.17: the client re-requests these views when asked.
		CodeLens    refreshSupport `json:"codeLens"`
		InlayHint   refreshSupport `json:"inlayHint"`
		Diagnostics refreshSupport `json:"diagnostics"`
	} `json:"workspace"`
	General struct {
		// PositionEncodings (LSP 3.17) lists the encodings the client
		// takes, preferred first.
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	TextDocument struct {
		CodeAction struct {
			// CodeActionLiteralSupport is present when the client takes
			// CodeAction literals (not only commands).
			CodeActionLiteralSupport json.RawMessage `json:"codeActionLiteralSupport"`
			DisabledSupport          bool            `json:"disabledSupport"`
			DataSupport              bool            `json:"dataSupport"`
			ResolveSupport           struct {
				Properties []string `json:"properties"`
			} `json:"resolveSupport"`
		} `json:"codeAction"`
		// Diagnostic is present when the client pulls diagnostics (LSP
		// 3.17 textDocument/diagnostic).
		Diagnostic json.RawMessage `json:"diagnostic"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
}

// captureRawCapabilities records what extraHandler saw in initialize.
func (s *Server) captureRawCapabilities(params json.RawMessage) {
	var p struct {
		Capabilities rawClientCaps `json:"capabilities"`
	}
	if err := json.Unmarshal(params, &p); err == nil {
		s.mu.Lock()
		s.rawCaps = p.Capabilities
		s.mu.Unlock()
	}
}

// discoverFS is the file system discovery walks: the real one, rooted at
// "/" as discovery.Options documents.
func (s *Server) discoverFS() fs.FS {
	if s.opts.DiscoveryFS != nil {
		return s.opts.DiscoveryFS
	}
	return os.DirFS("/")
}

// discover finds every config file that affects the workspace (user-level
// files, the folders' ancestors, the trees inside them), in the
// background after initialized, and keeps their diagnostics published so
// cross-file problems show before any file is opened. It reports
// work-done progress when the client supports it.
func (s *Server) discover(ctx context.Context) {
	s.mu.Lock()
	folders := append([]cache.Folder(nil), s.folders...)
	progress := s.rawCaps.Window.WorkDoneProgress
	s.mu.Unlock()
	if len(folders) == 0 {
		return
	}
	done := s.beginProgress(ctx, progress, "mcp-lsp", "Looking for MCP configuration files")
	paths := make([]string, len(folders))
	for i, f := range folders {
		paths[i] = f.Path
	}
	start := time.Now()
	res := discovery.Discover(ctx, discovery.Options{
		FS:       s.discoverFS(),
		Env:      s.opts.Env,
		Registry: s.opts.Registry,
		Folders:  paths,
	})
	for _, t := range res.Truncated {
		s.logger.Warn("discovery stopped early", "why", t)
	}
	for _, err := range res.Errors {
		s.logger.Debug("discovery", "error", err)
	}
	s.mu.Lock()
	updated := slices.Clone(s.folders)
	for i := range updated {
		if root, ok := res.GitRoots[updated[i].Path]; ok {
			updated[i].GitRoot = root
		}
	}
	s.folders = updated
	s.mu.Unlock()
	for _, f := range res.Files {
		s.diags.track(f.Path)
	}
	s.session.ForgetDisk()
	s.diags.trigger()
	s.logger.Info("discovery done", "files", len(res.Files), "duration", time.Since(start))
	done(fmt.Sprintf("%d MCP configuration files", len(res.Files)))
	s.refreshEditorViews(ctx)
	s.registerWatchers(ctx)
}

// beginProgress starts a work-done progress report, if supported, and
// returns the function that ends it. The work never waits for the client:
// the token is created in the background, the report begins once the
// client has accepted it and ends after that; a client that answers late
// or never (some never answer window/workDoneProgress/create) just gets
// no report.
func (s *Server) beginProgress(ctx context.Context, supported bool, title, message string) func(string) {
	if !supported {
		return func(string) {}
	}
	token := fmt.Sprintf("mcp-lsp/discovery/%d", time.Now().UnixNano())
	ctx = context.WithoutCancel(ctx)
	created := make(chan bool, 1)
	go func() {
		if err := s.callClient(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
			s.logger.Warn("no work-done progress", "error", err)
			created <- false
			return
		}
		s.notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "begin", "title": title, "message": message}})
		created <- true
	}()
	return func(msg string) {
		go func() {
			if <-created {
				s.notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "end", "message": msg}})
			}
		}()
	}
}

// registerWatchers asks the client to report changes to every file kind
// of the registry inside the workspace, and (where the client supports
// LSP 3.17 relative patterns) to the user-level files and settings outside
// it. go.lsp.dev/protocol types a glob as a string and registration
// options as interface{}, so the watchers are plain maps here.
func (s *Server) registerWatchers(ctx context.Context) {
	s.mu.Lock()
	caps := s.rawCaps.Workspace.DidChangeWatchedFiles
	s.mu.Unlock()
	if !caps.DynamicRegistration {
		return
	}
	var watchers []map[string]any
	for _, g := range s.opts.Registry.SelectorGlobs() {
		watchers = append(watchers, map[string]any{"globPattern": g})
	}
	watchers = append(watchers,
		map[string]any{"globPattern": "**/.claude/settings*.json"},
		map[string]any{"globPattern": "**/" + "." + "mcp-lsp.json"},
		// The sync records: a sync run in a terminal changes which
		// entries are drift (sync-drift).
		map[string]any{"globPattern": "**/" + mcpsync.RecordsFile},
	)
	if caps.RelativePatternSupport && s.opts.Env.Home != "" {
		base := string(pathToURI(s.opts.Env.Home))
		for _, p := range []string{".claude.json", ".claude/settings.json", ".copilot/*.json", ".config/opencode/*.json*", ".cursor/mcp.json"} {
			watchers = append(watchers, map[string]any{"globPattern": map[string]any{"baseUri": base, "pattern": p}})
		}
	}
	params := map[string]any{"registrations": []any{map[string]any{
		"id":              "mcp-lsp-watch",
		"method":          "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": watchers},
	}}}
	if err := s.callClient(ctx, "client/registerCapability", params, nil); err != nil {
		s.logger.Debug("file watch registration failed", "error", err)
	}
}
