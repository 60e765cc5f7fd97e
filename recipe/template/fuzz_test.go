// Fuzz target for the template engine: parse, analyse, pre-process and render never panic or escape ranges.

package template

import (
	"errors"
	"runtime"
	"testing"
)

func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"hello {{ name }}", "{% for i in x %}{{ loop.index }}{% else %}none{% endfor %}",
		"{% if a %}{% elif b %}{% else %}{% endif %}", "{{ a | indent(2) | upper }}", "{% raw %}{{ x }}{% endraw %}",
		"{{customer first name}} {{ ok }}", "{% set x = [1, 2] %}{{ x[0:1] }}", "{# c #}{{- x -}}",
		"{% extends 'p' %}{% block b %}{{ super() }}{% endblock %}", "{{ {'a': {'b': 1}} }}",
		"{% with a = 1 %}{{ a ~ b }}{% endwith %}", "{{ x is divisibleby 3 }}",
		`{{ "xx" * 4611686018427387904 }}`, `{% set x = "ab" %}{% set x = x ~ x %}{% set x = [x, x]|join %}{{ x|indent(9) }}`,
		"{% for a in range(99) %}{% for b in range(99) %}{{ loop.index }}{% endfor %}{% endfor %}",
		"{{ 9223372036854775807 + 1 }}{{ 2 ** 64 }}{{ 1 // 0 }}", "{% set ns = namespace() %}{% set ns.a = ns %}{{ ns }}",
		"{{ {'b': 1}|dictsort(by='value', reverse=true) }}{{ [1]|sort(attribute='a.0', foo=1) }}",
		"{{ range(*[1, 9], **{}) }}{{ [{'a': 1}]|map(attribute='a', default=0)|join(*[',']) }}{{ x is eq(y=1) }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		pre := Preprocess(src)
		for i := 0; i <= len(pre.Text); i += 1 + len(pre.Text)/64 {
			if o := pre.ToOriginal(i); o < 0 || o > len(src) {
				t.Fatalf("ToOriginal(%d) = %d outside [0,%d]", i, o, len(src))
			}
		}
		tpl, err := Parse("t", pre.Text)
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("parse error of type %T", err)
			}
			if se.R.Start < 0 || se.R.End < se.R.Start || se.R.End > len(pre.Text) {
				t.Fatalf("syntax error range %v outside text of %d", se.R, len(pre.Text))
			}
			for _, n := range se.Notes {
				if n.R.Start < 0 || n.R.End < n.R.Start || n.R.End > len(pre.Text) {
					t.Fatalf("note range %v outside text of %d", n.R, len(pre.Text))
				}
			}
			return
		}
		for _, u := range Analyze(tpl).Uses {
			if u.R.Start < 0 || u.R.End > len(pre.Text) || u.R.Start > u.R.End {
				t.Fatalf("use %q range %v outside text", u.Name, u.R)
			}
		}
		loader := func(name string) (*Template, error) {
			if name == "p" {
				return Parse("p", "a{% block b %}x{% endblock %}")
			}
			return nil, nil
		}
		// the budget per input: steps within the limit, allocation within what the limits allow
		const maxSteps, allocBudget = 200_000, 128 << 20
		for _, mode := range []UndefinedBehavior{Lenient, Strict} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, err := tpl.Render(map[string]Value{"x": StringValue("v")}, RenderOptions{Undefined: mode, Loader: loader, MaxOutput: 1 << 20, MaxSteps: maxSteps})
			runtime.ReadMemStats(&after)
			if err == nil && len(out.Text) > 1<<20 {
				t.Fatalf("output over the limit: %d", len(out.Text))
			}
			if out.Steps > maxSteps {
				t.Fatalf("render took %d steps, limit %d", out.Steps, maxSteps)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > allocBudget {
				t.Fatalf("render allocated %d MiB (error %v), budget %d MiB", alloc>>20, err, allocBudget>>20)
			}
			var re *RuntimeError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("render error of type %T: %v", err, err)
			}
			if re != nil && (re.R.Start < 0 || re.R.Start > re.R.End) {
				t.Fatalf("runtime error range %v", re.R)
			}
		}
	})
}
