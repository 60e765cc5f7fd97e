// Filters, operators and tests as minijinja 2.24 words and computes them (issue 12): every case was run
// through mj-oracle, lenient (goose's validation render) and strict (goose's run-time render).

package template

import "testing"

func TestMinijinjaFilterParity(t *testing.T) {
	for _, c := range []struct{ src, lenient, lenientErr, strict, strictErr string }{
		{"{{ \"a b\"|split }}", "[\"a\", \"b\"]", "", "[\"a\", \"b\"]", ""},
		{"{{ \"a b\"|split|list }}", "[\"a\", \"b\"]", "", "[\"a\", \"b\"]", ""},
		{"{{ \"a  b c\"|split(none, 1)|list }}", "[\"a\", \"b c\"]", "", "[\"a\", \"b c\"]", ""},
		{"{{ \"abc\"|split(\"\")|list }}", "[\"\", \"a\", \"b\", \"c\", \"\"]", "", "[\"\", \"a\", \"b\", \"c\", \"\"]", ""},
		{"{{ \"a,b,c\"|split(\",\", 1)|list }}", "[\"a\", \"b,c\"]", "", "[\"a\", \"b,c\"]", ""},
		{"{{ 3|split }}", "", "invalid operation: value is not a string", "", "invalid operation: value is not a string"},
		{"{{ y|split }}", "", "invalid operation: value is not a string", "", "invalid operation: value is not a string"},
		{"{{ none|lines }}", "", "invalid operation: value is not a string", "", "invalid operation: value is not a string"},
		{"{{ \"a b\"|split|length }}", "2", "", "2", ""},
		{"{{ [y, 1] }}", "[undefined, 1]", "", "[undefined, 1]", ""},
		{"{{ {\"a\": y} }}", "{\"a\": undefined}", "", "{\"a\": undefined}", ""},
		{"{{ 7|sort }}", "", "invalid operation: cannot convert value to list", "", "invalid operation: cannot convert value to list"},
		{"{{ true|min }}", "", "invalid operation: cannot convert value to list", "", "invalid operation: cannot convert value to list"},
		{"{{ 1|list }}", "", "invalid operation: cannot convert value to list", "", "invalid operation: cannot convert value to list"},
		{"{{ none|list }}", "[]", "", "[]", ""},
		{"{{ y|first }}", "", "invalid operation: cannot get first item from value", "", "invalid operation: cannot get first item from value"},
		{"{{ none|first }}", "", "invalid operation: cannot get first item from value", "", "invalid operation: cannot get first item from value"},
		{"{{ 1|first }}", "", "invalid operation: cannot get first item from value", "", "invalid operation: cannot get first item from value"},
		{"{{ {\"a\": 1}|first }}", "a", "", "a", ""},
		{"{{ {\"a\": 1}|last }}", "", "invalid operation: cannot get last item from value", "", "invalid operation: cannot get last item from value"},
		{"{{ 0|last }}", "", "invalid operation: cannot get last item from value", "", "invalid operation: cannot get last item from value"},
		{"{{ 3|reverse }}", "", "invalid operation: cannot reverse values of type number", "", "invalid operation: cannot reverse values of type number"},
		{"{{ none|reverse }}", "None", "", "None", ""},
		{"{{ {\"a\": 1, \"b\": 2}|reverse }}", "[\"a\", \"b\"]", "", "[\"a\", \"b\"]", ""},
		{"{{ \"abc\"|join(\",\") }}", "a,b,c", "", "a,b,c", ""},
		{"{{ 2|join }}", "", "invalid operation: cannot join value of type number", "", "invalid operation: cannot join value of type number"},
		{"{{ none|join }}", "", "", "", ""},
		{"{{ \"\"|int }}", "", "invalid operation: cannot parse float from empty string", "", "invalid operation: cannot parse float from empty string"},
		{"{{ \" 42\"|int }}", "", "invalid operation: invalid float literal", "", "invalid operation: invalid float literal"},
		{"{{ \"4.5\"|int }}", "4", "", "4", ""},
		{"{{ none|int }}", "0", "", "0", ""},
		{"{{ [1]|float }}", "", "invalid operation: cannot convert sequence to float", "", "invalid operation: cannot convert sequence to float"},
		{"{{ \"x\"|float }}", "", "invalid operation: invalid float literal", "", "invalid operation: invalid float literal"},
		{"{{ [1, 2.5]|sum }}", "3.5", "", "3.5", ""},
		{"{{ [\"a\"]|sum }}", "", "invalid operation: can only sum numbers, got string", "", "invalid operation: can only sum numbers, got string"},
		{"{{ 3|sum }}", "", "invalid operation: number is not iterable", "", "invalid operation: number is not iterable"},
		{"{{ y|sum }}", "0", "", "", "undefined value"},
		{"{{ [y]|sum }}|{{ [y, 1]|sum + 1 }}", "0|2", "", "0|2", ""},
		{"{{ (1 if false)[:1] }}", "[]", "", "", "undefined value"},
		{"{% set x = 1 if false %}{{ x[:false] }}", "[]", "", "", "undefined value"},
		{"{{ [1, 2]|zip(\"ab\") }}", "[[1, \"a\"], [2, \"b\"]]", "", "[[1, \"a\"], [2, \"b\"]]", ""},
		{"{{ [1]|zip(3) }}", "", "invalid operation: zip filter argument must be iterable, got number", "", "invalid operation: zip filter argument must be iterable, got number"},
		{"{{ [1]|zip(none) }}", "<iterator>", "", "<iterator>", ""},
		{"{{ [1]|chain([2]) }}", "[1, 2]", "", "[1, 2]", ""},
		{"{{ {\"a\": 1}|chain({\"b\": 2, \"a\": 3}) }}", "{\"a\": 3, \"b\": 2}", "", "{\"a\": 3, \"b\": 2}", ""},
		{"{{ [1]|chain(\"ab\") }}", "<iterator>", "", "<iterator>", ""},
		{"{{ \"%s-%5d|%-3s|%.2f|%x|%%\" | format(\"a\", 3, \"b\", 1.234, 255) }}", "a-    3|b  |1.23|ff|%", "", "a-    3|b  |1.23|ff|%", ""},
		{"{{ \"%s %s\"|format(1) }}", "", "invalid operation: missing an argument for format spec at offset '4'", "", "invalid operation: missing an argument for format spec at offset '4'"},
		{"{{ 3|format }}", "", "invalid operation: value is not a string", "", "invalid operation: value is not a string"},
		{"{{ \"%(a)s\"|format({\"a\": 1}) }}", "1", "", "1", ""},
		{"{{ \"%u\"|format(1) }}", "", "invalid operation: invalid conversion type 'u' in format spec at offset 1", "", "invalid operation: invalid conversion type 'u' in format spec at offset 1"},
		{"{% for i in none %}x{% endfor %}", "", "", "", ""},
		{"{{ none.a }}", "", "", "", "undefined value"},
		{"{{ none[\"a\"] }}", "", "", "", "undefined value"},
		{"{{ \"ab\" * true }}", "ab", "", "ab", ""},
		{"{{ \"a\" * y }}", "", "invalid operation: strings can only be multiplied with integers", "", "invalid operation: strings can only be multiplied with integers"},
		{"{{ [1] * y }}", "", "invalid operation: sequences and iterables can only be multiplied with integers", "", "invalid operation: sequences and iterables can only be multiplied with integers"},
		{"{{ \"a\" * 2.0 }}", "aa", "", "aa", ""},
		{"{{ [1] * \"a\" }}", "", "invalid operation: strings can only be multiplied with integers", "", "invalid operation: strings can only be multiplied with integers"},
		{"{{ y * y }}", "", "invalid operation: tried to use * operator on unsupported types undefined and undefined", "", "invalid operation: tried to use * operator on unsupported types undefined and undefined"},
		{"{{ 1 is defined(2) }}", "", "too many arguments", "", "too many arguments"},
		{"{{ 1 is odd 2 }}", "", "too many arguments", "", "too many arguments"},
		{"{{ 3 < 7 is even != 4 }}", "False", "", "False", ""},
		{"{{ 1 < 2 < 3 }}", "True", "", "True", ""},
		{"{{ 3 > 2 > 2 }}", "False", "", "False", ""},
		{"{{ (1 < 2) < 3 }}", "True", "", "True", ""},
		{"{{ 2 in [2] == true }}", "False", "", "False", ""},
		{"{{ not () == 1 > n }}", "True", "", "True", ""},
		// goose's minijinja keeps maps as BTreeMaps: literals, dict() and namespaces print in key order
		{"{{ {\"c\": 1, \"a\": 2, \"b\": 3} }}", "{\"a\": 2, \"b\": 3, \"c\": 1}", "", "{\"a\": 2, \"b\": 3, \"c\": 1}", ""},
		{"{{ {\"c\": 1, \"a\": 2}|list }}", "[\"a\", \"c\"]", "", "[\"a\", \"c\"]", ""},
		{"{{ dict(c=1, a=2) }}", "{\"a\": 2, \"c\": 1}", "", "{\"a\": 2, \"c\": 1}", ""},
		{"{% set n = namespace() %}{% set n.c = 1 %}{% set n.a = 2 %}{{ n }}", "{\"a\": 2, \"c\": 1}", "", "{\"a\": 2, \"c\": 1}", ""},
		{"{{ {\"c\": 1, \"a\": 2, \"b\": 3}|reverse }}", "[\"a\", \"b\", \"c\"]", "", "[\"a\", \"b\", \"c\"]", ""},
		// a filter block prints its result: undefined fails when strict
		{"{% filter last %}{% endfilter %}", "", "", "", "undefined value"},
		{"{% filter first %}ab{% endfilter %}", "a", "", "a", ""},
		{"{{ \"%5s|%-4d|%+d|%03d\"|format(\"ab\", 7, 4, 5) }}", "   ab|7   |+4|005", "", "   ab|7   |+4|005", ""},
		// groupby pairs, bool indexes, minijinja's iterator kind (range, reverse, +), debug()
		{"{{ [{\"a\": 2}, {\"a\": 1}, {\"a\": 2}]|groupby(\"a\") }}", "[[1, [{\"a\": 1}]], [2, [{\"a\": 2}, {\"a\": 2}]]]", "", "[[1, [{\"a\": 1}]], [2, [{\"a\": 2}, {\"a\": 2}]]]", ""},
		{"{% for g in [{\"a\": 1}]|groupby(\"a\") %}{{ g.grouper }}:{{ g.list }}:{{ g[0] }}{% endfor %}", "1:[{\"a\": 1}]:1", "", "1:[{\"a\": 1}]:1", ""},
		{"{{ [5, 6][true] }}{{ \"ab\"[true] }}", "6b", "", "6b", ""},
		{"{{ none - range(2) }}", "", "invalid operation: tried to use - operator on unsupported types none and iterator", "", "invalid operation: tried to use - operator on unsupported types none and iterator"},
		{"{{ none - [1]|reverse }}", "", "invalid operation: tried to use - operator on unsupported types none and iterator", "", "invalid operation: tried to use - operator on unsupported types none and iterator"},
		{"{{ none - ([1] + [2]) }}", "", "invalid operation: tried to use - operator on unsupported types none and iterator", "", "invalid operation: tried to use - operator on unsupported types none and iterator"},
		{"{{ none - [1]|sort }}", "", "invalid operation: tried to use - operator on unsupported types none and sequence", "", "invalid operation: tried to use - operator on unsupported types none and sequence"},
		{"{{ range(3) is sequence }}", "False", "", "False", ""},
		{"{{ [1]|reverse|length }}", "1", "", "1", ""},
		{"{% set out = 1 %}{% for i in [1] %}{% with w = [1, \"a\", {\"k\": none}] %}{{ debug() }}{% endwith %}{% endfor %}", "State {\n    name: \"recipe\",\n    current_block: None,\n    auto_escape: None,\n    ctx: {\n        \"i\": 1,\n        \"loop\": <loop 0/1>,\n        \"out\": 1,\n        \"w\": [\n            1,\n            \"a\",\n            {\n                \"k\": None,\n            },\n        ],\n    },\n    env: Environment {\n        globals: {\n            \"debug\": function,\n            \"dict\": function,\n            \"namespace\": function,\n            \"range\": function,\n        },\n        tests: [\n            \"!=\",\n            \"<\",\n            \"<=\",\n            \"==\",\n            \">\",\n            \">=\",\n            \"boolean\",\n            \"defined\",\n            \"divisibleby\",\n            \"endingwith\",\n            \"eq\",\n            \"equalto\",\n            \"escaped\",\n            \"even\",\n            \"false\",\n            \"filter\",\n            \"float\",\n            \"ge\",\n            \"greaterthan\",\n            \"gt\",\n            \"in\",\n            \"int\",\n            \"integer\",\n            \"iterable\",\n            \"le\",\n            \"lessthan\",\n            \"lower\",\n            \"lt\",\n            \"mapping\",\n            \"ne\",\n            \"none\",\n            \"number\",\n            \"odd\",\n            \"safe\",\n            \"sameas\",\n            \"sequence\",\n            \"startingwith\",\n            \"string\",\n            \"test\",\n            \"true\",\n            \"undefined\",\n            \"upper\",\n        ],\n        filters: [\n            \"abs\",\n            \"attr\",\n            \"batch\",\n            \"bool\",\n            \"capitalize\",\n            \"chain\",\n            \"count\",\n            \"d\",\n            \"default\",\n            \"dictsort\",\n            \"e\",\n            \"escape\",\n            \"first\",\n            \"float\",\n            \"format\",\n            \"groupby\",\n            \"indent\",\n            \"int\",\n            \"items\",\n            \"join\",\n            \"last\",\n            \"length\",\n            \"lines\",\n            \"list\",\n            \"lower\",\n            \"map\",\n            \"max\",\n            \"min\",\n            \"pprint\",\n            \"reject\",\n            \"rejectattr\",\n            \"replace\",\n            \"reverse\",\n            \"round\",\n            \"safe\",\n            \"select\",\n            \"selectattr\",\n            \"slice\",\n            \"sort\",\n            \"split\",\n            \"string\",\n            \"sum\",\n            \"title\",\n            \"trim\",\n            \"unique\",\n            \"upper\",\n            \"zip\",\n        ],\n        templates: [\n            \"recipe\",\n        ],\n    },\n}", "", "State {\n    name: \"recipe\",\n    current_block: None,\n    auto_escape: None,\n    ctx: {\n        \"i\": 1,\n        \"loop\": <loop 0/1>,\n        \"out\": 1,\n        \"w\": [\n            1,\n            \"a\",\n            {\n                \"k\": None,\n            },\n        ],\n        \"x\": \"v\",\n    },\n    env: Environment {\n        globals: {\n            \"debug\": function,\n            \"dict\": function,\n            \"namespace\": function,\n            \"range\": function,\n        },\n        tests: [\n            \"!=\",\n            \"<\",\n            \"<=\",\n            \"==\",\n            \">\",\n            \">=\",\n            \"boolean\",\n            \"defined\",\n            \"divisibleby\",\n            \"endingwith\",\n            \"eq\",\n            \"equalto\",\n            \"escaped\",\n            \"even\",\n            \"false\",\n            \"filter\",\n            \"float\",\n            \"ge\",\n            \"greaterthan\",\n            \"gt\",\n            \"in\",\n            \"int\",\n            \"integer\",\n            \"iterable\",\n            \"le\",\n            \"lessthan\",\n            \"lower\",\n            \"lt\",\n            \"mapping\",\n            \"ne\",\n            \"none\",\n            \"number\",\n            \"odd\",\n            \"safe\",\n            \"sameas\",\n            \"sequence\",\n            \"startingwith\",\n            \"string\",\n            \"test\",\n            \"true\",\n            \"undefined\",\n            \"upper\",\n        ],\n        filters: [\n            \"abs\",\n            \"attr\",\n            \"batch\",\n            \"bool\",\n            \"capitalize\",\n            \"chain\",\n            \"count\",\n            \"d\",\n            \"default\",\n            \"dictsort\",\n            \"e\",\n            \"escape\",\n            \"first\",\n            \"float\",\n            \"format\",\n            \"groupby\",\n            \"indent\",\n            \"int\",\n            \"items\",\n            \"join\",\n            \"last\",\n            \"length\",\n            \"lines\",\n            \"list\",\n            \"lower\",\n            \"map\",\n            \"max\",\n            \"min\",\n            \"pprint\",\n            \"reject\",\n            \"rejectattr\",\n            \"replace\",\n            \"reverse\",\n            \"round\",\n            \"safe\",\n            \"select\",\n            \"selectattr\",\n            \"slice\",\n            \"sort\",\n            \"split\",\n            \"string\",\n            \"sum\",\n            \"title\",\n            \"trim\",\n            \"unique\",\n            \"upper\",\n            \"zip\",\n        ],\n        templates: [\n            \"recipe\",\n        ],\n    },\n}", ""},
		{"{% block b %}{{ debug() }}{% endblock %}", "State {\n    name: \"recipe\",\n    current_block: Some(\n        \"b\",\n    ),\n    auto_escape: None,\n    ctx: {},\n    env: Environment {\n        globals: {\n            \"debug\": function,\n            \"dict\": function,\n            \"namespace\": function,\n            \"range\": function,\n        },\n        tests: [\n            \"!=\",\n            \"<\",\n            \"<=\",\n            \"==\",\n            \">\",\n            \">=\",\n            \"boolean\",\n            \"defined\",\n            \"divisibleby\",\n            \"endingwith\",\n            \"eq\",\n            \"equalto\",\n            \"escaped\",\n            \"even\",\n            \"false\",\n            \"filter\",\n            \"float\",\n            \"ge\",\n            \"greaterthan\",\n            \"gt\",\n            \"in\",\n            \"int\",\n            \"integer\",\n            \"iterable\",\n            \"le\",\n            \"lessthan\",\n            \"lower\",\n            \"lt\",\n            \"mapping\",\n            \"ne\",\n            \"none\",\n            \"number\",\n            \"odd\",\n            \"safe\",\n            \"sameas\",\n            \"sequence\",\n            \"startingwith\",\n            \"string\",\n            \"test\",\n            \"true\",\n            \"undefined\",\n            \"upper\",\n        ],\n        filters: [\n            \"abs\",\n            \"attr\",\n            \"batch\",\n            \"bool\",\n            \"capitalize\",\n            \"chain\",\n            \"count\",\n            \"d\",\n            \"default\",\n            \"dictsort\",\n            \"e\",\n            \"escape\",\n            \"first\",\n            \"float\",\n            \"format\",\n            \"groupby\",\n            \"indent\",\n            \"int\",\n            \"items\",\n            \"join\",\n            \"last\",\n            \"length\",\n            \"lines\",\n            \"list\",\n            \"lower\",\n            \"map\",\n            \"max\",\n            \"min\",\n            \"pprint\",\n            \"reject\",\n            \"rejectattr\",\n            \"replace\",\n            \"reverse\",\n            \"round\",\n            \"safe\",\n            \"select\",\n            \"selectattr\",\n            \"slice\",\n            \"sort\",\n            \"split\",\n            \"string\",\n            \"sum\",\n            \"title\",\n            \"trim\",\n            \"unique\",\n            \"upper\",\n            \"zip\",\n        ],\n        templates: [\n            \"recipe\",\n        ],\n    },\n}", "", "State {\n    name: \"recipe\",\n    current_block: Some(\n        \"b\",\n    ),\n    auto_escape: None,\n    ctx: {\n        \"x\": \"v\",\n    },\n    env: Environment {\n        globals: {\n            \"debug\": function,\n            \"dict\": function,\n            \"namespace\": function,\n            \"range\": function,\n        },\n        tests: [\n            \"!=\",\n            \"<\",\n            \"<=\",\n            \"==\",\n            \">\",\n            \">=\",\n            \"boolean\",\n            \"defined\",\n            \"divisibleby\",\n            \"endingwith\",\n            \"eq\",\n            \"equalto\",\n            \"escaped\",\n            \"even\",\n            \"false\",\n            \"filter\",\n            \"float\",\n            \"ge\",\n            \"greaterthan\",\n            \"gt\",\n            \"in\",\n            \"int\",\n            \"integer\",\n            \"iterable\",\n            \"le\",\n            \"lessthan\",\n            \"lower\",\n            \"lt\",\n            \"mapping\",\n            \"ne\",\n            \"none\",\n            \"number\",\n            \"odd\",\n            \"safe\",\n            \"sameas\",\n            \"sequence\",\n            \"startingwith\",\n            \"string\",\n            \"test\",\n            \"true\",\n            \"undefined\",\n            \"upper\",\n        ],\n        filters: [\n            \"abs\",\n            \"attr\",\n            \"batch\",\n            \"bool\",\n            \"capitalize\",\n            \"chain\",\n            \"count\",\n            \"d\",\n            \"default\",\n            \"dictsort\",\n            \"e\",\n            \"escape\",\n            \"first\",\n            \"float\",\n            \"format\",\n            \"groupby\",\n            \"indent\",\n            \"int\",\n            \"items\",\n            \"join\",\n            \"last\",\n            \"length\",\n            \"lines\",\n            \"list\",\n            \"lower\",\n            \"map\",\n            \"max\",\n            \"min\",\n            \"pprint\",\n            \"reject\",\n            \"rejectattr\",\n            \"replace\",\n            \"reverse\",\n            \"round\",\n            \"safe\",\n            \"select\",\n            \"selectattr\",\n            \"slice\",\n            \"sort\",\n            \"split\",\n            \"string\",\n            \"sum\",\n            \"title\",\n            \"trim\",\n            \"unique\",\n            \"upper\",\n            \"zip\",\n        ],\n        templates: [\n            \"recipe\",\n        ],\n    },\n}", ""},
		// truthiness of iterators, float and bool indexes, a test's bare argument with a minus, arguments
		// evaluated before the test or filter is looked up
		{"{{ (none|zip)|bool }} {{ ([]|zip)|bool }} {{ (\"\" | split(\",\") | bool) }} {{ range(0)|bool }}", "True False True False", "", "True False True False", ""},
		{"{{ [5][0.] }}{{ \"ab\"[1.0] }}{{ [5, 6][-1.0] }}", "5b6", "", "5b6", ""},
		{"{{ [5, 6][0.5] }}", "", "", "", "undefined value"},
		{"{{ 1 is e -1 }}", "", "unknown test: test e is unknown", "", "unknown test: test e is unknown"},
		{"{% with v = () is e -() %}{% endwith %}", "", "invalid operation", "", "invalid operation"},
		{"{{ 1|nofilter(-()) }}", "", "invalid operation", "", "invalid operation"},
		{"{{ 3 is divisibleby -1 }}", "True", "", "True", ""},
		{"{{ 1 is lower(2) }}", "", "invalid operation: value is not a string", "", "invalid operation: value is not a string"},
		{"{{ \"a\" is lower(2) }}", "", "too many arguments", "", "too many arguments"},
		{"{{ y|escape }}{{ y|e|length }}", "0", "", "0", ""},
		// keys that are not strings keep their value: printed, sorted and looked up by kind
		{"{{ {\"b\": 1, 1: 2, none: 3} }}", "{None: 3, 1: 2, \"b\": 1}", "", "{None: 3, 1: 2, \"b\": 1}", ""},
		{"{{ {1: 2}[1] }}|{{ {\"1\": 2}[1] }}|{{ {1: 2}[\"1\"] }}", "2||", "", "", "undefined value"},
		{"{% for k in {2: \"a\", 1: \"b\"} %}{{ k + 1 }}{% endfor %}", "23", "", "23", ""},
		{"{{ {1: 2}|items }}", "[[1, 2]]", "", "[[1, 2]]", ""},
		{"{{ {x: 1} }}", "{undefined: 1}", "", "{\"v\": 1}", ""},
		{"{{ {true: 1, 0: 2, \"z\": 3, -1: 4} }}", "{True: 1, -1: 4, 0: 2, \"z\": 3}", "", "{True: 1, -1: 4, 0: 2, \"z\": 3}", ""},
		{"{{ \"\\n\"|lines }}{{ \"\"|lines }}{{ \"a\\r\\nb\\n\\n\"|lines }}{{ \"a\\rb\"|lines }}", "[\"\"][][\"a\", \"b\", \"\"][\"a\\rb\"]", "", "[\"\"][][\"a\", \"b\", \"\"][\"a\\rb\"]", ""},
		// constant `and` folds to false; round keeps integers; `super` alone is a plain (undefined) name;
		// startingwith/endingwith refuse undefined when strict
		{"{{ '' and 1 }}|{{ [] and 1 }}|{{ 'a' and 'b' }}|{{ (('')and-2if True) }}|{{ ('' and 1) is string }}", "False|False|b|False|False", "", "False|False|b|False|False", ""},
		{"{{ false|round }}", "", "invalid operation: cannot round value (bool)", "", "invalid operation: cannot round value (bool)"},
		{"{{ 3|round }}|{{ 2.5|round }}", "3|3.0", "", "3|3.0", ""},
		{"{{ none - {}|reverse }}", "", "invalid operation: tried to use - operator on unsupported types none and iterator", "", "invalid operation: tried to use - operator on unsupported types none and iterator"},
		{"{% block b %}{{ super is defined }}{% endblock %}", "False", "", "False", ""},
		{"{{ ''[6] is startingwith('') }}", "True", "", "", "undefined value"},
		{"{{ y is endingwith('') }}", "True", "", "", "undefined value"},
		// `*` picks the first object operand; operands printed as given; calling a variable that holds
		// undefined is not an unknown function
		{"{{ false ** -1 }}", "", "invalid operation: unable to calculate False ** -1", "", "invalid operation: unable to calculate False ** -1"},
		{"{{ {} * [1] }}", "", "invalid operation: tried to use * operator on unsupported types map and sequence", "", "invalid operation: tried to use * operator on unsupported types map and sequence"},
		{"{{ [1] * {} }}", "", "invalid operation: sequences and iterables can only be multiplied with integers", "", "invalid operation: sequences and iterables can only be multiplied with integers"},
		{"{{ 2 * [1] }}", "[1, 1]", "", "[1, 1]", ""},
		{"{{ namespace * [1] }}", "", "invalid operation: tried to use * operator on unsupported types plain object and sequence", "", "invalid operation: tried to use * operator on unsupported types plain object and sequence"},
		{"{% set x = (() if s) %}{{ x() }}", "", "invalid operation: value of type undefined is not callable", "", "undefined value"},
		{"{{ nofn() }}", "", "unknown function: nofn is unknown", "", "unknown function: nofn is unknown"},
		{"{% block b %}{{ super() }}{% endblock %}", "", "invalid operation: no parent block exists", "", "invalid operation: no parent block exists"},
		{"{{ [y]|selectattr(\"a\") }}", "", "undefined value", "", "undefined value"},
		{"{{ [none, {\"a\": 1}]|selectattr(\"a\") }}", "[{\"a\": 1}]", "", "[{\"a\": 1}]", ""},
		{"{% for i in namespace|chain %}{% endfor %}", "", "invalid operation: plain object is not iterable", "", "invalid operation: plain object is not iterable"},
		{"{{ g is iterable }}|{{ none is iterable }}|{{ 1 is iterable }}|{{ namespace is iterable }}|{{ (namespace|chain) is iterable }}", "True|True|False|False|True", "", "True|True|False|False|True", ""},
	} {
		for _, m := range []struct {
			mode     UndefinedBehavior
			out, err string
		}{{Lenient, c.lenient, c.lenientErr}, {Strict, c.strict, c.strictErr}} {
			tpl, err := Parse("recipe", c.src)
			if err != nil {
				t.Fatalf("%q: %v", c.src, err)
			}
			var ctx map[string]Value // goose's validation render has an empty context
			if m.mode == Strict {
				ctx = map[string]Value{"x": StringValue("v")} // goose's run-time render, with x=v
			}
			out, err := tpl.Render(ctx, RenderOptions{Undefined: m.mode})
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != m.err || (err == nil && out.Text != m.out) {
				t.Errorf("%q (mode %v): got %q, error %q; want %q, error %q", c.src, m.mode, out.Text, gotErr, m.out, m.err)
			}
		}
	}
}
