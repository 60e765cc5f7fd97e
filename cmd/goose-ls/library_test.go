// The recipe library commands against goose's documented output (goose-runtime-1.38.md §9.2–9.5): run
// --explain, run --render-recipe, recipe list/deeplink/validate, check and run by name.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe/library"
)

// libraryWorld is a HOME, a goose config root and a project folder (the working folder), with no
// GOOSE_RECIPE_PATH and no GitHub repository.
type libraryWorld struct{ home, config, proj string }

func newLibraryWorld(t *testing.T) libraryWorld {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := libraryWorld{home: filepath.Join(tmp, "home"), config: filepath.Join(tmp, "root", "config"), proj: filepath.Join(tmp, "home", "proj")}
	if err := os.MkdirAll(w.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", w.home)
	t.Setenv("GOOSE_PATH_ROOT", filepath.Join(tmp, "root"))
	t.Setenv("GOOSE_RECIPE_GITHUB_REPO", "")
	os.Unsetenv("GOOSE_RECIPE_GITHUB_REPO")
	t.Setenv("GOOSE_RECIPE_PATH", "")
	os.Unsetenv("GOOSE_RECIPE_PATH")
	t.Chdir(w.proj)
	return w
}

const reviewRecipe = `version: 1.0.0
title: Code review
description: Review {{ target }}
instructions: |
  Review the files in {{ target }} for bugs.
  At most {{ max_files }} files.
prompt: Start with {{ target }}
extensions:
- type: builtin
  name: developer
parameters:
- key: target
  input_type: string
  requirement: required
  description: what to review
- key: max_files
  input_type: number
  requirement: optional
  default: "10"
  description: how many files
sub_recipes:
- name: lint
  path: ./lint.yaml
`

const lintRecipe = "title: Lint\ndescription: Lints the code\nprompt: lint it\n"

func (w libraryWorld) project() string { return filepath.Join(w.proj, ".goose", "recipes") }

func (w libraryWorld) addReview(t *testing.T) {
	write(t, w.project(), "review.yaml", reviewRecipe)
	write(t, w.project(), "lint.yaml", lintRecipe)
}

func TestRunExplain(t *testing.T) {
	w := newLibraryWorld(t)
	w.addReview(t)
	code, out, errs := runCLI(t, "run", "review", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `🔍 Loading recipe: Code review
📄 Description:
   Review {{ target }}
⚙️  Recipe Parameters:
   - target (string, required): what to review
   - max_files (number, optional) (default: 10): how many files
📥 Parameters used to load this recipe:
   max_files: 10
   recipe_dir (built-in): ` + w.project() + `
🔴 Missing parameters in the command line if you want to run the recipe:
   - target
📩 Please provide the following parameters in the command line if you want to run the recipe::
  --params target=your_value
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("--explain (-want +got):\n%s", diff)
	}
	code, out, _ = runCLI(t, "run", "--params", "target=src", "--params", "extra=1", "review", "--explain")
	if code != 0 || !strings.Contains(out, "📥 Parameters used to load this recipe:\n   target: src\n   max_files: 10\n   extra: 1\n   recipe_dir (built-in): "+w.project()+"\n") || strings.Contains(out, "🔴") {
		t.Errorf("--explain with values (exit %d):\n%s", code, out)
	}
}

func TestRunRenderRecipe(t *testing.T) {
	w := newLibraryWorld(t)
	w.addReview(t)
	code, out, errs := runCLI(t, "run", "review", "--render-recipe", "--params", "target=src/app")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `version: 1.0.0
title: Code review
description: Review src/app
instructions: |
  Review the files in src/app for bugs.
  At most 10 files.
prompt: Start with src/app
extensions:
- type: builtin
  name: developer
  description: ''
  display_name: null
  timeout: null
  bundled: null
  available_tools: []
- type: platform
  name: analyze
  description: ''
  display_name: null
  bundled: null
  available_tools: []
- type: platform
  name: summon
  description: ''
  display_name: null
  bundled: null
  available_tools: []
parameters:
- key: target
  input_type: string
  requirement: required
  description: what to review
- key: max_files
  input_type: number
  requirement: optional
  description: how many files
  default: '10'
sub_recipes:
- name: lint
  path: ` + filepath.Join(w.project(), "lint.yaml") + `
  values: null
  sequential_when_repeated: false

`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("--render-recipe (-want +got):\n%s", diff)
	}
	// a required parameter without a value: goose's message, exit 1, nothing on stdout
	code, out, errs = runCLI(t, "run", "review", "--render-recipe")
	if code != 1 || out != "" || errs != "Error: Please provide the following parameters in the command line: --params target=your_value\n" {
		t.Errorf("missing parameter: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestRecipeList(t *testing.T) {
	w := newLibraryWorld(t)
	code, out, _ := runCLI(t, "recipe", "list")
	if code != 0 || out != "No recipes found\n" {
		t.Errorf("empty: exit %d, %q", code, out)
	}
	global := write(t, filepath.Join(w.home, ".agents", "recipes"), "review.yaml", "title: Global review\ndescription: ''\nprompt: p\n")
	configured := write(t, filepath.Join(w.config, "recipes"), "lint.yaml", lintRecipe)
	code, out, _ = runCLI(t, "recipe", "list")
	want := "Available recipes:\nreview - (none) - local: " + global + "\nlint - Lints the code - local: " + configured + "\n"
	if code != 0 || out != want {
		t.Errorf("text:\n got %q\nwant %q", out, want)
	}
	_, out, _ = runCLI(t, "recipe", "list", "-v")
	want = "Available recipes:\n  review - (none) - local: " + global + "\n    Title: Global review\n    Path: " + global +
		"\n  lint - Lints the code - local: " + configured + "\n    Title: Lint\n    Path: " + configured + "\n"
	if out != want {
		t.Errorf("-v:\n got %q\nwant %q", out, want)
	}
	_, out, _ = runCLI(t, "recipe", "list", "--format", "json")
	want = `[{"name":"review","source":"Local","path":"` + global + `","title":"Global review","description":""},{"name":"lint","source":"Local","path":"` + configured + `","title":"Lint","description":"Lints the code"}]` + "\n"
	if out != want {
		t.Errorf("json:\n got %s\nwant %s", out, want)
	}
}

func TestRecipeDeeplink(t *testing.T) {
	w := newLibraryWorld(t)
	w.addReview(t)
	code, out, errs := runCLI(t, "recipe", "deeplink", "review", "-p", "target=src/app", "--param", "max_files=3")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || lines[0] != "✓ Generated deeplink for: Code review" || !strings.HasSuffix(lines[1], "&target=src%2Fapp&max_files=3") {
		t.Fatalf("output:\n%s", out)
	}
	// the link decodes back to the recipe's template (braces kept, §1 additions in, paths as written)
	r, params, err := library.DecodeDeeplink(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	want, err := library.Parse([]byte(reviewRecipe))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.JSON(), r.JSON()); diff != "" {
		t.Errorf("decoded recipe (-file +link):\n%s", diff)
	}
	if r.Description != "Review {{ target }}" || r.SubRecipes[0].Path != "./lint.yaml" || len(r.Extensions) != 3 || r.Extensions[2].Name != "summon" {
		t.Errorf("decoded: %+v", r)
	}
	if diff := cmp.Diff([]library.Param{{Key: "target", Value: "src/app"}, {Key: "max_files", Value: "3"}}, params); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	write(t, w.proj, "bad.yaml", "title: Bad\ndescription: d\nprompt: {{ x }}\n")
	code, out, _ = runCLI(t, "recipe", "deeplink", "bad.yaml")
	if code != 1 || !strings.HasPrefix(out, "✗ Failed to encode recipe: ") {
		t.Errorf("invalid recipe: exit %d, %q", code, out)
	}
}

func TestRecipeValidate(t *testing.T) {
	w := newLibraryWorld(t)
	w.addReview(t)
	code, out, errs := runCLI(t, "recipe", "validate", "review")
	if code != 0 || out != "✓ recipe file is valid\n" {
		t.Errorf("valid: exit %d, %q %q", code, out, errs)
	}
	bad := write(t, w.project(), "bad.yaml", "title: Bad\ndescription: d\nprompt: hi {{ who }} and {{ what }}\n")
	code, out, errs = runCLI(t, "recipe", "validate", "bad")
	// goose's first line (with the first problem), then every diagnostic as `check` prints them
	wantErr := "✗ recipe file is invalid: bad.yaml:3:15: Missing definitions for parameters in the recipe file: who.\n" +
		bad + ":3:15: error: Missing definitions for parameters in the recipe file: who. [PARAM-UNDEFINED]\n" +
		bad + ":3:29: error: Missing definitions for parameters in the recipe file: what. [PARAM-UNDEFINED]\n" +
		"1 files checked: 2 errors, 0 warnings\n"
	if code != 1 || out != "" || errs != wantErr {
		t.Errorf("invalid: exit %d, stdout %q\nstderr %q\nwant %q", code, out, errs, wantErr)
	}
	code, _, errs = runCLI(t, "recipe", "validate", "nope")
	if code != 1 || !strings.Contains(errs, "ℹ️  Failed to retrieve nope.yaml or nope.json in ") {
		t.Errorf("not found: exit %d, %q", code, errs)
	}
}

func TestByName(t *testing.T) {
	w := newLibraryWorld(t)
	w.addReview(t)
	code, out, errs := runCLI(t, "check", "lint")
	if code != 0 || !strings.Contains(out, "1 files checked: 0 errors, 0 warnings") {
		t.Errorf("check by name: exit %d, %s%s", code, out, errs)
	}
	code, _, errs = runCLI(t, "check", "nope")
	if code != 2 || !strings.Contains(errs, "Failed to retrieve nope.yaml or nope.json in") {
		t.Errorf("check unknown name: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "run", "nope", "--no-session")
	if code != 1 || !strings.Contains(errs, "ℹ️  Failed to retrieve nope.yaml or nope.json in "+filepath.Join(w.home, ".agents", "recipes")+":") {
		t.Errorf("run unknown name: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "run", "notes.txt", "--explain")
	if code != 1 || errs != "Error: Recipe file notes.txt is not a json or yaml file\n" {
		t.Errorf("run notes.txt: exit %d, %q", code, errs)
	}
	code, out, _ = runCLI(t, "check", "--desktop", "lint")
	if code != 0 || !strings.Contains(out, "hint: goose Desktop: Instructions are required") {
		t.Errorf("check --desktop: exit %d, %s", code, out)
	}
}
