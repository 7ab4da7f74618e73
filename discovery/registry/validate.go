package registry

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// docsURL is the shape of a tool's documentation link: https only, so a
// hover never links to plain http, and nothing a Markdown link would break.
var docsURL = regexp.MustCompile("^https://[^\\s()<>\\[\\]`]+$")

// validate checks the decoded data, indexes it and compiles the globs. Ids
// are kebab-case because they appear in diagnostics, settings and URLs.
func (r *Registry) validate(version int) error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	basis := func(where string, b Basis) {
		if !b.Confidence.valid() {
			add("%s: confidence %q is not one of verified, confirmed, reported, inferred, unconfirmed", where, b.Confidence)
		}
		// A claim to know from somewhere must say where, so that messages
		// and reviewers can follow it.
		if (b.Confidence.Certain() || b.Confidence == Reported) && b.Source == "" {
			add("%s: a %s fact needs a source", where, b.Confidence)
		}
		if b.Confidence == Inferred && b.Source == "" && b.Note == "" {
			add("%s: an inferred fact needs a note or a source saying from what", where)
		}
	}

	if version != 1 {
		add("version %d: this package reads version 1", version)
	}

	for i, t := range r.tools {
		where := fmt.Sprintf("tools[%d] %q", i, t.ID)
		if !idPattern.MatchString(string(t.ID)) {
			add("%s: id must be kebab-case", where)
		} else if r.toolByID[t.ID] != nil {
			add("%s: duplicate id", where)
		}
		r.toolByID[t.ID] = t
		if t.Name == "" {
			add("%s: name is empty", where)
		}
		if t.Docs != "" && !docsURL.MatchString(t.Docs) {
			add("%s: docs %q must be an https URL without spaces", where, t.Docs)
		}
		if n := t.ToolNames; n != nil {
			if !strings.Contains(n.Pattern, "{server}") || !strings.Contains(n.Pattern, "{tool}") {
				add("%s: toolNames.pattern %q must contain {server} and {tool}", where, n.Pattern)
			}
			if n.MaxLength < 0 {
				add("%s: toolNames.maxLength is negative", where)
			}
			basis(where+" toolNames", n.Basis)
		}
		if in := t.Interpolation; len(in.Forms) > 0 && len(in.Fields) == 0 {
			add("%s: interpolation has forms but no fields", where)
		}
		basis(where+" interpolation", t.Interpolation.Basis)
		switch t.Merge.Value {
		case ReplaceEntry, DeepMerge, NoMerge, UnknownMerge:
		default:
			add("%s: merge %q is not a merge rule", where, t.Merge.Value)
		}
		basis(where+" merge", t.Merge.Basis)
		for _, re := range []string{t.ServerNames.Safe, t.ServerNames.Forbidden} {
			if _, err := regexp.Compile(re); err != nil {
				add("%s: serverNames: %v", where, err)
			}
		}
		basis(where+" serverNames", t.ServerNames.Basis)
		for j, to := range t.Timeouts {
			if to.Name == "" || to.DefaultMs < 0 {
				add("%s: timeouts[%d] needs a name and a non-negative default", where, j)
			}
			basis(fmt.Sprintf("%s timeouts[%d]", where, j), to.Basis)
		}
		if t.Profile != nil {
			validateProfile(where+" profile", t.Profile, add, basis)
		}
	}

	for i, d := range r.dialects {
		where := fmt.Sprintf("dialects[%d] %q", i, d.ID)
		if !idPattern.MatchString(string(d.ID)) {
			add("%s: id must be kebab-case", where)
		} else if r.dialByID[d.ID] != nil {
			add("%s: duplicate id", where)
		}
		r.dialByID[d.ID] = d
		if r.toolByID[d.Tool] == nil {
			add("%s: unknown tool %q", where, d.Tool)
		}
		for _, t := range d.SharedWith {
			if r.toolByID[t] == nil || t == d.Tool {
				add("%s: sharedWith %q is not another tool", where, t)
			}
		}
		if d.Name == "" {
			add("%s: name is empty", where)
		}
	}

	for i, k := range r.kinds {
		where := fmt.Sprintf("kinds[%d] %q", i, k.ID)
		if !idPattern.MatchString(k.ID) {
			add("%s: id must be kebab-case", where)
		} else if r.kindByID[k.ID] != nil {
			add("%s: duplicate id", where)
		}
		r.kindByID[k.ID] = k
		if k.Name == "" {
			add("%s: name is empty", where)
		}
		switch k.Scope {
		case ScopeProject, ScopeUser, ScopeManaged, ScopeSession, ScopeAny:
		default:
			add("%s: scope %q is not a scope", where, k.Scope)
		}
		switch k.Location {
		case Anywhere:
			if len(k.Globs) == 0 {
				add("%s: a kind found anywhere needs globs", where)
			}
			if len(k.Paths) > 0 {
				add("%s: paths need location \"home\"", where)
			}
		case Home:
			if len(k.Paths) == 0 {
				add("%s: location \"home\" needs paths", where)
			}
		default:
			add("%s: location %q is not a location", where, k.Location)
		}
		for _, g := range k.Globs {
			// Selectors match absolute paths, which only a leading "**/"
			// does in VS Code's semantics; "\" is not a separator in a
			// pattern, only in paths.
			if !strings.HasPrefix(g, "**/") || strings.ContainsRune(g, '\\') || strings.HasSuffix(g, "/") {
				add("%s: glob %q must start with **/, use / and name a file", where, g)
				continue
			}
			c, err := compileGlob(g)
			if err != nil {
				add("%s: %v", where, err)
				continue
			}
			k.globs = append(k.globs, c)
		}
		for _, t := range k.Paths {
			v, rest := splitTemplate(t)
			if !slices.Contains(templateVars, v) {
				add("%s: path %q must start with one of %v", where, t, templateVars)
			} else if (rest != "" && !strings.HasPrefix(rest, "/")) || strings.ContainsAny(rest, "{}*?\\") {
				add("%s: path %q: after the variable, only a literal /-separated path", where, t)
			}
		}
		if len(k.Readers) == 0 && len(k.NotRead) == 0 {
			add("%s: needs readers or notRead", where)
		}
		for j := range k.Readers {
			rd := &k.Readers[j]
			rw := fmt.Sprintf("%s readers[%d] %q", where, j, rd.Tool)
			if r.toolByID[rd.Tool] == nil {
				add("%s: unknown tool", rw)
			}
			if d := r.dialByID[rd.Dialect]; d == nil {
				add("%s: unknown dialect %q", rw, rd.Dialect)
			} else if d.Tool != rd.Tool && !slices.Contains(d.SharedWith, rd.Tool) {
				add("%s: dialect %q belongs to tool %q", rw, rd.Dialect, d.Tool)
			}
			if slices.ContainsFunc(k.Readers[:j], func(o Reader) bool { return o.Tool == rd.Tool }) {
				add("%s: tool listed twice", rw)
			}
			basis(rw+" jsonc", rd.JSONC.Basis)
			basis(rw+" bom", rd.BOM.Basis)
			if rd.TrailingCommas != nil {
				basis(rw+" trailingCommas", rd.TrailingCommas.Basis)
			}
			switch rd.SyntaxError.Effect {
			case DropsFile, RefusesConfig, StopsTool, OverwritesFile, Partial, UnknownEffect:
			default:
				add("%s: syntaxError.effect %q is not an effect", rw, rd.SyntaxError.Effect)
			}
			basis(rw+" syntaxError", rd.SyntaxError.Basis)
			validateEffects(rw, rd, add, basis)
			if rd.ServerMaps == nil {
				add("%s: serverMaps missing (use [] when the file holds no servers)", rw)
			}
			for _, m := range rd.ServerMaps {
				if len(m) == 0 || slices.Contains(m, "") {
					add("%s: server map path %q has an empty segment", rw, m)
				}
				if len(k.Skim) > 0 && !slices.ContainsFunc(k.Skim, func(s []string) bool { return skimCovers(s, m) }) {
					add("%s: server map %q is not on a skim path: it would never be read", rw, m)
				}
			}
			switch rd.At {
			case AtAnywhere, AtWorkspaceFolder:
			default:
				add("%s: at %q is not one of \"\", \"workspace-folder\"", rw, rd.At)
			}
			if in := rd.Interpolation; in != nil {
				if len(in.Forms) > 0 && len(in.Fields) == 0 {
					add("%s: interpolation has forms but no fields", rw)
				}
				basis(rw+" interpolation", in.Basis)
			}
			for _, e := range rd.Elsewhere {
				if e.Key == "" || e.Instead == "" {
					add("%s: elsewhere needs a key and where it belongs instead", rw)
				}
				basis(fmt.Sprintf("%s elsewhere %q", rw, e.Key), e.Basis)
			}
			for _, gt := range rd.Gates {
				switch gt.ID {
				case GateApproval, GateTrustedFolder, GateTrustedProject, GateExplicitFlag, GateFallback:
				default:
					add("%s: gate %q is not a gate", rw, gt.ID)
				}
				basis(fmt.Sprintf("%s gate %q", rw, gt.ID), gt.Basis)
			}
		}
		for j, nr := range k.NotRead {
			nw := fmt.Sprintf("%s notRead[%d] %q", where, j, nr.Tool)
			if r.toolByID[nr.Tool] == nil {
				add("%s: unknown tool", nw)
			}
			if nr.Note == "" {
				add("%s: needs a note (the message users will read)", nw)
			}
			basis(nw, nr.Basis)
			// "Not read" and "read" contradict each other unless the
			// reading only happens when the user names the file.
			if rd, ok := k.Reader(nr.Tool); ok && len(rd.ServerMaps) > 0 &&
				!slices.ContainsFunc(rd.Gates, func(g Gate) bool { return g.ID == GateExplicitFlag }) {
				add("%s: the tool also reads servers from this kind without an explicit-flag gate", nw)
			}
		}
	}
	return errors.Join(errs...)
}

