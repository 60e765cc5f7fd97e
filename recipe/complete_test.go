// Completion tests: the cursor is marked with ‸ in the source.
package recipe_test

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func complete(t *testing.T, src string) []string {
	t.Helper()
	off := strings.Index(src, "‸")
	text := strings.Replace(src, "‸", "", 1)
	f := recipe.Check("/w/recipes/r.yaml", []byte(text), nil)
	var labels []string
	for _, it := range f.Complete(off, nil) {
		labels = append(labels, it.Label)
	}
	return labels
}

func has(labels []string, want ...string) bool {
	set := map[string]bool{}
	for _, l := range labels {
		set[l] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}

const params = "parameters:\n  - key: max_files\n    input_type: number\n    requirement: required\n    description: Most files\n"

func TestCompleteTemplateVariables(t *testing.T) {
	got := complete(t, "title: T\ndescription: D\nprompt: \"check {{ ma‸\"\n"+params)
	if !has(got, "max_files", "recipe_dir") {
		t.Errorf("inside {{: %v", got)
	}
	// the line being typed breaks the YAML (an unterminated string): the parameters are still offered
	got = complete(t, "title: T\ndescription: D\nprompt: p\n"+params+"activities:\n  - \"{{ ‸\n")
	if !has(got, "max_files", "recipe_dir") {
		t.Errorf("inside {{ on a line that breaks the YAML: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: \"{{ max_files | up‸ }}\"\n"+params)
	if !has(got, "upper", "indent", "default") || has(got, "max_files") {
		t.Errorf("after |: %v", got)
	}
}

func TestCompleteKeysAndValues(t *testing.T) {
	got := complete(t, "title: T\ndescription: D\nprompt: \"{{ max_files }}\"\n"+params+"ins‸\n")
	if !has(got, "instructions", "settings", "retry") || has(got, "title") {
		t.Errorf("top-level keys: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: \"{{ max_files }}\"\n"+params+"    ‸\n")
	if !has(got, "default", "options") || has(got, "key") {
		t.Errorf("parameter keys: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: \"{{ max_files }}\"\n"+params+"  - ‸\n")
	if !has(got, "new parameter", "key", "input_type") {
		t.Errorf("new list item: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: \"{{ x }}\"\nparameters:\n  - key: x\n    input_type: s‸\n")
	if !has(got, "string", "select", "file") {
		t.Errorf("input_type values: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: hi\nsettings:\n  goose_provider: ‸\n")
	if !has(got, "openai", "anthropic", "ollama") {
		t.Errorf("providers: %v", got)
	}
	got = complete(t, "title: T\ndescription: D\nprompt: hi\nextensions:\n  - type: ‸\n")
	if !has(got, "stdio", "builtin", "streamable_http") {
		t.Errorf("extension types: %v", got)
	}
}
