// The template generator: random templates from goose's dialect's grammar (and the syntax around it).

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// tmplGen builds random templates and mutations from one seeded source.
type tmplGen struct {
	r *rand.Rand
	// depth bounds the nesting of statements and expressions
	depth int
	// loopVars are the names the enclosing for loop binds (read more often inside it)
	loopVars []string
	// calls draws the arguments of filter, test and global calls (gencalls.go), so that they leave r's
	// stream, and with it every other case of a seed, as it was
	calls *rand.Rand
}

// variable names the generator reads; values are given to some of them at run time
var varPool = []string{"x", "y", "name", "user", "items", "n", "s", "flag", "recipe_dir", "data"}

var filterPool = []string{
	"upper", "lower", "title", "capitalize", "trim", "length", "count", "list", "first", "last", "reverse",
	"sort", "unique", "join", "join(', ')", "default('d')", "default(x)", "d('z')", "replace('a', 'b')",
	"indent(2)", "indent(2, true)", "int", "float", "string", "abs", "round", "round(1)", "items", "dictsort",
	"map('upper')", "map(attribute='a')", "select('odd')", "reject('none')", "selectattr('a')", "batch(2)",
	"slice(2)", "escape", "e", "safe", "bool", "min", "max", "attr('a')", "split", "split(',')", "lines",
	"sum", "zip", "chain", "format('a')", "tojson", "pprint", "wordcount", "striptags", "urlencode",
	"center(5)", "truncate(3)", "groupby('a')", "nope", "keys", "values",
}

var testPool = []string{
	"defined", "undefined", "none", "number", "string", "odd", "even", "divisibleby(3)", "in([1, 2])",
	"startingwith('a')", "endingwith('b')", "sameas(none)", "eq(1)", "lt(2)", "lower", "upper", "mapping",
	"sequence", "iterable", "true", "false", "filter", "test", "boolean", "integer", "float", "safe", "nope",
}

var binaryOps = []string{"+", "-", "*", "/", "//", "%", "**", "~", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in"}

func (g *tmplGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *tmplGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *tmplGen) name() string {
	if len(g.loopVars) > 0 && g.chance(0.4) {
		return g.pick(g.loopVars)
	}
	if g.chance(0.05) {
		return g.pick([]string{"range", "dict", "namespace", "loop", "self", "super", "lipsum", "cycler", "joiner", "debug"})
	}
	return g.pick(varPool)
}

func (g *tmplGen) literal() string {
	switch g.r.IntN(12) {
	case 0, 1:
		return fmt.Sprint(g.r.IntN(13) - 2)
	case 2:
		return g.pick([]string{"1.5", "0.0", "2e3", "1_000", "0x1f", "0b11", "0o7", "007", ".5", "1."})
	case 3, 4:
		return g.pick([]string{"'a'", `"b c"`, "''", `"{{x}}"`, "'{% y %}'", `'it\'s'`, `"\n"`, "'ü'", "'{#'",
			// escapes as minijinja unescapes them, and case mappings past ASCII
			`'\x41'`, `'\u00e9'`, `'\ud83d\ude00'`, `'\ud83d'`, `'\z'`, `'\101\0'`, `'\777'`, `"\u+041"`, `'a\/b'`,
			"'ß'", "'İ'", "'ΟΔΟΣ σ'", "'ǆx'"})
	case 5:
		return g.pick([]string{"true", "false", "none", "True", "False", "None"})
	case 6:
		return "[" + g.exprList(g.r.IntN(3)) + "]"
	case 7:
		return "(" + g.exprList(g.r.IntN(3)) + g.pick([]string{"", ","}) + ")"
	case 8:
		var kv []string
		for i := g.r.IntN(3); i > 0; i-- {
			kv = append(kv, g.pick([]string{"'a'", "'b'", "1", "x"})+": "+g.expr())
		}
		return "{" + strings.Join(kv, ", ") + "}"
	default:
		return g.name()
	}
}

func (g *tmplGen) exprList(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.expr()
	}
	return strings.Join(parts, ", ")
}

