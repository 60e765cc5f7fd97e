// Benchmarks: a cold full check of a large (3,000-line, ~190 parameters, ~900 template uses) and a small
// (40-line) recipe.

package recipe_test

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe"
)

// largeRecipe builds a recipe of about 3,000 lines with params parameters and uses template uses.
func largeRecipe(params, uses int) []byte { return []byte(testgen.Recipe(params, uses)) }

const smallRecipe = testgen.SmallRecipe

func TestBenchmarkInputsAreValid(t *testing.T) {
	for name, src := range map[string][]byte{"large": largeRecipe(190, 900), "small": []byte(smallRecipe)} {
		f := recipe.Check("/bench/"+name+".yaml", src, nil)
		for _, d := range f.Diags {
			t.Errorf("%s: unexpected %s: %s", name, d.Code, d.Message)
		}
	}
	if n := strings.Count(string(largeRecipe(190, 900)), "\n"); n < 2500 || n > 3500 {
		t.Errorf("large recipe has %d lines, want about 3,000", n)
	}
}

func BenchmarkCheckLarge(b *testing.B) {
	src := largeRecipe(190, 900)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		recipe.Check("/bench/large.yaml", src, nil)
	}
}

func BenchmarkCheckSmall(b *testing.B) {
	src := []byte(smallRecipe)
	b.ReportAllocs()
	for b.Loop() {
		recipe.Check("/bench/small.yaml", src, nil)
	}
}

// BenchmarkRecheckLargeEdit is the language server's per-keystroke case: one character of the
// instructions changes between versions and the document keeps its cache.
func BenchmarkRecheckLargeEdit(b *testing.B) {
	src := largeRecipe(190, 900)
	alt := append([]byte{}, src...)
	i := strings.Index(string(alt), "Step 0")
	alt[i] = 'X'
	cache := &recipe.Cache{}
	recipe.Check("/bench/large.yaml", src, &recipe.Options{Cache: cache})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		text := src
		if n%2 == 1 {
			text = alt
		}
		n++
		recipe.Check("/bench/large.yaml", text, &recipe.Options{Cache: cache})
	}
}

func TestCachedRecheckMatchesCold(t *testing.T) {
	src := largeRecipe(190, 900)
	alt := strings.Replace(string(src), "{{ p0 }} carefully", "{{ p0 }} very carefully", 1)
	alt = strings.Replace(alt, "Step 3: {% if p3 %}", "Step 3: {% if nope %}", 1)
	cache := &recipe.Cache{}
	recipe.Check("/bench/large.yaml", src, &recipe.Options{Cache: cache})
	warm := recipe.Check("/bench/large.yaml", []byte(alt), &recipe.Options{Cache: cache})
	cold := recipe.Check("/bench/large.yaml", []byte(alt), nil)
	if len(warm.Diags) == 0 || len(warm.Diags) != len(cold.Diags) {
		t.Fatalf("warm %d diagnostics, cold %d", len(warm.Diags), len(cold.Diags))
	}
	for i := range cold.Diags {
		if warm.Diags[i].R != cold.Diags[i].R || warm.Diags[i].Message != cold.Diags[i].Message {
			t.Errorf("diagnostic %d: warm %+v, cold %+v", i, warm.Diags[i], cold.Diags[i])
		}
	}
	if warm.Tree.Get("instructions").Value != cold.Tree.Get("instructions").Value {
		t.Error("instructions differ between cached and cold parse")
	}
}
