package lsp

import (
	"bytes"
	stdjson "encoding/json"
	"reflect"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// libraryParams is what go.lsp.dev/jsonrpc2 sends as the params of a
// notification carrying p: the reference the hand encoder must match.
func libraryParams(t *testing.T, p publishParams) []byte {
	t.Helper()
	n, err := jsonrpc2.NewNotification(protocol.MethodTextDocumentPublishDiagnostics, p)
	if err != nil {
		t.Fatal(err)
	}
	return n.Params()
}

func TestAppendPublishParamsMatchesLibrary(t *testing.T) {
	// Every byte class a message can hold: ASCII, non-ASCII (2-, 3- and
	// 4-byte UTF-8), every control character, the HTML-escaped ones,
	// quotes and backslashes, invalid UTF-8, DEL and U+2028/U+2029.
	var ctl []byte
	for c := 0; c < 0x20; c++ {
		ctl = append(ctl, byte(c))
	}
	odd := "héllo — 日本 🙂 \"q\" \\ <a href='x'>&amp;</a> \x7f \xff\xfe bad \u2028 \u2029 end" + string(ctl)
	v := int32(7)
	zero := int32(0)
	full := protocol.Diagnostic{
		Range:           protocol.Range{Start: protocol.Position{Line: 3, Character: 14}, End: protocol.Position{Line: 4294967295, Character: 2}},
		Severity:        protocol.DiagnosticSeverityHint,
		Code:            "unpinned-package",
		CodeDescription: &protocol.CodeDescription{Href: uri.URI(RulesDocURL + "#unpinned-package")},
		Source:          "mcp-lsp",
		Message:         odd,
		Tags:            []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary, protocol.DiagnosticTagDeprecated},
		RelatedInformation: []protocol.DiagnosticRelatedInformation{
			{Location: protocol.Location{URI: "file:///tmp/a%20b/.mcp.json", Range: protocol.Range{End: protocol.Position{Line: 1, Character: 1}}}, Message: odd},
			{Location: protocol.Location{URI: "file:///x/日本.json"}, Message: ""},
		},
		Data: map[string]any{
			"server":      odd,
			"tools":       []string{"claude-code", "vscode", odd},
			"validValues": []any{"a", 1.0, 2.5, true, nil, map[string]any{"z": 1, "a": []string{}}},
			"nested":      map[string]any{"b": false, "a": int(-3), odd: 1e300},
			rules.FixKey:  rules.Fix{Kind: rules.FixRenameKey, Key: "k<", Value: odd, Variable: "V"},
			"nilmap":      map[string]any(nil),
			"nilslice":    []string(nil),
			"float":       0.1,
		},
	}
	cases := map[string]publishParams{
		"every field": {URI: "file:///tmp/w/.mcp.json", Version: &v, Diagnostics: []protocol.Diagnostic{full, full}},
		"version 0":   {URI: "file:///tmp/w/.mcp.json", Version: &zero, Diagnostics: []protocol.Diagnostic{}},
		"no version":  {URI: "file:///tmp/w/" + protocol.DocumentURI(odd), Diagnostics: []protocol.Diagnostic{{Message: ""}}},
		"nil list":    {URI: "file:///a"},
		"minimal and odd codes": {URI: "file:///a", Diagnostics: []protocol.Diagnostic{
			{Message: "m", Code: int32(42)},
			{Message: "m", Code: ""},
			{Message: "m", Severity: 2.5, Data: map[string]any(nil)},
			{Message: "m", Data: "plain"},
			{Message: "m", Data: ""},
			{Message: "m", Data: 0},
			{Message: "m", Data: []string(nil)},
			{Message: "m", Data: (*rules.Fix)(nil)},
			{Message: "m", Data: map[string]int(nil)},
			{Message: "m", Data: map[string]int{}},
			{Message: "m", Tags: []protocol.DiagnosticTag{}},
			{Message: "m", RelatedInformation: []protocol.DiagnosticRelatedInformation{}},
		}},
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			want := libraryParams(t, p)
			got := appendPublishParams([]byte("garbage"), p)[len("garbage"):]
			var gv, wv any
			if err := stdjson.Unmarshal(got, &gv); err != nil {
				t.Fatalf("hand encoding is not JSON: %v\n%s", err, got)
			}
			if err := stdjson.Unmarshal(want, &wv); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gv, wv) {
				t.Fatalf("not JSON-equal to the library's encoding\n got: %s\nwant: %s", got, want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("JSON-equal but bytes differ\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

// TestAppendJSONStringEveryRune holds the string quoting to the library's
// for every single rune class boundary and every byte value.
func TestAppendJSONStringEveryRune(t *testing.T) {
	var inputs []string
	for c := 0; c < 256; c++ {
		inputs = append(inputs, string([]byte{byte(c)}), "abcdefgh"+string([]byte{byte(c)})+"ijklmnop")
	}
	for _, r := range []rune{0x80, 0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x10ffff, 0x2027, 0x2028, 0x2029, 0x202a} {
		inputs = append(inputs, string(r), "abcdefgh"+string(r))
	}
	inputs = append(inputs, "", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf")
	for _, s := range inputs {
		want := libraryParams(t, publishParams{URI: protocol.DocumentURI(s)})
		got := appendPublishParams(nil, publishParams{URI: protocol.DocumentURI(s)})
		if !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
