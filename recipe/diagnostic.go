// Package recipe is goose-ls's language core: it loads a recipe (YAML or JSON) with byte ranges, analyses
// its templates, checks the schema and goose's semantic rules, and reports every problem at once.
package recipe

import "github.com/goose-ls/goose-ls/recipe/source"

// Range is a byte range into a file's text.
type Range = source.Range

// Severity of a diagnostic, numbered as in LSP.
type Severity uint8

const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "information"
	}
	return "hint"
}

// Tag marks a diagnostic for special rendering, numbered as in LSP.
type Tag uint8

const (
	TagUnnecessary Tag = 1
	TagDeprecated  Tag = 2
)

// Related points at another place that explains a diagnostic.
type Related struct {
	Path    string // empty: the same file
	R       Range
	Message string
}

// Diagnostic is one problem at one place.
type Diagnostic struct {
	R        Range
	Severity Severity
	Code     string
	Message  string
	Related  []Related
	Tags     []Tag
	// Data carries what a quick fix needs (e.g. the suggested spelling, the parameter name).
	Data map[string]string
}

// Diagnostic codes: goose's rule ids (recipe-semantics §10) and goose-ls's own, listed in docs/diagnostics.md.
const (
	CodeFileTooLarge            = "FILE-TOO-LARGE"
	CodeFileEncoding            = "FILE-INVALID-UTF8"
	CodeFileExtension           = "CLI-FILE-EXTENSION"
	CodeTplSyntax               = "TPL-SYNTAX"
	CodeTplRuntime              = "TPL-RUNTIME"
	CodeTplLiteral              = "TPL-UNPARSEABLE-LITERAL"
	CodeTplPreprocessLimit      = "TPL-PREPROCESS-LIMIT"
	CodeYAMLSyntax              = "YAML-SYNTAX"
	CodeMissingField            = "SCHEMA-MISSING-FIELD"
	CodeDuplicateField          = "SCHEMA-DUPLICATE-FIELD"
	CodeInvalidType             = "SCHEMA-INVALID-TYPE"
	CodeUnknownVariant          = "SCHEMA-UNKNOWN-VARIANT"
	CodeUnknownField            = "INFO-UNKNOWN-FIELD-IGNORED"
	CodeParamFileDefault        = "PARAM-FILE-DEFAULT"
	CodeParamOptionalNoDefault  = "PARAM-OPTIONAL-NO-DEFAULT"
	CodeParamDuplicateKey       = "PARAM-DUPLICATE-KEY"
	CodeParamUndefined          = "PARAM-UNDEFINED"
	CodeParamUnused             = "PARAM-UNUSED"
	CodeSelectOptions           = "DOC-ONLY-SELECT-OPTIONS"
	CodeRequiredDefault         = "DOC-ONLY-REQUIRED-DEFAULT"
	CodePromptOrInstructions    = "RECIPE-PROMPT-OR-INSTRUCTIONS"
	CodeRetryInvalid            = "RETRY-INVALID"
	CodeResponseSchemaNotObject = "RESPONSE-SCHEMA-NOT-OBJECT"
	CodeResponseSchemaEmpty     = "RESPONSE-SCHEMA-EMPTY"
	CodeResponseSchemaInvalid   = "RESPONSE-SCHEMA-INVALID"
	CodeSubrecipeNotFound       = "RUN-SUBRECIPE-NOT-FOUND"
	CodeSubrecipeUnknownValue   = "SUBRECIPE-UNKNOWN-VALUE"
	CodeSubrecipeMissingValue   = "SUBRECIPE-MISSING-VALUE"
	CodeSubrecipeInvalid        = "SUBRECIPE-INVALID"
	CodeExtRemovedType          = "EXT-REMOVED-TYPE"
	CodeExtTimeout              = "EXT-TIMEOUT"
	CodeExtEnvKey               = "EXT-ENV-KEY-NAME"
	CodeExtEnvDenied            = "EXT-ENV-DENIED"
	CodeSettingsTemperature     = "SETTINGS-TEMPERATURE-RANGE"
	CodeSettingsMaxTurns        = "SETTINGS-MAX-TURNS"
	CodeHiddenUnicode           = "SECURITY-HIDDEN-UNICODE"
	CodeFileOutsideWorkspace    = "FILE-OUTSIDE-WORKSPACE"
	CodeResponseSchemaExternal  = "RESPONSE-SCHEMA-EXTERNAL-REF"
	CodeDesktopForm             = "DESKTOP-FORM"
)

// Codes for the check itself: stopped by its context, a stage that failed inside goose-ls, too many problems.
const (
	CodeCheckStopped    = "CHECK-STOPPED"
	CodeInternalError   = "INTERNAL-ERROR"
	CodeTooManyProblems = "TOO-MANY-PROBLEMS"
)
