// Reparse re-uses a parse only where the edit stays strictly inside one data node's rendered text, and
// what it returns is exactly what Parse returns for the new text.

package template

import (
	"reflect"
	"strings"
	"testing"
)

func TestReparse(t *testing.T) {
	const base = "title: {{ title }}\n{% if mode == 'strict' %}\n  Be strict about {{ x | upper }} here, 50% done.\n{% endif %}\n" +
		"{% for i in items %}- item {{ i }} done\n{% endfor %}\n" +
		"{% set note %}a kept note{% endset %}\n" +
		"a {%- if y %}   trimmed text   {%- endif %} end\nlast line {x# of text\n"
	cases := []struct {
		name, from, to string
		ok, outputOnly bool
	}{
		{"typing inside an if", "Be strict about", "Be very strict about", true, true},
		{"a new line in prose", "Be strict about", "Be strict\n about", true, true},
		{"deleting prose", "last line {x# of text", "last line {x# text", true, true},
		{"inside a for body", "item {{ i }} done", "item {{ i }} is done", true, false},
		{"inside a set block", "a kept note", "a kept long note", true, false},
		{"inside trimmed text", "trimmed text", "trimmed long text", true, true},
		{"the trimmed edge", "trimmed text   {%-", "trimmed tex   {%-", false, false},
		{"inside an expression", "{{ x | upper }}", "{{ xy | upper }}", false, false},
		{"inside a tag", "{% if mode == 'strict' %}", "{% if mode == 'strictly' %}", false, false},
		{"a new opener", "Be strict about", "Be {{ strict about", false, false},
		{"a lone brace", "about {{ x", "about{ {{ x", true, true},
		{"a brace before a percent", "50% done", "50{% done", false, false},
		{"a deletion that joins a brace and a hash", "{x#", "{#", false, false},
		{"next to a tag", "title: {{", "title:  {{", false, false},
	}
	old, err := Parse("recipe", base)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(base, c.from, c.to, 1)
			if src == base {
				t.Fatal("the replacement did not apply")
			}
			r, ok := Reparse(old, src)
			if ok != c.ok || (ok && r.OutputOnly != c.outputOnly) {
				t.Fatalf("Reparse: ok %v, output only %v; want %v, %v", ok, r.OutputOnly, c.ok, c.outputOnly)
			}
			if !ok {
				return
			}
			want, err := Parse("recipe", src)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Template, want) {
				t.Error("the re-used template differs from a parse of the new text")
			}
			if got, want := Analyze(old).Shifted(r.Edit), Analyze(want); !reflect.DeepEqual(got, want) {
				t.Errorf("shifted analysis %+v, want %+v", got, want)
			}
			if r.OutputOnly {
				before, err1 := old.Render(nil, RenderOptions{Undefined: Lenient})
				after, err2 := r.Template.Render(nil, RenderOptions{Undefined: Lenient})
				if err1 != nil || err2 != nil || before.Steps != after.Steps {
					t.Errorf("render of an output-only edit: steps %d → %d, errors %v, %v", before.Steps, after.Steps, err1, err2)
				}
			}
		})
	}
}

func TestReparseKeepsOldTemplate(t *testing.T) {
	const src = "one {{ a }}\ntwo words here\nthree {{ b }}\n"
	old, err := Parse("recipe", src)
	if err != nil {
		t.Fatal(err)
	}
	snapshot, _ := Parse("recipe", src)
	if _, ok := Reparse(old, strings.Replace(src, "two words", "two more words", 1)); !ok {
		t.Fatal("Reparse refused a prose edit")
	}
	if !reflect.DeepEqual(old, snapshot) {
		t.Error("Reparse modified the old template")
	}
	if r, ok := Reparse(old, src); !ok || r.Template != old {
		t.Error("the same text must give the same template")
	}
}

func TestDiff(t *testing.T) {
	long := strings.Repeat("abcdefgh", 100)
	for _, c := range []struct {
		old, new string
		want     Edit
	}{
		{"abc", "abc", Edit{3, 3, 3}},
		{"abc", "abXc", Edit{2, 2, 3}},
		{"abXc", "abc", Edit{2, 3, 2}},
		{"", "x", Edit{0, 0, 1}},
		{long + "1" + long, long + "22" + long, Edit{800, 801, 802}},
		{"aaaa", "aaa", Edit{3, 4, 3}},
	} {
		if got := Diff(c.old, c.new); got != c.want {
			t.Errorf("Diff(%.10q…, %.10q…) = %+v, want %+v", c.old, c.new, got, c.want)
		}
	}
}

// FuzzReparse: whenever Reparse re-uses a parse, it is the parse of the new text, and an output-only
// edit renders with the same steps and errors.
func FuzzReparse(f *testing.F) {
	f.Add("a {{ x }} b\nsome text here\n{% if y %}more text{% endif %}\n", 14, 2, "xy")
	f.Add("{% for i in l %}text {{ i }}{% endfor %} tail text", 22, 0, "{")
	f.Add("x {%- if a %}  some text  {%- endif %} y", 16, 1, " ")
	f.Add("{% set n %}abc{% endset %}{{ n | int }} text", 12, 1, "1")
	f.Fuzz(func(t *testing.T, src string, at, del int, ins string) {
		if len(src) > 4096 || at < 0 || at > len(src) || del < 0 || at+del > len(src) {
			return
		}
		old, err := Parse("recipe", src)
		if err != nil {
			return
		}
		next := src[:at] + ins + src[at+del:]
		r, ok := Reparse(old, next)
		if !ok {
			return
		}
		want, err := Parse("recipe", next)
		if err != nil {
			t.Fatalf("Reparse accepted %q, which does not parse: %v", next, err)
		}
		if !reflect.DeepEqual(r.Template, want) {
			t.Fatalf("Reparse of %q differs from Parse", next)
		}
		if !reflect.DeepEqual(Analyze(old).Shifted(r.Edit), Analyze(want)) {
			t.Fatalf("shifted analysis of %q differs", next)
		}
		if r.OutputOnly {
			opts := RenderOptions{Undefined: Lenient, MaxSteps: 10_000}
			before, err1 := old.Render(nil, opts)
			after, err2 := want.Render(nil, opts)
			grown := len(after.Text) - len(before.Text) // the text is written once or not at all
			if before.Steps != after.Steps || (err1 == nil) != (err2 == nil) || len(before.Loaded) != len(after.Loaded) ||
				err1 == nil && grown != 0 && grown != len(next)-len(src) {
				t.Fatalf("output-only edit of %q renders differently: steps %d/%d, errors %v/%v", next, before.Steps, after.Steps, err1, err2)
			}
		}
	})
}
