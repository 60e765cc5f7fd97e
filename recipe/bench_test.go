// Benchmarks: a cold full check of a large (3,000-line, ~190 parameters, ~900 template uses) and a small
// (40-line) recipe.

package recipe_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

// largeRecipe builds a recipe of about 3,000 lines with params parameters and uses template uses.
func largeRecipe(params, uses int) []byte {
	var b strings.Builder
	b.WriteString("version: 1.0.0\ntitle: Large recipe\ndescription: A generated recipe for benchmarks\n")
	b.WriteString("instructions: |\n")
	// 2,000 instruction lines; per 20 lines, 3 single uses and 3 `if` lines with two uses each (9 uses).
	lines := uses * 20 / 9
	n := 0
	for i := 0; i < lines; i++ {
		switch i % 20 {
		case 0, 1, 2:
			fmt.Fprintf(&b, "  Step %d: consider {{ p%d }} carefully and write the findings down.\n", i, n%params)
			n++
		case 3, 4, 5:
			fmt.Fprintf(&b, "  Step %d: {%% if p%d %%}use {{ p%d | upper }}{%% endif %%} for this part.\n", i, n%params, n%params)
			n++
		default:
			fmt.Fprintf(&b, "  Step %d: plain prose without any template, just text to make the file realistic.\n", i)
		}
	}
	b.WriteString("prompt: Start the work.\nparameters:\n")
	for i := 0; i < params; i++ {
		fmt.Fprintf(&b, "  - key: p%d\n    input_type: string\n    requirement: optional\n    default: \"value %d\"\n    description: Parameter number %d of the large recipe\n", i, i, i)
	}
	b.WriteString("extensions:\n  - type: builtin\n    name: developer\n")
	return []byte(b.String())
}

const smallRecipe = `version: 1.0.0
title: Small recipe
description: A typical hand-written recipe of about forty lines
instructions: |
  You are a helpful assistant working on {{ project }}.
  Follow the team's conventions and explain each change.
prompt: |
  Review the changes in {{ path }} and suggest improvements.
  {% if strict == "true" %}Be strict about naming.{% endif %}
parameters:
  - key: project
    input_type: string
    requirement: required
    description: Project name
  - key: path
    input_type: string
    requirement: optional
    default: "."
    description: Folder to review
  - key: strict
    input_type: boolean
    requirement: optional
    default: false
    description: Strict mode
extensions:
  - type: builtin
    name: developer
    timeout: 300
  - type: stdio
    name: git
    cmd: uvx
    args: ["mcp-server-git"]
    timeout: 120
settings:
  goose_provider: anthropic
  goose_model: claude-sonnet-4
  temperature: 0.3
retry:
  max_retries: 2
  checks:
    - type: shell
      command: make lint
`

func TestBenchmarkInputsAreValid(t *testing.T) {
	for name, src := range map[string][]byte{"large": largeRecipe(190, 900), "small": []byte(smallRecipe)} {
		f := recipe.Check("/bench/"+name+".yaml", src, nil)
		for _, d := range f.Diags {
			t.Errorf("%s: unexpected %s: %s", name, d.Code, d.Message)
		}
	}
	if n := strings.Count(string(largeRecipe(190, 900)), "\n"); n < 2500 || n > 3500 {
		t.Errorf("large recipe has %d lines, want about 3,000", n)
	}
}

func BenchmarkCheckLarge(b *testing.B) {
	src := largeRecipe(190, 900)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		recipe.Check("/bench/large.yaml", src, nil)
	}
}

func BenchmarkCheckSmall(b *testing.B) {
	src := []byte(smallRecipe)
	b.ReportAllocs()
	for b.Loop() {
		recipe.Check("/bench/small.yaml", src, nil)
	}
}
