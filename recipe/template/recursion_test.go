// Recursion is bounded everywhere: parser, analysis and renderer end deep or cyclic input with an error.

package template

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParserDepthLimits(t *testing.T) {
	nest := func(open, body, close string) func(n int) string {
		return func(n int) string { return strings.Repeat(open, n) + body + strings.Repeat(close, n) }
	}
	cases := []struct {
		name string
		src  func(n int) string
		ok   int // the largest size that still parses (minijinja's limit where it has one)
	}{
		{"nested if (minijinja: 149 parse, 150 fail)", nest("{% if a %}", "x", "{% endif %}"), 149},
		{"nested for", nest("{% for a in b %}", "x", "{% endfor %}"), 149},
		{"nested set blocks", nest("{% set a %}", "x", "{% endset %}"), 149},
		{"parentheses (minijinja: 74)", func(n int) string { return "{{ " + nest("(", "1", ")")(n) + " }}" }, 74},
		{"lists (minijinja: 75)", func(n int) string { return "{{ " + nest("[", "", "]")(n) + " }}" }, 75},
		{"dicts", func(n int) string { return "{{ " + strings.Repeat("{'a': ", n) + "1" + strings.Repeat("}", n) + " }}" }, 74},
		{"unary minus", func(n int) string { return "{{ " + strings.Repeat("-", n) + "1 }}" }, 223},
		{"not chain", func(n int) string { return "{{ " + strings.Repeat("not ", n) + "1 }}" }, 223},
		{"filter chain", func(n int) string { return "{{ 1" + strings.Repeat("|abs", n) + " }}" }, maxChain - 1},
		{"attribute chain", func(n int) string { return "{{ a" + strings.Repeat(".b", n) + " }}" }, maxChain - 1},
		{"call chain", func(n int) string { return "{{ a" + strings.Repeat("()", n) + " }}" }, maxChain - 1},
		{"plus chain", func(n int) string { return "{{ 1" + strings.Repeat(" + 1", n) + " }}" }, maxChain - 1},
		{"elif chain", func(n int) string { return "{% if a %}" + strings.Repeat("{% elif b %}", n) + "{% endif %}" }, maxChain - 1},
		{"conditional chain", func(n int) string { return "{{ 1" + strings.Repeat(" if a", n) + " }}" }, maxChain - 1},
	}
	for _, c := range cases {
		for _, n := range []int{c.ok, c.ok + 1, 4 * c.ok, 100_000} {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				src := c.src(n)
				tpl, err := Parse("recipe", src)
				if n <= c.ok {
					if err != nil {
						t.Fatalf("depth %d: %v, want it to parse", n, err)
					}
					Analyze(tpl)
					if _, err := tpl.Render(nil, RenderOptions{}); err != nil && !strings.Contains(err.Error(), "undefined") && !strings.Contains(err.Error(), "not callable") && !strings.Contains(err.Error(), "unknown function") {
						t.Fatalf("render at depth %d: %v", n, err)
					}
					return
				}
				var se *SyntaxError
				if !errors.As(err, &se) || se.Msg != recursionLimitMsg {
					t.Fatalf("depth %d: error %v, want %q", n, err, recursionLimitMsg)
				}
			})
		}
	}
}

func TestRenderRecursionLimits(t *testing.T) {
	templates := map[string]string{
		"self":    `{% include "self" %}`,
		"ping":    `{% include "pong" %}`,
		"pong":    `{% include "ping" %}`,
		"extself": `{% extends "extself" %}`,
		"p":       `{% block a %}{% block b %}{% endblock %}{% endblock %}`,
		"inc-a":   `{% block a %}{% include "inc-a" %}{% endblock %}`,
	}
	loader := func(name string) (*Template, error) {
		src, ok := templates[name]
		if !ok {
			return nil, nil
		}
		return Parse(name, src)
	}
	cases := map[string]string{
		"self include":                      `{% include "self" %}`,
		"include cycle":                     `{% include "ping" %}`,
		"block reached again via super()":   `{% extends "p" %}{% block b %}{% block a %}{{ super() }}{% endblock %}{% endblock %}`,
		"include inside a same-named block": `{% block a %}{% include "inc-a" %}{% endblock %}`,
		"include in a loop":                 `{% for i in range(100000) %}{% include "self" ignore missing %}{% endfor %}`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			_, alloc, err := renderAlloc(t, src, RenderOptions{Loader: loader})
			if err == nil || !errors.Is(err, ErrBudget) {
				t.Fatalf("error %v, want a budget error", err)
			}
			if alloc > allocBudget {
				t.Fatalf("render allocated %d MiB, budget %d MiB", alloc>>20, allocBudget>>20)
			}
		})
	}
}

func TestRenderStopsWhenContextDone(t *testing.T) {
	tpl, err := Parse("recipe", `{% for a in range(1000) %}{% for b in range(1000) %}{{ a }}{% endfor %}{% endfor %}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tpl.Render(nil, RenderOptions{Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	var re *RuntimeError
	if !errors.As(err, &re) || !strings.HasPrefix(re.Msg, "template evaluation stopped: context canceled") {
		t.Fatalf("error %#v, want a RuntimeError saying the evaluation stopped", err)
	}
	// the same template without a context runs until its step budget
	_, err = tpl.Render(nil, RenderOptions{MaxSteps: 5000})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "more than 5000 steps") {
		t.Fatalf("error %v, want the step budget", err)
	}
}

func TestCyclicValuesPrintAndCompare(t *testing.T) {
	src := `{% set ns = namespace() %}{% set ns.a = ns %}{{ ns == ns }} {{ ns.a.a.a is defined }} {{ [ns] == [ns] }}`
	out, _, err := renderAlloc(t, src, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out != "True True True" {
		t.Fatalf("output %q", out)
	}
}
