// The run-time render has the template engine's budget and stops when its context is done.

package render

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/template"
)

func TestRenderBudget(t *testing.T) {
	doubling := "{% set x = target %}" + strings.Repeat("{% set x = x ~ x %}", 40)
	cases := []struct {
		name, prompt, want string
	}{
		{"a value doubled past the cap", doubling + "{{ x }}", "template evaluation stopped: a value would exceed 1 MiB"},
		// past 100 MB minijinja 2.24 refuses the repetition itself; below that goose-ls's cap stops it
		{"a huge repetition", `{{ target * 4611686018427387904 }}`, "invalid operation: repeated string is too large"},
		{"a repetition past the cap", `{{ target * 1000000 }}`, "template evaluation stopped: a value would exceed 1 MiB"},
		{"nested loops", `{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}`, "template evaluation stopped: more than"},
		// minijinja's integers are i128
		{"integer overflow", `{{ 170141183460469231731687303715884105727 + 1 }}`, "invalid operation: unable to calculate 170141183460469231731687303715884105727 + 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := "title: T\ndescription: D\nprompt: |\n  " + c.prompt + "\nparameters:\n  - key: target\n    input_type: string\n    requirement: required\n    description: what\n"
			f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(text), &recipe.Options{NoSubRecipes: true})
			_, err := Render(f, map[string]string{"target": "abcdefgh"}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestRenderContextCancelled(t *testing.T) {
	text := "title: T\ndescription: D\nprompt: |\n  {% for a in range(10000) %}{% for b in range(10000) %}{{ b }}{% endfor %}{% endfor %}\n"
	f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(text), &recipe.Options{NoSubRecipes: true, Context: context.Background()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RenderContext(ctx, f, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	_, err = RenderContext(context.Background(), f, nil, nil)
	if !errors.Is(err, template.ErrBudget) {
		t.Fatalf("error %v, want the template budget", err)
	}
}
