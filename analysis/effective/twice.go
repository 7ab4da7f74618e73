package effective

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/quote"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// server-started-twice: two names of one tool's effective configuration
// start the same server (the same program, arguments, environment and
// working directory; or the same URL with the same headers). The tool
// starts both, and the model sees every tool of it twice under two
// prefixes. A copy under another name is a leftover of a rename, or of a
// server pasted into both a project and a user file. The environment and
// the headers are part of the identity: the same package with another
// token is another account, started twice on purpose.

// identity is a server's identity as its tool starts it; "" when it has
// neither a command nor a url. Two servers have the same identity when
// their identity fields hold the same JSON values (object keys in any
// order, the last of a repeated key counting, numbers as written). It is
// written straight from the parse, not decoded and printed: an edit of a
// 1,000-server file whose servers all run npx computes it for each of
// them, for every tool reading the file.
//
// hashedIdentity returns it with its hash; r is the result s is one of.
func hashedIdentity(r *Result, s *Server) (string, uint64) {
	if a := s.alone; a != nil {
		a.once.Do(func() { a.serverFacts = factsOf(r, s) })
		return a.identity, a.idHash
	}
	f := factsOf(r, s)
	return f.identity, f.idHash
}

// serverFacts are identity's and programOrURL's answers, with their
// hashes (of a per-process seed: never stored).
type serverFacts struct {
	identity, program string
	idHash, progHash  uint64
}

var factSeed = maphash.MakeSeed()

func factsOf(r *Result, s *Server) serverFacts {
	f := serverFacts{identity: identityOf(s.Fields, r.fieldValue), program: programOf(s.Fields, r.fieldValue)}
	f.idHash, f.progHash = maphash.String(factSeed, f.identity), maphash.String(factSeed, f.program)
	return f
}

// fieldValue is the value of the field f of one of r's servers.
func (r *Result) fieldValue(f Field) *jsonc.Node { return r.FieldMember(f).Value }

// identityOf is the identity of a server of these merged fields, value
// giving each field's value.
func identityOf(fields []Field, value func(Field) *jsonc.Node) string {
	var vals [len(identityFields)]*jsonc.Node
	var present [len(identityFields)]bool
	for _, f := range fields {
		if i := slices.Index(identityFields[:], f.Key); i >= 0 {
			vals[i], present[i] = value(f), true
		}
	}
	if !present[idCommand] && isNull(vals[idURL]) && isNull(vals[idHTTPURL]) && isNull(vals[idServerURL]) {
		return ""
	}
	cmdArray := vals[idCommand] != nil && vals[idCommand].Kind == jsonc.Array
	b := make([]byte, 0, 128)
	for _, i := range identityOrder {
		if !present[i] && (i != idArgs || !cmdArray) {
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, identityFields[i]...)
		b = append(b, ':')
		c := vals[idCommand]
		switch {
		case cmdArray && i == idCommand: // OpenCode: program and arguments in one array
			b = appendList(b, c.Elements()[:min(1, len(c.Elements()))], nil)
		case cmdArray && i == idArgs:
			var more []*jsonc.Node
			if a := vals[idArgs]; a != nil && a.Kind == jsonc.Array {
				more = a.Elements()
			}
			b = appendList(b, c.Elements()[min(1, len(c.Elements())):], more)
		default:
			b = appendCanonical(b, vals[i])
		}
	}
	return string(b)
}

// The indexes of identityFields that identityOf treats apart
// (TestIdentityIndexes keeps them in step).
const (
	idCommand, idArgs             = 0, 1
	idURL, idHTTPURL, idServerURL = 5, 6, 7
)

// identityFields are the merged fields that make two servers the same;
// identityOrder lists their indexes by name, the order identity writes.
var (
	identityFields = [...]string{"command", "args", "env", "environment", "cwd", "url", "httpUrl", "serverUrl", "headers"}
	identityOrder  = func() []int {
		order := make([]int, len(identityFields))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(identityFields[a], identityFields[b]) })
		return order
	}()
)

