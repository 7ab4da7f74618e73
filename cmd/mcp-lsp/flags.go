package main

import "flag"

// parseInterleaved parses args with fset, letting flags come after the
// operands too (`convert .mcp.json --to opencode`): it parses again after
// each operand. It returns the operands, and false when a flag is bad
// (fset has said why).
func parseInterleaved(fset *flag.FlagSet, args []string) ([]string, bool) {
	var operands []string
	for rest := args; ; {
		if err := fset.Parse(rest); err != nil {
			return nil, false
		}
		if fset.NArg() == 0 {
			return operands, true
		}
		operands = append(operands, fset.Arg(0))
		rest = fset.Args()[1:]
	}
}
