package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/protocol"
)

// uriToPath returns the file system path of a file: URI. Any other scheme
// (untitled:, vscode-notebook-cell:, ...) reports false: such buffers are
// not files of a project and mcp-lsp leaves them alone. go.lsp.dev/uri's
// Filename panics on them, so it is not used.
//
// Windows URIs (file:///c%3A/x, file:///C:/x) become C:/x style paths with
// an upper-case drive letter, so both spellings name the same file.
func uriToPath(u protocol.DocumentURI) (string, bool) {
	parsed, err := url.Parse(string(u))
	if err != nil || parsed.Scheme != "file" {
		return "", false
	}
	p := parsed.Path
	if p == "" {
		return "", false
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isLetter(p[1]) {
		p = strings.ToUpper(p[1:2]) + p[2:]
	}
	if parsed.Host != "" && parsed.Host != "localhost" {
		p = "//" + parsed.Host + p // a UNC path
	}
	return filepath.Clean(filepath.FromSlash(p)), true
}

// pathToURI is the inverse of uriToPath.
func pathToURI(path string) protocol.DocumentURI {
	p := filepath.ToSlash(path)
	if runtime.GOOS == "windows" || (len(p) >= 2 && p[1] == ':' && isLetter(p[0])) {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
