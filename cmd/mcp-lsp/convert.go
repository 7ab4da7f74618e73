package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// runConvert implements `mcp-lsp convert`. It prints the converted file
// on stdout (or writes it with --write) and every loss on stderr, one
// line each. Losses do not fail the command: the file is still the best
// conversion there is, and a script can ask for --strict. A server the
// target cannot hold at all is an error (exit 2), because leaving it out
// would be a loss the user might not read.
func runConvert(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("convert", flag.ContinueOnError)
	fset.SetOutput(stderr)
	to := fset.String("to", "", "target `dialect`")
	from := fset.String("from", "", "source `dialect` (default: from the file's name)")
	write := fset.String("write", "", "write the converted file to `path` instead of stdout")
	force := fset.Bool("force", false, "let --write replace an existing file")
	strict := fset.Bool("strict", false, "exit with status 1 when something could not be converted")
	fset.Usage = func() { fmt.Fprint(stderr, usage) }

	files, ok := parseInterleaved(fset, args)
	if !ok {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mcp-lsp convert: "+format+"\n", a...)
		return 2
	}
	known := convert.Dialects()
	switch {
	case len(files) != 1:
		return fail("give exactly one FILE (see mcp-lsp help)")
	case *to == "":
		return fail("--to is required: one of %s", strings.Join(known, ", "))
	case !slices.Contains(known, *to):
		return fail("unknown dialect %q for --to: one of %s", *to, strings.Join(known, ", "))
	case *from != "" && !slices.Contains(known, *from):
		return fail("unknown dialect %q for --from: one of %s", *from, strings.Join(known, ", "))
	case *force && *write == "":
		return fail("--force only applies to --write")
	}
	path := files[0]

	if *write != "" && !*force {
		if _, err := os.Lstat(*write); err == nil {
			return fail("%s exists; add --force to replace it", *write)
		}
	}
	// A configuration file a person writes is read up to the size analysis
	// takes; a tool's state file (~/.claude.json) up to what is ever read.
	limit := int64(rules.MaxConfigSize)
	if registry.Default().SkimPaths(path) != nil {
		limit = cache.MaxFileSize
	}
	content, err := cache.ReadFile(path, limit)
	if err != nil {
		return fail("%v", err)
	}
	source := *from
	if source == "" {
		if source, err = dialectOf(path); err != nil {
			return fail("%s: %v", path, err)
		}
	}
	out, losses, err := convert.ConvertFile(source, *to, content)
	if err != nil {
		return fail("%s: %v", path, err)
	}

	if *write == "" {
		if _, err := stdout.Write(out); err != nil {
			return fail("%v", err)
		}
	} else if err := writeFile(*write, out, *force); err != nil {
		return fail("%v", err)
	}
	for _, l := range losses {
		fmt.Fprintln(stderr, l.String())
	}
	if *strict && len(losses) > 0 {
		return 1
	}
	return 0
}

// dialectOf names the dialect of the file at path from the registry: the
// first reader of its kind (for .mcp.json that is Claude Code, the format
// Copilot CLI reads too).
func dialectOf(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	kind, ok := registry.Default().Match(abs, registry.OSEnv())
	if ok {
		for _, r := range kind.Readers {
			if len(r.ServerMaps) > 0 && slices.Contains(convert.Dialects(), string(r.Dialect)) {
				return string(r.Dialect), nil
			}
		}
	}
	return "", errors.New("cannot tell which tool's file this is from its name; pass --from DIALECT")
}

// writeFile writes data to path, creating its directory (.vscode/ or
// .cursor/ often do not exist yet). Without force it refuses an existing
// file, atomically (O_EXCL), even if one appeared since the first check.
func writeFile(path string, data []byte, force bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; add --force to replace it", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
