package lsp

import (
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	"github.com/mcp-lsp/mcp-lsp/lsp/cache"
)

// The workspace edits of code actions are our own types:
// go.lsp.dev/protocol v0.12.0 types WorkspaceEdit.DocumentChanges as text
// edits only, and a conversion must be able to create the target file
// (LSP 3.16 resource operations).

// workspaceEdit is LSP's WorkspaceEdit: changes by URI for clients without
// documentChanges, else documentChanges mixing file creations and
// versioned text edits.
type workspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []any                                        `json:"documentChanges,omitempty"`
}

// createFile is LSP's CreateFile resource operation.
type createFile struct {
	Kind    string               `json:"kind"` // always "create"
	URI     protocol.DocumentURI `json:"uri"`
	Options *createFileOptions   `json:"options,omitempty"`
}

type createFileOptions struct {
	Overwrite      bool `json:"overwrite,omitempty"`
	IgnoreIfExists bool `json:"ignoreIfExists,omitempty"`
}

// textDocumentEdit is LSP's TextDocumentEdit with a version that is sent
// as null (not omitted) for a file that is not open: "the content on disk
// is the master".
type textDocumentEdit struct {
	TextDocument versionedDocument   `json:"textDocument"`
	Edits        []protocol.TextEdit `json:"edits"`
}

type versionedDocument struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version *int32               `json:"version"`
}

// editCaps is what the client's workspace edits can carry.
type editCaps struct {
	documentChanges bool // documentChanges instead of changes
	create          bool // resource operation "create"
	// mappers converts offsets in the session's position encoding.
	mappers *mapperCache
}

// toWorkspaceEdit converts a protocol-neutral change for the client. Byte
// offsets become positions with the Mapper of each file's content in snap
// (the content the edits were computed on); an open file's edit carries
// the buffer's version, so the client refuses it if the buffer moved on.
//
// A created file is created empty, then filled by one insertion: LSP has
// no "create with content". ignoreIfExists guards against a file that
// appeared since the action was computed: the create is then skipped
// rather than truncating the file (what Neovim does for a create without
// options), and the insertion lands in front of its content, where the
// user sees it at once.
func toWorkspaceEdit(snap *cache.Snapshot, ch *fix.Change, caps editCaps) (*workspaceEdit, error) {
	if len(ch.Creates) > 0 && !(caps.documentChanges && caps.create) {
		return nil, fmt.Errorf("the client cannot create files")
	}
	loc := newLocator(snap, caps.mappers)
	we := &workspaceEdit{}
	for _, c := range ch.Creates {
		uri := pathToURI(c.Path)
		we.DocumentChanges = append(we.DocumentChanges,
			createFile{Kind: "create", URI: uri, Options: &createFileOptions{IgnoreIfExists: true}},
			textDocumentEdit{TextDocument: versionedDocument{URI: uri}, Edits: []protocol.TextEdit{{NewText: string(c.Content)}}},
		)
	}
	var paths []string
	for _, e := range ch.Edits {
		if !slices.Contains(paths, e.Path) {
			paths = append(paths, e.Path)
		}
	}
	for _, p := range paths {
		m := loc.mapper(p)
		var edits []protocol.TextEdit
		for _, e := range ch.EditsFor(p) {
			rng, err := m.Range(e.Span)
			if err != nil {
				return nil, fmt.Errorf("edit of %s: %w", p, err)
			}
			edits = append(edits, protocol.TextEdit{Range: rng, NewText: e.NewText})
		}
		uri := loc.uri(p)
		if !caps.documentChanges {
			if we.Changes == nil {
				we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
			}
			we.Changes[uri] = edits
			continue
		}
		doc := versionedDocument{URI: uri}
		if o, ok := snap.Overlay(p); ok {
			v := o.Version
			doc.Version = &v
		}
		we.DocumentChanges = append(we.DocumentChanges, textDocumentEdit{TextDocument: doc, Edits: edits})
	}
	return we, nil
}
