package lsp

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestTextReuseIsUnquote chains random edits of a large document sent
// whole (the version before or after it in the params), escaped in every way JSON allows (\", \\, \/, \n, \uXXXX,
// surrogate pairs, raw non-ASCII), now and then with what the fast
// decoder refuses (a lone surrogate, a NUL escape, invalid UTF-8, a raw
// control character, an unterminated escape); one textReuse decodes them
// in turn. Every result is the stateless decoder's, and encoding/json's
// where that one decodes; and most edits were decoded from the previous
// text.
func TestTextReuseIsUnquote(t *testing.T) {
	pieces := []string{"a", "bcdefgh", " ", `\n`, `\"`, `\\`, `\/`, `\t`, "é", "😀", `\u00e9`, `\ud83d\ude00`, `\u2028`, `{\"k\": \"v\"},\n    `}
	bad := []string{`\ud83d`, `\u0000`, "\xff", "\x01", `\x`}
	r := rand.New(rand.NewPCG(11, 12))
	doc := make([]string, 0, 4000)
	for range 3000 {
		doc = append(doc, pieces[r.IntN(len(pieces))])
	}
	var reuse textReuse
	reused, fast := 0, 0
	for step := range 400 {
		// An edit: pieces typed, deleted or replaced somewhere, most often
		// a few, sometimes many; now and then the whole text anew.
		at := r.IntN(len(doc) + 1)
		del, n := r.IntN(3), r.IntN(4)
		switch r.IntN(10) {
		case 0:
			del, n = r.IntN(200), 0
		case 1:
			del, n = 0, 50+r.IntN(100)
		}
		del = min(del, len(doc)-at)
		var ins []string
		for range n {
			if r.IntN(25) == 0 {
				ins = append(ins, bad[r.IntN(len(bad))])
			} else {
				ins = append(ins, pieces[r.IntN(len(pieces))])
			}
		}
		doc = append(doc[:at:at], append(ins, doc[at+del:]...)...)
		if step%97 == 96 { // a large deletion at the end
			doc = doc[:len(doc)/2+r.IntN(len(doc)/2+1)]
		}
		// Drop the bad pieces again now and then, so most texts decode.
		if r.IntN(3) == 0 {
			doc = slicesDeleteBad(doc, bad)
		}
		text := strings.Join(doc, "")
		params := didChangeJSON(text, step, step%2 == 0)
		hits := reuse.reused
		got, err := reuse.decodeDidChange(params)
		want, wantErr := decodeDidChange(params)
		if (err == nil) != (wantErr == nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: textReuse %v, %v; stateless %v, %v", step, brief(got), err, brief(want), wantErr)
		}
		if err != nil {
			continue
		}
		fast++
		var std didChangeParams
		if json.Unmarshal(params, &std) == nil && !reflect.DeepEqual(got, &std) {
			t.Fatalf("step %d: differs from encoding/json", step)
		}
		// The value keeps nothing of the params (the stream reads the next
		// message into them).
		for i := range params {
			params[i] = '#'
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: the value changed with the params", step)
		}
		if reuse.reused > hits {
			reused++
		}
		checkMarks(t, &reuse)
	}
	if fast < 200 || reused < fast/2 {
		t.Errorf("%d of 400 texts decoded, %d from the previous one; want 200 or more, half of them", fast, reused)
	}
}

func slicesDeleteBad(doc, bad []string) []string {
	out := doc[:0]
	for _, p := range doc {
		isBad := false
		for _, b := range bad {
			isBad = isBad || p == b
		}
		if !isBad {
			out = append(out, p)
		}
	}
	return out
}

func brief(v any) string {
	if p, ok := v.(*didChangeParams); ok && len(p.ContentChanges) > 0 {
		t := p.ContentChanges[0].Text
		return "text of " + itoa(len(t)) + " bytes: " + t[:min(40, len(t))]
	}
	return "nil"
}

// checkMarks fails unless r's marks increase, end at the closing quote,
// and are no more than about two per markEvery bytes.
func checkMarks(t *testing.T, r *textReuse) {
	t.Helper()
	ms := r.marks
	if len(ms) == 0 || ms[len(ms)-1].raw != r.end || ms[len(ms)-1].text != len(r.text) {
		t.Fatalf("marks %v do not end at the closing quote %d", ms, r.end)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].raw <= ms[i-1].raw || ms[i].text < ms[i-1].text {
			t.Fatalf("marks out of order: %v, %v", ms[i-1], ms[i])
		}
	}
	if limit := 2*r.end/markEvery + 2; len(ms) > limit {
		t.Fatalf("%d marks for %d bytes", len(ms), r.end)
	}
}

// TestTextReuseTypingAtTheEnd: a space typed and deleted again and
// again at the end of a large text (an editor adding white space), and
// one character typed in its middle, are each decoded from the previous
// text, the params' version before the text and then after it, and the
// marks do not pile up at the place of the change (they once doubled per
// edit there, until the server ran out of memory).
func TestTextReuseTypingAtTheEnd(t *testing.T) {
	text := strings.Repeat(`    \"server\": {\"command\": \"npx\", \"args\": [\"-y\", \"é\"]},\n`, 3000)
	var reuse textReuse
	for i := range 600 {
		edited := text + strings.Repeat(" ", i%2+1)
		if i%3 == 0 {
			edited = text[:len(text)/2] + strings.Repeat("x", i%5) + text[len(text)/2:]
		}
		params := didChangeJSON(edited, i+2, i < 300)
		got, err := reuse.decodeDidChange(params)
		want, wantErr := decodeDidChange(params)
		if err != nil || wantErr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("edit %d: %v, %v", i, err, wantErr)
		}
		checkMarks(t, &reuse)
	}
	// After the order changes, and where a space typed at the end also
	// changes the text's last bytes with the version after it, the text
	// is decoded whole.
	if reuse.reused < 480 {
		t.Errorf("%d of 600 edits decoded from the previous text", reuse.reused)
	}
}

// didChangeJSON returns didChange params carrying text (escaped already)
// and version: before the text, as most clients order them, or after it
// (json.Marshal of a map sorts the keys).
func didChangeJSON(text string, version int, versionFirst bool) []byte {
	doc := `"textDocument":{"uri":"file:///a","version":` + itoa(version) + `}`
	changes := `"contentChanges":[{"text":"` + text + `"}]`
	if versionFirst {
		return []byte("{" + doc + "," + changes + "}")
	}
	return []byte("{" + changes + "," + doc + "}")
}
