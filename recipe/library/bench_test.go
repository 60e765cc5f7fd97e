// Benchmarks: listing a library of 200 recipes, and a render preview (render, load, YAML) of a recipe.

package library

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func BenchmarkList(b *testing.B) {
	tmp, _ := filepath.EvalSymlinks(b.TempDir())
	env := Env{Cwd: filepath.Join(tmp, "proj"), Home: tmp, ConfigDir: filepath.Join(tmp, "cfg")}
	for i := range 200 {
		dir := []string{filepath.Join(env.Cwd, ".goose/recipes"), filepath.Join(tmp, ".agents/recipes")}[i%2]
		writeFile(b, filepath.Join(dir, fmt.Sprintf("r%03d.yaml", i)), fmt.Sprintf("title: Recipe %d\ndescription: Does thing %d\ninstructions: |\n  Do {{ what }} now.\nparameters:\n- {key: what, input_type: string, requirement: required, description: w}\n", i, i))
	}
	rs := Resolver{Env: env}
	b.ResetTimer()
	for b.Loop() {
		if n := len(rs.List()); n != 200 {
			b.Fatalf("listed %d", n)
		}
	}
}

func BenchmarkRenderPreview(b *testing.B) {
	dir := b.TempDir()
	text := []byte(previewText)
	f := recipe.Check(filepath.Join(dir, "r.yaml"), text, nil)
	b.ResetTimer()
	for b.Loop() {
		p := RenderPreview(context.Background(), f, map[string]string{"target": "src/app"}, nil)
		if p.YAML == "" {
			b.Fatalf("no YAML: %+v", p.Diags)
		}
	}
}

const previewText = `title: Code review
description: Review {{ target }}
instructions: |
  Review the files in {{ target }} for bugs.
  {% for i in range(20) %}
  - check item {{ i }} in {{ target | upper }}
  {% endfor %}
extensions:
- type: builtin
  name: developer
parameters:
- key: target
  input_type: string
  requirement: required
  description: what to review
- key: depth
  input_type: number
  requirement: optional
  default: "3"
  description: how deep
`
