// A large recipe's template stage runs beside the YAML stage; the result must be exactly the sequential
// one: same diagnostics in the same order, same template results, one CHECK-STOPPED when cancelled.

package recipe

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

func TestConcurrentTemplateStageMatchesSequential(t *testing.T) {
	base := testgen.Recipe(60, 300) // ~1,000 lines, above minConcurrentBytes
	if len(base) < minConcurrentBytes {
		t.Fatalf("input of %d bytes would not run concurrently", len(base))
	}
	cases := map[string]string{
		"valid":            base,
		"undefined":        strings.Replace(base, "{{ p0 }}", "{{ nope }} {{ p0 | nosuchfilter }}", 1),
		"syntax error":     strings.Replace(base, "{% if p3 %}", "{% if %}", 1),
		"runtime error":    strings.Replace(base, "{{ p0 }}", "{{ p0 + 1 }}", 1),
		"yaml error":       strings.Replace(base, "prompt: Start the work.", "prompt: [Start the work.", 1),
		"schema error":     strings.Replace(base, "input_type: string", "input_type: strin", 1),
		"unused param":     strings.Replace(base, "  - key: p1\n", "  - key: unused\n", 1),
		"missing title":    strings.Replace(base, "title: Large recipe\n", "", 1),
		"instructions map": strings.Replace(base, "instructions: |\n", "instructions:\n  a: |\n", 1),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if src == base && name != "valid" {
				t.Fatal("the replacement did not apply")
			}
			seq := Check("/r/large.yaml", []byte(src), &Options{NoSubRecipes: true, sequential: true})
			con := Check("/r/large.yaml", []byte(src), &Options{NoSubRecipes: true})
			if diff := cmp.Diff(seq.Diags, con.Diags); diff != "" {
				t.Errorf("diagnostics differ (-sequential +concurrent):\n%s", diff)
			}
			if (seq.Template == nil) != (con.Template == nil) || (seq.Analysis == nil) != (con.Analysis == nil) ||
				seq.RenderSteps != con.RenderSteps || seq.Inherits != con.Inherits {
				t.Errorf("template results differ: sequential %v/%v/%d, concurrent %v/%v/%d", seq.Template != nil,
					seq.Analysis != nil, seq.RenderSteps, con.Template != nil, con.Analysis != nil, con.RenderSteps)
			}
			if name != "valid" && len(con.Diags) == 0 {
				t.Error("no diagnostic: the case tests nothing")
			}
		})
	}
}

func TestConcurrentTemplateStageCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := []byte(testgen.Recipe(60, 300))
	f := Check("/r/large.yaml", src, &Options{NoSubRecipes: true, Context: ctx})
	n := 0
	for _, d := range f.Diags {
		if d.Code == CodeCheckStopped {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d CHECK-STOPPED diagnostics, want 1: %v", n, f.Diags)
	}
}
