module github.com/mcp-lsp/mcp-lsp

go 1.26.8

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/segmentio/encoding v0.3.4
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	go.lsp.dev/jsonrpc2 v0.10.0
	go.lsp.dev/protocol v0.12.0
	go.lsp.dev/uri v0.3.0
)

require (
	github.com/segmentio/asm v1.1.3 // indirect
	go.lsp.dev/pkg v0.0.0-20210717090340-384b27a52fb2 // indirect
	go.uber.org/atomic v1.9.0 // indirect
	go.uber.org/multierr v1.8.0 // indirect
	go.uber.org/zap v1.21.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
