package verdict

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNothingElseDecidesAnEntry asserts that no code outside this package
// decides what a reader does with a server entry: nothing else picks a
// schema branch (schemas.ServerDef, schemas.Branch), validates against a
// schema (the jsonschema library), reads the registry's per-reader
// entry effects (Reader.Effects), or writes a tool id into a condition
// (r.Tool == "opencode": a per-tool fact the registry should hold). The schema diagnostics, the semantic
// rules, the effective engine, hover, code actions, the language server
// and the CLI read a Verdict instead, so they cannot disagree.
//
// Two packages ask the schemas for something else and are allowed to:
// completion (the keys a branch offers) and conversion (whether its own
// output loads in the target dialect). The schemas package itself and the
// registry, which holds the facts, are the sources.
func TestNothingElseDecidesAnEntry(t *testing.T) {
	root := filepath.Join("..", "..")
	allowed := []string{"analysis/verdict/", "schemas/", "discovery/registry/", "analysis/complete/", "analysis/convert/"}
	var checked int
	found := map[string][]string{} // file -> offences
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		offences := decisions(t, path)
		for _, a := range allowed {
			if strings.HasPrefix(rel, a) {
				if rel == "analysis/verdict/verdict.go" && len(offences) == 0 {
					t.Errorf("the detector finds nothing in %s, which picks schema branches: it is broken", rel)
				}
				return nil
			}
		}
		checked++
		if len(offences) > 0 {
			found[rel] = offences
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk is broken", checked)
	}
	for file, offences := range found {
		t.Errorf("%s decides a reader's treatment of an entry outside analysis/verdict: %s", file, strings.Join(offences, ", "))
	}
}

// decisions lists what in the file at path decides an entry's treatment.
func decisions(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.Contains(p, "santhosh-tekuri/jsonschema") {
			out = append(out, "imports "+p)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "schemas" {
			switch sel.Sel.Name {
			case "ServerDef", "Branch", "Dialects":
				out = append(out, "schemas."+sel.Sel.Name)
			}
		}
		if sel.Sel.Name == "Effects" {
			out = append(out, "reads Reader.Effects")
		}
		return true
	})
	// A tool id written into a condition (r.Tool == "opencode", a switch
	// on r.Tool with "opencode" as a case) is a per-tool fact in code: the
	// registry holds those, per reader and file, with their sources.
	isTool := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Tool"
	}
	isString := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Kind == token.STRING
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isTool(n.X) && isString(n.Y) || isTool(n.Y) && isString(n.X)) {
				out = append(out, "compares a reader's Tool with a literal tool id")
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !isTool(n.Tag) {
				return true
			}
			for _, cc := range n.Body.List {
				if slices.ContainsFunc(cc.(*ast.CaseClause).List, isString) {
					out = append(out, "switches on a reader's Tool with a literal tool id")
				}
			}
		}
		return true
	})
	return out
}

// TestDecisionsDetector: the detector of TestNothingElseDecidesAnEntry
// finds a tool id hard-coded in a condition, the way the top-level keys
// of OpenCode were once judged.
func TestDecisionsDetector(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.go")
	src := `package x

func a(r *R) bool { return r.Tool == "opencode" }
func b(r *R) int {
	switch r.Tool {
	case "codex-cli":
		return 1
	}
	return 0
}
func c(r *R) bool { return r.Tool == other }
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := decisions(t, path)
	want := []string{"compares a reader's Tool with a literal tool id", "switches on a reader's Tool with a literal tool id"}
	if !slices.Equal(got, want) {
		t.Errorf("decisions = %q, want %q", got, want)
	}
}
