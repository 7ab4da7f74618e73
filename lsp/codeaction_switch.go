package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/effective"
	"github.com/mcp-lsp/mcp-lsp/analysis/fix"
	mcpsync "github.com/mcp-lsp/mcp-lsp/analysis/sync"
)

// switchOffers lists "Disable in <Tool>" for each tool in use that runs
// the server called name from this file, and "Enable in <Tool>" for each that has it
// turned off, in the tool's own switch (mcpsync.PlanSwitch, what
// `mcp-lsp disable|enable` writes). A tool without a switch in a file
// (mcpsync.HasSwitch) gets neither: hover says why.
func (v *syncView) switchOffers(name string) []syncOffer {
	var out []syncOffer
	for _, r := range v.results {
		if !mcpsync.HasSwitch(r.Tool) {
			continue
		}
		// Only the tools that read this file's entry: a server of the
		// same name elsewhere is switched from its own file.
		if !slices.ContainsFunc(r.Servers, func(s *effective.Server) bool {
			return s.Name == name && slices.ContainsFunc(s.Definitions, func(d *effective.Definition) bool { return d.Source.Path == v.af.doc.Path })
		}) {
			continue
		}
		// Disable, or, when it is off already, enable: what the switch
		// itself says, not a second model of the tool's gates.
		enabled := true
		in := mcpsync.SwitchInput{Result: r, Server: name, Env: v.ws.Env, File: v.ws.File}
		plan, err := mcpsync.PlanSwitch(in)
		if err == nil && !plan.Changed() {
			enabled, in.Enable = false, true
			plan, err = mcpsync.PlanSwitch(in)
		}
		if err != nil || !plan.Changed() {
			continue
		}
		verb, action := "Disable", actionDisable
		if !enabled {
			verb, action = "Enable", actionEnable
		}
		so := syncOffer{
			title: fmt.Sprintf("%s in %s (%s)", verb, r.Tool.Name, v.shorten(plan.How)),
			data:  resolveData{Server: name, Action: action, Tool: string(r.Tool.ID)},
			change: func() (*fix.Change, error) {
				ch := &fix.Change{}
				for _, f := range plan.Files {
					c := f.Change()
					ch.Creates = append(ch.Creates, c.Creates...)
					ch.Edits = append(ch.Edits, c.Edits...)
				}
				return ch, nil
			},
		}
		for _, f := range plan.Files {
			if !f.Exists && so.create == "" {
				so.create = f.Path
			}
		}
		out = append(out, so)
	}
	return out
}

// shorten writes the absolute paths in a switch's description the way
// messages do: relative to the project, or ~/ for the home directory.
func (v *syncView) shorten(s string) string {
	sep := string(filepath.Separator)
	project, home := v.ws.ProjectDir+sep, v.ws.Env.Home+sep
	if v.ws.Env.Home != "" && len(home) > len(project) {
		s = strings.ReplaceAll(s, home, "~/") // a home inside the project
	}
	s = strings.ReplaceAll(s, project, "")
	if v.ws.Env.Home != "" {
		s = strings.ReplaceAll(s, home, "~/")
	}
	return s
}
