package lsp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/complete"
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// VS Code validates .vscode/mcp.json and its user-level mcp.json with its
// own JSON schema (mcpServerSchema in microsoft/vscode
// src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts). In a client
// that is VS Code, mcp-lsp's findings of the same problems would show
// every schema error twice in the Problems panel (seen in real VS Code
// 1.139: `"command": 1` gave VS Code's "Incorrect type. Expected
// "string"." and mcp-lsp's invalid-field-value), and every completion
// item VS Code's schema offers twice. So there mcp-lsp leaves to VS Code
// what its schema reports, value by value (vscodeschema_check.go runs
// VS Code's schema the way VS Code does), and what it completes, and
// reports the rest: findings on values the schema accepts, cross-file,
// per-tool and semantic findings. This file is the one place that decides.

// vscodeSchemaSetting is the mcpLsp setting that overrides the decision.
const vscodeSchemaSetting = "vscodeSchemaDiagnostics"

// vscodeSchemaMode is the value of mcpLsp.vscodeSchemaDiagnostics.
type vscodeSchemaMode string

const (
	// vscodeSchemaAuto reports the schema findings unless the client is
	// one that validates the file itself (the default).
	vscodeSchemaAuto vscodeSchemaMode = "auto"
	// vscodeSchemaAlways reports them in every client (duplicates in VS Code).
	vscodeSchemaAlways vscodeSchemaMode = "always"
	// vscodeSchemaNever never reports them in VS Code's files.
	vscodeSchemaNever vscodeSchemaMode = "never"
)

// vscodeSchemaKinds are the registry's file kinds VS Code validates with
// its MCP schema.
var vscodeSchemaKinds = []string{"vscode-workspace", "vscode-user"}

// vscodeSchemaCodes are the codes of mcp-lsp's findings that VS Code's
// schema can report too: a key its additionalProperties: false rejects
// (unknown-key), a wrong type or value (invalid-field-value,
// unknown-server-type), a server that is not an object
// (server-not-object) and a required property missing (missing-field,
// and missing-url and missing-command, the same finding where a tool's
// rule says more: url in a remote server, an input's id). Such a finding
// is dropped only where VS Code's schema reports a problem on the same
// node, and for a missing property the same property
// (checkVSCodeSchema, a port of VS Code's validator): a value VS Code's
// schema accepts and VS Code does not ("env": "A=1", which the schema
// leaves untyped; "command" missing, which its stdio shape does not
// require) keeps mcp-lsp's finding. Cross-file, per-tool and semantic
// rules are never dropped.
var vscodeSchemaCodes = []string{
	rules.CodeInvalidFieldValue,
	rules.CodeUnknownKey,
	rules.CodeUnknownServerType,
	rules.CodeServerNotObject,
	rules.CodeMissingField,
	rules.CodeMissingURL,
	rules.CodeMissingCommand,
}

// vscodeMissingCodes are those of vscodeSchemaCodes about a missing
// property, named by the finding's data "field".
var vscodeMissingCodes = []string{rules.CodeMissingField, rules.CodeMissingURL, rules.CodeMissingCommand}

// clientValidatesMCPSchema reports whether the client named in initialize
// (clientInfo.name, which vscode-languageclient fills from VS Code's
// env.appName) is a build of VS Code that ships its MCP schema: VS Code
// ("Visual Studio Code", "Visual Studio Code - Insiders"), code-server
// (its product.json names it "code-server"; it runs VS Code's workbench,
// where the duplicates were seen) and VSCodium. Not Cursor nor other
// forks: they read their own MCP files and nothing shows they register
// VS Code's schema for mcp.json.
func clientValidatesMCPSchema(name string) bool {
	for _, n := range []string{"Visual Studio Code", "code-server", "VSCodium"} {
		if strings.Contains(name, n) {
			return true
		}
	}
	return false
}

// takeVSCodeSchemaMode removes mcpLsp.vscodeSchemaDiagnostics from the
// settings and returns it (absent or null means auto).
func takeVSCodeSchemaMode(value map[string]any) (vscodeSchemaMode, []string) {
	v, ok := value[vscodeSchemaSetting]
	if !ok {
		return vscodeSchemaAuto, nil
	}
	delete(value, vscodeSchemaSetting)
	switch m := vscodeSchemaMode(fmt.Sprint(v)); {
	case v == nil:
		return vscodeSchemaAuto, nil
	case m == vscodeSchemaAuto || m == vscodeSchemaAlways || m == vscodeSchemaNever:
		if _, isString := v.(string); isString {
			return m, nil
		}
	}
	return vscodeSchemaAuto, []string{fmt.Sprintf("%q must be \"auto\", \"always\" or \"never\"", vscodeSchemaSetting)}
}

