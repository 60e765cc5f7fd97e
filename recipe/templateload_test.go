//go:build linux

// The template loader against goose's: what mj-oracle (goose's loader: the folder joined to the name, read
// with read_to_string) answered for each name, with {% include NAME ignore missing %}, and goose's
// confinement since PR #10930 (goose-today.md §2.2 item 4), which mj-oracle's loader does not have: a name
// with a `..` component is refused before anything is read, even when it stays inside the folder.

package recipe_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestTemplateLoaderResolvesNamesAsGoose(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "a.txt"), "x")
	mustWrite(t, filepath.Join(dir, "latin1.txt"), "caf\xe9")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	const found, missing, unreadable = "found", "missing", "invalid operation: could not read template"
	const outside = "invalid operation: template path must stay within the recipe directory"
	// mj-oracle's answers (lenient render of `{% include NAME ignore missing %}`)
	cases := map[string]string{
		"": unreadable, ".": unreadable, "sub": unreadable, "sub/": unreadable, "sub/.": unreadable,
		"a.txt": found, "a.txt/": unreadable, "a.txt/.": unreadable, "a.txt//": unreadable, "a.txt/x": unreadable,
		"nope/../a.txt": outside, "sub/../a.txt": outside, "..": outside, "sub/..": outside, "./a.txt": found, "sub//a.txt": missing, "nope/": missing,
		"latin1.txt": unreadable,
	}
	load := recipe.TemplateLoader(dir, recipe.OSFS{})
	for name, want := range cases {
		tpl, err := load(name)
		got := missing
		switch {
		case err != nil:
			got = err.Error()
		case tpl != nil:
			got = found
		}
		if got != want {
			t.Errorf("include %q: got %q, want %q", name, got, want)
		}
	}
}
