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

// TestMergeSortedIsSortOfBoth: MergeSorted(a, b) of two sorted lists is
// what SortDiagnostics makes of a followed by b, equal findings (told
// apart by their Data) in that order, and leaves a and b as they were.
func TestMergeSortedIsSortOfBoth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	gen := func(n, from int) []Diagnostic {
		ds := make([]Diagnostic, n)
		for i := range ds {
			start := r.IntN(10)
			ds[i] = Diagnostic{Span: span.New(start, start+r.IntN(2)), Code: fmt.Sprint("c", r.IntN(2)), Message: "m", Data: map[string]any{"i": from + i}}
		}
		SortDiagnostics(ds)
		return ds
	}
	for n := range 300 {
		a, b := gen(n%17, 0), gen(n/17, 100)
		want := append(slices.Clone(a), b...)
		SortDiagnostics(want)
		a0, b0 := slices.Clone(a), slices.Clone(b)
		if got := MergeSorted(a, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("MergeSorted(%v, %v) = %v, want %v", a, b, got, want)
		}
		if !reflect.DeepEqual(a, a0) || !reflect.DeepEqual(b, b0) {
			t.Fatal("MergeSorted modified its input")
		}
	}
	if MergeSorted(nil, nil) != nil || MergeSorted(nil, []Diagnostic{}) != nil || MergeSorted([]Diagnostic{}, nil) == nil {
		t.Error("MergeSorted is nil exactly when slices.Clone(a) with nothing appended would be")
	}
}
