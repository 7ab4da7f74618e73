package effective

// switchGates are the profile's switches (registry.Profile.Switches):
// lists of server names in a settings file that turn the servers of some
// layers off without touching their entries, such as Copilot CLI's
// disabledMcpServers in ~/.copilot/settings.json (`copilot mcp disable`)
// and Claude Code's projects["<git root>"].disabledMcpServers in
// ~/.claude.json. Layer id -> server name -> the gate.
type switchGates map[string]map[string]Gate

// readSwitches reads every switch of the profile once per computation;
// the first list naming a server of a layer gives the reason.
func readSwitches(in Input) switchGates {
	p := in.Tool.Profile
	if p == nil || len(p.Switches) == 0 {
		return nil
	}
	out := switchGates{}
	for _, sw := range p.Switches {
		path, root, ok := objectFile(in, sw.File)
		if !ok {
			continue
		}
		obj := lookup(root, expandSegments(in, sw.At)...)
		if obj == nil {
			continue
		}
		why := "turned off: listed in " + sw.Off + " in " + homeShort(in.Env, path)
		if sw.Writer != "" {
			why += " (" + sw.Writer + ")"
		}
		for _, name := range stringList(obj.Get(sw.Off)) {
			for _, l := range sw.Layers {
				if out[l] == nil {
					out[l] = map[string]Gate{}
				}
				if _, ok := out[l][name]; !ok {
					out[l][name] = Gate{State: GateRejected, Why: why}
				}
			}
		}
	}
	return out
}

// gate is the switch gate of server name in layer, GateOpen when no
// switch turns it off. Names compare with case (verified with Copilot CLI
// 1.0.102 and Claude Code 2.1.328, registry switches).
func (s switchGates) gate(layer, name string) Gate {
	return s[layer][name]
}
