// The heavy recipe is what issue 17 describes (counts) and is valid: a benchmark on a recipe full of
// errors would measure the error paths instead.

package testgen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe"
)

// writeHeavy writes the heavy recipe and its sub-recipes under dir and returns the recipe's path.
func writeHeavy(t *testing.T, dir string) (string, testgen.Heavy) {
	t.Helper()
	h := testgen.HeavyRecipe()
	path, err := testgen.WriteHeavy(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	return path, h
}

func TestHeavyRecipeShape(t *testing.T) {
	_, h := writeHeavy(t, t.TempDir())
	lines := strings.Count(h.Text, "\n")
	if lines < 2800 || lines > 3300 {
		t.Errorf("heavy recipe has %d lines, want about 3,000", lines)
	}
	if n := strings.Count(h.Text, "{{"); n < 750 || n > 900 {
		t.Errorf("heavy recipe has %d `{{` uses, want about 800", n)
	}
	if n := strings.Count(h.Text, "{% if "); n < 90 {
		t.Errorf("heavy recipe has %d if sections", n)
	}
	if n := strings.Count(h.Text, "\n  - key: "); n != testgen.HeavyParams {
		t.Errorf("%d parameters, want %d", n, testgen.HeavyParams)
	}
	if n := strings.Count(h.Text, "\n  - type: "); n != testgen.HeavyExtensions {
		t.Errorf("%d extensions, want %d", n, testgen.HeavyExtensions)
	}
	if len(h.Children) != testgen.HeavySubRecipes || strings.Count(h.Text, "\n  - name: child") != testgen.HeavySubRecipes {
		t.Errorf("%d child files, want %d", len(h.Children), testgen.HeavySubRecipes)
	}
	instr := strings.Split(h.Text, "\n")[testgen.HeavyInstructionsFirstLine]
	if !strings.HasPrefix(instr, "  ## Section 0") {
		t.Errorf("line %d is %q, not the first instructions line", testgen.HeavyInstructionsFirstLine, instr)
	}
}

func TestHeavyRecipeIsValid(t *testing.T) {
	dir := t.TempDir()
	path, h := writeHeavy(t, dir)
	f := recipe.Check(path, []byte(h.Text), &recipe.Options{Roots: []string{dir}})
	for _, d := range f.Diags {
		t.Errorf("unexpected %s at %d: %s", d.Code, d.R.Start, d.Message)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "child0.yaml")); err != nil {
		t.Errorf("child file not written: %v", err)
	}
}

func TestSmallRecipe(t *testing.T) {
	if n := strings.Count(testgen.SmallRecipe, "\n"); n != 42 {
		t.Errorf("small recipe has %d lines, want 42", n)
	}
	f := recipe.Check(filepath.Join(t.TempDir(), "small.yaml"), []byte(testgen.SmallRecipe), nil)
	for _, d := range f.Diags {
		t.Errorf("unexpected %s: %s", d.Code, d.Message)
	}
}

// Each structural edit breaks the heavy recipe (a diagnostic appears) at the place it names, and its undo
// gives the recipe back.
func TestHeavyEdits(t *testing.T) {
	path, h := writeHeavy(t, t.TempDir())
	opts := &recipe.Options{Roots: []string{filepath.Dir(path)}}
	for _, e := range testgen.HeavyEdits(h.Text) {
		broken := e.Apply(h.Text)
		if broken == h.Text {
			t.Errorf("%s: the edit changes nothing", e.Kind)
		}
		if got := e.Undo(h.Text).Apply(broken); got != h.Text {
			t.Errorf("%s: the undo does not restore the recipe", e.Kind)
		}
		f := recipe.Check(path, []byte(broken), opts)
		if e.Structural() != (len(f.Diags) > 0) {
			t.Errorf("%s: %d diagnostics after the edit", e.Kind, len(f.Diags))
		}
		for _, d := range f.Diags[:min(len(f.Diags), 1)] {
			t.Logf("%s: %s %s (%d diagnostics)", e.Kind, d.Code, d.Message, len(f.Diags))
		}
	}
}
