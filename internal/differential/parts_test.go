// Tests of the harness's parts: generator, references, comparison, shrinking, crash recovery.

package differential

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGenerateIsDeterministic(t *testing.T) {
	corpus := []string{"title: T\nprompt: |\n  {{ x }}\nparameters:\n  - key: x\n", "title: U\ninstructions: do {{ y }}\n"}
	a, b := Generate(7, 300, 100, corpus), Generate(7, 300, 100, corpus)
	if len(a) != 400 {
		t.Fatalf("%d cases, want 400", len(a))
	}
	for i := range a {
		if a[i].Text != b[i].Text || fmt.Sprint(a[i].Values) != fmt.Sprint(b[i].Values) {
			t.Fatalf("case %d differs between two runs of seed 7:\n%q\n%q", i, a[i].Text, b[i].Text)
		}
	}
	c := Generate(8, 300, 100, corpus)
	same := 0
	for i := range a {
		if a[i].Text == c[i].Text {
			same++
		}
	}
	if same > 100 {
		t.Fatalf("seeds 7 and 8 share %d of 400 cases", same)
	}
}

func TestGenerateCoversEveryYAMLMutationAndTemplateConstruct(t *testing.T) {
	corpus := []string{"title: T\ndescription: D\nprompt: |\n  {{ x }}\n  more\nparameters:\n  - key: x\n    input_type: string\n"}
	kinds := map[string]bool{}
	var all strings.Builder
	for _, c := range Generate(1, 1000, 400, corpus) {
		for _, k := range c.Mutations {
			kinds[k] = true
		}
		all.WriteString(c.Text)
	}
	for _, m := range yamlMutations {
		if !kinds[m.kind] {
			t.Errorf("no case applied the YAML mutation %q", m.kind)
		}
	}
	for _, construct := range []string{"for ", "if ", "set ", "macro ", "include ", "extends ", "block ", "filter ", "raw", "with ",
		"autoescape ", "{#", "-%}", "{%-", " is ", "|", "[:", " if ", "{{customer name}}"} {
		if !strings.Contains(all.String(), construct) {
			t.Errorf("no generated template holds %q", construct)
		}
	}
}

func TestReduceFindsAOneMinimalInput(t *testing.T) {
	s := &Shrinker{MaxRounds: 100}
	units := splitRunes("xxabyyyazbzzz")
	holds := func(cands []string) int {
		for i, c := range cands {
			if strings.Contains(c, "a") && strings.Contains(c, "z") && strings.Index(c, "a") < strings.Index(c, "z") {
				return i
			}
		}
		return -1
	}
	got := strings.Join(s.reduce(units, holds), "")
	if got != "az" {
		t.Fatalf("reduced to %q, want %q", got, "az")
	}
}

func TestCompareClassesAndHints(t *testing.T) {
	line := 1
	cases := []struct {
		name      string
		o         MJAnswer
		e         EngineResult
		y         *YAMLAnswer
		dim       Dim
		agree     bool
		wantClass string
	}{
		{"location suffix missing", MJAnswer{StrictError: &MJError{Kind: "UndefinedError", Display: "undefined value (in recipe:1)", Line: &line}, LenientOutput: ptr(""), Pre: ptr("{{x}}")},
			EngineResult{Lenient: ptr(""), StrictErr: ptr("Failed to render the recipe undefined value")}, nil, DimRunMsg, false,
			"goose-ls lacks goose's location suffix (in recipe:N)"},
		{"same words on another line", MJAnswer{Syntax: &MJError{Display: "syntax error: unexpected end of comment (in recipe:3)"}},
			EngineResult{Syntax: ptr("syntax error: unexpected end of comment (in recipe:1)")}, nil, DimSyntaxMsg, false,
			"same words, other location: goose (in recipe:N), goose-ls (in recipe:N)"},
		{"goose-ls's hint after libyaml's words", MJAnswer{Pre: ptr("a: {{ x }} b"), LenientOutput: ptr("")},
			EngineResult{Lenient: ptr(""), YAML: ptr("did not find expected key (a value that starts with `{{` must be quoted)")},
			&YAMLAnswer{Error: ptr("did not find expected key")}, DimYAMLMsg, true, ""},
		{"a syntax verdict goose-ls misses", MJAnswer{Syntax: &MJError{Display: "syntax error: cannot assign to reserved variable name loop (in recipe:1)"}},
			EngineResult{}, nil, DimSyntax, false, "goose-ls accepts, goose: syntax error: cannot assign to reserved variable …"},
		{"variables", MJAnswer{Vars: []string{"recipe_dir", "x", "y"}, LenientOutput: ptr(""), Pre: ptr("")},
			EngineResult{Vars: []string{"x", "z"}, Lenient: ptr("")}, nil, DimVars, false, "goose-ls misses [y], adds [z]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kase := Case{Values: map[string]string{}}
			fs := Compare(&kase, &c.o, &c.e, c.y)
			i := slices.IndexFunc(fs, func(f Finding) bool { return f.Dim == c.dim })
			if i < 0 {
				t.Fatalf("no %s finding in %+v", c.dim, fs)
			}
			if fs[i].Agree != c.agree || fs[i].Class != c.wantClass {
				t.Fatalf("got agree=%v class %q, want agree=%v class %q", fs[i].Agree, fs[i].Class, c.agree, c.wantClass)
			}
		})
	}
}

