// Package analysis finds what is wrong in one MCP configuration file: its
// entry point is AnalyzeFile. The checks themselves live in analysis/rules
// (each rule one value: code, default severity, check); what each reader
// does with an entry lives in analysis/verdict. The names here are the
// package's stable API for lsp/, cmd/ and the other analysis packages.
package analysis

import "github.com/mcp-lsp/mcp-lsp/analysis/rules"

// FileInput is rules.FileInput.
type FileInput = rules.FileInput

// AnalyzeFile: see rules.AnalyzeFile.
func AnalyzeFile(in rules.FileInput) []rules.Diagnostic { return rules.AnalyzeFile(in) }

// Cache is rules.Cache.
type Cache = rules.Cache

// NewCache: see rules.NewCache.
func NewCache() *rules.Cache { return rules.NewCache() }

// Resolver is rules.Resolver.
type Resolver = rules.Resolver
