// Dependencies names every file a recipe reads or links, existing or not, without touching the disk.

package recipe_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestDependencies(t *testing.T) {
	dir := t.TempDir() // empty: none of the files exists
	src := "title: t\ndescription: d\ninstructions: |\n  See {{ recipe_dir }}/docs/guide.md\n" +
		"sub_recipes:\n  - name: a\n    path: ./sub/a.yaml\n  - name: again\n    path: sub/a.yaml\n" +
		"  - name: out\n    path: ../elsewhere.yaml\n  - name: templated\n    path: \"{{ other }}/b.yaml\"\n"
	f := recipe.Check(filepath.Join(dir, "r.yaml"), []byte(src), &recipe.Options{NoSubRecipes: true})
	want := []string{
		filepath.Join(dir, "sub", "a.yaml"),
		filepath.Join(filepath.Dir(dir), "elsewhere.yaml"), // a sub-recipe path may leave the folder (roots decide)
		filepath.Join(dir, "docs", "guide.md"),
	}
	if diff := cmp.Diff(want, f.Dependencies()); diff != "" {
		t.Errorf("Dependencies (-want +got):\n%s", diff)
	}
	// a missing template parent fails the check, and is still a dependency
	inc := recipe.Check(filepath.Join(dir, "i.yaml"), []byte("{% include \"parts/intro.yaml\" %}\ntitle: t\n"), nil)
	if diff := cmp.Diff([]string{filepath.Join(dir, "parts", "intro.yaml")}, inc.Dependencies()); diff != "" {
		t.Errorf("Dependencies with include (-want +got):\n%s", diff)
	}
	plain := recipe.Check(filepath.Join(dir, "p.yaml"), []byte("title: t\ndescription: d\n"), nil)
	if deps := plain.Dependencies(); len(deps) != 0 {
		t.Errorf("a recipe without links depends on %v", deps)
	}
}
