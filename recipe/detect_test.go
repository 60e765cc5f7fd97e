// Recipe detection by name and content.
package recipe_test

import (
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestLooksLikeRecipe(t *testing.T) {
	for _, c := range []struct {
		path, text string
		want       bool
	}{
		{"/w/x.recipe.yaml", "", true},
		{"/w/recipes/a.yaml", "title: A\n", true},
		{"/w/recipes/a.yaml", "name: ci\n", false},
		{"/w/a.yaml", "title: T\ndescription: D\nprompt: p\n", true},
		{"/w/a.yaml", "title: T\ndescription: D\n", false},
		{"/w/a.json", `{"title": "T", "description": "D", "instructions": "i"}`, true},
		{"/w/a.yaml", "recipe:\n  title: T\n  description: D\n  prompt: p\n", true},
		{"/w/a.yaml", "jobs:\n    title: T\n    description: D\n    prompt: p\n", false},
		{"/w/a.yaml", "titles: T\ndescription: D\nprompt: p\n", false},
		{"/w/a.txt", "title: T\ndescription: D\nprompt: p\n", false},
	} {
		if got := recipe.LooksLikeRecipe(c.path, []byte(c.text)); got != c.want {
			t.Errorf("LooksLikeRecipe(%q, %q) = %v, want %v", c.path, c.text, got, c.want)
		}
	}
}
