// BenchmarkCheckGrowth: check time at 1×, 4×, 16× and 64× the size of each input shape, so a quadratic
// path shows as a ratio near 16 between neighbouring sizes (a linear one stays near 4; the garbage collector
// and caches push it up to ~5, which GOGC=off removes). Besides wall time it reports the process's CPU time
// per check (cpu-ns/op), which a loaded machine disturbs much less.

package recipe_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe"
)

// growthShapes build a recipe of each shape with about n units of its kind.
var growthShapes = []struct {
	name  string
	base  int
	build func(n int) string
}{
	{"long-line-of-uses", 2500, func(n int) string {
		return "title: T\ndescription: D\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: a\nprompt: " +
			strings.Repeat("{{ a }} ", n) + "\n"
	}},
	{"long-line-of-literal-braces", 2500, func(n int) string {
		var b strings.Builder
		b.WriteString("title: T\ndescription: D\nprompt: \"")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "{{ not a var %d }} ", i)
		}
		b.WriteString("\"\n")
		return b.String()
	}},
	{"many-parameters", 250, func(n int) string { return testgen.Recipe(n, 50) }},
	{"many-template-uses", 250, func(n int) string { return testgen.Recipe(20, n) }},
	{"many-diagnostics", 500, func(n int) string {
		var b strings.Builder
		b.WriteString("title: T\ndescription: D\nprompt: |\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  {{ v%d }} {{ u%d | upper }}\n", i, i)
		}
		return b.String()
	}},
	{"many-keys", 500, func(n int) string {
		var b strings.Builder
		b.WriteString("title: T\ndescription: D\nprompt: p\nsettings:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  key%d: value %d\n", i, i)
		}
		return b.String()
	}},
	{"loop-render", 25, func(n int) string {
		return fmt.Sprintf("title: T\ndescription: D\nprompt: |\n  {%% for i in range(%d) %%}{%% for j in range(100) %%}{{ i ~ j }} {%% endfor %%}{%% endfor %%}\n", n)
	}},
}

func BenchmarkCheckGrowth(b *testing.B) {
	for _, shape := range growthShapes {
		for _, mult := range []int{1, 4, 16, 64} {
			src := []byte(shape.build(shape.base * mult))
			b.Run(fmt.Sprintf("%s/%dx", shape.name, mult), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				cpu := processCPUTime()
				n := 0
				for b.Loop() {
					recipe.Check("/bench/growth.yaml", src, &recipe.Options{NoSubRecipes: true})
					n++
				}
				b.ReportMetric(float64(processCPUTime()-cpu)/float64(n), "cpu-ns/op")
			})
		}
	}
}

// TestGrowthInputsAreChecked keeps the benchmark honest: every shape is a recipe the checker reads to
// the end (no early stop, no internal error), and the diagnostics shape does produce diagnostics.
func TestGrowthInputsAreChecked(t *testing.T) {
	for _, shape := range growthShapes {
		f := recipe.Check("/bench/growth.yaml", []byte(shape.build(shape.base)), &recipe.Options{NoSubRecipes: true})
		if f.Tree == nil {
			t.Errorf("%s: no YAML tree; diagnostics %+v", shape.name, f.Diags)
		}
		for _, d := range f.Diags {
			if d.Code == recipe.CodeInternalError || d.Code == recipe.CodeCheckStopped || d.Code == recipe.CodeTplRuntime {
				t.Errorf("%s: %s %s", shape.name, d.Code, d.Message)
			}
		}
		if shape.name == "many-diagnostics" && len(f.Diags) != recipe.MaxDiagnostics+1 {
			t.Errorf("many-diagnostics: %d diagnostics, want the cap", len(f.Diags))
		}
	}
}
