// Package testgen generates realistic recipes of a given size for benchmarks.
package testgen

import (
	"fmt"
	"strings"
)

// Recipe returns a recipe with params parameters and about uses template uses: per 20 instruction lines,
// 3 single uses and 3 `if` lines with two uses each; the rest is prose. (190, 900) gives ~3,000 lines.
func Recipe(params, uses int) string {
	var b strings.Builder
	b.WriteString("version: 1.0.0\ntitle: Large recipe\ndescription: A generated recipe for benchmarks\n")
	b.WriteString("instructions: |\n")
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
	return b.String()
}