func TestLibYAMLReferenceAppliesSerdeRules(t *testing.T) {
	y, err := StartLibYAML()
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	cases := []struct{ text, want string }{
		{"a: 1\n", ""},
		{"a: 1\n---\nb: 2\n", "deserializing from YAML containing more than one document is not supported"},
		{"a: &x 1\nb: *x\n", ""},
		{"a: *nope\n", "unknown anchor"},
		{"a: \x01\n", "control characters are not allowed"},
		{"a: 1\n b: 2\n", "mapping values are not allowed in this context"},
		{"a: |+-\n  x\n", "did not find expected comment or line break"},
		{"%YAML 1.1\n---\na: 1\n", ""},
		{"a: 1\n...\n", ""},
	}
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	for i, a := range y.AskAll(texts) {
		got := ""
		if a.Error != nil {
			got = *a.Error
		}
		if a.Crashed || (cases[i].want == "" && got != "") || (cases[i].want != "" && !strings.Contains(got, cases[i].want)) {
			t.Errorf("%q: libyaml says %q (crashed %v), want %q", cases[i].text, got, a.Crashed, cases[i].want)
		}
	}
}

// echoScript answers {"id":…} per line and dies on the id "die".
const echoScript = `
import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req["id"] == "die":
        sys.exit(3)
    print(json.dumps({"id": req["id"]}), flush=True)
`

type echoMsg struct {
	ID string `json:"id"`
}

func echoRequests(ids ...string) (in, out []any) {
	in, out = make([]any, len(ids)), make([]any, len(ids))
	for i, id := range ids {
		in[i], out[i] = &echoMsg{ID: id}, &echoMsg{}
	}
	return in, out
}

func TestLineProcessSurvivesACrash(t *testing.T) {
	p, err := newLineProcess("python3", "-c", echoScript)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ids := []string{"a", "b", "die", "c", "d"}
	in, out := echoRequests(ids...)
	errs := p.askAll(in, out)
	for i, id := range ids {
		got := out[i].(*echoMsg).ID
		if id == "die" {
			if errs[i] == nil {
				t.Errorf("no error for the request the process died on")
			}
			continue
		}
		if errs[i] != nil || got != id {
			t.Errorf("request %q: answer %q, error %v", id, got, errs[i])
		}
	}
}

func TestLineProcessKillsAReferenceThatNeverAnswers(t *testing.T) {
	p, err := newLineProcess("sleep", "3600")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.timeout = 200 * time.Millisecond
	in, out := echoRequests("a", "b")
	for i, err := range p.askAll(in, out) {
		if !errors.Is(err, errCrashed) {
			t.Errorf("request %d: error %v, want the reference reported as crashed", i, err)
		}
	}
}

func TestSameOutputComparesDebugTemplatesAsASet(t *testing.T) {
	dump := func(names ...string) string {
		var b strings.Builder
		b.WriteString("prompt: |\n  State {\n    env: Environment {\n        templates: [\n")
		for _, n := range names {
			fmt.Fprintf(&b, "            %q,\n", n)
		}
		b.WriteString("        ],\n    },\n}\ntail\n")
		return b.String()
	}
	if !sameOutput(dump("inc.txt", "parent.yaml", "recipe"), dump("parent.yaml", "inc.txt", "recipe")) {
		t.Error("the same templates in another order differ")
	}
	if sameOutput(dump("inc.txt", "recipe"), dump("parent.yaml", "recipe")) {
		t.Error("different templates agree")
	}
	if sameOutput(dump("a", "recipe")+"x", dump("a", "recipe")+"y") {
		t.Error("different text after the dump agrees")
	}
}
