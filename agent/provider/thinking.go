// goose's thinking effort: the words it accepts and where it reads the setting from.

package provider

import "strings"

// ParseThinkingEffort reads an effort as goose's ThinkingEffort does, case-insensitively: off (also
// disabled, none), low, medium (also med), high, max (also xhigh). ok is false for anything else.
func ParseThinkingEffort(s string) (effort string, ok bool) {
	switch strings.ToLower(s) {
	case "off", "disabled", "none":
		return "off", true
	case "low":
		return "low", true
	case "medium", "med":
		return "medium", true
	case "high":
		return "high", true
	case "max", "xhigh":
		return "max", true
	}
	return "", false
}

// ThinkingEffortSetting is the effort goose configures for every model request: GOOSE_THINKING_EFFORT
// when it parses, else the older settings it replaced: CLAUDE_THINKING_TYPE (adaptive or enabled: high,
// disabled: off), CLAUDE_THINKING_ENABLED (true: high, false: off), GEMINI3_THINKING_LEVEL (low, high).
// lookup is goose's get_param (the environment, then config.yaml). "" when none applies.
func ThinkingEffortSetting(lookup func(string) (string, bool)) string {
	if v, ok := lookup("GOOSE_THINKING_EFFORT"); ok {
		if e, ok := ParseThinkingEffort(v); ok {
			return e
		}
	}
	if v, ok := lookup("CLAUDE_THINKING_TYPE"); ok {
		switch strings.ToLower(v) {
		case "adaptive", "enabled":
			return "high"
		case "disabled":
			return "off"
		}
	}
	if v, ok := lookup("CLAUDE_THINKING_ENABLED"); ok {
		switch v {
		case "true":
			return "high"
		case "false":
			return "off"
		}
	}
	if v, ok := lookup("GEMINI3_THINKING_LEVEL"); ok {
		switch strings.ToLower(v) {
		case "low":
			return "low"
		case "high":
			return "high"
		}
	}
	return ""
}
