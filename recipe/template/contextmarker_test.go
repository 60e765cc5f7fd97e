// `with context` / `without context` after include and import names, and `from … import` name lists, as
// minijinja 2.24 parses them (it accepts the markers and ignores them). Rows are mj-oracle's answers.

package template

import "testing"

func TestMinijinjaContextMarkers(t *testing.T) {
	runOracleRows(t, map[string]string{"a.txt": "x"}, []oracleRow{
		{"{% include 'a.txt' with context %}|{% include 'a.txt' without context %}|{% include 'a.txt' ignore missing with context %}|{% include 'nope.txt' with context ignore missing %}", "x|x|x|", "", "x|x|x|", ""},
		{"{% import 'a.txt' as m with context %}{{ m }}|{% import 'a.txt' as n without context %}{{ n }}|{% from 'a.txt' import %}|{% from 'a.txt' import a, %}{{ a }}|{% from 'a.txt' import a with context %}|{% from 'a.txt' import with context %}|{% from 'a.txt' import a, with context %}", "x|x|||||", "", "", "undefined value"},
	})
	// mj-oracle's syntax errors
	for src, msg := range map[string]string{
		"{% include 'a.txt' with %}":                                        "unexpected end of block, expected context",
		"{% include 'a.txt' with foo %}":                                    "unexpected identifier, expected context",
		"{% import 'a.txt' as m with %}":                                    "unexpected end of block, expected context",
		"{% from 'a.txt' import a b %}":                                     "unexpected identifier, expected `,`",
		"{% from 'a.txt' import , %}":                                       "unexpected `,`, expected identifier",
		"{% from 'a.txt' import a,, b %}":                                   "unexpected `,`, expected identifier",
		"{% from 'a.txt' import a with context, b %}":                       "unexpected `,`, expected end of block",
		"{% include 'a.txt' ignore missing ignore missing %}":               "unexpected identifier, expected end of block",
		"{% include 'a.txt' with context ignore missing without context %}": "unexpected identifier, expected end of block",
	} {
		_, err := Parse("recipe", src)
		se, ok := err.(*SyntaxError)
		if !ok || se.Msg != msg {
			t.Errorf("%q: got %v, want syntax error %q", src, err, msg)
		}
	}
}
