package rules

import (
	"path"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// A package runner (npx, pnpm dlx, yarn dlx, bunx, uvx, pipx run) as a
// server's command: the entry downloads a package and runs it. Two rules
// read such a command: unpinned-package (the package has no version, so
// every start may run a new release) and windows-cmd-wrapper (on Windows
// npx is a batch script that Claude Code cannot start without cmd /c).
// runnerOf parses the command once for both.

// runnerCall is a package runner invocation in a server entry.
type runnerCall struct {
	// runner names it as the user would type it: "npx", "pnpm dlx".
	runner string
	// program is the node of the runner's program: "command" (a string),
	// or the first element of OpenCode's command array.
	program *jsonc.Node
	// wrapped: the command is already "cmd" with "/c" before the runner.
	wrapped bool
	// python: the package is a Python one (uvx, pipx); else npm's.
	python bool
	// pkgs are the package specs the runner fetches ("-p" values, or the
	// first word that is not an option).
	pkgs []*jsonc.Node
}

// runnerSpec describes a runner's command line: the subcommand after the
// program (pnpm dlx), the options that name the package, and the options
// that take a value (so their value is not read as the package).
type runnerSpec struct {
	name    string
	sub     string
	python  bool
	pkgOpts map[string]bool
	valOpts map[string]bool
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	npmValueOptions = set("--cache", "--registry", "--userconfig", "--prefix", "-w", "--workspace", "--node-options", "--loglevel", "--shell", "--script-shell")
	uvValueOptions  = set("--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--index-url", "--default-index",
		"--extra-index-url", "--find-links", "-f", "--directory", "--project", "--config-file", "--cache-dir", "--env-file",
		"--python-preference", "--refresh-package", "--reinstall-package", "--upgrade-package", "-P", "--exclude-newer",
		"--resolution", "--prerelease", "--index-strategy", "--keyring-provider", "--link-mode", "--color",
		"--allow-insecure-host", "--no-binary-package", "--no-build-package", "--build-constraints", "-b",
		"--constraints", "-c", "--overrides", "--torch-backend")
)

// runners maps a program's name (without directory and .cmd/.exe) to
// how its command line reads.
var runners = map[string]runnerSpec{
	"npx":  {name: "npx", pkgOpts: set("-p", "--package"), valOpts: npmValueOptions},
	"pnpx": {name: "pnpx", pkgOpts: set("-p", "--package"), valOpts: npmValueOptions},
	"bunx": {name: "bunx", pkgOpts: set("-p", "--package"), valOpts: npmValueOptions},
	"pnpm": {name: "pnpm dlx", sub: "dlx", pkgOpts: set("-p", "--package"), valOpts: npmValueOptions},
	"yarn": {name: "yarn dlx", sub: "dlx", pkgOpts: set("-p", "--package"), valOpts: npmValueOptions},
	"uvx":  {name: "uvx", python: true, pkgOpts: set("--from"), valOpts: uvValueOptions},
	"pipx": {name: "pipx run", sub: "run", python: true, pkgOpts: set("--spec"), valOpts: set("--python", "--index-url", "--pip-args")},
}

// programName is a command's program as runners keys it: "npx" for
// "/usr/local/bin/npx", "npx.cmd" or "C:\nodejs\npx.CMD".
func programName(s string) string {
	s = s[strings.LastIndexAny(s, `/\`)+1:]
	s = strings.ToLower(s)
	for _, ext := range []string{".cmd", ".exe", ".bat", ".ps1"} {
		s = strings.TrimSuffix(s, ext)
	}
	return s
}

// commandWords returns the string nodes of a local server's command line:
// "command" (a string) then "args", or OpenCode's command array. nil
// when the entry has no such command or a word is not a string.
func commandWords(entry *jsonc.Node) []*jsonc.Node {
	cmd := entry.Get("command")
	if cmd == nil || cmd.Value == nil {
		return nil
	}
	var words []*jsonc.Node
	switch cmd.Value.Kind {
	case jsonc.String:
		words = append(words, cmd.Value)
		if a := entry.Get("args"); a != nil && a.Value != nil && a.Value.Kind == jsonc.Array {
			words = append(words, a.Value.Elements()...)
		}
	case jsonc.Array:
		words = append(words, cmd.Value.Elements()...)
	default:
		return nil
	}
	for _, w := range words {
		if w.Kind != jsonc.String {
			return nil
		}
	}
	return words
}

// runnerOf returns the package runner a server entry starts, if any.
func runnerOf(entry *jsonc.Node) (runnerCall, bool) {
	words := commandWords(entry)
	if len(words) == 0 {
		return runnerCall{}, false
	}
	wrapped := false
	if programName(words[0].Str) == "cmd" && len(words) > 2 && strings.EqualFold(words[1].Str, "/c") {
		words, wrapped = words[2:], true
	}
	spec, ok := runners[programName(words[0].Str)]
	if !ok {
		return runnerCall{}, false
	}
	call := runnerCall{runner: spec.name, program: words[0], wrapped: wrapped, python: spec.python}
	rest := words[1:]
	if spec.sub != "" {
		if len(rest) == 0 || rest[0].Str != spec.sub {
			return runnerCall{}, false
		}
		rest = rest[1:]
	}
	var first *jsonc.Node
	for i := 0; i < len(rest); i++ {
		w := rest[i].Str
		if w == "--" {
			if first == nil && i+1 < len(rest) {
				first = rest[i+1]
			}
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			first = rest[i]
			break
		}
		opt, _, hasValue := strings.Cut(w, "=")
		switch {
		case spec.pkgOpts[opt] && hasValue:
			// The spec is inside this word, after "=": not a node of its
			// own, and rare enough to leave alone.
			return call, true
		case spec.pkgOpts[opt] && i+1 < len(rest):
			i++
			call.pkgs = append(call.pkgs, rest[i])
		case spec.valOpts[opt] && !hasValue:
			i++
		case opt == "-c" || opt == "--call":
			if !spec.python {
				return call, true // npx -c 'a command line': no package word
			}
		}
	}
	if len(call.pkgs) == 0 && first != nil {
		call.pkgs = []*jsonc.Node{first}
	}
	return call, true
}

// unpinned reports whether a package spec fetches whatever release is
// newest: no version, a dist-tag such as "latest", or "*". Specs that are
// not a registry package (a path, a URL, a git repository) and specs
// holding a variable are not judged.
func unpinned(spec string, python bool) bool {
	if spec == "" || strings.ContainsAny(spec, `${}\`) || strings.Contains(spec, "://") ||
		strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "~") ||
		strings.HasSuffix(spec, ".tgz") || strings.HasSuffix(spec, ".whl") || strings.HasSuffix(spec, ".tar.gz") {
		return false
	}
	if python {
		if strings.ContainsAny(spec, "/=<>~!") || strings.HasPrefix(spec, "git+") {
			return false // a path, or a version (==1.2, >=1) chosen on purpose
		}
		name, version, ok := strings.Cut(spec, "@")
		return name != "" && (!ok || isTag(version))
	}
	if i := strings.IndexByte(spec, ':'); i >= 0 {
		return false // github:, git+ssh:, file:, npm: aliases
	}
	name, version := spec, ""
	at := strings.LastIndexByte(spec, '@')
	if at > 0 {
		name, version = spec[:at], spec[at+1:]
	}
	if strings.Contains(strings.TrimPrefix(name, "@"), "/") != strings.HasPrefix(name, "@") {
		return false // "user/repo" (GitHub), or a scope without a name
	}
	return at <= 0 || isTag(version)
}

// isTag reports whether a version names a moving release: a dist-tag
// ("latest", "next"), "*" or "x", or nothing at all. A version or a
// range ("1.2.3", "^1", "~1.2", ">=1") is a choice someone made.
func isTag(v string) bool {
	if v == "" || v == "*" || v == "x" {
		return true
	}
	c := v[0]
	if c >= '0' && c <= '9' || strings.ContainsRune("^~=<>", rune(c)) {
		return false
	}
	if (c == 'v' || c == 'V') && len(v) > 1 && v[1] >= '0' && v[1] <= '9' {
		return false
	}
	return true
}

// pinExample shows how the runner takes a pinned version of spec.
func pinExample(spec string, python bool) string {
	name := spec
	if at := strings.LastIndexByte(spec, '@'); at > 0 {
		name = spec[:at]
	}
	if python {
		return name + "==<version>"
	}
	return name + "@<version>"
}

// appendUnpinnedPackages appends to ds a report of each package a runner
// fetches without a pinned version. Hint: the entry works today; the reason is supply chain
// and reproducibility, which the user may weigh differently.
//
// call and ok are runnerOf the entry (both rules of a runner read it).
func appendUnpinnedPackages(ds []Diagnostic, server string, call runnerCall, ok bool) []Diagnostic {
	if !ok {
		return ds
	}
	for _, p := range call.pkgs {
		if !unpinned(p.Str, call.python) {
			continue
		}
		what := "unpinned"
		if at := strings.LastIndexByte(p.Str, '@'); at > 0 {
			what = "at the moving tag " + strings.ToLower(p.Str[at:])
		}
		pin := pinExample(p.Str, call.python)
		if call.python && call.runner == "uvx" {
			pin = strings.Replace(pin, "==", "@", 1)
		}
		ds = append(ds, Diagnostic{
			Span: p.Span, Severity: SeverityHint, Code: CodeUnpinnedPackage,
			// Concatenated, not Sprintf'd: most servers of a large
			// file get this finding.
			Message: call.runner + " runs " + semQuote(p.Str) + " " + what +
				": a start may fetch an unreviewed release (supply chain) or differ between machines (reproducibility); pin it: " + semQuote(pin),
			Data: map[string]any{"server": server},
		})
	}
	return ds
}

// isNodeShim reports whether a runner is, on Windows, a batch script
// (npx.cmd, pnpm.cmd, yarn.cmd as npm installs them) that a program can
// start only through cmd. uvx and bunx are .exe files there and start
// directly.
func isNodeShim(call runnerCall) bool {
	switch call.runner {
	case "npx", "pnpx", "pnpm dlx", "yarn dlx":
		return !strings.HasSuffix(strings.ToLower(path.Base(strings.ReplaceAll(call.program.Str, `\`, "/"))), ".exe")
	}
	return false
}

// windowsCmdTools are the tools that start a server's command without a
// shell on Windows, so that a batch script fails to start, and say so:
// Claude Code's /doctor warned "Windows requires 'cmd /c' wrapper to
// execute npx" (anthropics/claude-code#9594), and its MCP documentation
// asks for "command": "cmd", "args": ["/c", "npx", ...] on native Windows.
// Node's spawn (libuv) finds npx.cmd only through a shell; tools built on
// cross-spawn (the MCP SDK's stdio transport) or a shell do not need it.
var windowsCmdTools = map[registry.ToolID]bool{"claude-code": true}

// appendWindowsCmdWrapper appends to ds a report of npx (and the other
// npm-installed runners) as a command Claude Code cannot start on Windows. A project file is read
// on teammates' machines, any of which may run Windows, unless the
// project says it is not used there (Config.NotOnWindows); a user or
// managed file only on this machine, so only when it runs Windows.
//
// call and ok are runnerOf the entry.
func appendWindowsCmdWrapper(ds []Diagnostic, in FileInput, server string, entry *jsonc.Node, call runnerCall, ok bool) []Diagnostic {
	if in.Config.NotOnWindows || in.Kind.Scope != registry.ScopeProject && !in.Config.OnWindows {
		return ds
	}
	read := false // by a tool that needs the wrapper
	for i := range in.Kind.Readers {
		read = read || windowsCmdTools[in.Kind.Readers[i].Tool]
	}
	if !read {
		return ds
	}
	if !ok || call.wrapped || !isNodeShim(call) || call.program.Parent != entry {
		return ds // wrapped already, an .exe, or OpenCode's array (not Claude Code's)
	}
	who := "a teammate's Claude Code on Windows"
	if in.Kind.Scope != registry.ScopeProject {
		who = "Claude Code on this Windows machine"
	}
	return append(ds, Diagnostic{
		Span: call.program.Span, Severity: SeverityInformation, Code: CodeWindowsCmdWrapper,
		Message: who + " cannot start " + semQuote(call.program.Str) +
			", a batch script there, without cmd /c (\"windows\": false in " + ProjectConfigName + " if nobody uses Windows)",
		Data: map[string]any{"server": server, FixKey: Fix{
			Kind: FixWrapCommand, Key: "command", Value: "cmd /c",
			// Certain only on this Windows machine: in a shared file,
			// "cmd" does not exist for a teammate on macOS or Linux.
			Safe: in.Kind.Scope != registry.ScopeProject,
		}},
	})
}
