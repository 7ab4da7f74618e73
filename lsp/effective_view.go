package lsp

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// The effective view is what `mcp-lsp effective --format json` prints and
// what the mcp-lsp/effective request returns (the VS Code command "MCP:
// Show effective configuration"): one shape for both, built here.

// EffectiveTool is one tool's effective configuration as `effective
// --format json` prints it. Env and header values are rules.Secret:
// they print as a mask, whatever the format.
type EffectiveTool struct {
	Tool string `json:"tool"`
	Name string `json:"name"`
	// ModelVersion is the release of the tool whose behaviour the
	// computation follows (registry profile version); "" when unknown.
	ModelVersion string            `json:"modelVersion,omitempty"`
	LaunchDir    string            `json:"launchDir"`
	Servers      []EffectiveServer `json:"servers"`
	Dropped      []DroppedFile     `json:"dropped,omitempty"`
	// Refused says why the tool refuses its whole configuration, where
	// any refused file stops it (Codex CLI); then no server starts.
	Refused []string `json:"refused,omitempty"`
}

// DroppedFile is a file the tool would read but ignores as a whole.
type DroppedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type EffectiveServer struct {
	Name      string                  `json:"name"`
	Started   bool                    `json:"started"`
	Gate      string                  `json:"gate,omitempty"`
	GateWhy   string                  `json:"gateWhy,omitempty"`
	Enabled   bool                    `json:"enabled"`
	Transport string                  `json:"transport,omitempty"`
	Command   []string                `json:"command,omitempty"`
	URL       string                  `json:"url,omitempty"`
	Env       map[string]rules.Secret `json:"env,omitempty"`
	Headers   map[string]rules.Secret `json:"headers,omitempty"`
	DependsOn []string                `json:"dependsOn,omitempty"`
	Ignored   []string                `json:"ignored,omitempty"` // keys the tool drops

	Source      *EffectivePlace           `json:"source,omitempty"`
	Definitions []EffectivePlace          `json:"definitions"`
	Fields      map[string]EffectivePlace `json:"fields,omitempty"`
}

type EffectivePlace struct {
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Layer string `json:"layer"`
	State string `json:"state,omitempty"` // used, shadowed, pending-approval...
}

// EffectiveView converts one tool's effective configuration for display.
// Env and header values become rules.Secret, which never prints its
// value.
func EffectiveView(snap *cache.Snapshot, r *effective.Result, opts cache.DiagnoseOptions) EffectiveTool {
	t := EffectiveTool{Tool: string(r.Tool.ID), Name: r.Tool.Name, LaunchDir: r.LaunchDir, Servers: []EffectiveServer{}}
	if r.Tool.Profile != nil {
		t.ModelVersion = r.Tool.Profile.Version
	}
	t.Refused = r.Refused
	for _, src := range r.Sources {
		// A file read by two layers (~/.claude.json: user and local
		// scope) is listed once.
		if d := (DroppedFile{Path: cache.DisplayPath(src.Path, opts), Reason: src.Dropped}); src.Dropped != "" && !slices.Contains(t.Dropped, d) {
			t.Dropped = append(t.Dropped, d)
		}
	}
	loc := newLocator(snap, nil) // one Mapper per file, not per definition
	place := func(d *effective.Definition, state string) EffectivePlace {
		line, _, _ := loc.mapper(d.Source.Path).LineColumn(r.Member(d).Key.Span.Start)
		return EffectivePlace{Path: cache.DisplayPath(d.Source.Path, opts), Line: line, Layer: d.Source.Layer.Label, State: state}
	}
	for _, s := range r.Servers {
		es := EffectiveServer{Name: s.Name, Started: s.Winner != nil && s.Enabled, Enabled: s.Enabled, DependsOn: s.Variables, Ignored: s.Ignored, Definitions: []EffectivePlace{}}
		for _, d := range s.Definitions {
			state := "shadowed"
			switch {
			case d == s.Winner:
				state = "used"
			case d.Gate.State != effective.GateOpen:
				state = string(d.Gate.State)
			case r.Tool.Merge.Value == registry.DeepMerge:
				state = "merged"
			}
			es.Definitions = append(es.Definitions, place(d, state))
		}
		fields := s.Fields
		if s.Winner == nil {
			// Not started: show what would be, from the best definition.
			es.Gate, es.GateWhy = string(s.Definitions[0].Gate.State), s.Definitions[0].Gate.Why
			fields = r.FieldsOf(s.Definitions[0])
		} else {
			src := place(s.Winner, "used")
			es.Source = &src
		}
		es.Fields = map[string]EffectivePlace{}
		for _, f := range fields {
			es.Fields[f.Key] = place(f.From, "")
			v := verdict.Decode(r.FieldMember(f).Value)
			switch f.Key {
			case "type":
				es.Transport, _ = v.(string)
			case "command":
				switch c := v.(type) {
				case string:
					es.Command = append([]string{c}, es.Command...)
				case []any:
					es.Command = append(stringItems(c), es.Command...)
				}
			case "args":
				if a, ok := v.([]any); ok {
					es.Command = append(es.Command, stringItems(a)...)
				}
			case "url":
				if es.URL == "" {
					es.URL, _ = v.(string)
				}
			case "httpUrl":
				// Gemini CLI: httpUrl beats url.
				if u, ok := v.(string); ok {
					es.URL = u
				}
			case "env", "environment":
				es.Env = secrets(v)
			case "headers", "http_headers":
				es.Headers = secrets(v)
			}
		}
		if es.Transport == "" {
			es.Transport = verdictTransport(s)
		}
		if es.Transport == "" {
			es.Transport = inferTransport(es)
		}
		t.Servers = append(t.Servers, es)
	}
	return t
}

// verdictTransport is the transport of a remote entry without "type",
// from the schema branch the tool reads it as (Gemini CLI: a url is
// Streamable HTTP, "type": "sse" aside); "" when the branch does not say.
func verdictTransport(s *effective.Server) string {
	d := s.Winner
	if d == nil && len(s.Definitions) > 0 {
		d = s.Definitions[0]
	}
	if d == nil || d.Verdict == nil {
		return ""
	}
	switch d.Verdict.Def {
	case "httpServer":
		return "http"
	case "sseServer":
		return "sse"
	}
	return ""
}

func inferTransport(es EffectiveServer) string {
	if es.URL != "" && len(es.Command) == 0 {
		return "http?"
	}
	return "stdio"
}

func stringItems(items []any) []string {
	var out []string
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func secrets(v any) map[string]rules.Secret {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]rules.Secret{}
	for k, val := range m {
		s, _ := val.(string)
		out[k] = rules.NewSecret(s)
	}
	return out
}
