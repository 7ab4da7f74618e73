package lsp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/benchgen"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
	"github.com/mcp-lsp/mcp-lsp/lsp/rpcstream"
)

// BenchmarkPublish is the publishing half of an edit of a 1,000-server
// .mcp.json, in process: the findings of the new version (analysed before
// the timer starts) converted for the wire reusing the last version's
// conversion (convertReusing), encoded reusing the last encoding
// (diagnosticCache), hashed, and written to a stream as a
// publishDiagnostics notification, as the worker does
// (diagnoser.runOnce). Two edits: whitespace appended
// at the end, and a character typed inside a server (the findings after
// it move, one message changes). The versions alternate, as the edits of
// BenchmarkServer do.
//
//	go test ./lsp -run X -bench Publish -benchmem
func BenchmarkPublish(b *testing.B) {
	text := publishBenchText()
	at := strings.Index(text, `"@example/server-491"`) + len(`"@example/server-491`) - 1
	for _, tc := range []struct {
		name string
		edit func(i int) string
	}{
		{"append", func(i int) string { return text + strings.Repeat(" ", i%2+1) }},
		{"typing", func(i int) string { return text[:at] + string("ab"[i%2]) + text[at+1:] }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			path, opts := publishBenchFile(b, []byte(text))
			s := cache.NewSession(nil, nil)
			type version struct {
				snap  *cache.Snapshot
				f     *cache.File
				found []rules.Diagnostic
			}
			var versions [2]version
			for i := range versions {
				content := tc.edit(i)
				snap := s.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{Path: path, URI: string(pathToURI(path)), Version: int32(i + 2), Content: []byte(content)}}}, nil)
				f, found, ok := snap.Diagnose(path, opts)
				if !ok || len(found) < 1000 {
					b.Fatalf("%d findings", len(found))
				}
				versions[i] = version{snap, f, found}
			}
			mappers := newMapperCache()
			var prev *converted
			var enc diagnosticCache
			var out countingWriter
			stream := rpcstream.New(&out, rpcstream.Options{})
			publish := func(v version) {
				ds, next := convertReusing(newLocator(v.snap, mappers), v.f, v.found, prev, nil)
				prev = next
				p := publication{uri: pathToURI(path), diags: ds}
				p.sum = enc.prepare(p)
				out.n = 0
				if _, err := stream.WriteNotificationFunc(context.Background(), protocol.MethodTextDocumentPublishDiagnostics, enc.size, enc.writeParams); err != nil {
					b.Fatal(err)
				}
			}
			publish(versions[1])
			b.ReportAllocs()
			cpu := benchgen.ProcessCPU()
			n := 0
			for b.Loop() {
				publish(versions[n%2])
				n++
			}
			b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
			b.ReportMetric(float64(out.n), "bytes/publish")
			b.ReportMetric(float64(enc.encoded), "encoded/op")
			b.ReportMetric(float64(prev.reused), "reused/op")
		})
	}
}

// publishBenchText is the 1,000-server .mcp.json of BenchmarkServer
// (cmd/mcp-lsp): a third remote, the rest npx commands, every 97th
// server's args a string.
func publishBenchText() string {
	var t strings.Builder
	t.WriteString("{\n  \"mcpServers\": {\n")
	for i := range 1000 {
		if i > 0 {
			t.WriteString(",\n")
		}
		fmt.Fprintf(&t, "    \"server-%05d\": {\n", i)
		switch {
		case i%3 == 0:
			fmt.Fprintf(&t, "      \"type\": \"http\",\n      \"url\": \"https://mcp%d.example.com/mcp\",\n      \"headers\": {\n        \"X-Tenant\": \"t%d\"\n      }\n    }", i, i)
		default:
			args := fmt.Sprintf("[\n        \"-y\",\n        \"@example/server-%d\",\n        \"--port\",\n        \"%d\"\n      ]", i, 1000+i)
			if i%97 == 5 {
				args = `"not-an-array"`
			}
			fmt.Fprintf(&t, "      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": %s,\n      \"env\": {\n        \"NODE_ENV\": \"production\",\n        \"LEVEL\": \"%d\"\n      }\n    }", args, i)
		}
	}
	t.WriteString("\n  }\n}\n")
	return t.String()
}

// BenchmarkPublishOpen is the publishing half of opening the minified
// 20,000-server .mcp.json (one line of 2.7 MB, about 33,000 findings), in
// process: the findings (analysed before the timer starts) converted with
// nothing to reuse, encoded into an empty cache, hashed, framed and
// written to a stream, as the worker does for a file's first publication.
// It reports the CPU time of both cores (garbage collection included).
//
//	go test ./lsp -run X -bench PublishOpen -benchmem
func BenchmarkPublishOpen(b *testing.B) {
	text := benchgen.MCPJSON(20000, true, false)
	path, opts := publishBenchFile(b, text)
	s := cache.NewSession(nil, nil)
	snap := s.Modify([]cache.Modification{{Path: path, Overlay: &cache.Overlay{Path: path, URI: string(pathToURI(path)), Version: 1, Content: text}}}, nil)
	f, found, ok := snap.Diagnose(path, opts)
	if !ok || len(found) < 20000 {
		b.Fatalf("%d findings", len(found))
	}
	var out countingWriter
	stream := rpcstream.New(&out, rpcstream.Options{})
	b.ReportAllocs()
	cpu := benchgen.ProcessCPU()
	n := 0
	for b.Loop() {
		out.n = 0
		ds, _ := convertReusing(newLocator(snap, newMapperCache()), f, found, nil, nil)
		var enc diagnosticCache
		v := int32(1)
		p := publication{uri: pathToURI(path), version: &v, diags: ds}
		p.sum = enc.prepare(p)
		if _, err := stream.WriteNotificationFunc(context.Background(), protocol.MethodTextDocumentPublishDiagnostics, enc.size, enc.writeParams); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(benchgen.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(out.n), "bytes/publish")
}

// countingWriter is a stream's other end that counts what is written to
// it and reads nothing.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
func (w *countingWriter) Read([]byte) (int, error)    { return 0, io.EOF }
func (w *countingWriter) Close() error                { return nil }

// publishBenchFile writes text as the .mcp.json of a new workspace folder
// and returns its path and the options the server's worker diagnoses it
// with (command lookup on, the folder, an empty home).
func publishBenchFile(b *testing.B, text []byte) (string, cache.DiagnoseOptions) {
	dir := b.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, cache.DiagnoseOptions{
		Registry: registry.Default(),
		Env:      registry.Env{Home: filepath.Join(dir, "home"), GOOS: "linux"},
		Base:     rules.Config{CommandLookup: true},
		Folders:  []cache.Folder{{Path: dir}},
	}
}