// expr is a random expression of goose's dialect (and now and then one it lacks).
func (g *tmplGen) expr() string {
	if g.depth > 3 {
		return g.literal()
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.IntN(16) {
	case 0, 1, 2:
		return g.literal()
	case 3:
		return g.expr() + "." + g.pick([]string{"a", "name", "0", "1", "items", "upper()", "keys()", "attr"})
	case 4:
		return g.expr() + "[" + g.expr() + "]"
	case 5:
		parts := []string{g.maybe(g.expr), g.maybe(g.expr)}
		if g.chance(0.3) {
			parts = append(parts, g.maybe(g.expr))
		}
		return g.name() + "[" + strings.Join(parts, ":") + "]"
	case 6:
		return g.pick([]string{"not ", "-", "+", "not not "}) + g.expr()
	case 7, 8:
		return g.expr() + " " + g.pick(binaryOps) + " " + g.expr()
	case 9:
		s := g.expr() + " if " + g.expr()
		if g.chance(0.6) {
			s += " else " + g.expr()
		}
		return s
	case 10, 11:
		return g.expr() + g.pick([]string{"|", " | "}) + g.filterCall(g.pick(filterPool))
	case 12:
		return g.expr() + " is " + g.pick([]string{"", "not "}) + g.testCall(g.pick(testPool))
	case 13:
		return g.globalCall(g.pick([]string{"range(3)", "range(1, 4)", "range(5, 0, -2)", "dict(a=1)", "namespace(a=1)", "lipsum(1)",
			"x()", "super()", "self.b()", "loop.cycle('a', 'b')", "loop(x)", "loop([])", "loop([1], 2)",
			"loop.depth0", "loop.previtem", "loop.length", "m", "[m]", "cycler('a')", "joiner()", "debug()", "range(n)"}))
	case 14:
		return "(" + g.expr() + ")"
	default:
		return g.name()
	}
}

func (g *tmplGen) maybe(f func() string) string {
	if g.chance(0.5) {
		return f()
	}
	return ""
}

// tag wraps a statement in `{% %}` with random whitespace control.
func (g *tmplGen) tag(body string) string {
	return "{%" + g.pick([]string{" ", " ", "- ", "+ ", ""}) + body + g.pick([]string{" ", " ", " -", " +", ""}) + "%}"
}

func (g *tmplGen) emit() string {
	return "{{" + g.pick([]string{" ", " ", "- ", "", "+ "}) + g.expr() + g.pick([]string{" ", " ", " -", ""}) + "}}"
}

// text is literal template data, with the brace shapes goose's pre-processing decides on.
func (g *tmplGen) text() string {
	return g.pick([]string{
		"hello ", "\n", "  - item\n", "a: b\n", "{{customer name}}", "${{ github.token }}", "{{ x y }}", "{ a }",
		"}} ", "{{ 'q' }}", "{{x}}", "{{ user.name }}", "{#- c -#}", "{# note #}", "{{ }}", "{%%}", "%} ", "{{-x-}}",
		"#", "{{ x\n}}", "{{ \"a\" ~ b }}", "{{ 'it''s' }}", "{{ a.b.c }}", "text with {{ x }} inside\n", "  ", "\t",
	})
}

// body is a sequence of statements.
func (g *tmplGen) body(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(g.stmt())
	}
	return b.String()
}

