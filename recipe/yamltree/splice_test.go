// A tree spliced after an edit inside one entry (splice.go) is the tree, and the error, a parse from
// scratch gives; and the splice happens for the edits it is for (a key renamed, a value mistyped, a line
// added to or taken from an item).

package yamltree

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// structuralEdit changes one line the way edits that change structure do: a few characters typed or
// deleted anywhere on it (keys, indicators, quotes, brackets), its indentation changed, the line
// duplicated or removed.
func structuralEdit(rng *rand.Rand, text string) string {
	lines := strings.SplitAfter(text, "\n")
	l := rng.IntN(len(lines))
	line := lines[l]
	switch rng.IntN(6) {
	case 0: // dedent or indent
		if strings.HasPrefix(line, "  ") && rng.IntN(2) == 0 {
			line = line[1+rng.IntN(2):]
		} else {
			line = strings.Repeat(" ", 1+rng.IntN(2)) + line
		}
	case 1: // duplicate the line, or remove it
		if rng.IntN(2) == 0 {
			line += line
		} else {
			line = ""
		}
	default: // type or delete at a random column
		at := rng.IntN(len(line) + 1)
		end := at
		if rng.IntN(2) == 0 {
			end = min(at+1+rng.IntN(2), len(line))
		}
		ins := []string{"a", "x", "1", " ", ":", ": ", "- ", "-", "#", "'", `"`, "[", "]", "{", "}", ",", "|", "\n", "\n  ", "\t", "&a", "*a", "!", "?", "é"}[rng.IntN(25)]
		if end > at && rng.IntN(2) == 0 {
			ins = ""
		}
		line = line[:at] + ins + line[end:]
	}
	lines[l] = line
	return strings.Join(lines, "")
}

// spliceSession edits src, parsing each version with the document's cache and from scratch; it returns
// how many versions the splice served.
func spliceSession(t *testing.T, name, src string, edits int, seed uint64) (spliced int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 13))
	cache := &Cache{}
	text := src
	for i := 0; i <= edits; i++ {
		switch {
		case i == 0:
		case rng.IntN(3) == 0: // back to the original, as an undo does
			text = src
		case rng.IntN(2) == 0:
			text = structuralEdit(rng, src)
		default:
			text = structuralEdit(rng, text)
		}
		li := source.NewLineIndex([]byte(text))
		if splicedWith(cache, li) {
			spliced++
		}
		inc, incErr := ParseCached(li, cache)
		full, fullErr := ParseCached(source.NewLineIndex([]byte(text)), nil)
		if !reflect.DeepEqual(incErr, fullErr) || !reflect.DeepEqual(inc, full) {
			t.Fatalf("%s, edit %d (seed %d): the cached parse differs from a parse from scratch (errors %v / %v)\ntext:\n%s",
				name, i, seed, incErr, fullErr, text)
		}
	}
	return spliced
}

// splicedWith reports whether a copy of cache splices the tree of li's text.
func splicedWith(cache *Cache, li *source.LineIndex) bool {
	m, blocks := mask(li, minMaskBytes)
	if m == nil {
		return false
	}
	cache.mu.Lock()
	cp := &Cache{verdictMasked: cache.verdictMasked, verdict: cache.verdict, tree: cache.tree}
	cache.mu.Unlock()
	doc, _ := cp.splicedTree(li, m, blocks, precheckShape(li))
	return doc != nil
}

func TestSplicedTreeMatchesScratchHeavy(t *testing.T) {
	src := testgen.HeavyRecipe().Text
	edits := 200
	if testing.Short() {
		edits = 50
	}
	spliced := spliceSession(t, "heavy", src, edits, 1)
	t.Logf("%d of %d edits spliced", spliced, edits)
	if spliced < edits/4 {
		t.Errorf("only %d of %d edits spliced", spliced, edits)
	}
}

func TestSplicedTreeMatchesScratchCorpus(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../../shared/corpus/recipes", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus not found (expected ../shared beside the checkout): %v", err)
	}
	spliced, total := 0, 0
	for i, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		spliced += spliceSession(t, filepath.Base(p), string(src), 12, uint64(200+i))
		total += 12
	}
	t.Logf("%d of %d edits over %d corpus recipes spliced", spliced, total, len(files))
	if spliced == 0 {
		t.Error("no corpus edit was spliced")
	}
}

// Each of the heavy recipe's structural edits that leaves valid YAML is spliced, and so is its undo.
func TestHeavyStructuralEditsSpliced(t *testing.T) {
	src := testgen.HeavyRecipe().Text
	for _, e := range testgen.HeavyEdits(src) {
		if e.Kind == testgen.EditDedent || e.Kind == testgen.EditUnclosedFlow || !e.Structural() {
			continue // YAML errors: libyaml words those from the whole text
		}
		cache := &Cache{}
		if _, err := ParseCached(source.NewLineIndex([]byte(src)), cache); err != nil {
			t.Fatal(err)
		}
		for i, text := range []string{e.Apply(src), src} {
			li := source.NewLineIndex([]byte(text))
			if !splicedWith(cache, li) {
				t.Errorf("%s (step %d): not spliced", e.Kind, i)
			}
			inc, incErr := ParseCached(li, cache)
			full, fullErr := ParseCached(source.NewLineIndex([]byte(text)), nil)
			if !reflect.DeepEqual(incErr, fullErr) || !reflect.DeepEqual(inc, full) {
				t.Errorf("%s (step %d): the spliced tree differs from a parse from scratch", e.Kind, i)
			}
		}
	}
}
