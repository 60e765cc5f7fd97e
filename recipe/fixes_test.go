// Quick-fix tests: apply the fix and check the file is then clean of that diagnostic.
package recipe_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe"
)

func applyEdits(text string, edits []recipe.Edit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].R.Start > edits[j].R.Start })
	for _, e := range edits {
		text = text[:e.R.Start] + e.New + text[e.R.End:]
	}
	return text
}

func TestQuickFixes(t *testing.T) {
	for _, c := range []struct {
		name, code, src, want string
	}{
		{"add parameter to a list", recipe.CodeParamUndefined,
			"title: T\ndescription: D\nprompt: \"{{ a }} {{ b }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n",
			"title: T\ndescription: D\nprompt: \"{{ a }} {{ b }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n  - key: b\n    input_type: string\n    requirement: required\n    description: Describe b\n"},
		{"add parameters section", recipe.CodeParamUndefined,
			"title: T\ndescription: D\nprompt: \"{{ b }}\"",
			"title: T\ndescription: D\nprompt: \"{{ b }}\"\nparameters:\n  - key: b\n    input_type: string\n    requirement: required\n    description: Describe b\n"},
		{"remove unused parameter", recipe.CodeParamUnused,
			"title: T\ndescription: D\nprompt: hi\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\nsettings:\n  max_turns: 3\n",
			"title: T\ndescription: D\nprompt: hi\nparameters:\nsettings:\n  max_turns: 3\n"},
		{"add default", recipe.CodeParamOptionalNoDefault,
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: optional\n    description: x\n",
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: optional\n    description: x\n    default: \"\"\n"},
		{"remove file default", recipe.CodeParamFileDefault,
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: file\n    requirement: required\n    default: ~/.ssh/id_rsa\n    description: x\n",
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: file\n    requirement: required\n    description: x\n"},
		{"fix enum spelling", recipe.CodeUnknownVariant,
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: strng\n    requirement: required\n    description: x\n",
			"title: T\ndescription: D\nprompt: \"{{ a }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n"},
		{"fix key spelling", recipe.CodeUnknownField,
			"title: T\ndescription: D\ninstructons: hi\n",
			"title: T\ndescription: D\ninstructions: hi\n"},
		{"quote template value", recipe.CodeInvalidType,
			"title: T\ndescription: D\nprompt: {{ a }}\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n",
			"title: T\ndescription: D\nprompt: '{{ a }}'\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := recipe.Check("/w/r.yaml", []byte(c.src), nil)
			var fixes []recipe.Fix
			for _, d := range f.Diags {
				if d.Code == c.code {
					fixes = append(fixes, f.Fixes(d)...)
				}
			}
			if len(fixes) == 0 {
				t.Fatalf("no fix for %s among %+v", c.code, f.Diags)
			}
			got := applyEdits(c.src, fixes[0].Edits)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("fixed text (-want +got):\n%s", diff)
			}
			before := map[string]bool{}
			for _, d := range f.Diags {
				if d.Severity == recipe.SeverityError {
					before[d.Code] = true
				}
			}
			after := recipe.Check("/w/r.yaml", []byte(got), nil)
			for _, d := range after.Diags {
				if d.Code == c.code {
					t.Errorf("still reported after the fix: %s", d.Message)
				}
				if d.Severity == recipe.SeverityError && !before[d.Code] {
					t.Errorf("the fix introduced a new error %s: %s", d.Code, d.Message)
				}
			}
		})
	}
}

func TestExtractParameter(t *testing.T) {
	src := "title: T\ndescription: D\nprompt: \"Review the src folder now\"\n"
	f := recipe.Check("/w/r.yaml", []byte(src), nil)
	start := strings.Index(src, "src folder")
	fix, ok := f.ExtractParameter(recipe.Range{Start: start, End: start + len("src folder")})
	if !ok {
		t.Fatal("no extract refactor")
	}
	got := applyEdits(src, fix.Edits)
	want := "title: T\ndescription: D\nprompt: \"Review the {{ src_folder }} now\"\nparameters:\n  - key: src_folder\n    input_type: string\n    requirement: optional\n    default: \"src folder\"\n    description: Describe src_folder\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if after := recipe.Check("/w/r.yaml", []byte(got), nil); len(after.Diags) != 0 {
		t.Errorf("extracted recipe has diagnostics: %+v", after.Diags)
	}
	if _, ok := f.ExtractParameter(recipe.Range{Start: strings.Index(src, "title"), End: strings.Index(src, "title") + 5}); ok {
		t.Error("extract offered on a key")
	}
}
