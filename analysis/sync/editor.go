package sync

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/analysis/toml"
)

// editor reads and edits one syntax of target file. Every method takes
// the whole content (nil for a file that does not exist yet) and returns
// the whole new content; fix.DiffEdits turns the difference into edits.
type editor interface {
	// check refuses content the editor must not touch.
	check(content []byte) error
	// lookup returns the value at path, as fix.NodeValue gives it.
	lookup(content []byte, path []string) (v any, found bool, err error)
	set(content []byte, path []string, v any) ([]byte, error)
	remove(content []byte, path []string) ([]byte, error)
}

// editorFor picks the editor by the file's extension.
func editorFor(path string) editor {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".jsonc":
		return jsonEditor{}
	case ".toml":
		return tomlEditor{}
	}
	return noEditor{ext: filepath.Ext(path)}
}

// jsonEditor edits JSON and JSONC with package fix's value edits.
type jsonEditor struct{}

func (jsonEditor) check(content []byte) error {
	if content == nil {
		return nil
	}
	return fix.CheckJSON(content)
}

func (jsonEditor) lookup(content []byte, path []string) (any, bool, error) {
	if content == nil {
		return nil, false, nil
	}
	n := fix.LookupJSON(content, path)
	if n == nil {
		return nil, false, nil
	}
	v, ok := fix.NodeValue(n)
	return v, ok, nil
}

func (jsonEditor) set(content []byte, path []string, v any) ([]byte, error) {
	return fix.SetJSON(content, path, v)
}

func (jsonEditor) remove(content []byte, path []string) ([]byte, error) {
	if content == nil {
		return nil, nil
	}
	return fix.RemoveJSON(content, path)
}

// tomlEditor edits Codex CLI's config.toml with package fix's value
// edits: a new server is a [mcp_servers.<name>] table in the layout of
// `codex mcp add` (convert.RenderCodexFile), an existing one is merged
// key by key, keeping its comments and the rest of the file.
type tomlEditor struct{}

func (tomlEditor) check(content []byte) error {
	if content == nil {
		return nil
	}
	if f := toml.Parse(content); len(f.Errors) > 0 {
		e := f.Errors[0]
		line, _ := position(content, min(e.Span.Start, len(content)))
		return fmt.Errorf("%w: line %d: %s", fix.ErrSyntax, line, e.Message)
	}
	return nil
}

func (tomlEditor) lookup(content []byte, path []string) (any, bool, error) {
	if content == nil {
		return nil, false, nil
	}
	n := fix.LookupTOML(content, path)
	if n == nil {
		return nil, false, nil
	}
	v, ok := fix.NodeValue(n)
	return v, ok, nil
}

func (tomlEditor) set(content []byte, path []string, v any) ([]byte, error) {
	return fix.SetTOML(content, path, v)
}

func (tomlEditor) remove(content []byte, path []string) ([]byte, error) {
	if content == nil {
		return nil, nil
	}
	return fix.RemoveTOML(content, path)
}

// noEditor is a syntax sync cannot write (yet).
type noEditor struct{ ext string }

func (e noEditor) check([]byte) error {
	return errors.New("sync cannot write " + e.ext + " files")
}
func (e noEditor) lookup([]byte, []string) (any, bool, error) { return nil, false, e.check(nil) }
func (e noEditor) set([]byte, []string, any) ([]byte, error)  { return nil, e.check(nil) }
func (e noEditor) remove([]byte, []string) ([]byte, error)    { return nil, e.check(nil) }
