package effective

import (
	"strings"
	"testing"
)

func TestMaskIfSecret_References(t *testing.T) {
	for _, tc := range []struct {
		in       string
		visible  string // must stay
		hidden   string // must go ("" = nothing)
		unmasked bool
	}{
		{in: "--api-key=${API_KEY}", visible: "${API_KEY}", unmasked: true},
		{in: "--api-key={env:API_KEY}", visible: "{env:API_KEY}", unmasked: true},
		// A default may be the secret itself.
		{in: "--api-key=${API_KEY:-hunter2hunter2}", hidden: "hunter2hunter2"},
		{in: "--token=plainvalue", hidden: "plainvalue"},
	} {
		got := MaskIfSecret(tc.in)
		if tc.visible != "" && !strings.Contains(got, tc.visible) {
			t.Errorf("MaskIfSecret(%q) = %q, lost %q", tc.in, got, tc.visible)
		}
		if tc.hidden != "" && strings.Contains(got, tc.hidden) {
			t.Errorf("MaskIfSecret(%q) = %q, shows %q", tc.in, got, tc.hidden)
		}
		if tc.unmasked && got != tc.in {
			t.Errorf("MaskIfSecret(%q) = %q, want it unchanged", tc.in, got)
		}
	}
}
