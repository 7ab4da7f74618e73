package analysis

import (
	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/verdict"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// The server maps of a file and their entries (see analysis/rules).

// ServerMap is rules.ServerMap.
type ServerMap = rules.ServerMap

// Server is rules.Server.
type Server = rules.Server

// FindServerMaps: see rules.FindServerMaps.
func FindServerMaps(f *jsonc.File, r *registry.Reader) []*rules.ServerMap {
	return rules.FindServerMaps(f, r)
}

// Decode: see verdict.Decode.
func Decode(n *jsonc.Node) any { return verdict.Decode(n) }
