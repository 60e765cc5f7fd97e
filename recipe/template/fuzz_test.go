// Fuzz target for the template engine: parse, analyse, pre-process and render never panic or escape ranges.

package template

import "testing"

func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"hello {{ name }}", "{% for i in x %}{{ loop.index }}{% else %}none{% endfor %}",
		"{% if a %}{% elif b %}{% else %}{% endif %}", "{{ a | indent(2) | upper }}", "{% raw %}{{ x }}{% endraw %}",
		"{{customer first name}} {{ ok }}", "{% set x = [1, 2] %}{{ x[0:1] }}", "{# c #}{{- x -}}",
		"{% extends 'p' %}{% block b %}{{ super() }}{% endblock %}", "{{ {'a': {'b': 1}} }}",
		"{% with a = 1 %}{{ a ~ b }}{% endwith %}", "{{ x is divisibleby 3 }}",
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
		for _, mode := range []UndefinedBehavior{Lenient, Strict} {
			out, err := tpl.Render(map[string]Value{"x": StringValue("v")}, RenderOptions{Undefined: mode, Loader: loader, MaxOutput: 1 << 20})
			if err == nil && len(out.Text) > 1<<20 {
				t.Fatalf("output over the limit: %d", len(out.Text))
			}
		}
	})
}
