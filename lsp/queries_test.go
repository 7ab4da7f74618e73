package lsp

// Data-driven hover and completion: testdata/queries/*.txtar.
//
// An archive holds input files under their real names (home/ is the fake
// home) and, in its comment, one query per line:
//
//	hover .mcp.json 2:6
//	complete .mcp.json 3:9
//
// (0-based line and UTF-16 character). Every input is opened over LSP, the
// queries are asked in order, and the answers (hover Markdown; completion
// labels with their kind and text edit range) are compared with want.json.
// Regenerate with: go test ./lsp -run TestQueries -update

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

type query struct {
	kind, file string
	pos        protocol.Position
}

func (sc *scenario) queries(t *testing.T) []query {
	t.Helper()
	var out []query
	for _, line := range strings.Split(string(sc.archive.Comment), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || (f[0] != "hover" && f[0] != "complete") {
			continue
		}
		l, c, ok := strings.Cut(f[2], ":")
		ln, err1 := strconv.Atoi(l)
		ch, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("%s: bad position in %q", sc.name, line)
		}
		out = append(out, query{f[0], f[1], pos(uint32(ln), uint32(ch))})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no queries in the archive comment", sc.name)
	}
	return out
}

func TestQueries(t *testing.T) {
	for _, sc := range loadArchives(t, "queries") {
		t.Run(sc.name, func(t *testing.T) {
			sc.materialize(t)
			c := startServer(t, Options{Env: sc.env})
			c.initialize(sc.dir)
			uris := map[string]protocol.DocumentURI{}
			for _, name := range sc.inputs {
				uris[name] = c.open(filepath.Join(sc.dir, filepath.FromSlash(name)), string(sc.input(name)))
			}
			got := map[string]any{}
			for _, q := range sc.queries(t) {
				key := fmt.Sprintf("%s %s %d:%d", q.kind, q.file, q.pos.Line, q.pos.Character)
				uri, ok := uris[q.file]
				if !ok {
					t.Fatalf("query on %s, which is not in the archive", q.file)
				}
				switch q.kind {
				case "hover":
					got[key] = strings.ReplaceAll(c.hover(uri, q.pos), sc.dir, "$DIR")
				case "complete":
					list := c.complete(uri, q.pos)
					items := []string{}
					for _, it := range list.Items {
						s := fmt.Sprintf("%s (%v)", it.Label, it.Kind)
						if it.TextEdit != nil {
							s += " @" + formatRange(it.TextEdit.Range)
						}
						items = append(items, s)
					}
					got[key] = items
				}
			}
			data, _ := json.MarshalIndent(got, "", "  ")
			if *update {
				sc.setWant(t, append(data, '\n'))
				return
			}
			if want := sc.content(wantFile); string(want) != string(data)+"\n" {
				t.Errorf("answers differ\n--- want\n%s\n--- got\n%s", want, data)
			}
		})
	}
}