func (g *tmplGen) stmt() string {
	if g.depth > 2 {
		if g.chance(0.5) {
			return g.emit()
		}
		return g.text()
	}
	g.depth++
	defer func() { g.depth-- }()
	inner := func() string { return g.body(g.r.IntN(3)) }
	switch g.r.IntN(26) {
	case 0, 1, 2:
		return g.text()
	case 3, 4, 5:
		return g.emit()
	case 6, 7:
		s := g.tag("if "+g.expr()) + inner()
		for g.chance(0.3) {
			s += g.tag("elif "+g.expr()) + inner()
		}
		if g.chance(0.4) {
			s += g.tag("else") + inner()
		}
		return s + g.tag("endif")
	case 8, 9:
		target := g.pick([]string{"i", "item", "k, v", "(a, b)", "loop", "x"})
		head := "for " + target + " in " + g.expr()
		if g.chance(0.2) {
			head += " if " + g.expr()
		}
		recursive := g.chance(0.1)
		if recursive {
			head += " recursive"
		}
		g.loopVars = append(g.loopVars, strings.Split(strings.Trim(target, "()"), ", ")...)
		s := g.tag(head) + inner()
		if recursive && g.chance(0.7) {
			// recurse into the item, or into something else (none, a list, a number, two arguments)
			item := strings.Split(strings.Trim(target, "()"), ", ")[0]
			s += "{{ loop(" + g.pick([]string{item, item, "[]", "none", "[[1]]", "1", "x, y", "items=[1]"}) + ") }}"
		}
		g.loopVars = g.loopVars[:0]
		if g.chance(0.2) {
			s += g.tag("else") + inner()
		}
		return s + g.tag("endfor")
	case 10, 11:
		switch g.r.IntN(5) {
		case 0:
			return g.tag("set " + g.pick([]string{"ns.a", "a, b", "(a, b)"}) + " = " + g.expr())
		case 1:
			head := "set " + g.pick([]string{"v", "x", "out"})
			if g.chance(0.4) {
				head += " | " + g.pick(filterPool)
			}
			return g.tag(head) + inner() + g.tag("endset")
		default:
			return g.tag("set "+g.pick([]string{"v", "x", "name", "out"})+" = "+g.expr()) + g.emit()
		}
	case 12:
		return g.tag("with "+g.pick([]string{"v", "x", "a"})+" = "+g.expr()) + inner() + g.tag("endwith")
	case 13:
		return g.tag("include " + g.pick([]string{`"inc.txt"`, `"missing.txt"`, `"missing.txt" ignore missing`,
			`["missing.txt", "inc.txt"]`, `x`, `"bad.txt"`, `"sub/inc.txt"`, `"inc_vars.txt"`,
			`"inc.txt" with context`, `"inc.txt" ignore missing without context`, `"inc.txt" with`, `""`, `"sub"`, `"inc.txt/"`}))
	case 14:
		return g.tag("block "+g.pick([]string{"a", "b", "title", "body"})) + inner() + g.pick([]string{"{{ super() }}", ""}) + g.tag("endblock")
	case 15:
		return g.tag("filter "+g.filterCall(g.pick(filterPool))) + inner() + g.tag("endfilter")
	case 16:
		return g.tag("autoescape "+g.pick([]string{"true", "false", "'html'", "x", "none", "'json'"})) + inner() + g.tag("endautoescape")
	case 17:
		return g.tag("raw") + g.text() + g.emit() + g.tag("endraw")
	case 18:
		return g.tag(g.pick([]string{"macro m(a)", "call m()", "import 'macros.txt' as m", "from 'inc.txt' import a",
			"import 'inc.txt' as m", "import 'inc_vars.txt' as m", "from 'inc_vars.txt' import a as m", "from 'inc_vars.txt' import a, with context",
			"import 'inc.txt' as m without context", "from 'inc.txt' import", "break", "continue", "do x", "endif", "endfor", "else", "endblock", "extends 'parent.yaml'"})) + inner()
	case 19:
		return "{#" + g.text() + g.pick([]string{"#}", "", "-#}"}) + "\n"
	case 20:
		// an unclosed or broken tag
		return g.pick([]string{"{% if x %}", "{% for i in items %}", "{{ x", "{% if %}", "{{ x + }}", "{% set %}",
			"{% endif %}", "{{ (x }}", "{{ [1, }}", "{% raw %}", "{{ x | }}", "{{ 'a }}", "{% block %}", "{{ x is }}"})
	default:
		return g.emit()
	}
}

// template builds one whole template: bare, inside a recipe skeleton, or as a child of a parent.
func (g *tmplGen) template() string {
	body := g.body(1 + g.r.IntN(5))
	switch g.r.IntN(6) {
	case 0:
		return body
	case 1:
		blocks := g.tag("block "+g.pick([]string{"title", "body", "a"})) + g.body(1+g.r.IntN(2)) + g.tag("endblock")
		return g.pick([]string{"", "pre\n"}) + g.tag("extends "+g.pick([]string{`"parent.yaml"`, `"missing.yaml"`, `"parent_vars.yaml"`, `x`})) + "\n" + blocks
	default:
		var b strings.Builder
		b.WriteString("title: " + g.pick([]string{"T", "'T {{ x }}'", "T"}) + "\ndescription: D\n")
		b.WriteString("prompt: |\n")
		for _, line := range strings.Split(body, "\n") {
			b.WriteString("  " + line + "\n")
		}
		if g.chance(0.3) {
			b.WriteString("instructions: " + g.pick([]string{`"{{ y }}"`, "do it", "'{{ name | upper }}'"}) + "\n")
		}
		return b.String()
	}
}
