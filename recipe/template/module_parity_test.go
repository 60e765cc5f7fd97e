// Imported modules and the dict/namespace/debug globals as minijinja 2.24 has them: each row is mj-oracle's
// answer (gen: a source per line → lenient and strict render), lenient and strict with x=v.

package template

import "testing"

func TestMinijinjaModulesAndGlobals(t *testing.T) {
	fixtures := map[string]string{"inc.txt": "A{% set x = 1 %}B{% set y = \"s\" %}C", "txt.txt": "only text"}
	runOracleRows(t, fixtures, []oracleRow{
		// an imported module is a map of the template's variables that prints as the template's output
		{"{% import 'inc.txt' as m %}{{ m }}|{{ [m] }}|{{ m|string }}|{{ m ~ '!' }}|{{ m|upper }}|{{ m|length }}|{{ m|list }}|{{ m|reverse|list }}", "ABC|[ABC]|ABC|ABC!|ABC|2|[\"x\", \"y\"]|[\"y\", \"x\"]", "", "ABC|[ABC]|ABC|ABC!|ABC|2|[\"x\", \"y\"]|[\"y\", \"x\"]", ""},
		{"{% import 'inc.txt' as m %}{{ debug(m) }}|{{ m|pprint }}|{{ m is mapping }}|{{ m.x }}|{% if m %}T{% endif %}|{{ dict(m) }}|{{ namespace(m) }}", "ABC|ABC|True|1|T|{\"x\": 1, \"y\": \"s\"}|{\"x\": 1, \"y\": \"s\"}", "", "ABC|ABC|True|1|T|{\"x\": 1, \"y\": \"s\"}|{\"x\": 1, \"y\": \"s\"}", ""},
		{"{% import 'txt.txt' as m %}{{ m }}|{{ [m, m] }}|{% if m %}T{% else %}F{% endif %}|{{ m|length }}|{{ m|capitalize }}", "only text|[only text, only text]|F|0|Only text", "", "only text|[only text, only text]|F|0|Only text", ""},
		{"{% from 'inc.txt' import x, y %}{{ x }}{{ y }}", "1s", "", "1s", ""},
		// debug() of arguments is their `{:#?}` (keywords are one more argument, a sorted map); dict and namespace
		// take one optional map
		{"{{ debug(1) }}|{{ debug(1, 'a') }}|{{ debug({'a': 1}) }}|{{ debug(none) }}|{{ debug(b=1, a=2) }}|{{ debug(1, a=2) }}", "1|[\n    1,\n    \"a\",\n]|{\n    \"a\": 1,\n}|None|{\n    \"a\": 2,\n    \"b\": 1,\n}|[\n    1,\n    {\n        \"a\": 2,\n    },\n]", "", "1|[\n    1,\n    \"a\",\n]|{\n    \"a\": 1,\n}|None|{\n    \"a\": 2,\n    \"b\": 1,\n}|[\n    1,\n    {\n        \"a\": 2,\n    },\n]", ""},
		{"{{ namespace({'x': 1}) }}|{{ namespace(dict(a=1)) }}|{{ namespace(none) }}|{{ namespace({1: 2, 'a': 3}) }}|{{ namespace(b=1, a=2) }}", "{\"x\": 1}|{\"a\": 1}|{}|{\"a\": 3}|{\"a\": 2, \"b\": 1}", "", "{\"x\": 1}|{\"a\": 1}|{}|{\"a\": 3}|{\"a\": 2, \"b\": 1}", ""},
		{"{{ namespace({'x': 1}, y=2) }}", "", "too many arguments", "", "too many arguments"},
		{"{{ namespace(1) }}", "", "invalid operation: expected object or keyword arguments, got number", "", "invalid operation: expected object or keyword arguments, got number"},
		{"{{ namespace('s') }}", "", "invalid operation: expected object or keyword arguments, got string", "", "invalid operation: expected object or keyword arguments, got string"},
		{"{{ dict(none) }}|{{ dict({1: 2}, a=1) }}|{{ dict(b=1, a=2) }}", "{}|{1: 2, \"a\": 1}|{\"a\": 2, \"b\": 1}", "", "{}|{1: 2, \"a\": 1}|{\"a\": 2, \"b\": 1}", ""},
		{"{{ dict(1) }}", "", "invalid operation", "", "invalid operation"},
		{"{{ dict([1]) }}", "", "invalid operation", "", "invalid operation"},
		{"{{ dict({'a': 1}, {'b': 2}) }}", "", "too many arguments", "", "too many arguments"},
	})
}
