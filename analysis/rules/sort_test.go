package rules

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// TestSortDiagnosticsIsStable: SortDiagnostics orders as a stable sort by
// position, code and message does, findings equal in all four (told apart
// here by their Data) keeping their order, sorted input included.
func TestSortDiagnosticsIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		ds := make([]Diagnostic, n)
		for i := range ds {
			start := r.IntN(20)
			ds[i] = Diagnostic{Span: span.New(start, start+r.IntN(3)), Code: fmt.Sprint("c", r.IntN(3)), Message: fmt.Sprint("m", r.IntN(2)), Data: map[string]any{"i": i}}
		}
		if n%3 == 0 {
			SortDiagnostics(ds) // sorted input
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, func(a, b Diagnostic) int {
			return cmp.Or(cmp.Compare(a.Span.Start, b.Span.Start), cmp.Compare(a.Span.End, b.Span.End), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
		})
		SortDiagnostics(ds)
		if !reflect.DeepEqual(ds, want) {
			t.Fatalf("%d findings: sorted as\n%v\nwant\n%v", n, ds, want)
		}
	}
}
