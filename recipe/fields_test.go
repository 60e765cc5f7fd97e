// Tests for path → schema object resolution.
package recipe_test

import (
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestObjectAndFieldAt(t *testing.T) {
	k := func(s string) recipe.Step { return recipe.Step{Key: s, Index: -1} }
	i := func(n int) recipe.Step { return recipe.Step{Index: n} }
	for _, c := range []struct {
		path []recipe.Step
		want string
	}{
		{nil, "recipe"},
		{[]recipe.Step{k("parameters"), i(2)}, "parameter"},
		{[]recipe.Step{k("extensions"), i(0)}, "extension"},
		{[]recipe.Step{k("settings")}, "settings"},
		{[]recipe.Step{k("retry"), k("checks"), i(1)}, "check"},
		{[]recipe.Step{k("parameters")}, ""},
		{[]recipe.Step{k("title")}, ""},
	} {
		got := ""
		if o := recipe.ObjectAt(c.path); o != nil {
			got = o.Name
		}
		if got != c.want {
			t.Errorf("ObjectAt(%v) = %q, want %q", c.path, got, c.want)
		}
	}
	if f := recipe.FieldAt([]recipe.Step{k("parameters"), i(0), k("input_type")}); f == nil || len(f.Enum) != 6 {
		t.Errorf("FieldAt input_type = %+v", f)
	}
}
