package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp"
)

// runServe serves LSP on stdin/stdout. Logs go to stderr or --log-file and
// never to stdout, which carries the protocol.
func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp-lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport; accepted for editors that pass it)")
	logFile := fs.String("log-file", "", "write logs to `FILE` instead of stderr")
	logLevel := fs.String("log-level", "info", "log `level`: debug, info, warn or error")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the session to `FILE` (for performance reports)")
	memProfile := fs.String("memprofile", "", "write a heap profile (allocations of the whole session, and what is live) to `FILE` at exit")
	clientTimeout := fs.Duration("client-timeout", lsp.DefaultClientTimeout, "how long to wait for the editor to answer a request before going on without the answer")
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcp-lsp: unexpected argument %q\n%s", fs.Arg(0), usage)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "mcp-lsp: bad --log-level: %v\n", err)
		return 2
	}
	logOut := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp: %v\n", err)
			return 2
		}
		defer f.Close()
		logOut = f
	}
	logger := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level}))
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcp-lsp: --cpuprofile: %v\n", err)
			return 2
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		// One sample per 4 KiB allocated instead of per 512 KiB: the
		// live heap of a session is a few MB, which the default rate
		// sees as a handful of samples.
		runtime.MemProfileRate = 4096
		defer writeHeapProfile(*memProfile, stderr)
	} else {
		// No one reads the heap profile of a session without
		// --memprofile; at the default rate each sample records a stack
		// in the profile's bucket table, whose 1.4 MB of address space is
		// touched a page per bucket.
		runtime.MemProfileRate = 0
	}
	ver, rev := buildVersion()
	if ver == "" {
		ver = "devel"
	}
	logger.Info("mcp-lsp starting", "version", ver, "commit", rev, "pid", os.Getpid())
	code := lsp.Run(ctx, stdio{stdin, stdout}, lsp.Options{
		Logger:        logger,
		Env:           registry.OSEnv(),
		Version:       ver,
		ClientTimeout: *clientTimeout,
		InputWaiting:  inputWaiting(stdin),
	})
	logger.Info("mcp-lsp exiting", "code", code)
	return code
}

// writeHeapProfile writes the heap profile at the end of a session: its
// alloc_space view is every allocation the session made, its inuse_space
// view what was live at the last collection.
func writeHeapProfile(path string, stderr io.Writer) {
	runtime.GC() // the profile holds what the last collection saw
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcp-lsp: --memprofile: %v\n", err)
	}
}

// stdio joins stdin and stdout into the stream the connection needs.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes stdin, if closable, so a blocked read returns; stdout is
// left to the process exit.
func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
