// Tests of the loads generator and goose's loader rule as the harness applies it (refusals.go), and of
// the parameter verdict's comparison.

package differential

import (
	"slices"
	"strings"
	"testing"
)

func TestGenerateLoadsCoversEveryForm(t *testing.T) {
	var all strings.Builder
	cases := GenerateLoads(1, 400)
	for _, c := range cases {
		if c.Kind != "loads" || !c.IsTemplate() {
			t.Fatalf("case %s is of kind %q", c.Name, c.Kind)
		}
		all.WriteString(c.Text)
	}
	for _, want := range []string{"{% include ", " ignore missing", "without context", `{% include ["missing.txt", `,
		"{% import ", "{% from ", "{% extends ", "{% block params %}parameters:", "{% if false %}", "{% for i in [1, 2] %}",
		`"../beside_vars.txt"`, `"../other/inc.txt"`, `"sub/../vars_a.txt"`, `"link_out.txt"`, `"../beside_parent.yaml"`,
		`"vars_nested.txt"`, `"vars_import.txt"`, `"link_in.txt"`, "- key: recipe_dir", "- key: punused"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no generated loads recipe holds %q", want)
		}
	}
	again := GenerateLoads(1, 400)
	for i := range cases {
		if cases[i].Text != again[i].Text {
			t.Fatalf("case %d differs between two runs of seed 1", i)
		}
	}
}

func TestRefusalFollowsGoosesLoader(t *testing.T) {
	dir, err := TempFixtureDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFixtures(dir); err != nil {
		t.Fatal(err)
	}
	for name, refused := range map[string]bool{
		"vars_a.txt": false, "link_in.txt": false, "missing.txt": false, "sub/vars_deep.txt": false,
		"../beside_vars.txt": true, "sub/../vars_a.txt": true, "link_out.txt": true, "/etc/hostname": true, "../nope.txt": true,
	} {
		if got := gooseRefuses(dir, name); got != refused {
			t.Errorf("gooseRefuses(%q) = %v, want %v", name, got, refused)
		}
	}
	text := "title: T\ndescription: D\nprompt: |\n  {% include \"vars_a.txt\" %}\n  {% include \"link_out.txt\" %}\n"
	line5 := 5
	cases := []struct {
		name string
		o    MJAnswer
		want string
	}{
		{"loaded", MJAnswer{Loaded: []string{"recipe", "vars_a.txt", "link_out.txt"}},
			"invalid operation: template path must stay within the recipe directory (in recipe:5)"},
		{"not loaded", MJAnswer{Loaded: []string{"recipe", "vars_a.txt"}}, ""},
		{"the render failed later", MJAnswer{LenientError: &MJError{Line: &line5, Display: "x (in recipe:5)"}},
			"invalid operation: template path must stay within the recipe directory (in recipe:5)"},
		{"the render failed first", MJAnswer{LenientError: &MJError{Line: ptr(4), Display: "x (in recipe:4)"}}, ""},
	}
	for _, c := range cases {
		got := ""
		if r := refusal(dir, text, &c.o); r != nil {
			got = r.Display
		}
		if got != c.want {
			t.Errorf("%s: refusal %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCompareParamsTakesVariablesOfLoadedTemplates(t *testing.T) {
	pre := "title: T\ndescription: D\nprompt: |\n  {% import \"vars_a.txt\" as m %}\nparameters:\n  - key: pa\n  - key: recipe_dir\n"
	o := MJAnswer{Pre: &pre, Vars: []string{"pa", "pb", "recipe_dir"}, LenientOutput: ptr("")}
	kase := Case{Kind: "loads"}
	for _, c := range []struct {
		e     EngineResult
		agree bool
	}{
		{EngineResult{Lenient: ptr(""), Vars: []string{"pa", "pb"}, Missing: []string{"pb"}, Unnecessary: []string{"recipe_dir"}}, true},
		{EngineResult{Lenient: ptr(""), Vars: []string{"pa", "pb"}, Unnecessary: []string{"recipe_dir"}}, false},
	} {
		fs := Compare(&kase, &o, &c.e, &YAMLAnswer{})
		i := slices.IndexFunc(fs, func(f Finding) bool { return f.Dim == DimParams })
		if i < 0 || fs[i].Agree != c.agree {
			t.Fatalf("findings %+v, want a parameter verdict that agrees: %v", fs, c.agree)
		}
		if fs[i].Goose != "missing: pb; unnecessary: recipe_dir" {
			t.Fatalf("goose's verdict %q", fs[i].Goose)
		}
	}
}
