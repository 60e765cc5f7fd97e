// Fuzz target for the whole check pipeline: any input gives diagnostics with valid ranges, never a panic,
// within the budget (allocation, render steps, diagnostic count).

package recipe_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/template"
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
	f.Add([]byte("title: T\nprompt: |\n  {% for a in range(999) %}{% for b in range(999) %}{{ loop.index ~ a }}{% endfor %}{% endfor %}\n"))
	f.Add([]byte("prompt: {{ \"xx\" * 4611686018427387904 }}\n{% set x = 'ab' %}{% set x = x ~ x %}{{ x|replace('a', x) }}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		const allocBudget = 256 << 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		file := recipe.Check(filepath.Join(dir, "r.yaml"), data, &recipe.Options{NoSubRecipes: true})
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > allocBudget {
			t.Fatalf("Check allocated %d MiB on a %d-byte input, budget %d MiB", alloc>>20, len(data), allocBudget>>20)
		}
		if file.RenderSteps > template.DefaultMaxSteps {
			t.Fatalf("validation render took %d steps", file.RenderSteps)
		}
		if len(file.Diags) > recipe.MaxDiagnostics+1 {
			t.Fatalf("%d diagnostics, cap %d", len(file.Diags), recipe.MaxDiagnostics+1)
		}
		for _, d := range file.Diags {
			if d.R.Start < 0 || d.R.End < d.R.Start || d.R.End > len(data) {
				t.Fatalf("diagnostic %s has range %v outside the text (len %d): %s", d.Code, d.R, len(data), d.Message)
			}
			for _, r := range d.Related {
				if r.R.Start < 0 || r.R.End < r.R.Start || r.R.End > len(data) || r.Message == "" {
					t.Fatalf("diagnostic %s has a related place %v outside the text (len %d) or without a message", d.Code, r, len(data))
				}
			}
			if d.Message == "" || d.Code == "" {
				t.Fatalf("diagnostic without code or message: %+v", d)
			}
			if d.Code == recipe.CodeInternalError {
				t.Fatalf("internal error: %s", d.Message)
			}
		}
	})
}
