// Benchmarks on issue 17's template-heavy recipe (testgen.HeavyRecipe, with its 20 sub-recipe files on
// disk): a cold check and the language server's keystroke case (one character typed into the
// instructions, the document's Cache kept), which `make bench-lsp` measures end to end. Besides wall
// time the keystroke benchmarks report the process's CPU time per check.

package recipe_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe"
)

// heavyOnDisk writes the heavy recipe and its children and returns its path and text.
func heavyOnDisk(b *testing.B) (string, []byte) {
	b.Helper()
	h := testgen.HeavyRecipe()
	path, err := testgen.WriteHeavy(b.TempDir(), h)
	if err != nil {
		b.Fatal(err)
	}
	return path, []byte(h.Text)
}

func BenchmarkCheckHeavy(b *testing.B) {
	path, src := heavyOnDisk(b)
	opts := &recipe.Options{Roots: []string{filepath.Dir(path)}}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		recipe.Check(path, src, opts)
	}
}

// BenchmarkRecheckHeavyEdit alternates two versions that differ by one character typed into a prose line
// of the instructions.
func BenchmarkRecheckHeavyEdit(b *testing.B) {
	benchmarkRecheckHeavyAt(b, "Keep the changes small")
}

// BenchmarkRecheckHeavyEditDescription types into a parameter's description (a plain YAML scalar: the
// tree cache cannot serve it, the template cache and the splice can).
func BenchmarkRecheckHeavyEditDescription(b *testing.B) {
	benchmarkRecheckHeavyAt(b, "Parameter number 90 of")
}

func benchmarkRecheckHeavyAt(b *testing.B, at string) {
	path, src := heavyOnDisk(b)
	i := strings.Index(string(src), at)
	if i < 0 {
		b.Fatalf("%q is not in the heavy recipe", at)
	}
	alt := []byte(string(src[:i]) + "X" + string(src[i:]))
	opts := &recipe.Options{Roots: []string{filepath.Dir(path)}, Cache: &recipe.Cache{}}
	if f := recipe.Check(path, src, opts); len(f.Diags) != 0 {
		b.Fatalf("heavy recipe has diagnostics: %v", f.Diags[0].Message)
	}
	b.ReportAllocs()
	cpu := processCPUTime()
	n := 0
	for b.Loop() {
		text := src
		if n%2 == 1 {
			text = alt
		}
		n++
		recipe.Check(path, text, opts)
	}
	b.ReportMetric(float64(processCPUTime()-cpu)/float64(n), "cpu-ns/op")
}
