// `self.name()` and the `filter`/`test` tests as minijinja 2.24 runs them (shared/tools/minijinja-oracle-2.24).

package template

import "testing"

func TestSelfBlockCall(t *testing.T) {
	for _, c := range []struct{ src, out, err string }{
		{"{{self.b()}}", "", "unknown block: block 'b' not found"},
		// the call's value is the block's text, wherever the block stands (from mj-oracle)
		{"{% block b %}B{% endblock %}|{{ self.b() }}|{{ self.b() | upper }}", "B|B|B", ""},
		{"{{ self.b(1, 2) }}{% block b %}x{% endblock %}", "xx", ""},
		{"[{{ self.b() | upper }}]{% block b %}x{% endblock %}[{{ self.b() | upper }}]", "[X]x[X]", ""},
		{"{% if self.b() %}T{% else %}F{% endif %}{% block b %}}}{% endblock %}", "T}}", ""},
		{"{% if self.b() %}T{% else %}F{% endif %}{% block b %}{% endblock %}", "F", ""},
		{"{% set v = self.b() %}[{{ v|length }}]{% block b %}xy{% endblock %}", "[2]xy", ""},
		// safe under autoescape only, as a capture
		{"{{ self.b()|e }}{% block b %}<{% endblock %}", "&lt;<", ""},
		{"{% autoescape true %}{{ self.b() }}{% endautoescape %}{% block b %}<{% endblock %}", "<<", ""},
	} {
		tpl, err := Parse("recipe", c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		out, err := tpl.Render(nil, RenderOptions{Undefined: Lenient})
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: error %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || out.Text != c.out):
			t.Errorf("%q: rendered %q, %v; want %q", c.src, out.Text, err, c.out)
		}
	}
}

// TestIsFilterAndIsTest: the name must be a string (minijinja converts the argument), checked with
// shared/tools/minijinja-oracle-2.24.
func TestIsFilterAndIsTest(t *testing.T) {
	for _, c := range []struct{ src, out, err string }{
		{"{{ 'upper' is filter }}|{{ 'nope' is filter }}|{{ 'odd' is test }}", "True|False|True", ""},
		{"{% set x = 'a'|safe %}{{ x is filter }}", "False", ""},
		{"{{ r is filter }}", "", "invalid operation: value is not a string"},
		{"{{ none is test }}", "", "invalid operation: value is not a string"},
	} {
		tpl, err := Parse("recipe", c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		out, err := tpl.Render(nil, RenderOptions{Undefined: Lenient})
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: error %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || out.Text != c.out):
			t.Errorf("%q: rendered %q, %v; want %q", c.src, out.Text, err, c.out)
		}
	}
}

// TestSilentUndefined: an inline `if` without `else` gives minijinja's silent undefined, which strict
// mode (goose's run-time render) lets through where a missing variable fails.
func TestSilentUndefined(t *testing.T) {
	src := "{{ 1 if false }}|{{ (1 if false) ~ 'x' }}|{{ (1 if false) is safe }}|{{ (1 if false) is defined }}|{{ (1 if false)|upper }}|{% for i in (1 if false) %}x{% endfor %}|{{ (1 if false) == 1 }}"
	tpl, err := Parse("recipe", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render(nil, RenderOptions{Undefined: Strict})
	if want := "|x|False|False|||False"; err != nil || out.Text != want {
		t.Fatalf("rendered %q, %v; want %q", out.Text, err, want)
	}
	if tpl, err = Parse("recipe", "{{ missing ~ 'x' }}"); err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.Render(nil, RenderOptions{Undefined: Strict}); err == nil || err.Error() != "undefined value" {
		t.Fatalf("a missing variable in strict mode: %v, want undefined value", err)
	}
}
