package verdict

// Stable codes of the reasons a verdict gives. The schema codes are the
// rule codes of the schema diagnostics; the others are the codes of the
// semantic rules that report the same reason (package rules names its rule
// codes after these, so a diagnostic and the verdict it reports share one
// code).
const (
	CodeUnknownServerType = "unknown-server-type"
	CodeInvalidFieldValue = "invalid-field-value"
	CodeMissingField      = "missing-field"
	CodeUnknownKey        = "unknown-key"
	CodeServerNotObject   = "server-not-object"

	CodeReservedServerName = "reserved-server-name"
	CodeInvalidServerName  = "invalid-server-name"
	CodeInvalidURL         = "invalid-url"
	// CodeMissingType: a reader that takes an entry without "type" for a
	// local process skips a url-only entry (Claude Code).
	CodeMissingType = "missing-type"
)
