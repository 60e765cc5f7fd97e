// Where syntax errors point: the construct to fix, with minijinja's own place as the engine note.

package template

import (
	"errors"
	"testing"
)

func TestSyntaxErrorPointsAtConstruct(t *testing.T) {
	for _, c := range []struct {
		src    string
		at     string // the text R covers
		engine int    // where minijinja noticed the error (-1: at R, no engine note)
		note   string // a note other than the engine's that must be there ("" for none)
	}{
		// an unclosed block: its opening tag; minijinja reaches the end of the text
		{src: "a{% if x %}b\n", at: "{% if x %}", engine: 13},
		{src: "{% for x in y %}{% if x %}{% endif %}", at: "{% for x in y %}", engine: 37},
		{src: "{% if a %}x{% elif b %}y", at: "{% if a %}", engine: 24},
		{src: "{% set v %}abc", at: "{% set v %}", engine: 14},
		// an unclosed bracket: minijinja reads `%}` or `}}` as operators and fails on a `}`
		{src: "{% if (a %}x{% endif %}", at: "(", engine: 10},
		{src: "{% set a = [1, 2 %}", at: "[", engine: 18},
		{src: "{{ f(a }}", at: "(", engine: 7},
		{src: "{{ x[0 }}", at: "[", engine: 7},
		{src: "{% set a = {'k': [1 %}", at: "[", engine: 21},
		{src: "{{ (a", at: "(", engine: 5},
		// a tag whose closing delimiter is missing: its opener to the end of its line
		{src: "{% if x\nmore %}", at: "{% if x", engine: 8},
		{src: "{{ x  \nmore", at: "{{ x", engine: 7},
		{src: "text {% if x", at: "{% if x", engine: 12},
		// an unterminated string: its opening quote to the end of its line
		{src: "{{ 'abc\ndef", at: "'abc", engine: 11},
		// comments and raw blocks: their opener, minijinja at the end
		{src: "a {# b\nc", at: "{#", engine: 8},
		{src: "{% raw %}x", at: "{% raw %}", engine: 10},
		// the place is the offending token: no note
		{src: "{% if a b %}{% endif %}", at: "b", engine: -1},
		{src: "{% if x) %}a{% endif %}", at: ")", engine: -1},
		{src: "{% set a = [1 2] %}", at: "2", engine: -1},
		{src: "{% set a = [\n  1, 2\n] foo %}", at: "foo", engine: -1},
		{src: "{% endif %}", at: "endif", engine: -1},
		// an end tag inside another block: the open block is named
		{src: "{% for x in y %}{% endif %}", at: "endif", engine: -1, note: "this `for` is still open"},
		{src: "{% if x %}{% endfor %}", at: "endfor", engine: -1, note: "this `if` is still open"},
	} {
		_, err := Parse("t", c.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: want a syntax error, got %v", c.src, err)
			continue
		}
		if got := c.src[se.R.Start:min(se.R.End, len(c.src))]; got != c.at {
			t.Errorf("%q (%s): range covers %q, want %q", c.src, se.Msg, got, c.at)
		}
		engine := -1
		for _, n := range se.Notes {
			if n.Engine {
				engine = n.R.Start
			}
		}
		if engine != c.engine {
			t.Errorf("%q (%s): engine note at %d, want %d", c.src, se.Msg, engine, c.engine)
		}
		if c.engine < 0 && se.EngineRange() != se.R {
			t.Errorf("%q: EngineRange %v, want R %v", c.src, se.EngineRange(), se.R)
		}
		found := c.note == ""
		for _, n := range se.Notes {
			found = found || (!n.Engine && n.Msg == c.note)
		}
		if !found {
			t.Errorf("%q: notes %+v lack %q", c.src, se.Notes, c.note)
		}
	}
}
