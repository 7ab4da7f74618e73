package lsp

import (
	"encoding/json"
	"testing"
)

// The client's first settings, when they are what the server assumed,
// keep the command lookups (and with them every file's analysis): they
// were made moments before at startup. Any later answer, even the same
// one, looks again, since the user may have installed a program.
func TestFirstDefaultSettingsKeepLookups(t *testing.T) {
	s := newServer(Options{})
	s.diags = newDiagnoser(s)
	gen := s.session.Snapshot().Generation()
	s.setSettings(json.RawMessage("null"))
	if g := s.session.Snapshot().Generation(); g != gen {
		t.Errorf("first settings equal to the defaults: generation %d -> %d", gen, g)
	}
	s.setSettings(json.RawMessage("null"))
	if g := s.session.Snapshot().Generation(); g == gen {
		t.Errorf("second settings kept generation %d", gen)
	}

	s = newServer(Options{})
	s.diags = newDiagnoser(s)
	gen = s.session.Snapshot().Generation()
	s.setSettings(json.RawMessage(`{"commandLookup": false}`))
	if g := s.session.Snapshot().Generation(); g == gen {
		t.Errorf("first settings that differ from the defaults kept generation %d", gen)
	}
}
