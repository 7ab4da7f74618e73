package toml

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTOMLTestSuite runs the toml-test suite (github.com/toml-lang/toml-test)
// that go-toml ships as generated Go tests, read from the module cache:
// every valid document must parse without error to the value go-toml
// decodes, every invalid one must be reported. It is skipped when the
// module's source is not in the cache (a vendored or pruned build).
func TestTOMLTestSuite(t *testing.T) {
	cases := tomlTestCases(t)
	for _, c := range cases {
		src := []byte(c.input)
		f := Parse(src)
		checkTree(t, src, f)
		switch {
		case c.valid && len(f.Errors) > 0:
			t.Errorf("%s: valid, but Parse reports %v\n%s", c.name, f.Errors, src)
		case !c.valid && len(f.Errors) == 0:
			t.Errorf("%s: invalid, but Parse reports nothing\n%s", c.name, src)
		case c.valid:
			checkOracle(t, src, f)
		}
	}
	t.Logf("%d toml-test cases", len(cases))
}

type suiteCase struct {
	name, input string
	valid       bool
}

func tomlTestCases(t *testing.T) []suiteCase {
	t.Helper()
	// The version go.mod requires; test binaries carry no dependency list.
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Skipf("go.mod: %v", err)
	}
	version := ""
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/pelletier/go-toml/v2" {
			version = f[1]
		}
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		cache = filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod")
	}
	file := filepath.Join(cache, "github.com", "pelletier", "go-toml", "v2@"+version, "toml_testgen_test.go")
	src, err := os.ReadFile(file)
	if version == "" || err != nil {
		t.Skipf("toml-test cases not available (%s): %v", file, err)
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []suiteCase
	for _, d := range af.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fn.Name.Name, "TestTOMLTest_") {
			continue
		}
		c := suiteCase{name: fn.Name.Name, valid: strings.Contains(fn.Name.Name, "_Valid_")}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "input" {
				if lit, ok := as.Rhs[0].(*ast.BasicLit); ok {
					c.input, _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases found", file)
	}
	return out
}
