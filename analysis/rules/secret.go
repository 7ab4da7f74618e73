package rules

import (
	"fmt"
	"log/slog"
)

// Secret holds a value that must never be shown: a header or environment
// value of an MCP server. It masks itself wherever it could leak: printed
// with any fmt verb, marshalled (JSON, text) and logged (slog). The
// language server never shows a secret in hover, symbols or logs, and the
// CLI never prints one; this type makes that the default rather than a
// discipline.
type Secret struct{ value string }

// Masked is what a Secret shows instead of its value.
const Masked = "••••••"

// NewSecret wraps value.
func NewSecret(value string) Secret { return Secret{value: value} }

// IsEmpty reports whether the value is empty (which is safe to say).
func (s Secret) IsEmpty() bool { return s.value == "" }

// String implements fmt.Stringer.
func (s Secret) String() string { return Masked }

// Format implements fmt.Formatter, so %v, %+v, %#v, %q and %s all mask.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(Masked)) }

// MarshalJSON implements json.Marshaler.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + Masked + `"`), nil }

// MarshalText implements encoding.TextMarshaler.
func (s Secret) MarshalText() ([]byte, error) { return []byte(Masked), nil }

// LogValue implements slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(Masked) }
