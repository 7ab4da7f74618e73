package fix

import (
	"fmt"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/jsonc"
	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
)

// Fixes inside a server entry: its type, its keys, its command.

// fixTypeValue re-spells a type: "local" becomes "stdio" in .mcp.json,
// "stdio" becomes "local" in opencode.json, "HTTP" becomes "http". The
// replacement comes from the rule, which picks the spelling every reader
// of the file accepts (certain for type-not-accepted, a guess from the
// spelling for unknown-server-type: the rule says which).
func fixTypeValue(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	n, m, ok := d.valueAt(diag.Span)
	if !ok || n.Kind != jsonc.String || f.Kind != rules.FixReplaceValue || m.Key.Str != f.Key {
		return nil
	}
	repl := f.Value
	if repl == "" || repl == n.Str || diag.Data.Value != "" && diag.Data.Value != n.Str {
		return nil
	}
	return []Fix{{
		Title:     fmt.Sprintf("Change %s to %s", f.Key, quote(repl)),
		Preferred: true,
		Edits:     []Edit{d.edit(n.Span.Start, n.Span.End, quote(repl))},
	}}
}

// remoteTypes are the type values that name a remote transport in some
// tool, which a VS Code "transport" may carry over to "type".
var remoteTypes = map[string]bool{"http": true, "sse": true}

// fixMissingType adds the type a reader needs, as the entry's first key.
// An entry with VS Code's "transport" instead gets it renamed to "type";
// its value is kept when it is what the readers expect.
func fixMissingType(d *Document, diag Diagnostic) []Fix {
	obj, i, ok := d.memberOfKey(diag.Span)
	if f := diag.Data.Fix; !ok || f.Kind != rules.FixAddMember || f.Key != "type" {
		return nil
	}
	entry := obj.Members()[i].Value
	repl := diag.Data.Fix.Value
	if entry.Kind != jsonc.Object || repl == "" || entry.Get("type") != nil {
		return nil
	}
	if tr := entry.Get("transport"); tr != nil {
		value := repl
		if tr.Value.Kind == jsonc.String && remoteTypes[tr.Value.Str] && remoteTypes[repl] {
			value = tr.Value.Str
		}
		return []Fix{{
			Title:     fmt.Sprintf(`Rename "transport" to "type": %s`, quote(value)),
			Preferred: true,
			Edits:     []Edit{d.edit(tr.Span.Start, tr.Span.End, `"type": `+quote(value))},
		}}
	}
	text := `"type": ` + quote(repl)
	var edits []Edit
	if len(entry.Members()) == 0 {
		edits = []Edit{d.edit(entry.Span.Start+1, entry.Span.End-1, text)}
	} else {
		edits = d.prependMember(entry, text)
	}
	return []Fix{{Title: "Add " + text, Preferred: true, Edits: edits}}
}

// fixForeignKey renames a key spelled as another tool spells it ("env" in
// OpenCode, "environment" elsewhere, "transport", "serverUrl"), unless the
// right key is there already (then one of the two values must go, which
// is the user's call). OpenCode's "args" is not renamed but merged into
// the "command" array.
func fixForeignKey(d *Document, diag Diagnostic) []Fix {
	if diag.Data.Fix.Kind == rules.FixRenameKey {
		return fixRenameKey(d, diag)
	}
	obj, i, ok := d.memberOfKey(diag.Span)
	if f := diag.Data.Fix; !ok || f.Kind != rules.FixReshapeCommand || f.Value != "array" ||
		obj.Members()[i].Key.Str != "args" || obj.Get("args") != obj.Members()[i] {
		return nil
	}
	return mergeArgsIntoCommand(d, obj)
}

