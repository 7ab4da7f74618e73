package jsonc

// Syntax error codes. They are stable: diagnostics, quick fixes and user
// configuration refer to them.
const (
	// CodeUnexpectedToken: a token or run of stray characters that cannot
	// appear where it is, e.g. '@' or a ',' right after '{'.
	CodeUnexpectedToken = "unexpected-token"
	// CodeUnterminatedString: a string without its closing quote. Strings
	// cannot span lines, so it ends at the end of its line.
	CodeUnterminatedString = "unterminated-string"
	// CodeUnterminatedComment: a /* comment without */. The span is the /*.
	CodeUnterminatedComment = "unterminated-comment"
	// CodeMissingComma: two members or elements without ',' between them.
	CodeMissingComma = "missing-comma"
	// CodeMissingColon: an object member without ':' after its name.
	CodeMissingColon = "missing-colon"
	// CodeMissingValue: no value where one is required, e.g. {"a": }.
	CodeMissingValue = "missing-value"
	// CodeUnclosedObject: an object without its '}'.
	CodeUnclosedObject = "unclosed-object"
	// CodeUnclosedArray: an array without its ']'.
	CodeUnclosedArray = "unclosed-array"
	// CodeInvalidEscape: a backslash escape JSON does not define.
	CodeInvalidEscape = "invalid-escape"
	// CodeInvalidNumber: a number outside the JSON grammar, e.g. 01, 1., -.
	CodeInvalidNumber = "invalid-number"
	// CodeInvalidValue: a bare word that is not true, false or null.
	CodeInvalidValue = "invalid-value"
	// CodeInvalidUTF8: bytes that are not UTF-8, in a string, a comment or
	// between tokens.
	CodeInvalidUTF8 = "invalid-utf8"
	// CodeControlCharacter: a raw control character (U+0000 to U+001F)
	// inside a string, where JSON requires an escape.
	CodeControlCharacter = "control-character"
	// CodeUnquotedKey: an object member name without quotes.
	CodeUnquotedKey = "unquoted-key"
	// CodeSingleQuotedString: a string in single quotes.
	CodeSingleQuotedString = "single-quoted-string"
	// CodeTrailingContent: anything after the top-level value.
	CodeTrailingContent = "trailing-content"
	// CodeTooDeep: nesting deeper than MaxDepth; the deeper content is
	// skipped.
	CodeTooDeep = "too-deep"
	// CodeTooManyErrors: the last error when there are more than
	// MaxErrors; later errors are not reported.
	CodeTooManyErrors = "too-many-errors"
)