// leavesSchemaToClient reports whether the schema findings of a file of
// kind are left to the client.
func (s *Server) leavesSchemaToClient(kind *registry.FileKind) bool {
	if kind == nil || !slices.Contains(vscodeSchemaKinds, kind.ID) {
		return false
	}
	s.mu.Lock()
	mode, client := s.editor.vscodeSchema, s.clientName
	s.mu.Unlock()
	switch mode {
	case vscodeSchemaAlways:
		return false
	case vscodeSchemaNever:
		return true
	}
	return clientValidatesMCPSchema(client)
}

// withoutSchemaFindings drops the findings of f that VS Code's schema
// reports itself, on the same node (and for a missing property, the same
// property).
func withoutSchemaFindings(f *jsonc.File, found []rules.Diagnostic) []rules.Diagnostic {
	if !slices.ContainsFunc(found, func(d rules.Diagnostic) bool { return slices.Contains(vscodeSchemaCodes, d.Code) }) {
		return found
	}
	type place struct {
		sp      span.Span
		missing string // the property missing; "" for other problems
	}
	reported := map[place]bool{}
	for _, p := range checkVSCodeSchema(f).problems {
		for _, sp := range vscodeProblemSpans(p) {
			reported[place{sp, p.missing}] = true
		}
	}
	// A copy: found may be the snapshot's memo, which a later request
	// with another setting reads again.
	return slices.DeleteFunc(slices.Clone(found), func(d rules.Diagnostic) bool {
		if !slices.Contains(vscodeSchemaCodes, d.Code) {
			return false
		}
		missing := ""
		if slices.Contains(vscodeMissingCodes, d.Code) {
			field, _ := d.Data["field"].(string)
			missing = field[strings.LastIndex(field, ".")+1:]
			if missing == "" {
				return false
			}
		}
		return reported[place{d.Span, missing}]
	})
}

// vscodeProblemSpans are the spans mcp-lsp gives its finding of the same
// problem: a value's own span, or its member's when the value is a
// single character (verdict.Widen); a rejected key's span; for a missing
// property, the object, or the name of the member it is the value of
// (where missing-field, missing-url and missing-command go).
func vscodeProblemSpans(p vsProblem) []span.Span {
	n := p.node
	out := []span.Span{n.Span, verdict.Widen(n)}
	m := n.Member()
	switch {
	case p.at == vsOnKey && m != nil:
		out = append(out, m.Span)
	case p.at == vsOnMissing && m != nil && m.Value == n:
		out = append(out, m.Key.Span)
	}
	return out
}

// withoutClientCompletions drops the completion items VS Code's schema
// offers itself at offset in f (VS Code shows its own and mcp-lsp's side
// by side, each twice): the keys of the shape the server matches best
// that are not in it yet, and the enum values of its "type". mcp-lsp's
// other items (keys VS Code's schema does not know but VS Code reads, such
// as a server's "sandbox" or "transport") stay.
func withoutClientCompletions(f *jsonc.File, offset int, items []complete.Item) []complete.Item {
	offered := vscodeCompletions(f, offset)
	return slices.DeleteFunc(slices.Clone(items), func(it complete.Item) bool { return offered[it.Label] })
}

// vscodeCompletions are the labels of VS Code's own completion items at
// offset: property names as mcp-lsp labels keys, enum values of "type" as
// it labels values (quoted).
func vscodeCompletions(f *jsonc.File, offset int) map[string]bool {
	offered := map[string]bool{}
	if f == nil || f.Root == nil {
		return offered
	}
	// The innermost object holding the cursor, and the schemas it matched.
	var obj *jsonc.Node
	check := checkVSCodeSchema(f)
	for _, m := range check.matches {
		if m.node.Kind == jsonc.Object && m.node.Span.ContainsInclusive(offset) && (obj == nil || m.node.Span.Len() < obj.Span.Len()) {
			obj = m.node
		}
	}
	if obj == nil {
		return offered
	}
	for _, m := range check.matches {
		if m.node != obj {
			continue
		}
		for k, p := range m.schema.Properties {
			if cur := obj.Get(k); cur != nil && !cur.Span.ContainsInclusive(offset) && cur.Value.Kind != jsonc.Invalid {
				continue // VS Code does not offer a key the object has
			}
			offered[k] = true
			if k == "type" {
				for _, e := range p.Enum {
					if v, ok := e.(string); ok {
						offered[strconv.Quote(v)] = true
					}
				}
			}
		}
	}
	return offered
}

// schemaLeftToClientNote ends the hover of a file whose schema findings
// are left to the client.
var schemaLeftToClientNote = "\n\n---\n\nVS Code reports this file's schema problems (wrong types, unknown keys) itself; mcp-lsp reports only what VS Code's schema does not (cross-file, per-tool and semantic findings: [rules](" + RulesDocURL + ")). Setting: `mcpLsp.vscodeSchemaDiagnostics`."
