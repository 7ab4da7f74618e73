package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// VS Code validates .vscode/mcp.json and its user-level mcp.json with its
// own JSON schema (mcpServerSchema in microsoft/vscode
// src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts). In a client
// that is VS Code, mcp-lsp's findings of the same problems would show
// every schema error twice in the Problems panel (seen in real VS Code
// 1.139: `"command": 1` gave VS Code's "Incorrect type. Expected
// "string"." and mcp-lsp's invalid-field-value). So there mcp-lsp leaves
// the schema's findings to VS Code and reports the rest: cross-file,
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

// vscodeSchemaCodes are the codes of the problems VS Code's schema reports
// itself: additionalProperties false at the top and in each server
// (unknown-key), the types and enums of the fields and of type
// (invalid-field-value, unknown-server-type), and a server that is not an
// object (server-not-object). Not in it: missing-field (the stdio branch
// requires nothing, so a server without command passes), a servers value
// that is not an object or is missing (servers has no type and is not
// required), and every cross-file, per-tool and semantic rule.
var vscodeSchemaCodes = []string{
	rules.CodeInvalidFieldValue,
	rules.CodeUnknownKey,
	rules.CodeUnknownServerType,
	rules.CodeServerNotObject,
}

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

// withoutSchemaFindings drops the findings VS Code's schema reports itself.
func withoutSchemaFindings(found []rules.Diagnostic) []rules.Diagnostic {
	return slices.DeleteFunc(found, func(d rules.Diagnostic) bool {
		return slices.Contains(vscodeSchemaCodes, d.Code)
	})
}

// schemaLeftToClientNote ends the hover of a file whose schema findings
// are left to the client.
var schemaLeftToClientNote = "\n\n---\n\nVS Code reports this file's schema problems (wrong types, unknown keys) itself; mcp-lsp reports only what VS Code's schema does not (cross-file, per-tool and semantic findings: [rules](" + RulesDocURL + ")). Setting: `mcpLsp.vscodeSchemaDiagnostics`."
