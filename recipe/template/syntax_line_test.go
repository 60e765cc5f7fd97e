// Syntax errors as minijinja 2.24 reports them (checked with shared/tools/minijinja-oracle-2.24): the exact
// words, and the line of ` (in recipe:N)` — where its lexer stood, or the last token its parser
// consumed — while the error's range stays on the offending text.

package template

import (
	"strings"
	"testing"
)

func TestSyntaxErrorLines(t *testing.T) {
	for _, c := range []struct {
		src, msg string
		line     int
		at       string // where the range starts ("" : not checked)
	}{
		// the lexer read to the end (the one trailing newline minijinja drops is not a line)
		{"{#\n\n", "unexpected end of comment", 2, "{#"},
		{"x\n{{ 'abc\n\n", "unexpected end of string", 3, "'abc"},
		// the parser's last token: the text after the unclosed tag, or the tag's end
		{"a\n{% if x %}\nb\n", "unexpected end of input, expected end of block", 2, ""},
		{"{% for x in y %}\n{{ x }}\n", "unexpected end of input, expected end of block", 2, ""},
		{"{{ x\n+\n", "unexpected end of input, expected expression", 2, ""},
		// text after `-%}` starts after the whitespace it trims; all trimmed, the tag was the last token
		{"{%with a=h-%}\n1", "unexpected end of input, expected end of block", 2, ""},
		{"{%with a=h-%}\n\n  \n1\n2", "unexpected end of input, expected end of block", 4, ""},
		{"{%with a=h-%}\n\n\n", "unexpected end of input, expected end of block", 1, ""},
		{"{%with a=h%}\n\n1", "unexpected end of input, expected end of block", 1, ""},
		// an empty assignment target is minijinja's (`{% set %}` opens a set block)
		{"{%set%}", "unexpected end of input, expected end of block", 1, ""},
		// filter and test names may be dotted
		{"{%with a=6|n.0", "unexpected integer, expected identifier", 1, "0"},
		// after an operand, `not` starts `not in`
		{"{%set v=\"\"if a not t", "unexpected identifier, expected in", 1, "t"},
		// `with` and `set` name what they expected as minijinja does
		{"{%with a=1 b=2%}{%endwith%}", "unexpected identifier, expected comma", 1, "b"},
		{"{% set x y %}", "unexpected identifier, expected assignment operator", 1, "y"},
		{"{{ 1 ` }}", "unexpected character", 1, "`"},
	} {
		_, err := Parse("recipe", c.src)
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%q: want a syntax error, got %v", c.src, err)
			continue
		}
		if se.Msg != c.msg || se.Line != c.line {
			t.Errorf("%q: got %q (in recipe:%d), want %q (in recipe:%d)", c.src, se.Msg, se.Line, c.msg, c.line)
		}
		if c.at != "" && !strings.HasPrefix(c.src[se.R.Start:], c.at) {
			t.Errorf("%q: range at %q, want at %q", c.src, c.src[se.R.Start:], c.at)
		}
	}
}

// TestMinijinjaAcceptsThese: forms minijinja 2.24 parses (and goose runs) that goose-ls refused.
func TestMinijinjaAcceptsThese(t *testing.T) {
	for src, want := range map[string]string{
		"{%for()in e%}{%endfor%}":                                "",
		"{%for x in y if 0 if z else 1%}{%endfor%}":              "",
		"{% set a = 1, 2 %}{{ a }}":                              "[1, 2]",
		"{% set ns = namespace() %}{% set ns.a = 3 %}{{ ns.a }}": "3",
	} {
		tpl, err := Parse("recipe", src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		out, err := tpl.Render(nil, RenderOptions{Undefined: Lenient})
		if err != nil || out.Text != want {
			t.Errorf("%q: rendered %q, %v; want %q", src, out.Text, err, want)
		}
	}
}
