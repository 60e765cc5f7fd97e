// Uses goose's variable check does not count (a slice's base): the parameter is unused as goose says, with
// a hint naming the use, and renaming it still reaches that use.

package recipe_test

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestUncountedUseIsHintedAndRenamed(t *testing.T) {
	src := "title: T\ndescription: D\nparameters:\n  - key: items\n    input_type: string\n    requirement: optional\n    default: abc\n    description: d\nprompt: \"{{ items[:2] }}\"\n"
	f := recipe.Check("/w/r.yaml", []byte(src), &recipe.Options{NoSubRecipes: true})
	var unused *recipe.Diagnostic
	for i, d := range f.Diags {
		if d.Code == recipe.CodeParamUnused {
			unused = &f.Diags[i]
		}
	}
	if unused == nil || !strings.HasPrefix(unused.Message, "Unnecessary parameter definitions: items.") || !strings.Contains(unused.Message, "does not count its use at line 9") {
		t.Fatalf("want goose's unused-parameter error with a hint, got %+v", f.Diags)
	}
	use := strings.Index(src, "items[")
	ref := f.ParamRefAt(use + 1)
	if ref == nil || ref.Name != "items" || len(ref.Uses) != 1 || ref.Uses[0].Start != use {
		t.Fatalf("the slice's use is not a reference of the parameter: %+v", ref)
	}
	key := strings.Index(src, "items\n")
	if ref := f.ParamRefAt(key + 1); ref == nil || len(ref.Uses) != 1 {
		t.Errorf("from the key: %+v", ref)
	}
}
