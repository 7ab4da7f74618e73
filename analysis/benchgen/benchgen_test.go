package benchgen

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestMCPJSONIsGenconfigs compares MCPJSON with the SHA-256 of
// genconfig.py's own output (../shared/tools), pretty, and minified with
// Python's separators. The benchmarks' figures are only comparable with
// perf_compare.sh's while the files are the same. To recompute a hash:
//
//	python3 ../shared/tools/genconfig.py claude 300 --errors | sha256sum
//	python3 ../shared/tools/genconfig.py claude 300 --errors | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin),separators=(",",":")))' | sha256sum
func TestMCPJSONIsGenconfigs(t *testing.T) {
	for _, c := range []struct {
		n                int
		errors           bool
		pretty, minified string
	}{
		{5, false, "ce2007333825d19626289f76abd6900cb4360cfce1dec5855838bb1cecc63a53", "ab930263b9bd97b1fdcd0dd9fd4485055a1840e75ebb3759d3eb0a7845331ab8"},
		{300, true, "2c1fdba48d86c388ce4edfded2b1974f5eb5707ceba38a4ede4bcf2ab845dfff", "cd86cec91ce729ad7d336b126aa82aac254d9fbb7ccc59f869588cd0b06da7cd"},
		{1000, true, "0f23b8bab84cbabc0342d76f95d0891b200bc97534baae616bdf9457d240c948", "20208064155fcd1fcafe9473a7adfd7fa37f55daed54a71cf73f4cfba7727731"},
	} {
		for _, f := range []struct {
			indent bool
			want   string
		}{{true, c.pretty}, {false, c.minified}} {
			sum := sha256.Sum256(MCPJSON(c.n, c.errors, f.indent))
			if got := hex.EncodeToString(sum[:]); got != f.want {
				t.Errorf("MCPJSON(%d, %v, %v): sha256 %s, genconfig.py's is %s", c.n, c.errors, f.indent, got, f.want)
			}
		}
	}
}
