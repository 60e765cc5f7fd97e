// Tests for run-time parameter application and strict rendering.
package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
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

func TestMissingRequired(t *testing.T) {
	f, _ := setup(t)
	_, err := Values(f, map[string]string{}, nil, nil)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want MissingError, got %v", err)
	}
	want := "Please provide the following parameters in the command line: --params notes=your_value --params target=your_value"
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
