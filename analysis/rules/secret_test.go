package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretNeverShowsItsValue(t *testing.T) {
	const value = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	s := NewSecret(value)
	var outputs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		outputs = append(outputs, fmt.Sprintf(verb, s), fmt.Sprintf(verb, struct{ S Secret }{s}))
	}
	j, _ := json.Marshal(map[string]any{"token": s})
	outputs = append(outputs, string(j), s.String())
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "token", s)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "token", s)
	outputs = append(outputs, logs.String())
	for _, out := range outputs {
		if strings.Contains(out, value) || strings.Contains(out, "abcdef") {
			t.Errorf("secret leaked: %s", out)
		}
		if !strings.Contains(out, Masked) {
			t.Errorf("output does not show the mask: %s", out)
		}
	}
}
