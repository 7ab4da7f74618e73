package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Settings is the user-facing form of Config, as written in the project
// file and in the editor's "mcpLsp" settings section:
//
//	{"tools": ["claude-code", "opencode"],
//	 "rules": {"duplicate-key": "off", "unknown-key": "error"},
//	 "commandLookup": false,
//	 "windows": false}
type Settings struct {
	Tools         []string          `json:"tools,omitempty"`
	Rules         map[string]string `json:"rules,omitempty"`
	CommandLookup *bool             `json:"commandLookup,omitempty"`
	// Windows false says the project is not used on Windows: the rules
	// about what fails there only (windows-cmd-wrapper) are off.
	Windows *bool `json:"windows,omitempty"`
	// Ignore silences findings in files where a comment cannot (strict
	// JSON): {"path": ".mcp.json", "server": "x", "code": "literal-secret",
	// "reason": "..."}. Read from the project file only; see Suppress.
	Ignore []IgnoreSetting `json:"ignore,omitempty"`

	// Source is the project file the settings come from ("" for the
	// editor's): ignore paths are relative to its directory.
	Source string `json:"-"`
}

// IgnoreSetting is one "ignore" entry as written.
type IgnoreSetting struct {
	Path   string `json:"path"`
	Server string `json:"server,omitempty"`
	Code   string `json:"code"`
	Reason string `json:"reason,omitempty"`
	// Span is where the entry is in the project file.
	Span  span.Span `json:"-"`
	index int       // in the list as written
}

// ParseSettings reads a project config file (JSON with comments). A broken
// file yields the settings that could be read and a problem per error, so
// one typo does not silently discard the rest.
func ParseSettings(content []byte) (Settings, []string) {
	f := jsonc.Parse(content)
	var problems []string
	for _, e := range f.Errors {
		problems = append(problems, e.Message)
	}
	var s Settings
	if f.Root == nil || f.Root.Kind != jsonc.Object {
		if f.Root != nil {
			problems = append(problems, "the top level must be an object")
		}
		return s, problems
	}
	raw, _ := verdict.Decode(f.Root).(map[string]any)
	s, problems = SettingsFromValue(raw, problems)
	// Where each ignore entry is, for the finding that reports it unused.
	if m := f.Root.Get("ignore"); m != nil && m.Value != nil && m.Value.Kind == jsonc.Array {
		for i := range s.Ignore {
			if j := s.Ignore[i].index; j < len(m.Value.Elements()) {
				s.Ignore[i].Span = m.Value.Elements()[j].Span
			}
		}
	}
	return s, problems
}

// SettingsFromValue reads settings from a decoded JSON object (what
// workspace/configuration returns). Unknown keys and wrong types are
// reported, not fatal. A nil value means the defaults.
func SettingsFromValue(raw map[string]any, problems []string) (Settings, []string) {
	var s Settings
	for key, v := range raw {
		switch key {
		case "tools":
			list, ok := v.([]any)
			if !ok {
				problems = append(problems, `"tools" must be an array of tool ids`)
				continue
			}
			for _, item := range list {
				if str, ok := item.(string); ok {
					s.Tools = append(s.Tools, str)
				}
			}
		case "rules":
			m, ok := v.(map[string]any)
			if !ok {
				problems = append(problems, `"rules" must be an object of rule code to severity`)
				continue
			}
			s.Rules = map[string]string{}
			for code, sev := range m {
				if str, ok := sev.(string); ok {
					s.Rules[code] = str
				} else {
					problems = append(problems, fmt.Sprintf("rules.%s: the severity must be a string", code))
				}
			}
		case "commandLookup":
			b, ok := v.(bool)
			if !ok {
				problems = append(problems, `"commandLookup" must be true or false`)
				continue
			}
			s.CommandLookup = &b
		case "windows":
			b, ok := v.(bool)
			if !ok {
				problems = append(problems, `"windows" must be true or false`)
				continue
			}
			s.Windows = &b
		case "ignore":
			list, ok := v.([]any)
			if !ok {
				problems = append(problems, `"ignore" must be an array of {"path", "code", "server", "reason"} objects`)
				continue
			}
			for i, item := range list {
				ig, p := ignoreSetting(item)
				if p != "" {
					problems = append(problems, fmt.Sprintf("ignore[%d]: %s", i, p))
					continue
				}
				ig.index = i
				s.Ignore = append(s.Ignore, ig)
			}
		case "server", "trace":
			// Client-side settings (the VS Code extension's), not ours.
		default:
			problems = append(problems, fmt.Sprintf("unknown setting %q", key))
		}
	}
	slices.Sort(problems)
	return s, problems
}

