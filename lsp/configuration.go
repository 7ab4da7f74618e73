package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// configSection is the settings section mcp-lsp asks the client for
// ("mcpLsp.tools", "mcpLsp.rules", "mcpLsp.commandLookup" in VS Code).
const configSection = "mcpLsp"

// fetchConfiguration asks the client for the mcpLsp section and re-runs
// diagnostics with it. It runs in its own goroutine: a handler must not
// wait on the client, since the connection serialises handlers.
func (s *Server) fetchConfiguration(ctx context.Context) {
	s.mu.Lock()
	supported := s.clientCap.Workspace != nil && s.clientCap.Workspace.Configuration
	s.mu.Unlock()
	if !supported {
		return
	}
	s.settingsMu.Lock()
	s.settingsSeq++
	asked := s.settingsSeq
	s.settingsMu.Unlock()
	var result []json.RawMessage
	params := protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: configSection}}}
	if err := s.callClient(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		// No answer in time, or a refusal: keep the settings we have.
		s.logger.Warn("workspace/configuration failed; keeping the current settings", "error", err)
		return
	}
	if len(result) == 0 {
		return
	}
	s.settingsMu.Lock()
	defer s.settingsMu.Unlock()
	if s.settingsTaken > asked {
		// Newer settings are in force: pushed after this was asked
		// (the answer was written before the push, so older than it, or
		// after, so the same settings), or the answer to a later
		// question. Answers are routed as they arrive, ahead of the
		// notifications queued for the handlers, so this is not rare:
		// the question at startup racing a change is the case.
		s.logger.Debug("dropping a workspace/configuration answer asked for before the settings in force")
		return
	}
	s.settingsTaken = asked
	s.setSettings(result[0])
}

// setSettings stores the client's settings (null means the defaults) and
// re-runs diagnostics. Its callers hold settingsMu.
func (s *Server) setSettings(raw json.RawMessage) {
	var value map[string]any
	if err := json.Unmarshal(raw, &value); err != nil {
		s.logger.Warn("ignoring malformed mcpLsp settings", "error", err)
		return
	}
	features, problems := takeEditorSettings(value)
	mode, modeProblems := takeVSCodeSchemaMode(value)
	features.vscodeSchema = mode
	problems = append(problems, modeProblems...)
	settings, problems := analysis.SettingsFromValue(value, problems)
	for _, p := range problems {
		s.logger.Warn("mcpLsp setting", "problem", p)
	}
	// The user may have installed a program since the last lookups: look
	// again (forgotten first, so no run with the old settings refills the
	// cache with answers the new ones would see). Except for the first
	// answer, at startup, when it says what the server already assumed:
	// the lookups are moments old, and forgetting them would analyse every
	// file a second time (seconds for a 20,000-server file).
	s.mu.Lock()
	first := !s.settingsReceived
	s.settingsReceived = true
	same := reflect.DeepEqual(s.settings, settings) && s.editor == features
	s.mu.Unlock()
	if !first || !same {
		s.session.ForgetLookups()
	}
	s.mu.Lock()
	s.settings = settings
	changed := s.editor != features
	s.editor = features
	s.mu.Unlock()
	s.logger.Debug("mcpLsp settings taken")
	s.diags.trigger()
	if changed {
		s.refreshEditorViews(context.Background())
	}
}

// editorSettings are the settings of editor features that analysis never
// sees (so they are not in analysis.Settings, nor in .mcp-lsp.json): both
// on by default.
type editorSettings struct {
	codeLens   bool // mcpLsp.codeLens
	inlayHints bool // mcpLsp.inlayHints
	// vscodeSchema is mcpLsp.vscodeSchemaDiagnostics (see vscodeschema.go).
	vscodeSchema vscodeSchemaMode
}

var defaultEditorSettings = editorSettings{codeLens: true, inlayHints: true, vscodeSchema: vscodeSchemaAuto}

// takeEditorSettings removes the editor feature settings from the
// mcpLsp section and returns them (null or absent means the default).
func takeEditorSettings(value map[string]any) (editorSettings, []string) {
	out := defaultEditorSettings
	var problems []string
	for key, dst := range map[string]*bool{"codeLens": &out.codeLens, "inlayHints": &out.inlayHints} {
		v, ok := value[key]
		if !ok {
			continue
		}
		delete(value, key)
		switch b := v.(type) {
		case bool:
			*dst = b
		case nil:
		default:
			problems = append(problems, fmt.Sprintf("%q must be true or false", key))
		}
	}
	return out, problems
}

func (s *Server) editorSettings() editorSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.editor
}

// DidChangeConfiguration takes pushed settings when the client sends them
// (section mcpLsp inside), and otherwise pulls them again.
func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	if m, ok := params.Settings.(map[string]any); ok {
		if section, ok := m[configSection]; ok {
			raw, err := json.Marshal(section)
			if err == nil {
				s.settingsMu.Lock()
				defer s.settingsMu.Unlock()
				s.settingsSeq++
				s.settingsTaken = s.settingsSeq
				s.setSettings(raw)
				return nil
			}
		}
	}
	go s.fetchConfiguration(ctx)
	return nil
}

// diagnoseOptions is the analysis input besides the snapshot: the
// registry, the user's environment and the current settings. The server
// looks commands up by default; the settings can turn that off.
func (s *Server) diagnoseOptions() cache.DiagnoseOptions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cache.DiagnoseOptions{
		Registry: s.opts.Registry,
		Env:      s.opts.Env,
		Base:     rules.Config{CommandLookup: !s.opts.NoCommandLookup},
		Settings: s.settings,
		Folders:  slices.Clone(s.folders), // discovery updates git roots in place
	}
}
