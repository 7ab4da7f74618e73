package analysis

// checkSchema validates each server entry against its dialect's schema.
// Owned by the schema-diagnostics work; see issue 3.
func checkSchema(in FileInput) []Diagnostic { return nil }

// schemaRules are the rules of schema.go, in documentation order.
var schemaRules = []Rule{}
