// Tests for run-time parameter application and strict rendering.
package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/template"
)

const src = `title: T
description: D
prompt: |
  Review {{ target }} in {{ recipe_dir }} as {{ role }}.
  {{ notes | indent(2) }}
parameters:
  - key: target
    input_type: string
    requirement: required
    description: what
  - key: role
    input_type: string
    requirement: optional
    default: reviewer
    description: who
  - key: notes
    input_type: file
    requirement: required
    description: notes file
`

func setup(t *testing.T) (*recipe.File, string) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("line1\nline2"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := recipe.Check(p, []byte(src), nil)
	if f.HasErrors() {
		t.Fatalf("fixture has errors: %+v", f.Diags)
	}
	return f, dir
}

// Missing values are listed in the parameters' declaration order (goose pushes them as it walks the list).
func TestMissingRequired(t *testing.T) {
	f, _ := setup(t)
	_, err := Values(f, map[string]string{}, nil, nil)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want MissingError, got %v", err)
	}
	want := "Please provide the following parameters in the command line: --params target=your_value --params notes=your_value"
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err.Error(), want)
	}
}

func TestValuesAndRender(t *testing.T) {
	f, dir := setup(t)
	vals, err := Values(f, map[string]string{"target": "src/", "notes": filepath.Join(dir, "notes.txt"), "extra": "kept"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vals["role"] != "reviewer" || vals["notes"] != "line1\nline2" || vals["extra"] != "kept" || vals["recipe_dir"] != dir {
		t.Errorf("values = %v", vals)
	}
	out, err := Render(f, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Review src/ in "+dir+" as reviewer.\n  line1\n  line2") {
		t.Errorf("rendered:\n%s", out)
	}
}

func TestFileParameterUnreadable(t *testing.T) {
	f, dir := setup(t)
	_, err := Values(f, map[string]string{"target": "x", "notes": filepath.Join(dir, "nope.txt")}, nil, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "Failed to read parameter file") {
		t.Errorf("got %v", err)
	}
}

func TestUserPromptAsked(t *testing.T) {
	dir := t.TempDir()
	text := "title: T\ndescription: D\nprompt: \"{{ q }}\"\nparameters:\n  - key: q\n    input_type: string\n    requirement: user_prompt\n    description: question\n"
	f := recipe.Check(filepath.Join(dir, "r.yaml"), []byte(text), nil)
	asked := ""
	vals, err := Values(f, nil, nil, func(key, desc string) (string, error) { asked = key + "|" + desc; return "42", nil })
	if err != nil || vals["q"] != "42" || asked != "q|question" {
		t.Fatalf("vals %v, asked %q, err %v", vals, asked, err)
	}
	if _, err := Values(f, nil, nil, nil); err == nil {
		t.Error("with no one to ask, a user_prompt parameter without value is missing")
	}
}

func TestStrictRenderFails(t *testing.T) {
	dir := t.TempDir()
	text := "title: T\ndescription: D\nprompt: \"{{ a }} {{ b }}\"\n"
	f := recipe.Check(filepath.Join(dir, "r.yaml"), []byte(text), nil)
	_, err := Render(f, map[string]string{"a": "1"}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "Failed to render the recipe") || !strings.Contains(err.Error(), "undefined value") {
		t.Errorf("got %v", err)
	}
}

// writeRecipe writes files into a fresh folder and checks name there.
func writeRecipe(t *testing.T, name string, files map[string]string) *recipe.File {
	t.Helper()
	dir := t.TempDir()
	for n, text := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return recipe.Check(filepath.Join(dir, name), []byte(files[name]), nil)
}

// goose prints minijinja's error with its location: the template's name and the error's line in it.
func TestRenderErrorsNameTheirTemplateAndLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"undefined value on line 4", map[string]string{"r.yaml": "title: T\ndescription: D\nprompt: |\n  {{ a }} {{ b }}\n"},
			"Failed to render the recipe undefined value (in recipe:4)"},
		{"error in the parent template", map[string]string{
			"r.yaml":      "{% extends 'parent.yaml' %}\n{% block body %}hi{% endblock %}\n",
			"parent.yaml": "title: T\ndescription: D\nprompt: |\n  {{ missing }}\n  {% block body %}{% endblock %}\n"},
			"Failed to render the recipe undefined value (in parent.yaml:4)"},
		{"error in an included template", map[string]string{
			"r.yaml":  "title: T\ndescription: D\nprompt: |\n  {% include 'inc.txt' %}\n",
			"inc.txt": "{{ missing }}"},
			`Failed to render the recipe could not render include: error in "inc.txt" (in recipe:4)`},
		{"syntax error in an included template: its name and minijinja's line in it", map[string]string{
			"r.yaml":  "title: T\ndescription: D\nprompt: |\n  {% include 'bad.txt' %}\n",
			"bad.txt": "line one\n{% if x %}\nnever closed"},
			"Failed to render the recipe syntax error: unexpected end of input, expected end of block (in bad.txt:2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := writeRecipe(t, "r.yaml", c.files)
			_, err := Render(f, map[string]string{"a": "1"}, nil)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
			var re *template.RuntimeError
			if !errors.As(err, &re) {
				t.Errorf("the template's error is no longer reachable with errors.As: %#v", err)
			}
		})
	}
}

func TestRenderSyntaxErrorNamesItsLine(t *testing.T) {
	f := &recipe.File{Path: "/nonexistent/r.yaml", Text: []byte("title: T\n\nprompt: \"{% if x %}\"\n")}
	_, err := Render(f, nil, nil)
	want := "Failed to render the recipe syntax error: unexpected end of input, expected end of block (in recipe:3)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// goose rewrites `:\s*""` to a pair of single quotes before the run-time render, with Rust's Unicode `\s`
// (mj-oracle: a U+2029 before the quotes is rewritten too); ASCII-only `\s` would leave it.
func TestEmptyQuotesUnicodeSpace(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"a: \u2029\"\"\n", "a: ''"},
		{"a:\u00a0\"\"\n", "a: ''"},
		{"a:\v\"\"\n", "a: ''"},
		{"a: \"\"\n", "a: ''"},
		{"a: x\"\"\n", "a: x\"\""},
	} {
		f := recipe.Check("recipe.yaml", []byte(c.text), &recipe.Options{NoSubRecipes: true})
		out, err := Render(f, map[string]string{}, nil)
		if err != nil || out != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.text, out, err, c.want)
		}
	}
}
