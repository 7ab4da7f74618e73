package rules

import (
	"slices"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// Rule is one rule: its stable code, its default severity, a one-line
// summary (docs/rules.md and SARIF's rule list are generated from it) and
// the check that reports it. docs/rules.md documents every code listed
// here (a test keeps the two in step), and every diagnostic's code is one
// of them.
type Rule struct {
	Code     string
	Severity Severity
	Summary  string
	// Check is what finds the rule's problems (check.go). Rules that one
	// pass finds together share it.
	Check *Check
}

// Rules lists every rule in documentation order; AnalyzeFile runs their
// checks in this order. Severities follow one principle: error when at
// least one tool that reads the file drops the whole file or skips the
// entry; warning when every reader accepts it but something is silently
// ignored or almost certainly not meant; information and hint for notes.
var Rules = slices.Concat(syntaxRules, sizeRules, semanticRules, projectRules, schemaRules, crossFileRules, suppressRules)

// RuleByCode returns the rule with the given code.
func RuleByCode(code string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.Code == code })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// ProjectConfigName is the project file read by both the language server
// and `mcp-lsp check`, so a team shares one set of rule settings.
const ProjectConfigName = ".mcp-lsp.json"

// Config is what the user can change about analysis, from the editor's
// settings (workspace/configuration section "mcpLsp") or the project file.
// The zero value means the defaults.
type Config struct {
	// Tools restricts analysis to the tools the user actually runs: a
	// reader of a file whose tool is not listed is ignored. Empty: all.
	Tools []registry.ToolID
	// Severity overrides a rule's default severity; SeverityOff disables
	// the rule.
	Severity map[string]Severity
	// CommandLookup enables the check that a server's command exists (on
	// PATH or relative to the workspace). It is looked up, never run.
	CommandLookup bool
	// Ignores are the "ignore" entries of the project file (see
	// Suppress).
	Ignores []Ignore
	// NotOnWindows: the project says it is not used on Windows (setting
	// "windows": false), so windows-cmd-wrapper has nothing to say.
	NotOnWindows bool
	// OnWindows: this machine runs Windows, so the user's own files are
	// read by tools on Windows too (set from the environment, not a
	// setting).
	OnWindows bool
}

// SeverityOff, as a Config.Severity value, turns a rule off.
const SeverityOff Severity = -1

// applies reports whether the user runs tool.
func (c *Config) applies(tool registry.ToolID) bool {
	return len(c.Tools) == 0 || slices.Contains(c.Tools, tool)
}

// Filter applies the configuration to findings computed elsewhere (the
// cross-file findings of package effective): disabled rules are dropped
// and severities overridden. The input is not modified.
func (c *Config) Filter(ds []Diagnostic) []Diagnostic {
	return c.apply(slices.Clone(ds))
}

// apply drops disabled rules' findings and sets overridden severities.
func (c *Config) apply(ds []Diagnostic) []Diagnostic {
	if len(c.Severity) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if s, ok := c.Severity[d.Code]; ok {
			if s == SeverityOff {
				continue
			}
			d.Severity = s
		}
		out = append(out, d)
	}
	return out
}

// ParseSeverity reads a severity name as users write it in settings.
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "error":
		return SeverityError, true
	case "warning", "warn":
		return SeverityWarning, true
	case "info", "information":
		return SeverityInformation, true
	case "hint":
		return SeverityHint, true
	case "off", "none", "ignore":
		return SeverityOff, true
	}
	return 0, false
}