// mergeArgsIntoCommand makes OpenCode's one "command" array out of a
// command (string or array) and "args".
func mergeArgsIntoCommand(d *Document, entry *jsonc.Node) []Fix {
	cmd, args := entry.Get("command"), entry.Get("args")
	if cmd == nil || args == nil || args.Value.Kind != jsonc.Array {
		return nil
	}
	argIndex := memberIndex(entry, args)
	extra := d.elementTexts(args.Value)
	var edits []Edit
	switch cmd.Value.Kind {
	case jsonc.String:
		program := []string{d.text(cmd.Value.Span)}
		if words, ok := SplitCommand(cmd.Value.Str); ok && len(words) > 1 {
			program = program[:0]
			for _, w := range words {
				program = append(program, quote(w))
			}
		}
		all := append(program, extra...)
		edits = append(edits, d.edit(cmd.Value.Span.Start, cmd.Value.Span.End, inlineArray(all)))
	case jsonc.Array:
		if len(extra) > 0 {
			edits = append(edits, appendElements(d, cmd.Value, extra))
		}
	default:
		return nil
	}
	edits = append(edits, d.removeMember(entry, argIndex)...)
	return []Fix{{Title: `Move "args" into the "command" array`, Preferred: true, Edits: edits}}
}

// appendElements inserts element texts before an array's "]".
func appendElements(d *Document, arr *jsonc.Node, elems []string) Edit {
	text := strings.Join(elems, ", ")
	if len(arr.Elements()) == 0 {
		return d.edit(arr.Span.End-1, arr.Span.End-1, text)
	}
	at := arr.Elements()[len(arr.Elements())-1].Span.End
	return d.edit(at, at, ", "+text)
}

func memberIndex(obj *jsonc.Node, m *jsonc.Member) int {
	for i, x := range obj.Members() {
		if x == m {
			return i
		}
	}
	return -1
}

// fixCommandForm rewrites a command into the form the readers take:
// OpenCode's one array (program and arguments), or everyone else's
// string plus "args". A command string is split like a shell would (see
// SplitCommand). Every word is kept.
func fixCommandForm(d *Document, diag Diagnostic) []Fix {
	n, m, ok := d.valueAt(diag.Span)
	if f := diag.Data.Fix; !ok || f.Kind != rules.FixReshapeCommand || m.Key.Str != "command" || n.Parent == nil {
		return nil
	}
	entry := n.Parent
	switch {
	case diag.Data.Fix.Value == "array" && n.Kind == jsonc.String:
		if args := entry.Get("args"); args != nil {
			fixes := mergeArgsIntoCommand(d, entry)
			for i := range fixes {
				fixes[i].Title = `Merge "command" and "args" into one array`
			}
			return fixes
		}
		words, ok := SplitCommand(n.Str)
		if !ok || len(words) == 0 {
			return nil
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = quote(w)
		}
		title := `Split "command" into an array`
		if len(words) == 1 {
			quoted[0] = d.text(n.Span) // keep its spelling
			title = `Write "command" as an array`
		}
		return []Fix{{Title: title, Preferred: true, Edits: []Edit{d.edit(n.Span.Start, n.Span.End, inlineArray(quoted))}}}

	case diag.Data.Fix.Value == "string" && n.Kind == jsonc.Array:
		if len(n.Elements()) == 0 || n.Elements()[0].Kind != jsonc.String {
			return nil
		}
		elems := d.elementTexts(n)
		edits := []Edit{d.edit(n.Span.Start, n.Span.End, elems[0])}
		rest := elems[1:]
		switch args := entry.Get("args"); {
		case len(rest) == 0:
		case args == nil:
			edits = append(edits, d.insertAfter(m, `"args": `+inlineArray(rest)))
		case args.Value.Kind == jsonc.Array && len(args.Value.Elements()) == 0:
			edits = append(edits, d.edit(args.Value.Span.Start, args.Value.Span.End, inlineArray(rest)))
		case args.Value.Kind == jsonc.Array:
			at := args.Value.Elements()[0].Span.Start
			edits = append(edits, d.edit(at, at, strings.Join(rest, ", ")+", "))
		default:
			return nil
		}
		return []Fix{{Title: `Split "command" into "command" and "args"`, Preferred: true, Edits: edits}}
	}
	return nil
}

