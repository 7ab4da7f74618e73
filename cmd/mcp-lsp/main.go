// Command mcp-lsp is a language server and a CI checker for the files in
// which AI coding tools declare their MCP servers.
//
//	mcp-lsp [--stdio] [--log-file FILE] [--log-level LEVEL] [--cpuprofile FILE] [--memprofile FILE]   serve LSP on stdin/stdout
//	mcp-lsp check [--format text|json|sarif|github] [--fix|--diff] [PATH...] check (and fix) files or directories
//	mcp-lsp effective [--tool ID] [--cwd DIR] [DIR]           what each tool will start
//	mcp-lsp convert --to DIALECT [--write PATH] FILE          convert between dialects
//	mcp-lsp sync [--to TOOLS] [--dry-run|--check] SOURCE      write one source's servers into every tool
//	mcp-lsp enable|disable NAME --tool ID                     turn a server on or off in one tool
//	mcp-lsp version (or --version)                           print the version and commit
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: tests call it with their own streams.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runCheck(ctx, args[1:], stdout, stderr)
		case "effective":
			return runEffective(ctx, args[1:], stdout, stderr)
		case "convert":
			return runConvert(ctx, args[1:], stdout, stderr)
		case "sync":
			return runSync(ctx, args[1:], stdout, stderr)
		case "enable", "disable":
			return runSwitch(ctx, args[0] == "enable", args[1:], stdout, stderr)
		case "version", "--version", "-version":
			fmt.Fprintln(stdout, versionLine())
			return 0
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		case "serve":
			args = args[1:]
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runServe(ctx, args, stdin, stdout, stderr)
}

const usage = `mcp-lsp: a language server for MCP configuration files

Usage:
  mcp-lsp [--stdio] [--log-file FILE] [--log-level debug|info|warn|error]
          [--cpuprofile FILE] [--memprofile FILE] [--client-timeout DURATION]
        Serve the Language Server Protocol on stdin/stdout (the default).
        --cpuprofile writes a CPU profile of the session, --memprofile a
        heap profile at exit, for performance reports. The server waits at most --client-timeout (default 10s)
        for the editor to answer one of its requests, then goes on
        without it.
  mcp-lsp check [--format text|json|sarif|github] [--fail-on error|warning|never]
                [--tools IDS] [--command-lookup] [--fix | --diff] [--unsafe] [PATH...]
        Check MCP config files, or every MCP config file under the given
        directories (default "."). --format sarif prints a SARIF 2.1.0 log
        (for GitHub code scanning), github prints workflow commands that
        annotate the pull request. Exit status: 0 nothing at or above the
        --fail-on level (default error), 1 findings at that level, 2 usage
        or I/O error. No MCP configuration file at all is not an error: it
        is said on stderr and the status is 0.
        --fix applies the safe fixes (the same edits as the editor's "fix
        all") in place, then reports what is left; the exit status is that
        of what is left. Each file is replaced atomically (a temporary file
        in its directory, renamed over it, same permissions; a symbolic
        link is written through and stays a link); comments, formatting,
        line endings and a byte order mark are kept. A file that does not
        parse is never written. --diff prints the fixes as a unified diff
        and writes nothing (status 1 when there is something to fix); a
        literal secret in it is masked. --unsafe adds the fixes that change
        what the file means (removing a duplicate, moving a secret into an
        environment variable, a suggested key), for the findings reported
        before it ran (not those its own edits bring about).
  mcp-lsp effective [--tool ID] [--cwd DIR] [--format text|json] [DIR]
        Print, for each tool (or one), the MCP servers it will start when
        launched in DIR (or --cwd), each with the file and line it comes
        from and its gate (pending approval, folder not trusted). Secret
        values are never printed.
  mcp-lsp convert --to DIALECT [--from DIALECT] [--write PATH [--force]] [--strict] FILE
        Convert the MCP servers in FILE to another tool's format and print
        the new file, or write it to PATH (an existing file is replaced
        only with --force). DIALECT: claude-code, claude-desktop,
        codex-cli (config.toml), copilot-cli, cursor, gemini-cli, opencode,
        vscode; the source dialect comes from FILE's name unless --from is
        given. What the target cannot
        express is listed on stderr, one line per field ("drops: ..." or
        "changes: ..."), never with its value. Exit status: 0 converted,
        even with losses (1 with --strict); 2 usage or I/O error, or a
        server the target cannot hold at all.
  mcp-lsp sync [--to TOOLS] [--scope project|user] [--var NAME=VALUE]...
               [--from DIALECT] [--project DIR] [--dry-run | --check] [--force] SOURCE
        Write the servers of SOURCE into each tool's own file, in its
        format: --to names the tools (claude-code, opencode, cursor, ...);
        by default every tool whose file is present at that scope. A
        missing file is created; an existing one gets minimal edits that
        keep comments, formatting, key order, line endings and every other
        key. A file that does not parse is never touched (exit 2). Each
        file is replaced atomically. What sync wrote is recorded in
        .mcp-lsp/sync.json (commit it), so the next sync updates its own
        entries, removes those whose server left SOURCE, and leaves alone
        an entry changed by hand (drift) or a server of the same name it
        did not write (a clash), unless --force. A second run changes
        nothing. SOURCE may be a template: {{root}} is the project root,
        {{runtime.python}} the Python of a .venv beside SOURCE, else the
        project's, else python3 on PATH (looked up, never run), {{NAME}} a
        --var; an unknown variable is an error. For a SOURCE no tool reads
        (an extension's mcp.json), a bare "python" command and "--root ."
        are resolved the same way. The output says what was substituted
        and what each target cannot express. --dry-run prints a unified
        diff (the report goes to stderr); --check exits 1 when a target is
        out of date. Exit status: 0 done, 1 drift, a clash or a refused
        server (or out of date with --check), 2 usage or I/O error or a
        target that does not parse.
  mcp-lsp enable NAME --tool ID [--project DIR] [--dry-run]
  mcp-lsp disable NAME --tool ID [--project DIR] [--dry-run]
        Turn one server on or off in one tool, the way that tool does it:
        OpenCode "enabled": false and Codex CLI enabled = false in the entry;
        Claude Code disabledMcpjsonServers / enabledMcpjsonServers in
        .claude/settings.local.json for .mcp.json servers, and
        projects["<git root>"].disabledMcpServers in ~/.claude.json for the
        others; Copilot CLI disabledMcpServers in ~/.copilot/settings.json
        (what "copilot mcp disable" writes); Gemini CLI mcp.excluded in
        .gemini/settings.json. Comments and formatting are kept; the file is
        replaced atomically. Exit status: 0 done or already so, 1 the tool
        has no switch in a file (VS Code, Cursor: the reason is printed),
        2 usage or I/O error, or a file that does not parse.
  mcp-lsp version, mcp-lsp --version
        Print the version, the commit it was built from, and the Go version.
`
