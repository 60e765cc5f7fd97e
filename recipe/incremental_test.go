// Incremental re-checks (a document's Cache: the template parse/analysis/render, the YAML tree's,
// the pre-processing probes', the schema's) must give exactly what a check from scratch gives, over many
// random edits of the heavy benchmark recipe and of every corpus recipe.

package recipe

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe/template"
)

// editAlphabet holds what typing inserts: prose, YAML and template syntax, a multi-byte letter.
var editAlphabet = []string{"a", "b", "Z", " ", " ", "\n", "\t", "{", "}", "%", "#", "-", "|", ">", ":", "'", `"`, "[", "]", "&", "*", "!", "é", ",", "{{ x }}", "{% if a %}", "{% endif %}"}

// randomEdit inserts, deletes or replaces a few bytes at a random place (on rune boundaries), mostly
// inside an indented line (block scalar content, most of a recipe's text).
func randomEdit(rng *rand.Rand, text string) string {
	if len(text) == 0 {
		return editAlphabet[rng.IntN(len(editAlphabet))]
	}
	at := rng.IntN(len(text) + 1)
	if rng.IntN(3) > 0 { // mostly inside an indented line after its indentation, where typing happens
		for tries := 0; tries < 20; tries++ {
			p := rng.IntN(len(text))
			ls := strings.LastIndexByte(text[:p], '\n') + 1
			if strings.HasPrefix(text[ls:], "  ") && p > ls+2 {
				at = p
				break
			}
		}
	}
	for at < len(text) && !utf8.RuneStart(text[at]) {
		at--
	}
	end := at
	switch rng.IntN(3) {
	case 0: // insert
	case 1, 2: // delete or replace 1-3 bytes
		end = min(at+1+rng.IntN(3), len(text))
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
	}
	ins := ""
	if end == at || rng.IntN(2) == 0 {
		ins = editAlphabet[rng.IntN(len(editAlphabet))]
		if rng.IntN(4) > 0 {
			ins = editAlphabet[rng.IntN(5)] // letters and spaces mostly
		}
	}
	return text[:at] + ins + text[end:]
}

// sameCheck reports how an incremental check differs from one from scratch ("" when it does not).
func sameCheck(full, inc *File) string {
	if d := cmp.Diff(full.Diags, inc.Diags); d != "" {
		return "diagnostics (-scratch +incremental):\n" + d
	}
	switch {
	case !reflect.DeepEqual(full.Template, inc.Template):
		return "template AST"
	case !reflect.DeepEqual(full.Analysis, inc.Analysis):
		return "analysis"
	case full.RenderSteps != inc.RenderSteps || full.Inherits != inc.Inherits || len(full.Parents) != len(inc.Parents):
		return fmt.Sprintf("render: steps %d/%d, inherits %v/%v, parents %d/%d", full.RenderSteps, inc.RenderSteps,
			full.Inherits, inc.Inherits, len(full.Parents), len(inc.Parents))
	case !reflect.DeepEqual(full.Tree, inc.Tree) || full.Wrapper != inc.Wrapper:
		return "YAML tree"
	case !reflect.DeepEqual(full.Recipe, inc.Recipe):
		return "recipe model"
	}
	return ""
}

// editSession applies edits random edits to src, checking each version with the document's cache and
// from scratch; it returns how many versions the template cache could serve.
func editSession(t *testing.T, path, src string, edits int, seed uint64, opts Options) (reparsed int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	opts.Cache = &Cache{}
	opts.alwaysCache = true
	text := src
	history := []string{src}
	var prev *File
	for i := 0; i <= edits; i++ {
		if i > 0 {
			switch rng.IntN(8) {
			case 0: // undo to an earlier version
				text = history[rng.IntN(len(history))]
			case 1, 2: // start again from the original, which a random walk soon breaks for good
				text = randomEdit(rng, src)
			default:
				text = randomEdit(rng, text)
			}
			history = append(history, text)
		}
		inc := Check(path, []byte(text), &opts)
		scratchOpts := opts
		scratchOpts.Cache = nil
		full := Check(path, []byte(text), &scratchOpts)
		if d := sameCheck(full, inc); d != "" {
			t.Fatalf("%s, edit %d (seed %d): the incremental check differs in %s\ntext:\n%s", filepath.Base(path), i, seed, d, text)
		}
		if prev != nil && prev.Template != nil && full.Pre != nil {
			if _, ok := template.Reparse(prev.Template, full.Pre.Text); ok {
				reparsed++
			}
		}
		prev = full
	}
	return reparsed
}

func TestIncrementalCheckMatchesScratchHeavy(t *testing.T) {
	h := testgen.HeavyRecipe()
	path, err := testgen.WriteHeavy(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	edits := 60
	if testing.Short() {
		edits = 20
	}
	opts := Options{Roots: []string{filepath.Dir(path)}}
	reparsed := editSession(t, path, h.Text, edits, 1, opts)
	t.Logf("%d of %d edits were served by the template cache", reparsed, edits)
	// most edits land in prose lines: the cache must have served them, not only the full check
	if reparsed < edits/3 {
		t.Errorf("the template cache served only %d of %d edits", reparsed, edits)
	}
	seqOpts := opts
	seqOpts.sequential = true
	editSession(t, path, h.Text, edits/4, 2, seqOpts)
}

func TestIncrementalCheckMatchesScratchCorpus(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../shared/corpus/recipes", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus not found (expected ../shared beside the checkout): %v", err)
	}
	edits := 8
	if testing.Short() {
		edits = 3
	}
	reparsed := 0
	for i, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		reparsed += editSession(t, p, string(src), edits, uint64(100+i), Options{Roots: []string{filepath.Dir(p)}})
	}
	t.Logf("%d of %d edits over %d corpus recipes were served by the template cache", reparsed, edits*len(files), len(files))
	if reparsed < len(files) {
		t.Errorf("the template cache served only %d edits of %d over the corpus", reparsed, edits*len(files))
	}
}

// The heavy recipe's structural edits (testgen.HeavyEdits), each with typing while it is in place and
// its undo, checked with the document's cache as `make bench-edits` makes them, give what checks from
// scratch give.
func TestIncrementalStructuralEditsMatchScratch(t *testing.T) {
	h := testgen.HeavyRecipe()
	path, err := testgen.WriteHeavy(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Roots: []string{filepath.Dir(path)}, Cache: &Cache{}}
	scratch := Options{Roots: opts.Roots}
	check := func(step, text string) {
		t.Helper()
		if d := sameCheck(Check(path, []byte(text), &scratch), Check(path, []byte(text), &opts)); d != "" {
			t.Fatalf("%s: the incremental check differs in %s", step, d)
		}
	}
	text := h.Text
	check("open", text)
	all := testgen.HeavyEdits(text)
	typing := all[0]
	for round := 0; round < 2; round++ {
		for _, e := range all[1:] {
			before := text
			text = e.Apply(text)
			check(e.Kind, text)
			typed := typing.Apply(text)
			check(e.Kind+", typing while it is in place", typed)
			check(e.Kind+", erasing", text)
			text = e.Undo(before).Apply(text)
			check(e.Kind+" undo", text)
		}
	}
}
