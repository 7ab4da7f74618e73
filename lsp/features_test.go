package lsp

// Editor feature scenarios: testdata/features/*.txtar.
//
// Each archive holds input files under their real names (home/ is the fake
// home directory, "$DIR" the workspace) and a features.golden section: for
// every MCP configuration file of the archive, the code lenses, inlay
// hints and document links the server returns over a JSON-RPC pipe, one
// per line, with LSP positions (0-based line, UTF-16 character).
//
// Every archive runs twice: once with a client that offers only UTF-16,
// once with one that offers UTF-8. The UTF-8 replies are converted back to
// UTF-16 positions through the file's bytes before rendering, so both
// runs must render the golden exactly: positions are right in both
// encodings, on the non-ASCII and CRLF text the archives hold.
//
// Directives in the archive's comment: "env: NAME=value" sets a variable
// in the server's environment (inlay hints); "launch: dir" is not used.
//
// Regenerate with: go test ./lsp -run TestFeatures -update

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

const featureGolden = "features.golden"

func TestFeatures(t *testing.T) {
	for _, sc := range loadArchives(t, "features") {
		t.Run(sc.name, func(t *testing.T) {
			sc.materialize(t)
			var want []byte
			for _, af := range sc.archive.Files {
				if af.Name == featureGolden {
					want = af.Data
				}
			}
			got16 := sc.features(t, EncodingUTF16)
			for _, kv := range sc.directives("env") {
				if _, v, _ := strings.Cut(kv, "="); v != "" && bytes.Contains(got16, []byte(v)) {
					t.Errorf("the value of %s is shown", kv)
				}
			}
			if *update {
				sc.setSections(t, txtar.File{Name: featureGolden, Data: got16})
				want = got16
			}
			if !bytes.Equal(got16, want) {
				t.Errorf("utf-16 client: features differ\n--- want\n%s\n--- got\n%s", want, got16)
			}
			if got8 := sc.features(t, EncodingUTF8); !bytes.Equal(got8, want) {
				t.Errorf("utf-8 client: features differ\n--- want\n%s\n--- got\n%s", want, got8)
			}
		})
	}
}

// featureEnv is the server's environment for inlay hints: the archive's
// env directives and nothing of the process's.
func (sc *scenario) featureEnv(t *testing.T) func(string) (string, bool) {
	env := map[string]string{}
	for _, kv := range sc.directives("env") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			t.Fatalf("%s: bad env directive %q (want NAME=value)", sc.name, kv)
		}
		env[k] = v
	}
	return func(name string) (string, bool) { v, ok := env[name]; return v, ok }
}

