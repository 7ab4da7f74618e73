package convert_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/convert"
	"github.com/mcp-lsp/mcp-lsp/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/convert")

// goldenDir holds one directory per case: in.<dialect>.json is the source
// (its dialect in the name), and for every target dialect to.<dialect>.txt
// holds the losses as the CLI prints them (or "error: ..."), and
// to.<dialect>.json the converted file when there is one.
const goldenDir = "../../testdata/convert"

// secretMarkers are fragments of the secret values in the golden inputs:
// no loss or error may show them.
var secretMarkers = []string{"sk-live", "cs-literal-secret", "none}", "/tmp/data"}

func TestGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join(goldenDir, "*", "in.*.json"))
	tomls, _ := filepath.Glob(filepath.Join(goldenDir, "*", "in.*.toml"))
	cases = append(cases, tomls...)
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden inputs in %s (%v)", goldenDir, err)
	}
	for _, in := range cases {
		dir := filepath.Dir(in)
		from := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(in), "in."), filepath.Ext(in))
		content, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range convert.Dialects() {
			t.Run(filepath.Base(dir)+"/"+to, func(t *testing.T) {
				out, losses, err := convert.ConvertFile(from, to, content)
				var report strings.Builder
				if err != nil {
					report.WriteString("error: " + err.Error() + "\n")
				}
				for _, l := range losses {
					report.WriteString(l.String() + "\n")
				}
				for _, m := range secretMarkers {
					if strings.Contains(report.String(), m) {
						t.Errorf("the report shows a secret (%q):\n%s", m, report.String())
					}
				}
				if err == nil {
					validate(t, to, out)
					checkFixedPoint(t, to, out)
				}
				golden(t, filepath.Join(dir, "to."+to+".txt"), []byte(report.String()))
				golden(t, filepath.Join(dir, "to."+to+fileExt(to)), out)
			})
		}
	}
}

// validate checks a whole converted file against the target's schema.
func validate(t *testing.T, dialect string, out []byte) {
	t.Helper()
	sch, err := schemas.Compiled(dialect)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decodeAs(dialect, out)
	if err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("output does not validate against the %s schema: %v\n%s", dialect, err, out)
	}
}

// checkFixedPoint converts an output to its own dialect again: a converted
// file is in normal form, so nothing may be lost, and at most spellings
// may change once (Copilot CLI's $VAR, which a loss said the text would
// become, is written ${VAR}); after that nothing changes.
func checkFixedPoint(t *testing.T, dialect string, out []byte) {
	t.Helper()
	again, losses, err := convert.ConvertFile(dialect, dialect, out)
	if err != nil {
		t.Fatalf("converting the output to %s again: %v", dialect, err)
	}
	if len(losses) > 0 {
		t.Errorf("converting the output to %s again loses: %v", dialect, losses)
	}
	if bytes.Equal(again, out) {
		return
	}
	third, _, err := convert.ConvertFile(dialect, dialect, again)
	if err != nil || !bytes.Equal(third, again) {
		t.Errorf("converting the output to %s again does not settle (%v):\n%s\nthen:\n%s", dialect, err, again, third)
	}
}

// golden compares got with the file, or rewrites it with -update. A nil
// got means the file must not exist.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if got == nil {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	switch {
	case got == nil && os.IsNotExist(err):
	case got == nil:
		t.Errorf("%s exists but the conversion produced no file (run go test ./analysis/convert -update)", path)
	case err != nil:
		t.Errorf("%v (run go test ./analysis/convert -update)", err)
	case !bytes.Equal(got, want):
		t.Errorf("%s differs (run go test ./analysis/convert -update):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
