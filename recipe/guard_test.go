// The check's guards: it stops with one diagnostic when its context is done, turns a panic into an
// internal-error diagnostic and keeps the rest, caps diagnostics, and stays within budget on hostile input.

package recipe_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/recipe"
)

// doneAfter is a context that reports cancellation from its n-th look on: it stops a check at a
// deterministic point inside a stage.
type doneAfter struct {
	context.Context
	looks, n int
}

func (c *doneAfter) Err() error {
	if c.looks++; c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

func codes(f *recipe.File, code string) []recipe.Diagnostic {
	var out []recipe.Diagnostic
	for _, d := range f.Diags {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

const slowRecipe = "title: T\ndescription: D\nprompt: |\n  {% for a in range(1000) %}{% for b in range(1000) %}{{ a }}{% endfor %}{% endfor %}\n"

func TestCheckStopsWhenContextDone(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	past, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	cases := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"cancelled before it starts", cancelled, "because it was cancelled"},
		{"past its deadline", past, "because it took longer than its deadline"},
		{"cancelled during the validation render", &doneAfter{Context: context.Background(), n: 3}, "because it was cancelled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(slowRecipe), &recipe.Options{Context: c.ctx, NoSubRecipes: true})
			stopped := codes(f, recipe.CodeCheckStopped)
			if len(stopped) != 1 || !strings.Contains(stopped[0].Message, c.want) {
				t.Fatalf("diagnostics %+v, want one %s saying %q", f.Diags, recipe.CodeCheckStopped, c.want)
			}
			if len(codes(f, recipe.CodeTplRuntime)) != 0 || f.Recipe != nil {
				t.Fatalf("the check went on after it stopped: %+v", f.Diags)
			}
		})
	}
	// without a context the same recipe runs into the step budget, at the loop
	f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(slowRecipe), &recipe.Options{NoSubRecipes: true})
	rt := codes(f, recipe.CodeTplRuntime)
	if len(rt) != 1 || !strings.Contains(rt[0].Message, "template evaluation stopped: more than") || len(codes(f, recipe.CodeCheckStopped)) != 0 {
		t.Fatalf("diagnostics %+v, want the step budget as TPL-RUNTIME", f.Diags)
	}
	if got := string(f.Text[rt[0].R.Start:rt[0].R.End]); !strings.HasPrefix(got, "{% for b") {
		t.Fatalf("budget error at %q, want the inner loop", got)
	}
}

// panickyFS panics on every read, as a buggy overlay could.
type panickyFS struct{}

func (panickyFS) ReadFile(name string) ([]byte, error) {
	panic("overlay exploded reading " + filepath.Base(name))
}

func TestCheckRecoversFromPanics(t *testing.T) {
	src := "title: T\ndescription: D\nprompt: Use {{ missing }}\nsub_recipes:\n  - name: child\n    path: child.yaml\nbogus_key: 1\n"
	f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(src), &recipe.Options{FS: panickyFS{}})
	internal := codes(f, recipe.CodeInternalError)
	if len(internal) != 1 || !strings.Contains(internal[0].Message, "sub-recipes: overlay exploded reading child.yaml") {
		t.Fatalf("diagnostics %+v, want one internal error from the sub-recipes stage", f.Diags)
	}
	if f.Recipe == nil || len(codes(f, recipe.CodeParamUndefined)) != 1 || len(codes(f, recipe.CodeUnknownField)) != 1 {
		t.Fatalf("the rest of the result is missing: %+v", f.Diags)
	}
}

func TestDiagnosticsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("title: T\ndescription: D\nprompt: |\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  {{ v%d }}\n", i)
	}
	f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(b.String()), &recipe.Options{NoSubRecipes: true})
	if len(f.Diags) != recipe.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", len(f.Diags), recipe.MaxDiagnostics+1)
	}
	last := f.Diags[len(f.Diags)-1]
	m := regexp.MustCompile(`^(\d+) more problems not shown$`).FindStringSubmatch(last.Message)
	if last.Code != recipe.CodeTooManyProblems || m == nil || m[1] != "800" {
		t.Fatalf("last diagnostic %+v, want %s counting 800 more", last, recipe.CodeTooManyProblems)
	}
	for i, d := range f.Diags[:len(f.Diags)-1] {
		if d.Code != recipe.CodeParamUndefined || (i > 0 && d.R.Start < f.Diags[i-1].R.Start) {
			t.Fatalf("diagnostic %d: %+v, want the first 200 PARAM-UNDEFINED in order", i, d)
		}
	}
}

func TestHostileRecipesStayWithinBudget(t *testing.T) {
	wrap := func(tpl string) string { return "title: T\ndescription: D\nprompt: |\n  " + tpl + "\n" }
	cases := []struct {
		name, src, want string
	}{
		{"string repetition overflow", wrap(`{{ "xx" * 4611686018427387904 }}`), "invalid operation: repeated string is too large"}, // minijinja 2.24's own limit (100 MB)
		{"string repetition past the value cap", wrap(`{{ "xx" * 40000000 }}`), "template evaluation stopped: a value would exceed 1 MiB"},
		{"join doubling", wrap(`{% set x = "xxxxxxxx" %}` + strings.Repeat(`{% set x = [x, x]|join %}`, 40) + `{{ x }}`), "a value would exceed 1 MiB"},
		{"replace doubling", wrap(`{% set x = "xxxxxxxx" %}` + strings.Repeat(`{% set x = x|replace("x", "xx") %}`, 40)), "a value would exceed 1 MiB"},
		{"indent doubling", wrap(`{% set x = "a\nb" %}` + strings.Repeat(`{% set x = (x ~ "\n" ~ x)|indent(50) %}`, 40)), "a value would exceed 1 MiB"},
		{"tilde doubling", wrap(`{% set x = "xxxxxxxx" %}` + strings.Repeat(`{% set x = x ~ x %}`, 40)), "a value would exceed 1 MiB"},
		{"nested for", wrap(`{% for a in range(100000) %}{% for b in range(100000) %}{% for c in range(100000) %}{% endfor %}{% endfor %}{% endfor %}`), "template evaluation stopped: more than"},
		{"same-named block in the same template", wrap(`{% block a %}{% block a %}x{% endblock %}{% endblock %}`), "block 'a' defined twice"},
		{"deep nesting", wrap(strings.Repeat("{% if a %}", 10000)), "template exceeds maximum recursion limits"},
		{"deep expression", wrap("{{ " + strings.Repeat("(", 100000) + " }}"), ""},
		// goose wraps each copy once per copy: 5,000² wraps, half a gigabyte
		{"repeated unparseable braces", "title: T\ndescription: D\nprompt: hi\n" + strings.Repeat("k: \"{{ a b }}\"\n", 5000), "goose's literal-brace pre-processing would grow this file past"},
		{"unparseable texts of every length in one brace run", "title: T\ndescription: D\nprompt: hi\n" + func() string {
			var b strings.Builder
			for i := 0; i < 2000; i++ {
				fmt.Fprintf(&b, "k%d: \"{{ %s b }}\"\n", i, strings.Repeat("a", i))
			}
			return b.String()
		}() + "y: \"{{ '" + strings.Repeat("{", 1<<20) + "}}\"\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f := recipe.Check(filepath.Join(t.TempDir(), "r.yaml"), []byte(c.src), &recipe.Options{NoSubRecipes: true})
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Fatalf("check allocated %d MiB", alloc>>20)
			}
			found := c.want == ""
			for _, d := range f.Diags {
				if strings.Contains(d.Message, c.want) {
					found = true
				}
				if d.Code == recipe.CodeInternalError {
					t.Fatalf("internal error: %s", d.Message)
				}
			}
			if !found {
				t.Fatalf("diagnostics %+v, want one containing %q", f.Diags, c.want)
			}
		})
	}
}
