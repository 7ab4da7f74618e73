package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// command-not-found: the program of a local server is neither on PATH nor
// a file in the workspace. The tools accept such an entry and fail only
// when they start the server, often with nothing but a "failed" status,
// so the finding is a warning. The lookup goes through the injected
// Resolver (no I/O here, nothing is ever run); without one the rule is off.

// semProgram returns the program a local server starts: "command" as a
// string, or the first element of OpenCode's command array.
func semProgram(s *Server) string {
	n := semProgramNode(s)
	if n == nil {
		return ""
	}
	return n.Str
}

func semProgramNode(s *Server) *jsonc.Node {
	m := s.Field("command")
	switch {
	case m == nil:
		return nil
	case m.Value.Kind == jsonc.String:
		return m.Value
	case m.Value.Kind == jsonc.Array && len(m.Value.Elements()) > 0 && m.Value.Elements()[0].Kind == jsonc.String:
		return m.Value.Elements()[0]
	}
	return nil
}

// commandLookup runs command-not-found on server s, which starters read
// as a local (stdio) server; hasCwd: its definition sets "cwd".
func (c *semantic) commandLookup(s *Server, starters []*registry.Reader, hasCwd bool) {
	if c.in.Resolver == nil || len(starters) == 0 {
		return
	}
	n := semProgramNode(s)
	if n == nil {
		return
	}
	prog := n.Str
	if strings.TrimSpace(prog) == "" || strings.ContainsAny(prog, "${%") || strings.HasPrefix(prog, "~") {
		return // empty-command's case, or a value only the environment decides
	}
	isPath := strings.ContainsAny(prog, `/\`)
	abs := filepath.IsAbs(prog) || semWindowsAbs(prog) || strings.HasPrefix(prog, `\\`)
	dir := c.workspaceDir()
	if isPath && !abs && (dir == "" || hasCwd) {
		return // relative to a directory we do not know
	}
	if c.in.Resolver.LookPath(prog, dir) {
		return
	}
	shown := semQuoteCommand(prog)
	data := semData(s.Name, starters)
	if shown != "the command" {
		data["command"] = prog
	}
	var reason string
	switch {
	case !isPath:
		reason = shown + " is not on PATH (as mcp-lsp sees it)"
	case abs:
		reason = shown + " does not exist"
	default:
		reason = shown + " does not exist in the workspace"
	}
	c.add(Diagnostic{
		Span:     n.Span,
		Severity: SeverityWarning,
		Code:     CodeCommandNotFound,
		Message: semMessage(fmt.Sprintf("%s cannot start server %s", readerNames(c.in, starters), semQuote(s.Name)),
			reason, "", ""),
		Data: data,
	})
}

// semQuoteCommand quotes a command for a message, or says "the command"
// when it holds a credential (a whole command line pasted into "command"
// can carry a --token).
func semQuoteCommand(s string) string {
	if _, ok := semDetectSecret("args", "", s); ok || semHasSecret(s) {
		return "the command"
	}
	return semQuote(s)
}

// workspaceDir is the directory the tools start a project's servers in:
// the project root, which holds the file or the tool directory (.vscode,
// .opencode, .github, .cursor) that holds it. "" for user-level and other
// files, whose servers start wherever the tool was launched.
func (c *semantic) workspaceDir() string {
	if c.in.Kind == nil || c.in.Kind.Scope != registry.ScopeProject || c.in.Path == "" {
		return ""
	}
	dir := filepath.Dir(c.in.Path)
	switch filepath.Base(dir) {
	case ".vscode", ".opencode", ".github", ".cursor", ".claude", ".copilot":
		dir = filepath.Dir(dir)
	}
	return dir
}
