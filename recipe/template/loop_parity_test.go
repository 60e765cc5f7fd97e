// For loops as minijinja 2.24 with goose's features runs them: recursive loops (`loop(items)`), the loop
// object's attributes (no previtem/nextitem: goose builds minijinja without adjacent_loop_items) and how it
// prints. Each row is mj-oracle's answer, lenient and strict with x=v.

package template

import "testing"

func TestMinijinjaLoops(t *testing.T) {
	fixtures := map[string]string{"useloop.txt": "{{ loop.index }}{{ loop.depth }}"}
	runOracleRows(t, fixtures, []oracleRow{
		{"{% for x in [[1],[2,[3]]] recursive %}<{% if x is sequence %}{{ loop(x) }}{% else %}{{x}}{{loop.depth}}{% endif %}>{% endfor %}", "<<12>><<22><<33>>>", "", "<<12>><<22><<33>>>", ""},
		{"{% for x in [[]] recursive %}[{{ loop(x) }}]{% else %}E{% endfor %}|{% for x in [[0,1]] if x recursive %}[{% if x is sequence %}{{ loop(x) }}{% else %}{{x}}{% endif %}]{% endfor %}", "[]|[[0][1]]", "", "[]|[[0][1]]", ""},
		{"{% for x in [[1,2]] recursive %}{{loop.index}}{{loop.depth}}{{loop.length}}[{% if x is sequence %}{% set r = loop(x) %}{{ r|upper }}{{loop.index}}{{loop.depth}}{% else %}{{x}}{{loop.index}}{{loop.depth}}{% endif %}]{% endfor %}", "111[122[112]222[222]11]", "", "111[122[112]222[222]11]", ""},
		{"{% for x in [[1]] recursive %}{{ loop.depth }}{% if x is sequence %}{% for y in x %}{{ loop.depth }}{% endfor %}{% endif %}{% endfor %}|{% for x in [1] %}{% for y in [2] recursive %}{{ loop.depth }}{% endfor %}{% endfor %}", "12|1", "", "12|1", ""},
		{"{% for x in [1] recursive %}{{ loop(none) }}{{ loop(y) }}{{ loop([]) }}{% endfor %}|{% for a, b in [[1,[]]] recursive %}{{ a }}{{ loop(b) }}{% endfor %}", "|1", "", "", "invalid operation: cannot recurse because of non-iterable value"},
		{"{% for x in [1] recursive %}{{ loop(1) }}{% endfor %}", "", "invalid operation: cannot recurse because of non-iterable value", "", "invalid operation: cannot recurse because of non-iterable value"},
		{"{% for x in [1] %}{{ loop([]) }}{% endfor %}", "", "invalid operation: cannot recurse outside of recursive loop", "", "invalid operation: cannot recurse outside of recursive loop"},
		{"{% for x in [1] recursive %}{{ loop([], 1) }}{% endfor %}", "", "invalid operation: loop() takes one argument", "", "invalid operation: loop() takes one argument"},
		{"{% for x in [1] recursive %}{{ loop('ab') }}{% endfor %}", "", "invalid operation: recursion limit exceeded", "", "invalid operation: recursion limit exceeded"},
		{"{% for x in [1] recursive %}{{ (loop)([]) }}{% endfor %}", "", "", "", ""},
		{"{{ loop(1) }}", "", "unknown function: loop is unknown", "", "unknown function: loop is unknown"},
		{"{% for x in [1,2] %}{{ loop }}|{{ [loop] }}|{{ loop is mapping }}|{{ loop|length }}|{{ loop|list }}|{{ loop.previtem }}{{ loop.nextitem }}|{{ loop.depth0 }};{% endfor %}", "<loop 0/2>|[<loop 0/2>]|True|9|[\"index0\", \"index\", \"length\", \"revindex\", \"revindex0\", \"first\", \"last\", \"depth\", \"depth0\"]||0;<loop 1/2>|[<loop 1/2>]|True|9|[\"index0\", \"index\", \"length\", \"revindex\", \"revindex0\", \"first\", \"last\", \"depth\", \"depth0\"]||0;", "", "", "undefined value"},
		{"{% for x in [1,2] %}{{ loop|dictsort }}{{ dict(loop) }}{% endfor %}", "[[\"depth\", 1], [\"depth0\", 0], [\"first\", True], [\"index\", 1], [\"index0\", 0], [\"last\", False], [\"length\", 2], [\"revindex\", 2], [\"revindex0\", 1]]{\"depth\": 1, \"depth0\": 0, \"first\": True, \"index\": 1, \"index0\": 0, \"last\": False, \"length\": 2, \"revindex\": 2, \"revindex0\": 1}[[\"depth\", 1], [\"depth0\", 0], [\"first\", False], [\"index\", 2], [\"index0\", 1], [\"last\", True], [\"length\", 2], [\"revindex\", 1], [\"revindex0\", 0]]{\"depth\": 1, \"depth0\": 0, \"first\": False, \"index\": 2, \"index0\": 1, \"last\": True, \"length\": 2, \"revindex\": 1, \"revindex0\": 0}", "", "[[\"depth\", 1], [\"depth0\", 0], [\"first\", True], [\"index\", 1], [\"index0\", 0], [\"last\", False], [\"length\", 2], [\"revindex\", 2], [\"revindex0\", 1]]{\"depth\": 1, \"depth0\": 0, \"first\": True, \"index\": 1, \"index0\": 0, \"last\": False, \"length\": 2, \"revindex\": 2, \"revindex0\": 1}[[\"depth\", 1], [\"depth0\", 0], [\"first\", False], [\"index\", 2], [\"index0\", 1], [\"last\", True], [\"length\", 2], [\"revindex\", 1], [\"revindex0\", 0]]{\"depth\": 1, \"depth0\": 0, \"first\": False, \"index\": 2, \"index0\": 1, \"last\": True, \"length\": 2, \"revindex\": 1, \"revindex0\": 0}", ""},
		{"{% for x in 'a b'|split %}{{ loop }}{{ loop.length }}{{ loop.last }}{{ loop.revindex }}{% endfor %}|{% for x in 'ab' %}{{ loop }}{% endfor %}|{% for x in 'a b'|split if x %}{{ loop }}{% endfor %}", "<loop 0/2>2False2<loop 1/2>2True1|<loop 0/?><loop 1/?>|<loop 0/2><loop 1/2>", "", "<loop 0/2>2False2<loop 1/2>2True1|<loop 0/?><loop 1/?>|<loop 0/2><loop 1/2>", ""},
		{"{% autoescape true %}{% for x in [['<']] recursive %}{% if x is sequence %}{{ loop(x) }}{{ loop(x) is safe }}{% else %}{{ x }}{% endif %}{% endfor %}{% endautoescape %}", "&lt;True", "", "&lt;True", ""},
		{"{% for x in [[1]] recursive %}{% include 'useloop.txt' %}{% if x is sequence %}{{ loop(x) }}{% endif %}{% endfor %}", "1112", "", "1112", ""},
	})
}
