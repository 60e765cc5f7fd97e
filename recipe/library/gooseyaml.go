// Recipe::to_yaml (goose's recipe/mod.rs) and check_for_security_warnings: serde_yaml's output with
// goose's clean-up of `prompt` and `instructions` lines the emitter had to double-quote, and the hidden
// Unicode tag test goose runs before saving or showing a shared recipe.

package library

import (
	"strings"
	"unicode"
)

// multilineFields are the fields goose rewrites as literal blocks (MULTILINE_RECIPE_FIELDS).
var multilineFields = []string{"prompt", "instructions"}

// GooseYAML is Recipe::to_yaml: YAML, then reformatMultiline.
func (r *Recipe) GooseYAML() (string, error) {
	text, err := r.YAML()
	if err != nil {
		return "", err
	}
	return reformatMultiline(text, multilineFields), nil
}

// reformatMultiline is goose's reformat_fields_with_multiline_values, a line-based rewrite: a listed
// field whose value holds an escaped line break (`\n`) becomes a literal block of the value's pieces,
// with `\"` unescaped; the output ends with exactly one line break.
func reformatMultiline(yaml string, fields []string) string {
	var b strings.Builder
	lines := strings.Split(yaml, "\n")
	if strings.HasSuffix(yaml, "\n") {
		lines = lines[:len(lines)-1] // Rust's lines() has no empty last line
	}
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
		if trimmed == "" {
			b.WriteString("\n")
			continue
		}
		indent := strings.Repeat(" ", len(line)-len(trimmed))
		if field := matchedField(trimmed, fields); field != "" {
			if _, raw, ok := strings.Cut(trimmed, ": "); ok && strings.Contains(raw, `\n`) {
				value := strings.Trim(raw, `"`)
				value = strings.ReplaceAll(value, `\"`, `"`)
				value = strings.ReplaceAll(value, `\\n`, `\n`)
				b.WriteString(indent + field + ": |\n")
				for _, piece := range strings.Split(value, `\n`) {
					b.WriteString(indent + "  " + piece + "\n")
				}
				continue
			}
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func matchedField(trimmed string, fields []string) string {
	for _, f := range fields {
		if strings.HasPrefix(trimmed, f+": ") {
			return f
		}
	}
	return ""
}

// HasSecurityWarnings is check_for_security_warnings: Unicode tag characters (U+E0000–U+E007F) in the
// instructions or the prompt, else in any activity.
func (r *Recipe) HasSecurityWarnings() bool {
	for _, s := range []*string{r.Instructions, r.Prompt} {
		if s != nil && hasUnicodeTags(*s) {
			return true
		}
	}
	for _, a := range r.Activities {
		if hasUnicodeTags(a) {
			return true
		}
	}
	return false
}

func hasUnicodeTags(s string) bool {
	return strings.ContainsFunc(s, func(c rune) bool { return c >= 0xE0000 && c <= 0xE007F })
}
