// Benchmarks of the edits that change a recipe's structure (testgen.HeavyEdits: a top-level key renamed,
// a line dedented out of the instructions, an enum typo, a flow sequence left unclosed) on the heavy
// recipe with the document's Cache kept, as the language server re-checks them; each iteration checks
// the broken text or the text that undoes it, in turn. `make bench-edits` measures them end to end.

package recipe_test

import (
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe"
)

func BenchmarkRecheckHeavyStructural(b *testing.B) {
	path, src := heavyOnDisk(b)
	for _, e := range testgen.HeavyEdits(string(src)) {
		if e.Structural() {
			b.Run(e.Kind, func(b *testing.B) { benchmarkRecheckPair(b, path, src, []byte(e.Apply(string(src)))) })
		}
	}
}

// benchmarkRecheckPair checks src and alt in turn with one Cache, as a keystroke and its undo.
func benchmarkRecheckPair(b *testing.B, path string, src, alt []byte) {
	opts := &recipe.Options{Roots: []string{filepath.Dir(path)}, Cache: &recipe.Cache{}}
	recipe.Check(path, src, opts)
	if f := recipe.Check(path, alt, opts); len(f.Diags) == 0 {
		b.Fatal("the edit gives no diagnostic")
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		text := src
		if n%2 == 1 {
			text = alt
		}
		n++
		recipe.Check(path, text, opts)
	}
}

// BenchmarkRecheckHeavyMix is `make bench-edits`'s sequence in process: for each structural edit, a
// character typed and erased, the edit, a character typed and erased while the recipe is broken, and
// the undo; one op is one check. Besides wall time it reports the process's CPU time per check.
func BenchmarkRecheckHeavyMix(b *testing.B) {
	path, src := heavyOnDisk(b)
	var texts [][]byte
	text := string(src)
	edits := testgen.HeavyEdits(text)
	typing := edits[0]
	typeAndErase := func() {
		before := text
		text = typing.Apply(text)
		texts = append(texts, []byte(text))
		text = typing.Undo(before).Apply(text)
		texts = append(texts, []byte(text))
	}
	for _, e := range edits[1:] {
		typeAndErase()
		before := text
		text = e.Apply(text)
		texts = append(texts, []byte(text))
		typeAndErase()
		text = e.Undo(before).Apply(text)
		texts = append(texts, []byte(text))
	}
	opts := &recipe.Options{Roots: []string{filepath.Dir(path)}, Cache: &recipe.Cache{}}
	recipe.Check(path, src, opts)
	b.ReportAllocs()
	cpu := processCPUTime()
	n := 0
	for b.Loop() {
		recipe.Check(path, texts[n%len(texts)], opts)
		n++
	}
	b.ReportMetric(float64(processCPUTime()-cpu)/float64(n), "cpu-ns/op")
}