// fixRenameKey renames the key at the span to the one the rule names: a
// key spelled as another tool spells it, the map of servers under
// another tool's key ("servers" -> "mcpServers"), a misspelt key
// ("comand" -> "command"). Not when the new key is there already: then
// the two values must be merged by hand.
func fixRenameKey(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	obj, i, ok := d.memberOfKey(diag.Span)
	if !ok || f.Kind != rules.FixRenameKey || f.Value == "" || f.Key == "" ||
		obj.Members()[i].Key.Str != f.Key || obj.Get(f.Key) != obj.Members()[i] || obj.Get(f.Value) != nil {
		return nil
	}
	return []Fix{{
		Title:     fmt.Sprintf("Rename %s to %s", quote(f.Key), quote(f.Value)),
		Preferred: true,
		Edits:     []Edit{d.renameKey(obj.Members()[i], f.Value)},
	}}
}

// fixURLScheme adds the scheme a url without one lacks. Whether the
// server speaks https or http is a guess: not safe.
func fixURLScheme(d *Document, diag Diagnostic) []Fix {
	n, m, ok := d.valueAt(diag.Span)
	f := diag.Data.Fix
	p := f.Value
	if !ok || f.Kind != rules.FixPrefixValue || p == "" || n.Kind != jsonc.String || m.Key.Str != f.Key || strings.Contains(n.Str, "://") || d.Content[n.Span.Start] != '"' {
		return nil
	}
	at := n.Span.Start + 1
	return []Fix{{Title: fmt.Sprintf("Add %s", quote(p)), Edits: []Edit{d.edit(at, at, escapeInString(p))}}}
}

// fixWrapCommand runs a command through another command line: "npx"
// with its args becomes "cmd" with "/c", "npx" and the args (Claude Code
// on Windows starts npx, a batch script there, only through cmd). The
// rule says whether that is certain: on a machine that runs Windows, not
// in a file shared with teammates on other systems.
func fixWrapCommand(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	n, m, ok := d.valueAt(diag.Span)
	if !ok || f.Kind != rules.FixWrapCommand || m.Key.Str != "command" || n.Kind != jsonc.String || n.Parent == nil {
		return nil
	}
	words, ok := SplitCommand(f.Value)
	if !ok || len(words) < 2 {
		return nil
	}
	entry := n.Parent
	lead := make([]string, 0, len(words))
	for _, w := range words[1:] {
		lead = append(lead, quote(w))
	}
	lead = append(lead, d.text(n.Span)) // the old command, as spelt
	edits := []Edit{d.edit(n.Span.Start, n.Span.End, quote(words[0]))}
	switch args := entry.Get("args"); {
	case args == nil:
		edits = append(edits, d.insertAfter(m, `"args": `+inlineArray(lead)))
	case args.Value.Kind == jsonc.Array && len(args.Value.Elements()) == 0:
		edits = append(edits, d.edit(args.Value.Span.Start, args.Value.Span.End, inlineArray(lead)))
	case args.Value.Kind == jsonc.Array:
		at := args.Value.Elements()[0].Span.Start
		edits = append(edits, d.edit(at, at, strings.Join(lead, ", ")+", "))
	default:
		return nil
	}
	return []Fix{{Title: fmt.Sprintf("Run %s through %s", d.text(n.Span), f.Value), Preferred: true, Edits: edits}}
}

// fixRemoveSetting removes the setting the rule names (an
// approve-everything key). Never safe: what to approve instead is the
// user's call.
func fixRemoveSetting(d *Document, diag Diagnostic) []Fix {
	f := diag.Data.Fix
	obj, i, ok := d.memberOfKey(diag.Span)
	if !ok || f.Kind != rules.FixRemoveMember || obj.Members()[i].Key.Str != f.Key {
		return nil
	}
	return []Fix{{Title: fmt.Sprintf("Remove %s", quote(f.Key)), Edits: d.removeMember(obj, i)}}
}
