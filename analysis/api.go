package analysis

import "github.com/mcp-lsp/mcp-lsp/analysis/rules"

// Rule codes, the rule list, the user's rule settings and fix data, as
// defined in analysis/rules.

const CodeShadowedServer = rules.CodeShadowedServer
const CodeDuplicateServer = rules.CodeDuplicateServer
const CodeOverridesServer = rules.CodeOverridesServer
const CodeMergedTransport = rules.CodeMergedTransport
const CodeFallbackIgnored = rules.CodeFallbackIgnored
const CodeMergedInvalid = rules.CodeMergedInvalid
const FixKey = rules.FixKey

// FixKind is rules.FixKind.
type FixKind = rules.FixKind

const FixRenameKey = rules.FixRenameKey
const FixReplaceValue = rules.FixReplaceValue
const FixAddMember = rules.FixAddMember
const FixReshapeCommand = rules.FixReshapeCommand
const FixReplaceReference = rules.FixReplaceReference
const FixPrefixValue = rules.FixPrefixValue
const FixSecretToVariable = rules.FixSecretToVariable
const FixRemoveMember = rules.FixRemoveMember
const FixRemoveText = rules.FixRemoveText
const FixInsertText = rules.FixInsertText

// Fix is rules.Fix.
type Fix = rules.Fix

// FixKindDoc is rules.FixKindDoc.
type FixKindDoc = rules.FixKindDoc

var FixKinds = rules.FixKinds
var RuleFixes = rules.RuleFixes

// FixOf: see rules.FixOf.
func FixOf(data map[string]any) (rules.Fix, bool) { return rules.FixOf(data) }

// Rule is rules.Rule.
type Rule = rules.Rule

var Rules = rules.Rules

// RuleByCode: see rules.RuleByCode.
func RuleByCode(code string) (rules.Rule, bool) { return rules.RuleByCode(code) }

// Config is rules.Config.
type Config = rules.Config

const SeverityOff = rules.SeverityOff

// ParseSeverity: see rules.ParseSeverity.
func ParseSeverity(s string) (rules.Severity, bool) { return rules.ParseSeverity(s) }

const CodeUnknownServerType = rules.CodeUnknownServerType
const CodeInvalidFieldValue = rules.CodeInvalidFieldValue
const CodeMissingField = rules.CodeMissingField
const CodeUnknownKey = rules.CodeUnknownKey
const CodeKeyIgnoredByTool = rules.CodeKeyIgnoredByTool
const CodeServerNotObject = rules.CodeServerNotObject
const CodeServerMapNotObject = rules.CodeServerMapNotObject
const CodeMissingServerMap = rules.CodeMissingServerMap

// Secret is rules.Secret.
type Secret = rules.Secret

const Masked = rules.Masked

// NewSecret: see rules.NewSecret.
func NewSecret(value string) rules.Secret { return rules.NewSecret(value) }

const CodeMissingCommand = rules.CodeMissingCommand
const CodeEmptyCommand = rules.CodeEmptyCommand
const CodeCommandForm = rules.CodeCommandForm
const CodeMissingURL = rules.CodeMissingURL
const CodeMissingType = rules.CodeMissingType
const CodeTypeNotAccepted = rules.CodeTypeNotAccepted
const CodeInvalidURL = rules.CodeInvalidURL
const CodeForeignKey = rules.CodeForeignKey
const CodeWrongServerMapKey = rules.CodeWrongServerMapKey
const CodeForeignInterpolation = rules.CodeForeignInterpolation
const CodeUndefinedInput = rules.CodeUndefinedInput
const CodeMissingFileReference = rules.CodeMissingFileReference
const CodeLiteralSecret = rules.CodeLiteralSecret
const CodeCommandNotFound = rules.CodeCommandNotFound
const CodeReservedServerName = rules.CodeReservedServerName
const CodeInvalidServerName = rules.CodeInvalidServerName
const CodeFileNotRead = rules.CodeFileNotRead
const CodeFileNotReadBy = rules.CodeFileNotReadBy
const CodeServersInSettings = rules.CodeServersInSettings
const CodeEmptyServerMap = rules.CodeEmptyServerMap
const CodeFileTooLarge = rules.CodeFileTooLarge
const MaxConfigSize = rules.MaxConfigSize

// TooLarge: see rules.TooLarge.
func TooLarge(size int64, limit int64) rules.Diagnostic { return rules.TooLarge(size, limit) }

const CodeSyntaxError = rules.CodeSyntaxError
const CodeDuplicateKey = rules.CodeDuplicateKey
const CodeCommentInJSON = rules.CodeCommentInJSON
const CodeTrailingCommaJSON = rules.CodeTrailingCommaJSON
const CodeEmptyFile = rules.CodeEmptyFile
const CodeTopLevelNotObject = rules.CodeTopLevelNotObject
const CodeBOMNotAllowed = rules.CodeBOMNotAllowed

// Ignore is rules.Ignore.
type Ignore = rules.Ignore

// SuppressInput is rules.SuppressInput.
type SuppressInput = rules.SuppressInput

const CodeUnusedIgnore = rules.CodeUnusedIgnore

// CodeHomeDirectoryPath is rules.CodeHomeDirectoryPath.
const CodeHomeDirectoryPath = rules.CodeHomeDirectoryPath

// CodeCredentialOverHTTP is rules.CodeCredentialOverHTTP.
const CodeCredentialOverHTTP = rules.CodeCredentialOverHTTP
