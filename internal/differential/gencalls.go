// Calls of filters, tests and globals with random arguments: positional and keyword, of every type, and the
// Jinja2-style shapes minijinja 2.24 refuses or reads differently (issue 12: its argument binding).

package differential

import "strings"

// builtin names of goose's minijinja (and a few Jinja2 or contrib ones it lacks)
var (
	callFilters = []string{
		"safe", "escape", "lower", "upper", "title", "capitalize", "replace", "length", "dictsort", "items",
		"reverse", "trim", "join", "split", "lines", "default", "d", "round", "abs", "int", "float", "attr", "first",
		"last", "min", "max", "sort", "list", "string", "bool", "batch", "slice", "sum", "indent", "select",
		"reject", "selectattr", "rejectattr", "map", "groupby", "unique", "chain", "zip", "pprint", "format",
		"truncate", "wordcount", "tojson", "center",
	}
	callTests = []string{
		"defined", "none", "odd", "even", "divisibleby", "number", "string", "sequence", "mapping", "startingwith",
		"endingwith", "lower", "upper", "sameas", "eq", "ne", "lt", "ge", "in", "true", "filter", "test",
	}
	callGlobals = []string{"range", "dict", "namespace", "debug"}
	// keyword names builtins read (and some none does)
	callKeywords = []string{"by", "reverse", "case_sensitive", "attribute", "default", "width", "first", "blank",
		"count", "d", "precision", "fill_with", "foo", "chars", "start", "boolean", "a"}
	// Jinja2-style calls (positional where minijinja wants keywords, extra arguments, Jinja2-only ones)
	jinja2Calls = []string{
		"sort(true)", "join(',', 'x')", "default('a', true)", "default('a', true, 1)", "round(2, 'floor')",
		"round(precision=2)", "indent(2, true)", "indent(2, true, true)", "indent(width='x')", "truncate(3)",
		"dictsort(true)", "dictsort(false, 'value')", "dictsort(by='value', reverse=true)", "batch(2, 'x')",
		"batch(-1)", "batch('2')", "slice(3, 0)", "sum(start=1)", "unique(attribute='a')", "int(base=2)",
		"trim(chars=' ')", "map(attribute='a', default=0)", "map('default', 'z')", "groupby(attribute='a')",
		"replace('a', 'b', 1)", "split(' ', 1)", "first(1)", "upper(x=1)", "lower(1)", "length(x=1)",
		"selectattr('a', 'eq', 1)", "select('divisibleby', 2)", "reject('in', [1])", "join(d='-')",
		"join(*[','])", "replace(*['a', 'b'])", "dictsort(**{'reverse': true})", "upper(**{})", "default(*x)",
	}
)

// onCalls runs fn with the call stream as the generator's source (expressions inside arguments too).
func (g *tmplGen) onCalls(fn func() string) string {
	if g.calls == nil {
		return fn()
	}
	main := g.r
	g.r = g.calls
	defer func() { g.r = main }()
	return fn()
}

// argValue is a random argument: a literal of one of minijinja's types, now and then an expression.
func (g *tmplGen) argValue(literalOnly bool) string {
	if !literalOnly && g.chance(0.2) {
		return g.expr()
	}
	return g.pick([]string{
		"0", "1", "2", "-1", "3", "2.0", "2.5", "1e30", "true", "false", "none", "'a'", "','", "''", "'value'",
		"'odd'", "'upper'", "'a.b'", "'2'", "[1, 2]", "[]", "{'a': 1}", "('x',)",
	})
}

// callArgs is a random argument list: positional arguments, then keyword arguments.
func (g *tmplGen) callArgs(literalOnly bool) string {
	var parts []string
	for n := g.r.IntN(4); n > 0; n-- {
		if g.chance(0.1) {
			parts = append(parts, "*"+g.argValue(literalOnly)) // spread among the positional arguments
			continue
		}
		parts = append(parts, g.argValue(literalOnly))
	}
	for n := g.r.IntN(3) - g.r.IntN(2); n > 0; n-- {
		if g.chance(0.1) {
			parts = append(parts, "**"+g.argValue(literalOnly)) // merged into the keyword arguments
			continue
		}
		parts = append(parts, g.pick(callKeywords)+"="+g.argValue(literalOnly))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// filterCall is what follows a `|`: pooled (the fixed pool's pick), a Jinja2-style call, or a builtin with
// random arguments.
func (g *tmplGen) filterCall(pooled string) string {
	return g.onCalls(func() string {
		switch g.r.IntN(4) {
		case 0, 1:
			return pooled
		case 2:
			return g.pick(jinja2Calls)
		}
		name := g.pick(callFilters)
		if g.chance(0.2) {
			return name
		}
		return name + g.callArgs(false)
	})
}

// testCall is what follows `is [not]`: pooled, or a builtin with random arguments (parenthesized, or one
// bare argument, which stays a literal).
func (g *tmplGen) testCall(pooled string) string {
	return g.onCalls(func() string {
		if g.chance(0.5) {
			return pooled
		}
		name := g.pick(callTests)
		switch g.r.IntN(3) {
		case 0:
			return name
		case 1:
			return name + " " + g.argValue(true)
		}
		return name + g.callArgs(false)
	})
}

// globalCall is pooled, or a global function called with random arguments.
func (g *tmplGen) globalCall(pooled string) string {
	return g.onCalls(func() string {
		if g.chance(0.7) {
			return pooled
		}
		return g.pick(callGlobals) + g.callArgs(false)
	})
}
