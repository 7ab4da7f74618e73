package rules

import (
	"github.com/mcp-lsp/mcp-lsp/discovery/registry"
)

// A Check finds the problems of one rule, or of a small family of rules
// that one pass finds together: one validation of an entry against the
// schema branch each reader picks yields unknown keys, wrong values and
// missing fields at once, and running it once per code would repeat the
// validation. Each Rule names its Check; AnalyzeFile runs every Check
// once, in the order of Rules (checksOf).
//
// Exactly one of the functions is set; it says what the check looks at.
// A check with none reports its rule elsewhere (see elsewhere).
type Check struct {
	// file looks at the whole file: its bytes, parse and kind.
	file func(in FileInput) []Diagnostic
	// sem looks at the whole file as its readers read it (server maps
	// with their readers, the tools' file-level facts).
	sem func(c *semantic)
	// entry looks at one server entry as each of its readers reads it
	// (their verdicts). Its findings depend on nothing but the entry's
	// text and readers, so they are memoised by text (semantic_memo.go).
	entry func(c *semantic, e *semEntry)
	// anyValue: the entry check also judges an entry that is not an object
	// or is being typed (its name can still be wrong); the others leave
	// those to the schema and syntax rules.
	anyValue bool
	// machine looks at one server entry on the user's machine (through
	// the Resolver), outside the memo: starters are the readers that
	// start the entry as a local process.
	machine func(c *semantic, s *Server, starters []*registry.Reader, hasCwd bool)
	// elsewhere names where a rule without a function is reported: the
	// cross-file rules need every file a tool reads (package effective),
	// unused-ignore needs every finding (Config.Suppress), file-too-large
	// is given instead of analysing (TooLarge).
	elsewhere string
}

func fileCheck(fn func(FileInput) []Diagnostic) *Check { return &Check{file: fn} }
func semCheck(fn func(*semantic)) *Check               { return &Check{sem: fn} }
func entryCheck(fn func(*semantic, *semEntry)) *Check  { return &Check{entry: fn} }
func nameCheck(fn func(*semantic, *semEntry)) *Check   { return &Check{entry: fn, anyValue: true} }
func reportedIn(where string) *Check                   { return &Check{elsewhere: where} }

// checksOf returns the distinct checks of Rules that keep selects, in the
// order of Rules.
func checksOf(keep func(*Check) bool) []*Check {
	var out []*Check
	seen := map[*Check]bool{}
	for _, r := range Rules {
		if r.Check != nil && !seen[r.Check] && keep(r.Check) {
			seen[r.Check] = true
			out = append(out, r.Check)
		}
	}
	return out
}

// The checks by scope, each in the order of Rules.
var (
	fileChecks    = checksOf(func(k *Check) bool { return k.file != nil })
	semChecks     = checksOf(func(k *Check) bool { return k.sem != nil })
	entryChecks   = checksOf(func(k *Check) bool { return k.entry != nil })
	machineChecks = checksOf(func(k *Check) bool { return k.machine != nil })
)
