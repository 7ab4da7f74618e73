// Command lspreplay is a language server that does no work: it answers
// every didOpen and didChange at once with the same recorded list of
// diagnostics, published for the version the change carries.
//
// It measures the client's floor. An edit's latency, as a benchmark
// client sees it, includes the client's own share: encoding and sending
// the new text, then reading and decoding the publication. That share
// grows with the number of diagnostics, not with the server's work, and
// no server can go below it while it reports the same findings. Driving
// lspreplay with mcp-lsp's own publication, through the same client as
// mcp-lsp, gives that floor; scripts/perf_floor.sh and the repository's
// server benchmark (cmd/mcp-lsp, BenchmarkServer) print it beside the
// real figures.
//
//	lspreplay DIAGNOSTICS.json
//
// DIAGNOSTICS.json holds one JSON array of LSP diagnostics, e.g. the
// "diagnostics" of a publication mcp-lsp sent for the same file.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: lspreplay DIAGNOSTICS.json")
		os.Exit(2)
	}
	diags, err := os.ReadFile(os.Args[1])
	if err == nil && !json.Valid(diags) {
		err = fmt.Errorf("%s: not JSON", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspreplay:", err)
		os.Exit(2)
	}
	if err := serve(os.Stdin, os.Stdout, bytes.TrimSpace(diags)); err != nil && err != io.EOF {
		fmt.Fprintln(os.Stderr, "lspreplay:", err)
		os.Exit(1)
	}
}

// serve answers the client on r and w until exit or the end of input.
func serve(r io.Reader, w io.Writer, diags []byte) error {
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriterSize(w, 1<<20)
	for {
		body, err := readFrame(in)
		if err != nil {
			return err
		}
		m := head(body)
		var reply []byte
		switch m.method {
		case "exit":
			return nil
		case "initialize":
			reply = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{"textDocumentSync":1}}}`, m.id)
		case "textDocument/didOpen", "textDocument/didChange":
			reply = fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":%s,"version":%d,"diagnostics":%s}}`,
				strconv.Quote(m.uri), m.version, diags)
		default:
			if m.id != "" { // a request we do not serve: an empty answer
				reply = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":null}`, m.id)
			}
		}
		if reply == nil {
			continue
		}
		fmt.Fprintf(out, "Content-Length: %d\r\n\r\n", len(reply))
		out.Write(reply)
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// readFrame reads one Content-Length framed message body.
func readFrame(in *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("a frame without Content-Length")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(in, body)
	return body, err
}

// message is what lspreplay reads of a client message.
type message struct {
	method, id, uri string
	version         int
}

// head reads a message's method, id, document uri and version. A small
// message is decoded; a large one (an open or a full-text change) is
// only searched for those members, so that the floor holds no decoding
// of the document's text: inside a JSON string every quote is escaped,
// so a search for `"version"` cannot land in the text.
func head(body []byte) message {
	if len(body) < 64<<10 {
		var m struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
			Params struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
				} `json:"textDocument"`
			} `json:"params"`
		}
		json.Unmarshal(body, &m)
		return message{method: m.Method, id: string(m.ID), uri: m.Params.TextDocument.URI, version: m.Params.TextDocument.Version}
	}
	var m message
	m.method, _ = strconv.Unquote(string(member(body, "method")))
	m.uri, _ = strconv.Unquote(string(member(body, "uri")))
	m.version, _ = strconv.Atoi(string(member(body, "version")))
	m.id = string(member(body, "id"))
	return m
}

// member returns the raw scalar value of the first member named name in
// body (a string with its quotes, or a number), or nil.
func member(body []byte, name string) []byte {
	i := bytes.Index(body, []byte(`"`+name+`"`))
	if i < 0 {
		return nil
	}
	rest := bytes.TrimLeft(body[i+len(name)+2:], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return nil
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) > 0 && rest[0] == '"' {
		end := 1
		for end < len(rest) && rest[end] != '"' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			return nil
		}
		return rest[:end+1]
	}
	end := bytes.IndexAny(rest, ",}] \t\r\n")
	if end < 0 {
		return nil
	}
	return rest[:end]
}