// profileVars are the variables a profile's path templates may start with:
// a kind's, plus the directories that depend on where the tool is launched.
var profileVars = append([]string{"{launchDir}", "{gitRoot}"}, templateVars...)

// validateProfile checks a tool's profile: layers with unique kebab-case
// ids and a label, files or a walk, path templates the engine can expand,
// server maps without empty segments, known gates and boundaries, a
// fallback naming an earlier layer, and the provenance of every fact.
func validateProfile(where string, p *Profile, add func(string, ...any), basis func(string, Basis)) {
	basis(where, p.Basis)
	if p.StopsOnRefusal != nil {
		basis(where+" stopsOnRefusal", p.StopsOnRefusal.Basis)
	}
	if p.ValidatesMerged != nil {
		basis(where+" validatesMerged", p.ValidatesMerged.Basis)
	}
	if len(p.Layers) == 0 {
		add("%s: no layers", where)
	}
	maps := func(w string, ms [][]string) {
		if len(ms) == 0 {
			add("%s: no server maps", w)
		}
		for _, m := range ms {
			if len(m) == 0 || slices.Contains(m, "") {
				add("%s: server map path %q has an empty segment", w, m)
			}
		}
	}
	path := func(w, t string) {
		v, rest := splitTemplate(t)
		if !slices.Contains(profileVars, v) {
			add("%s: path %q must start with one of %v", w, t, profileVars)
		} else if (rest != "" && !strings.HasPrefix(rest, "/")) || strings.ContainsAny(rest, "{}*?\\") {
			add("%s: path %q: after the variable, only a literal /-separated path", w, t)
		}
	}
	if t := p.Trust; t != nil {
		path(where+" trust", t.File)
		if t.TrustFolder == "" || t.TrustParent == "" || t.DoNotTrust == "" || t.Why == "" {
			add("%s: trust needs trustFolder, trustParent, doNotTrust and why", where)
		}
		if t.Off != nil {
			path(where+" trust off", t.Off.File)
			if len(t.Off.Key) == 0 || slices.Contains(t.Off.Key, "") {
				add("%s: trust off key %q has an empty segment", where, t.Off.Key)
			}
		}
		basis(where+" trust", t.Basis)
	}
	if l := p.Lists; l != nil {
		if len(l.Allowed) == 0 || len(l.Excluded) == 0 || slices.Contains(l.Allowed, "") || slices.Contains(l.Excluded, "") {
			add("%s: lists need allowed and excluded key paths without empty segments", where)
		}
		basis(where+" lists", l.Basis)
	}
	if e := p.Enablement; e != nil {
		path(where+" enablement", e.File)
		basis(where+" enablement", e.Basis)
	}
	for i, sw := range p.Switches {
		sWhere := fmt.Sprintf("%s switch %d", where, i)
		path(sWhere, sw.File)
		if sw.Off == "" || len(sw.Layers) == 0 || slices.Contains(sw.At, "") {
			add("%s: needs layers, an off list and no empty segment in at", sWhere)
		}
		for _, id := range sw.Layers {
			if !slices.ContainsFunc(p.Layers, func(l Layer) bool { return l.ID == id }) {
				add("%s: no layer %q", sWhere, id)
			}
		}
		basis(sWhere, sw.Basis)
	}
	seen := map[string]bool{}
	for i := range p.Layers {
		l := &p.Layers[i]
		lw := fmt.Sprintf("%s layer %q", where, l.ID)
		if !idPattern.MatchString(l.ID) {
			add("%s: id must be kebab-case", lw)
		} else if seen[l.ID] {
			add("%s: duplicate id", lw)
		}
		if l.Label == "" {
			add("%s: label is empty", lw)
		}
		if len(l.Files) == 0 && l.Walk == nil {
			add("%s: needs files or a walk", lw)
		}
		for _, f := range l.Files {
			path(lw, f.Path)
			maps(lw+" "+f.Path, f.ServerMaps)
		}
		if w := l.Walk; w != nil {
			if w.Boundary != "root" && w.Boundary != "git-root" {
				add("%s: walk boundary %q is not root or git-root", lw, w.Boundary)
			}
			if len(w.Names) == 0 {
				add("%s: walk has no names", lw)
			}
			for _, n := range w.Names {
				if n == "" || strings.HasPrefix(n, "/") || strings.ContainsAny(n, "{}*?\\") {
					add("%s: walk name %q must be a literal relative path", lw, n)
				}
			}
			maps(lw+" walk", w.ServerMaps)
		}
		for _, g := range l.GateFiles {
			path(lw+" gateFiles", g.Path)
			if slices.Contains(g.At, "") {
				add("%s: gateFiles %q: at %q has an empty segment", lw, g.Path, g.At)
			}
		}
		if gt := l.GateTrust; gt != nil {
			path(lw+" gateTrust", gt.File)
			if len(gt.Key) == 0 || slices.Contains(gt.Key, "") {
				add("%s: gateTrust key %q has an empty segment", lw, gt.Key)
			}
			if gt.Why == "" {
				add("%s: gateTrust needs a why (the message users read)", lw)
			}
			if l.Gate == "" {
				add("%s: gateTrust without a gate", lw)
			}
			basis(lw+" gateTrust", gt.Basis)
		}
		switch l.Gate {
		case "", GateApproval, GateTrustedFolder, GateTrustedProject:
		default:
			add("%s: gate %q is not a layer gate (approval, trusted-folder, trusted-project)", lw, l.Gate)
		}
		if l.Gate != "" && len(l.GateFiles) == 0 && !(l.Gate == GateTrustedFolder && p.Trust != nil) {
			add("%s: gate %q needs gateFiles", lw, l.Gate)
		}
		for _, f := range l.FallbackFor {
			if f == l.ID || !slices.ContainsFunc(p.Layers, func(o Layer) bool { return o.ID == f }) {
				add("%s: fallbackFor %q names no other layer", lw, f)
			}
		}
		if l.FallbackAt != "" && len(l.FallbackFor) == 0 {
			add("%s: fallbackAt without fallbackFor", lw)
		}
		if l.FallbackFor != nil && len(l.FallbackFor) == 0 {
			add("%s: fallbackFor is empty (leave it out: the layer is always read)", lw)
		}
		basis(lw, l.Basis)
		if l.JSONC != nil {
			basis(lw+" jsonc", l.JSONC.Basis)
		}
		if l.BOM != nil {
			basis(lw+" bom", l.BOM.Basis)
		}
		seen[l.ID] = true
	}
}