// isNull reports whether n decodes to nothing: absent, null or invalid.
func isNull(n *jsonc.Node) bool {
	return n == nil || (n.Kind != jsonc.Object && n.Kind != jsonc.Array && n.Kind != jsonc.String &&
		n.Kind != jsonc.Number && n.Kind != jsonc.True && n.Kind != jsonc.False)
}

// appendCanonical appends n's value so that equal values (as
// verdict.Decode reads them) are written alike and different ones not.
func appendCanonical(b []byte, n *jsonc.Node) []byte {
	if isNull(n) {
		return append(b, "null"...)
	}
	switch n.Kind {
	case jsonc.Object:
		members := make([]*jsonc.Member, 0, len(n.Members()))
		for _, m := range n.Members() {
			if m.Key != nil {
				members = append(members, m)
			}
		}
		// By key, the last of a repeated key first, then only it kept.
		slices.SortStableFunc(members, func(x, y *jsonc.Member) int { return strings.Compare(x.Key.Str, y.Key.Str) })
		b = append(b, '{')
		first := true
		for i, m := range members {
			if i+1 < len(members) && members[i+1].Key.Str == m.Key.Str {
				continue // a later one with the same key counts
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = quote.Append(b, m.Key.Str)
			b = append(b, ':')
			b = appendCanonical(b, m.Value)
		}
		return append(b, '}')
	case jsonc.Array:
		return appendList(b, n.Elements(), nil)
	case jsonc.String:
		return quote.Append(b, n.Str)
	case jsonc.Number:
		return append(b, n.Str...)
	case jsonc.True:
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendList appends the array of the elements of x then y.
func appendList(b []byte, x, y []*jsonc.Node) []byte {
	b = append(b, '[')
	for i, e := range slices.Concat(x, y) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCanonical(b, e)
	}
	return append(b, ']')
}

// hashedProgram is the program the server s of r starts or the URL it
// connects to, as written ("" for neither), with its hash.
func hashedProgram(r *Result, s *Server) (string, uint64) {
	if a := s.alone; a != nil {
		a.once.Do(func() { a.serverFacts = factsOf(r, s) })
		return a.program, a.progHash
	}
	p := programOf(s.Fields, r.fieldValue)
	return p, maphash.String(factSeed, p)
}

// programOf is the program or URL of a server of these merged fields.
func programOf(fields []Field, value func(Field) *jsonc.Node) string {
	for _, f := range fields {
		v := value(f)
		switch {
		case f.Key == "command" && v.Kind == jsonc.String:
			return "command " + v.Str
		case f.Key == "command" && v.Kind == jsonc.Array && len(v.Elements()) > 0:
			return "command " + v.Elements()[0].Str
		case (f.Key == "url" || f.Key == "httpUrl" || f.Key == "serverUrl") && v.Kind == jsonc.String:
			return "url " + v.Str
		}
	}
	return ""
}

// twice collects server-started-twice findings across tools, so that a
// file two tools read (.mcp.json) gets one finding naming both.
type twice struct {
	order []string
	found map[string]*twiceFinding
}

type twiceFinding struct {
	path  string
	tools []string // names
	ids   []string
	other string // the server it duplicates
	// first and dup are the definitions' names in their files.
	first, dup defKey
	name       string // dup's
	what       string
}

// add records the servers r starts twice: in each group of the same
// identity, every one after the first (by precedence, then position)
// is reported, naming the first.
func (t *twice) add(r *Result) {
	if r.Stopped != nil || len(r.Refused) > 0 {
		return
	}
	for _, g := range r.twins().groups(r) {
		slices.SortFunc(g, func(a, b *Server) int {
			return cmp.Or(
				cmp.Compare(b.Winner.Source.Rank, a.Winner.Source.Rank),
				cmp.Compare(a.Winner.Source.Path, b.Winner.Source.Path),
				cmp.Compare(r.Member(a.Winner).Key.Span.Start, r.Member(b.Winner).Key.Span.Start))
		})
		id, _ := hashedIdentity(r, g[0])
		what := "the same command, arguments and environment"
		if !strings.Contains(id, "command:") {
			what = "the same URL and headers"
		}
		first := g[0]
		for _, s := range g[1:] {
			dup := keyOf(r, s.Winner)
			key := fmt.Sprintf("%s|%d|%s", dup.path, dup.span.Start, first.Name)
			f := t.found[key]
			if f == nil {
				if t.found == nil {
					t.found = map[string]*twiceFinding{}
				}
				f = &twiceFinding{path: dup.path, other: first.Name, first: keyOf(r, first.Winner), dup: dup, name: s.Winner.Name, what: what}
				t.found[key] = f
				t.order = append(t.order, key)
			}
			if !slices.Contains(f.ids, string(r.Tool.ID)) {
				f.tools = append(f.tools, r.Tool.Name)
				f.ids = append(f.ids, string(r.Tool.ID))
			}
		}
	}
}

// twins are the servers a result starts, by program (or URL) and, where
// two share one, identity: what add needs to find servers started twice,
// kept with the result so that the next result of its tool updates it
// rather than sorts every server again (an edit of a 1,000-server file
// whose servers all run npx changes one of them).
type twins struct {
	// servers are the result's servers it was made of.
	servers []*Server
	// starts are the servers that start with a program or URL, ordered by
	// its hash then, within a run of one hash, the identity's (computed
	// for the runs of two or more only).
	starts []twin
}

type twin struct {
	prog, id uint64
	hasID    bool
	s        *Server
}

// compareTwins orders twins by their hashes, then names (each once in a
// result): a total order, so that an unstable sort is deterministic.
func compareTwins(a, b twin) int {
	if c := cmp.Compare(a.prog, b.prog); c != 0 {
		return c
	}
	if c := cmp.Compare(a.id, b.id); c != 0 {
		return c
	}
	return strings.Compare(a.s.Name, b.s.Name)
}

// startsAny reports whether the server starts (only those can start twice).
func startsAny(s *Server) bool { return s.Winner != nil && s.Enabled && s.Merged == nil }

// twins returns r's twins, made once: from those of the earlier result
// Compute reused (Result.prevTwins) when it has them, else afresh.
func (r *Result) twins() *twins {
	r.twinsOnce.Do(func() {
		var made *twins
		if p := r.prevTwins; p != nil {
			made = p.next(r)
		}
		if made == nil {
			made = newTwins(r)
		}
		r.prevTwins = nil
		r.twinsMade.Store(made)
	})
	return r.twinsMade.Load()
}

func newTwins(r *Result) *twins {
	t := &twins{servers: r.Servers, starts: make([]twin, 0, len(r.Servers))}
	for _, s := range r.Servers {
		if !startsAny(s) {
			continue
		}
		if p, h := hashedProgram(r, s); p != "" {
			t.starts = append(t.starts, twin{prog: h, s: s})
		}
	}
	slices.SortFunc(t.starts, compareTwins)
	// Identities only where a program is shared: the full identity
	// decodes every field.
	for i := 0; i < len(t.starts); {
		j := i + 1
		for j < len(t.starts) && t.starts[j].prog == t.starts[i].prog {
			j++
		}
		if j-i > 1 {
			run := t.starts[i:j]
			for k := range run {
				run[k].setID(r)
			}
			slices.SortFunc(run, compareTwins)
		}
		i = j
	}
	return t
}

func (w *twin) setID(r *Result) {
	if !w.hasID {
		_, w.id = hashedIdentity(r, w.s)
		w.hasID = true
	}
}

// next returns the twins of r, a result whose servers are mostly t's: t's
// without the servers r no longer has, with r's new ones. nil when too
// many changed to be worth it.
func (t *twins) next(r *Result) *twins {
	var gone, added []*Server
	old, now := t.servers, r.Servers
	for len(old) > 0 || len(now) > 0 {
		switch {
		case len(old) > 0 && len(now) > 0 && old[0] == now[0]:
			old, now = old[1:], now[1:]
		case len(now) == 0 || len(old) > 0 && old[0].Name < now[0].Name:
			gone, old = append(gone, old[0]), old[1:]
		case len(old) == 0 || now[0].Name < old[0].Name:
			added, now = append(added, now[0]), now[1:]
		default: // the same name, another server
			gone, added = append(gone, old[0]), append(added, now[0])
			old, now = old[1:], now[1:]
		}
		if len(gone)+len(added) > 16 {
			return nil
		}
	}
	if len(gone) == 0 && len(added) == 0 {
		// The same servers (whitespace typed between them): starts
		// are read-only once made, and shared.
		return &twins{servers: r.Servers, starts: t.starts}
	}
	n := &twins{servers: r.Servers, starts: make([]twin, 0, len(t.starts)+len(added))}
	for _, w := range t.starts {
		if !slices.Contains(gone, w.s) {
			n.starts = append(n.starts, w)
		}
	}
	for _, s := range added {
		if !startsAny(s) {
			continue
		}
		p, h := hashedProgram(r, s)
		if p == "" {
			continue
		}
		w := twin{prog: h, s: s}
		lo, _ := slices.BinarySearchFunc(n.starts, h, func(w twin, h uint64) int { return cmp.Compare(w.prog, h) })
		hi := lo
		for hi < len(n.starts) && n.starts[hi].prog == h {
			hi++
		}
		if hi > lo {
			// A program shared: identities for the run, this one's too.
			w.setID(r)
			for k := lo; k < hi; k++ {
				n.starts[k].setID(r)
			}
			slices.SortFunc(n.starts[lo:hi], compareTwins)
			at, _ := slices.BinarySearchFunc(n.starts[lo:hi], w, compareTwins)
			lo += at
		}
		n.starts = slices.Insert(n.starts, lo, w)
	}
	return n
}

// groups returns the groups of two or more servers of one identity, each
// in the order of r's servers, the groups in the order of their first.
func (t *twins) groups(r *Result) [][]*Server {
	var out [][]*Server
	for i := 0; i < len(t.starts); {
		j := i + 1
		for j < len(t.starts) && t.starts[j].prog == t.starts[i].prog && t.starts[j].id == t.starts[i].id {
			j++
		}
		if run := t.starts[i:j]; len(run) > 1 && run[0].hasID {
			// One hash, perhaps several identities.
			var ids []string
			var byID [][]*Server
			for _, w := range run {
				id, _ := hashedIdentity(r, w.s)
				if id == "" {
					continue
				}
				if k := slices.Index(ids, id); k >= 0 {
					byID[k] = append(byID[k], w.s)
				} else {
					ids, byID = append(ids, id), append(byID, []*Server{w.s})
				}
			}
			for _, g := range byID {
				if len(g) > 1 {
					slices.SortFunc(g, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
					out = append(out, g)
				}
			}
		}
		i = j
	}
	slices.SortFunc(out, func(a, b []*Server) int { return strings.Compare(a[0].Name, b[0].Name) })
	return out
}

// diagnostics returns the findings, each in the file of the copy.
// The removal is offered (never as a safe fix) only when every tool that
// reads the copy reads the other name too: else removing it would take
// the server from a tool that starts it once (a .mcp.json server that VS
// Code also has under another name in .vscode/mcp.json is the only copy
// Claude Code reads).
func (t *twice) diagnostics(displayPath func(string) string, readers *launchReaders) map[string][]rules.Diagnostic {
	out := map[string][]rules.Diagnostic{}
	for _, key := range t.order {
		f := t.found[key]
		name := f.name
		where := "in this file"
		if f.first.path != f.path {
			where = "in " + displayPath(f.first.path)
		}
		verb := "starts"
		if len(f.tools) > 1 {
			verb = "start"
		}
		data := map[string]any{"server": name, "tools": f.ids}
		if readers.seeBoth(f.dup, f.first) {
			// Not safe: another launch directory may read only one of
			// the two files.
			data[rules.FixKey] = rules.Fix{Kind: rules.FixRemoveMember, Key: name}
		}
		out[f.path] = append(out[f.path], rules.Diagnostic{
			Span:     f.dup.span,
			Severity: rules.SeverityWarning,
			Code:     rules.CodeServerStartedTwice,
			Message: fmt.Sprintf("%s %s this server twice: %q is %s as %q %s, so every tool of it appears twice; remove one of the two names",
				rules.JoinAnd(f.tools), verb, name, f.what, f.other, where),
			Related: []rules.Related{{Path: f.first.path, Span: f.first.span, Message: fmt.Sprintf("the same server, as %q", f.other)}},
			Data:    data,
		})
	}
	return out
}
