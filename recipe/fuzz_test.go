// Fuzz target for the whole check pipeline: any input gives diagnostics with valid ranges, never a panic.

package recipe_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/recipe"
)

func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/*.yaml")
	more, _ := filepath.Glob(filepath.Join(corpusDir, "recipes/block__goose/documentation/src/pages/recipes/data/recipes/*.yaml"))
	for _, p := range append(seeds, more[:min(len(more), 10)]...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("title: T\ndescription: D\nprompt: {{ x }}\n"))
	f.Add([]byte("{% extends \"x\" %}{% block a %}{{ y.z }}{% endblock %}"))
	f.Add([]byte("\xef\xbb\xbftitle: [\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan *recipe.File, 1)
		go func() { done <- recipe.Check(filepath.Join(dir, "r.yaml"), data, &recipe.Options{NoSubRecipes: true}) }()
		var file *recipe.File
		select {
		case file = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Check did not finish within 5s on a %d-byte input", len(data))
		}
		for _, d := range file.Diags {
			if d.R.Start < 0 || d.R.End < d.R.Start || d.R.End > len(data) {
				t.Fatalf("diagnostic %s has range %v outside the text (len %d): %s", d.Code, d.R, len(data), d.Message)
			}
			if d.Message == "" || d.Code == "" {
				t.Fatalf("diagnostic without code or message: %+v", d)
			}
		}
	})
}