// ignoreSetting reads one "ignore" entry, or says what is wrong with it.
func ignoreSetting(v any) (IgnoreSetting, string) {
	var ig IgnoreSetting
	m, ok := v.(map[string]any)
	if !ok {
		return ig, "must be an object"
	}
	for key, val := range m {
		str, ok := val.(string)
		if !ok {
			return ig, fmt.Sprintf("%q must be a string", key)
		}
		switch key {
		case "path":
			ig.Path = str
		case "server":
			ig.Server = str
		case "code":
			ig.Code = str
		case "reason":
			ig.Reason = str
		default:
			return ig, fmt.Sprintf("unknown key %q (path, server, code, reason)", key)
		}
	}
	if ig.Path == "" || ig.Code == "" {
		return ig, `needs "path" and "code"`
	}
	return ig, ""
}

// Apply layers s over base: a listed tool set replaces the base one, rule
// severities are overridden code by code. Unknown tool ids and rule codes
// are reported (with the valid values) and ignored.
func (s Settings) Apply(base rules.Config, reg *registry.Registry) (rules.Config, []string) {
	var problems []string
	c := rules.Config{Tools: base.Tools, Severity: map[string]rules.Severity{}, CommandLookup: base.CommandLookup, NotOnWindows: base.NotOnWindows, OnWindows: base.OnWindows}
	for code, sev := range base.Severity {
		c.Severity[code] = sev
	}
	if s.Tools != nil {
		c.Tools = nil
		for _, id := range s.Tools {
			if _, ok := reg.Tool(registry.ToolID(id)); !ok {
				problems = append(problems, fmt.Sprintf("unknown tool %q (known: %s)", id, knownTools(reg)))
				continue
			}
			c.Tools = append(c.Tools, registry.ToolID(id))
		}
	}
	for code, name := range s.Rules {
		if _, ok := rules.RuleByCode(code); !ok {
			problems = append(problems, fmt.Sprintf("unknown rule %q (see docs/rules.md)", code))
			continue
		}
		sev, ok := rules.ParseSeverity(name)
		if !ok {
			problems = append(problems, fmt.Sprintf("rule %q: unknown severity %q (error, warning, info, hint or off)", code, name))
			continue
		}
		c.Severity[code] = sev
	}
	if s.CommandLookup != nil {
		c.CommandLookup = *s.CommandLookup
	}
	if s.Windows != nil {
		c.NotOnWindows = !*s.Windows
	}
	c.Ignores = slices.Clone(base.Ignores)
	if len(s.Ignore) > 0 && s.Source == "" {
		problems = append(problems, fmt.Sprintf(`"ignore" is read from the project file %s only`, rules.ProjectConfigName))
	}
	for _, ig := range s.Ignore {
		if s.Source == "" {
			break
		}
		p := filepath.FromSlash(ig.Path)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(s.Source), p)
		}
		c.Ignores = append(c.Ignores, rules.Ignore{Path: filepath.Clean(p), Server: ig.Server, Code: ig.Code, Reason: ig.Reason, Source: s.Source, Span: ig.Span})
	}
	slices.Sort(problems)
	return c, problems
}

func knownTools(reg *registry.Registry) string {
	var ids []string
	for _, t := range reg.Tools() {
		ids = append(ids, string(t.ID))
	}
	return strings.Join(ids, ", ")
}