// validateEffects checks a reader's per-entry effects: every reader that
// takes servers from a file says what it does with an invalid entry, an
// unknown key and a duplicate name, each from the effects that make sense
// for it.
func validateEffects(rw string, rd *Reader, add func(string, ...any), basis func(string, Basis)) {
	if rd.Effects == nil {
		if len(rd.ServerMaps) > 0 {
			add("%s: effects missing (invalidEntry, unknownKey, duplicateName)", rw)
		}
		return
	}
	check := func(name string, f EffectFact, allowed ...EntryEffect) {
		if !slices.Contains(allowed, f.Effect) {
			add("%s: effects.%s.effect %q is not one of %v", rw, name, f.Effect, allowed)
		}
		basis(rw+" effects."+name, f.Basis)
	}
	e := rd.Effects
	check("invalidEntry", e.InvalidEntry, LoadsEntry, SkipsEntry, RefusesWholeConfig, UnknownEntryEffect)
	for field, f := range e.ByField {
		check("byField."+field, f, LoadsEntry, IgnoresKey, SkipsEntry, RefusesWholeConfig, UnknownEntryEffect)
	}
	check("unknownKey", e.UnknownKey, IgnoresKey, StripsKey, SkipsEntry, RefusesWholeConfig, UnknownEntryEffect)
	check("duplicateName", e.DuplicateName, LastWins, RefusesWholeConfig, UnknownEntryEffect)
	if e.MissingField != nil {
		check("missingField", *e.MissingField, LoadsEntry, SkipsEntry, RefusesWholeConfig, UnknownEntryEffect)
	}
	if e.UnknownTopKey != nil {
		check("unknownTopKey", *e.UnknownTopKey, IgnoresKey, RefusesWholeConfig, UnknownEntryEffect)
	}
}

// skimCovers reports whether skim path s keeps what lies at path m: s is
// m or a prefix of it ("*" in s matches any key, "{launchDir}" in m is any
// key).
func skimCovers(s, m []string) bool {
	if len(s) > len(m) {
		return false
	}
	for i := range s {
		if s[i] != "*" && s[i] != m[i] {
			return false
		}
	}
	return true
}
