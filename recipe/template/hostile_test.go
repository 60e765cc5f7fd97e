// Hostile templates: every class of runaway evaluation ends with a clean error, within a memory budget.

package template

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// renderAlloc renders src leniently and returns the output, the bytes allocated meanwhile and the error.
func renderAlloc(t *testing.T, src string, opts RenderOptions) (string, uint64, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tpl, err := Parse("recipe", src)
	out := ""
	if err == nil {
		var o *Output
		o, err = tpl.Render(nil, opts)
		out = o.Text
	}
	runtime.ReadMemStats(&after)
	return out, after.TotalAlloc - before.TotalAlloc, err
}

// allocBudget is what any hostile render below may allocate in all.
const allocBudget = 200 << 20

func TestHostileTemplates(t *testing.T) {
	const tooBig = "template evaluation stopped: a value would exceed 1 MiB"
	const repeatTooLarge = "invalid operation: repeated string is too large"
	const tooLong = "template evaluation stopped: more than 2000000 steps"
	type hostile struct {
		name string
		src  func(n int) string
		want string // substring of the error
	}
	doubling := func(expr string) func(n int) string {
		return func(n int) string {
			return `{% set x = "xxxxxxxxxxxxxxxx" %}` + strings.Repeat(`{% set x = `+expr+` %}`, 20+4*n) + `{{ x }}`
		}
	}
	cases := []hostile{
		// past 100 MB minijinja 2.24 refuses the repetition itself (its words); below, goose-ls's cap stops it
		{"repeat huge count", func(n int) string { return fmt.Sprintf(`{{ "xx" * %d }}`, 4611686018427387904/n) }, repeatTooLarge},
		{"repeat count times length overflows", func(n int) string { return fmt.Sprintf(`{{ "%s" * 9223372036854775807 }}`, strings.Repeat("x", n)) }, repeatTooLarge},
		{"repeat under minijinja's limit", func(n int) string { return fmt.Sprintf(`{{ "xx" * %d }}`, 50000000/n) }, tooBig},
		{"list repeat", func(n int) string { return fmt.Sprintf(`{{ [1, 2] * %d }}`, 1<<(20+n)) }, tooBig},
		{"tilde doubling", doubling(`x ~ x`), tooBig},
		{"plus doubling", doubling(`x + x`), tooBig},
		{"list doubling", doubling(`[x, x]`), tooBig},
		{"list concat doubling", func(n int) string {
			return `{% set x = [1] %}` + strings.Repeat(`{% set x = x + x %}`, 20+4*n) + `{{ x|length }}`
		}, tooBig},
		{"join doubling", doubling(`[x, x]|join`), tooBig},
		{"join with separator", func(n int) string {
			return fmt.Sprintf(`{{ range(%d)|join("%s") }}`, 50000, strings.Repeat("y", 100*n))
		}, tooBig},
		{"replace doubling", doubling(`x|replace("x", "xx")`), tooBig},
		{"replace empty", doubling(`x|replace("", "ab")`), tooBig},
		{"indent doubling", func(n int) string {
			return `{% set x = "a\nb\nc\nd" %}` + strings.Repeat(`{% set x = (x ~ "\n" ~ x)|indent(100) %}`, 20+4*n) + `{{ x }}`
		}, tooBig},
		{"indent huge width", func(n int) string { return fmt.Sprintf(`{{ "a\nb"|indent(%d) }}`, 3000000000*n) }, tooBig},
		{"pprint doubling", doubling(`[x, x]|pprint`), tooBig},
		{"dict doubling", doubling(`{"a": x, "b": x}`), tooBig},
		{"namespace doubling", func(n int) string {
			return `{% set ns = namespace(a="xxxxxxxx") %}{% for i in range(` + fmt.Sprint(20+4*n) + `) %}{% set ns.a = ns.a ~ ns.a %}{% endfor %}{{ ns.a }}`
		}, tooBig},
		{"set block doubling", func(n int) string {
			return `{% set x = "xxxxxxxx" %}` + strings.Repeat(`{% set x %}{{ x }}{{ x }}{% endset %}`, 20+4*n) + `{{ x }}`
		}, tooBig},
		{"batch fill", func(n int) string { return fmt.Sprintf(`{{ [1]|batch(%d, 0) }}`, 1<<(20+n)) }, tooBig},
		{"slice count", func(n int) string { return fmt.Sprintf(`{{ [1]|slice(%d) }}`, 1<<(20+n)) }, tooBig},
		{"nested for", func(n int) string {
			r := fmt.Sprintf("range(%d)", 1000*n)
			return `{% for a in ` + r + ` %}{% for b in ` + r + ` %}{% for c in ` + r + ` %}.{% endfor %}{% endfor %}{% endfor %}`
		}, "template evaluation stopped"},
		{"nested for without output", func(n int) string {
			r := fmt.Sprintf("range(%d)", 1000*n)
			return `{% for a in ` + r + ` %}{% for b in ` + r + ` %}{% for c in ` + r + ` %}{% endfor %}{% endfor %}{% endfor %}`
		}, tooLong},
		{"many big values", func(n int) string {
			return `{% for i in range(` + fmt.Sprint(1000*n) + `) %}{% set x = "x" * 1000000 %}{% endfor %}`
		}, "template evaluation stopped: more than 64 MiB of values built"},
		{"output", func(n int) string {
			return `{% for i in range(` + fmt.Sprint(100*n) + `) %}{{ "x" * 1000000 }}{% endfor %}`
		}, "template evaluation stopped: the output would exceed 16 MiB"},
		{"string iteration", func(n int) string {
			return `{% set s = "x" * 1000000 %}{% for i in range(` + fmt.Sprint(n*10) + `) %}{% for c in s %}{% endfor %}{% endfor %}`
		}, "template evaluation stopped"},
		{"cyclic namespace printed", func(n int) string {
			return `{% set ns = namespace() %}` + strings.Repeat(`{% set ns.a = ns %}{% set ns.b = ns %}`, n) + `{{ ns }}`
		}, "template evaluation stopped"},
		{"integer overflow", func(n int) string {
			return fmt.Sprintf(`{{ 170141183460469231731687303715884105727 + %d }}`, n)
		}, "invalid operation: unable to calculate 170141183460469231731687303715884105727 + "},
		{"power overflow", func(n int) string { return fmt.Sprintf(`{{ 2 ** %d }}`, 127*n) }, "invalid operation: unable to calculate 2 ** "},
		{"division by zero", func(n int) string { return fmt.Sprintf(`{{ %d // 0 }}`, n) }, "invalid operation: unable to calculate"},
		{"modulo by zero", func(n int) string { return fmt.Sprintf(`{{ %d %% 0 }}`, n) }, "invalid operation: unable to calculate"},
		// minijinja computes integers in i128: its bounds, not int64's, are where arithmetic fails
		{"most negative divided by -1", func(n int) string { return `{{ (-170141183460469231731687303715884105727 - 1) // -1 }}` }, "invalid operation: unable to calculate"},
		{"negative power", func(n int) string { return fmt.Sprintf(`{{ 2 ** -%d }}`, n) }, "invalid operation: unable to calculate 2 ** -"},
		{"multiplication overflow", func(n int) string { return fmt.Sprintf(`{{ 13043817825332782213 * 13043817825332782213 * %d }}`, n) }, "invalid operation: unable to calculate"},
	}
	for _, c := range cases {
		for _, n := range []int{1, 4, 16} {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				src := c.src(n)
				_, alloc, err := renderAlloc(t, src, RenderOptions{})
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("render of %.80q: error %v, want one containing %q", src, err, c.want)
				}
				var re *RuntimeError
				if !errors.As(err, &re) || re.R.End > len(src) || re.R.Start > re.R.End {
					t.Fatalf("error %v is not a RuntimeError with a range inside the source", err)
				}
				if alloc > allocBudget {
					t.Fatalf("render allocated %d MiB, budget %d MiB", alloc>>20, allocBudget>>20)
				}
			})
		}
	}
}
