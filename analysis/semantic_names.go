package analysis

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Server names a tool will not load: Claude Code reserves "workspace"
// ("skips it at load time and shows a warning", code.claude.com/docs/en/mcp);
// Copilot CLI rejects control characters and "}" (cli-command-reference,
// "MCP server configuration"). The rules come from the registry
// (tools[].serverNames), so a new tool's rules need no code.

// nameRules reports a server name some reader rejects.
func (c *semantic) nameRules(e *semEntry) {
	name := e.s.Name
	var reserved, forbidden semVerdicts
	var chars []string
	for _, r := range e.readers {
		t := c.tool(r)
		if t == nil {
			continue
		}
		o := outAccepted
		if slices.Contains(t.ServerNames.Reserved, name) {
			o = outSkipped
		}
		reserved = append(reserved, semVerdict{r, o})
		o = outAccepted
		if re := semNameRegexp(t.ServerNames.Forbidden); re != nil && re.MatchString(name) {
			// MatchString first: it allocates nothing, and names are
			// nearly always fine.
			if found := re.FindAllString(name, -1); len(found) > 0 {
				o = semRejects(r)
				for _, ch := range found {
					if q := strconv.Quote(ch); !slices.Contains(chars, q) {
						chars = append(chars, q)
					}
				}
			}
		}
		forbidden = append(forbidden, semVerdict{r, o})
	}
	if sev, ok := reserved.severity(); ok {
		c.add(Diagnostic{
			Span:     e.s.Key().Span,
			Severity: sev,
			Code:     CodeReservedServerName,
			Message:  semMessage(c.blame(name, reserved, ""), "the name is reserved", c.acceptors(reserved), "rename it"),
			Data:     semData(name, reserved.readers(outSkipped)),
		})
	}
	if sev, ok := forbidden.severity(); ok {
		c.add(Diagnostic{
			Span:     e.s.Key().Span,
			Severity: sev,
			Code:     CodeInvalidServerName,
			Message:  semMessage(c.blame(name, forbidden, ""), fmt.Sprintf("the name contains %s", strings.Join(chars, ", ")), c.acceptors(forbidden), "rename it"),
			Data:     semData(name, forbidden.readers(outSkipped, outRefused)),
		})
	}
}

// semNameRegexps caches the compiled serverNames.forbidden patterns (the
// registry validates that they compile).
var semNameRegexps sync.Map // pattern -> *regexp.Regexp

func semNameRegexp(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	if re, ok := semNameRegexps.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	semNameRegexps.Store(pattern, re)
	return re
}
