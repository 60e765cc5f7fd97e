// Package platform holds goose 1.38's in-process platform extensions that goose-ls implements (todo, tom,
// skills, analyze). Each value satisfies agent.Extension structurally (this package does not import agent);
// those that add to goose's per-turn `<info-msg>` (todo, tom) have a TurnContext() string method, which the
// agent loop asks each mount for before every model request.
package platform

import (
	"encoding/json"
	"fmt"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// Annotations are a tool's MCP annotations as goose declares them (tools.Spec keeps only readOnlyHint).
type Annotations struct {
	Title       string
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

func errorResult(format string, args ...any) tools.Result {
	return tools.Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

// objectArgs decodes a tool call's arguments as a JSON object (nil when they are absent or not an object).
func objectArgs(args json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(args) == 0 || json.Unmarshal(args, &m) != nil {
		return nil
	}
	return m
}

// stringArg is the string value of key, false when it is absent or not a string.
func stringArg(m map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := m[key]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
