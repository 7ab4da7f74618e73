package analysis

// checkSemantics runs the rules beyond the schema. Owned by the semantic
// rules work; see issue 3.
func checkSemantics(in FileInput) []Diagnostic { return nil }

// semanticRules are the rules beyond the schema, in documentation order.
var semanticRules = []Rule{}
