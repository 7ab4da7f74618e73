package fix

import (
	"encoding/json"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/analysis/span"
)

// Diagnostic is what a fix needs to know about a finding: its rule code,
// where it is, and its Data, typed.
type Diagnostic struct {
	Code string
	Span span.Span
	Data Data
}

// Data is what fixes read of a diagnostic's Data: the quick fix the rule
// offers ([rules.Fix], the one vocabulary of fix data, documented in
// docs/rules.md) and the facts a fixer checks against the file before
// editing (the server, the field, the key, the type spelling as written).
// A finding's Data is an untyped map (the editor is never sent it: the
// language server finds the finding again by code and range); [DecodeData]
// re-marshals it into this struct. Unknown keys are ignored.
type Data struct {
	Fix    rules.Fix `json:"fix"`
	Server string    `json:"server,omitempty"`
	Field  string    `json:"field,omitempty"`
	Key    string    `json:"key,omitempty"`
	// Value is a type spelling as written (type-not-accepted); never a
	// secret.
	Value string  `json:"value,omitempty"`
	Tools Strings `json:"tools,omitempty"`
}

// Strings is a list that also decodes from a single string.
type Strings []string

// UnmarshalJSON accepts "x" as well as ["x", "y"].
func (s *Strings) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = Strings{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*s = many
	return nil
}

// Has reports whether the list holds v.
func (s Strings) Has(v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// DecodeData decodes a diagnostic's Data from JSON. Data of an unexpected
// shape decodes to the zero Data, which no fix accepts, rather than to an
// error.
func DecodeData(raw []byte) Data {
	var d Data
	if len(raw) == 0 || json.Unmarshal(raw, &d) != nil {
		return Data{}
	}
	return d
}

// FromAnalysis converts analysis findings. Their Data goes through JSON
// into the typed Data, so a fix reads the same fields whichever Go types
// the rule built them with.
func FromAnalysis(ds []rules.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		var data Data
		if len(d.Data) > 0 {
			raw, err := json.Marshal(d.Data)
			if err == nil {
				data = DecodeData(raw)
			}
		}
		out[i] = Diagnostic{Code: d.Code, Span: d.Span, Data: data}
	}
	return out
}
