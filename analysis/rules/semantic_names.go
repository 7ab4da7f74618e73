package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
)

// Server names a tool will not load: Claude Code reserves "workspace"
// ("skips it at load time and shows a warning", code.claude.com/docs/en/mcp);
// Copilot CLI rejects control characters and "}" (cli-command-reference,
// "MCP server configuration"). The rules come from the registry
// (tools[].serverNames), so a new tool's rules need no code.

// reservedName reports a server name a reader reserves.
func (c *semantic) reservedName(e *semEntry) { c.nameRule(e, CodeReservedServerName) }

// invalidName reports a server name with characters a reader rejects.
func (c *semantic) invalidName(e *semEntry) { c.nameRule(e, CodeInvalidServerName) }

// nameRule reports a server name some reader rejects for the reason code,
// as the readers' verdicts say (verdict.NameReasons).
func (c *semantic) nameRule(e *semEntry, code string) {
	name := e.s.Name
	if e.names == nil {
		e.names = c.nameVerdicts(e)
	}
	reserved, forbidden, chars := e.names.reserved, e.names.forbidden, e.names.chars
	if sev, ok := reserved.severity(); ok && code == CodeReservedServerName {
		c.add(Diagnostic{
			Span:     e.s.Key().Span,
			Severity: sev,
			Code:     CodeReservedServerName,
			Message:  semMessage(c.blame(name, reserved, ""), "the name is reserved", c.acceptors(reserved), "rename it"),
			Data:     semData(name, reserved.readers(outSkipped)),
		})
	}
	if sev, ok := forbidden.severity(); ok && code == CodeInvalidServerName {
		c.add(Diagnostic{
			Span:     e.s.Key().Span,
			Severity: sev,
			Code:     CodeInvalidServerName,
			Message:  semMessage(c.blame(name, forbidden, ""), fmt.Sprintf("the name contains %s", strings.Join(chars, ", ")), c.acceptors(forbidden), "rename it"),
			Data:     semData(name, forbidden.readers(outSkipped, outRefused, outMayNotLoad)),
		})
	}
}

// semNames is what the readers of an entry make of its name: both name
// rules read it, so it is asked once.
type semNames struct {
	reserved, forbidden semVerdicts
	chars               []string // the forbidden characters, quoted
	// store holds reserved and forbidden for up to four readers, with
	// the entry (semEntry.namesStore).
	store [8]semVerdict
}

// nameVerdicts asks every reader of e what it makes of e's name.
func (c *semantic) nameVerdicts(e *semEntry) *semNames {
	name := e.s.Name
	out := &e.namesStore
	*out = semNames{}
	both := semVerdicts(out.store[:0]) // the two lists, in one allocation when they do not fit
	if 2*len(e.readers) > len(out.store) {
		both = make(semVerdicts, 0, 2*len(e.readers))
	}
	out.reserved, out.forbidden = both[:0:len(e.readers)], both[len(e.readers):len(e.readers)]
	for _, r := range e.readers {
		t := c.tool(r)
		if t == nil {
			continue
		}
		ro, fo := outAccepted, outAccepted
		for _, why := range verdict.NameReasons(c.in.Registry, r, name) {
			switch why.Code {
			case verdict.CodeReservedServerName:
				ro = semOutcomeOf(why.Outcome)
			case verdict.CodeInvalidServerName:
				fo = semOutcomeOf(why.Outcome)
				for _, ch := range verdict.NameRegexp(t.ServerNames.Forbidden).FindAllString(name, -1) {
					if q := strconv.Quote(ch); !slices.Contains(out.chars, q) {
						out.chars = append(out.chars, q)
					}
				}
			}
		}
		out.reserved = append(out.reserved, semVerdict{r, ro})
		out.forbidden = append(out.forbidden, semVerdict{r, fo})
	}
	return out
}