// initializeCaps performs the handshake with the given raw client
// capabilities and returns the server's raw capabilities.
func (c *testClient) initializeCaps(root string, caps map[string]any) map[string]json.RawMessage {
	c.t.Helper()
	params := map[string]any{"capabilities": caps}
	if root != "" {
		params["workspaceFolders"] = []any{map[string]any{"uri": pathToURI(root), "name": "root"}}
	}
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := c.call(protocol.MethodInitialize, params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
	return res.Capabilities
}

// encodingCaps are the capabilities of a client offering enc.
func encodingCaps(enc Encoding) map[string]any {
	encs := []string{"utf-16"}
	if enc == EncodingUTF8 {
		encs = []string{"utf-8", "utf-16"}
	}
	return map[string]any{
		"general":   map[string]any{"positionEncodings": encs},
		"workspace": map[string]any{"configuration": true},
	}
}

// features opens every input over LSP and renders what the editor
// features return for each MCP configuration file.
func (sc *scenario) features(t *testing.T, enc Encoding) []byte {
	t.Helper()
	c := startServer(t, Options{Env: sc.env, LookupEnv: sc.featureEnv(t)})
	caps := c.initializeCaps(sc.dir, encodingCaps(enc))
	wantEnc := ""
	if enc == EncodingUTF8 {
		wantEnc = `"utf-8"`
	}
	if got := string(caps["positionEncoding"]); got != wantEnc {
		t.Fatalf("positionEncoding %s, want %s", got, wantEnc)
	}
	reg := registry.Default()
	var b bytes.Buffer
	for _, name := range sc.inputs {
		path := filepath.Join(sc.dir, filepath.FromSlash(name))
		if _, ok := reg.Match(path, sc.env); !ok {
			continue
		}
		text := sc.input(name)
		uri := c.open(path, string(text))
		toUTF16 := func(p protocol.Position) string { return utf16Pos(t, enc, text, p) }
		rng := func(uri protocol.DocumentURI, r protocol.Range) string {
			content := text
			if p, _ := uriToPath(uri); p != path {
				var err error
				if content, err = os.ReadFile(p); err != nil {
					t.Fatal(err)
				}
			}
			return utf16Pos(t, enc, content, r.Start) + "-" + utf16Pos(t, enc, content, r.End)
		}
		fmt.Fprintf(&b, "%s\n", name)

		var lenses []protocol.CodeLens
		if err := c.call(protocol.MethodTextDocumentCodeLens, protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &lenses); err != nil {
			t.Fatalf("%s: codeLens: %v", name, err)
		}
		for _, l := range lenses {
			fmt.Fprintf(&b, "  lens %s %s %s\n", toUTF16(l.Range.Start), l.Command.Title, sc.renderCommand(t, l.Command, rng))
		}

		end := protocol.Position{Line: uint32(bytes.Count(text, []byte("\n")) + 1)}
		var hints []inlayHint
		if err := c.call(methodInlayHint, inlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: protocol.Range{End: end}}, &hints); err != nil {
			t.Fatalf("%s: inlayHint: %v", name, err)
		}
		for _, h := range hints {
			fmt.Fprintf(&b, "  hint %s %q\n", toUTF16(h.Position), h.Label)
		}

		var links []protocol.DocumentLink
		if err := c.call(protocol.MethodTextDocumentDocumentLink, protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &links); err != nil {
			t.Fatalf("%s: documentLink: %v", name, err)
		}
		for _, l := range links {
			target, ok := uriToPath(l.Target)
			if !ok {
				t.Fatalf("%s: link to %q, which is not a file", name, l.Target)
			}
			fmt.Fprintf(&b, "  link %s %s\n", rng(uri, l.Range), sc.rel(target))
		}
	}
	return b.Bytes()
}

// renderCommand shows a lens's command: the effective view, or the jump
// to a place.
func (sc *scenario) renderCommand(t *testing.T, cmd *protocol.Command, rng func(protocol.DocumentURI, protocol.Range) string) string {
	t.Helper()
	switch cmd.Command {
	case showEffectiveCommand:
		return "[effective view]"
	case openDefinitionCommand:
		raw, _ := json.Marshal(cmd.Arguments)
		var args []protocol.Location
		if err := json.Unmarshal(raw, &args); err != nil || len(args) != 1 {
			t.Fatalf("bad %s arguments %s", cmd.Command, raw)
		}
		p, _ := uriToPath(args[0].URI)
		return fmt.Sprintf("[jump %s %s]", sc.rel(p), rng(args[0].URI, args[0].Range))
	}
	t.Fatalf("unknown lens command %q", cmd.Command)
	return ""
}

// utf16Pos renders p, a position in content in the encoding enc, as the
// UTF-16 "line:character" of the same place.
func utf16Pos(t *testing.T, enc Encoding, content []byte, p protocol.Position) string {
	t.Helper()
	if enc == EncodingUTF8 {
		off, err := NewMapperEncoding(content, EncodingUTF8).PositionOffset(p)
		if err != nil {
			t.Fatalf("utf-8 position %v: %v", p, err)
		}
		if p, err = NewMapper(content).OffsetPosition(off); err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Character)
}
