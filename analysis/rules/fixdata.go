package rules

// The one vocabulary of quick-fix data. A rule that offers a fix puts a
// [Fix] in its diagnostic's Data under "fix" ([FixKey]): the kind of edit,
// the values it needs, and whether it is safe for "fix all". Package fix
// reads it back (the editor returns Data as JSON in a code action request,
// so it is re-marshalled into this struct) and checks the file at the
// diagnostic's span before editing. Nothing else in Data drives a fix,
// and no fix guesses its safety from the rule code: the rule that knows
// whether its suggestion is certain says so.

// FixKey is the key of a [Fix] in a diagnostic's Data.
const FixKey = "fix"

// FixKind is the kind of edit a fix makes, at the diagnostic's span.
type FixKind string

const (
	// FixRenameKey renames the key at the span, Key, to Value.
	FixRenameKey FixKind = "rename-key"
	// FixReplaceValue replaces the string value at the span, Key's value,
	// with Value (a type spelling).
	FixReplaceValue FixKind = "replace-value"
	// FixAddMember adds "Key": Value to the server entry whose name is at
	// the span (a VS Code "transport" key is renamed instead).
	FixAddMember FixKind = "add-member"
	// FixReshapeCommand rewrites "command" into the form Value names:
	// "array" (OpenCode: program and arguments in one array, "args"
	// merged in) or "string" (the others: a string plus "args").
	FixReshapeCommand FixKind = "reshape-command"
	// FixReplaceReference replaces the variable reference at the span,
	// which names Variable as written (HOME, userHome, an input id), with
	// Value.
	FixReplaceReference FixKind = "replace-reference"
	// FixPrefixValue inserts Value at the start of the string at the span
	// (a URL scheme).
	FixPrefixValue FixKind = "prefix-value"
	// FixSecretToVariable replaces the literal secret at the span with
	// Value, a reference to the environment variable Variable; with no
	// Value it removes the secret default of ${Variable:-…}.
	FixSecretToVariable FixKind = "secret-to-variable"
	// FixRemoveMember removes the member whose key, Key, is at the span.
	FixRemoveMember FixKind = "remove-member"
	// FixRemoveText removes the text at the span (a trailing comma, a
	// comment with its line).
	FixRemoveText FixKind = "remove-text"
	// FixInsertText inserts Value after the token before the span (a
	// missing comma).
	FixInsertText FixKind = "insert-text"
	// FixWrapCommand runs the command at the span (Key, a string) through
	// the command line Value ("cmd /c"): its first word becomes the
	// command, the rest and the old command go first in "args".
	FixWrapCommand FixKind = "wrap-command"
)

// Fix is the quick fix a rule offers with a diagnostic. It never holds a
// secret: keys, type spellings, variable names and references only.
type Fix struct {
	Kind FixKind `json:"kind"`
	// Key is the key the edit concerns, as the file spells it now (or,
	// for FixAddMember, the key it adds).
	Key string `json:"key,omitempty"`
	// Value is the new text: a key, a value, a reference, a prefix.
	Value string `json:"value,omitempty"`
	// Variable is the name a reference spells (FixReplaceReference) or
	// the environment variable that is to hold a secret
	// (FixSecretToVariable).
	Variable string `json:"variable,omitempty"`
	// Safe marks a fix that cannot lose anything the file says and
	// whose result is certain: it renames, re-spells, reshapes or adds.
	// Only safe fixes are applied by "fix all" (source.fixAll), which
	// runs without the user looking at each one. A guess (a suggested
	// key), a removal, or moving a secret out of the file is not safe.
	Safe bool `json:"safe"`
}

// FixKindDoc documents one kind of fix, for docs/rules.md.
type FixKindDoc struct {
	Kind    FixKind
	Summary string
}

// FixKinds lists the kinds of fix in documentation order.
var FixKinds = []FixKindDoc{
	{FixRenameKey, "Renames the key (`key`) to `value`."},
	{FixReplaceValue, "Replaces the string value of `key` with `value`."},
	{FixAddMember, "Adds `\"key\": value` to the server entry (renames VS Code's `transport` instead)."},
	{FixReshapeCommand, "Rewrites `command` as `value`: `array` (program and arguments in one array, `args` merged in) or `string` (a string plus `args`)."},
	{FixReplaceReference, "Replaces the variable reference (naming `variable`) with `value`."},
	{FixPrefixValue, "Inserts `value` at the start of the string."},
	{FixSecretToVariable, "Replaces the literal secret with `value`, a reference to `variable`, or removes the secret default of `${variable:-…}`."},
	{FixRemoveMember, "Removes the member whose key is `key`."},
	{FixRemoveText, "Removes the flagged text (a trailing comma; a comment, such as an unused `mcp-lsp-ignore`, with its line)."},
	{FixInsertText, "Inserts `value` (a missing comma)."},
	{FixWrapCommand, "Runs `command` through `value` (`cmd /c`): `\"command\": \"cmd\", \"args\": [\"/c\", \"npx\", …]`."},
}

// RuleFixes lists, per rule code, the kinds of fix its diagnostics may
// carry. A diagnostic of another code carries none; package fix has a
// fixer for every code listed.
var RuleFixes = map[string][]FixKind{
	CodeSyntaxError:          {FixInsertText},
	CodeCommentInJSON:        {FixRemoveText},
	CodeTrailingCommaJSON:    {FixRemoveText},
	CodeDuplicateKey:         {FixRemoveMember},
	CodeTypeNotAccepted:      {FixReplaceValue},
	CodeUnknownServerType:    {FixReplaceValue},
	CodeMissingType:          {FixAddMember},
	CodeForeignKey:           {FixRenameKey, FixReshapeCommand},
	CodeCommandForm:          {FixReshapeCommand},
	CodeUnknownKey:           {FixRenameKey},
	CodeWrongServerMapKey:    {FixRenameKey},
	CodeMissingServerMap:     {FixRenameKey},
	CodeInvalidURL:           {FixPrefixValue},
	CodeForeignInterpolation: {FixReplaceReference},
	CodeUndefinedInput:       {FixReplaceReference},
	CodeLiteralSecret:        {FixSecretToVariable},
	CodeDuplicateServer:      {FixRemoveMember},
	CodeServerStartedTwice:   {FixRemoveMember},
	CodeUnusedIgnore:         {FixRemoveText},
	CodeWindowsCmdWrapper:    {FixWrapCommand},
	CodeApproveEverything:    {FixRemoveMember},
}

// FixOf returns the fix in a diagnostic's Data, if any.
func FixOf(data map[string]any) (Fix, bool) {
	f, ok := data[FixKey].(Fix)
	return f, ok
}
