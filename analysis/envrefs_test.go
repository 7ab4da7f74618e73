package analysis

import (
	"fmt"
	"testing"
)

func TestEnvReferences(t *testing.T) {
	claude := []string{"${VAR}", "${VAR:-default}"}
	for _, c := range []struct {
		s     string
		forms []string
		want  string
	}{
		{"Bearer ${TOKEN}", claude, "[TOKEN] [true]"},
		{"${HOST:-localhost}:${PORT}", claude, "[HOST PORT] [false true]"},
		{"${A:-x} ${A}", claude, "[A] [true]"},
		{"{env:KEY} ${NOT_MINE}", []string{"{env:VAR}", "{file:path}"}, "[KEY] [true]"},
		{"$HOME/${X}", []string{"$VAR", "${VAR}"}, "[HOME X] [true true]"},
		{"${env:TOKEN} ${input:tok} ${userHome}", []string{"${env:VAR}", "${input:id}", "${userHome}"}, "[TOKEN HOME] [true true]"},
		{"no refs", claude, "[] []"},
	} {
		names, req := EnvReferences(c.s, c.forms)
		if got := fmt.Sprint(names, req); got != c.want {
			t.Errorf("EnvReferences(%q) = %s, want %s", c.s, got, c.want)
		}
	}
}
