// Package analysis holds the user's rule settings: the project file
// (.mcp-lsp.json) and the editor's "mcpLsp" section, read into a
// rules.Config. The checks themselves live in analysis/rules (each rule one
// value: code, default severity, check); what each reader does with an
// entry lives in analysis/verdict.
package analysis
