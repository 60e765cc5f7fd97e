// String literal escapes against mj-oracle: what each escape becomes, and where minijinja fails with its
// BadEscape ("bad string escape", not a syntax error) and on which line.

package template

import "testing"

func TestMinijinjaStringEscapes(t *testing.T) {
	runOracleRows(t, nil, []oracleRow{
		{"{{ '\\x41' }}|{{ '\\z' }}|{{ '\\U0001F600' }}|{{ '\\u+041' }}|{{ '\\x+1' }}|{{ '\\101\\60\\0' }}|{{ '\\ud83d\\ude00' }}|{{ '\\xe9' }}|{{ '\\/' }}|{{ \"\\'\" }}|{{ '\\u00e9' }}|{{ 'a\\\"b' }}", "A|\\z|\\U0001F600|A|\u0001|A0\u0000|😀|é|/|'|é|a\"b", "", "A|\\z|\\U0001F600|A|\u0001|A0\u0000|😀|é|/|'|é|a\"b", ""},
	})
	// mj-oracle: every one is `bad string escape (in recipe:LINE)`
	for src, line := range map[string]int{
		"{{ '\\ud83d' }}": 1, "{{ '\\777' }}": 1, "{{ '\\u00' }}": 1, "{{ '\\ude00' }}": 1, "{{ '\\x4' }}": 1,
		"{{ '\\u00e9\\u00' }}": 1, "{{ 1 ~\n\n'x\ny\\ud83d' }}": 1, "x\n{% set x = 1 ~\n'\\ud83d' %}": 2,
		"{{ '\\ud83dx' }}": 1, "{{ '\\x-1' }}": 1, "{{ '\\u-041' }}": 1, "{{ '\\x+' }}": 1,
	} {
		_, err := Parse("recipe", src)
		se, ok := err.(*SyntaxError)
		if !ok || se.Error() != "bad string escape" || se.Line != line {
			t.Errorf("%q: got %v (line %v), want bad string escape on line %d", src, err, se, line)
		}
	}
}
