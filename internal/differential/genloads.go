// The loads generator: whole recipes that include, import or extend templates whose text uses variables,
// in the recipe's folder and beside it, with a parameters list that declares some of those variables, so
// that goose's parameter verdict (missing and unnecessary definitions) is compared too.

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// loadInside are the templates in the recipe's folder the loads name (corpus.go's fixtures and links).
var loadInside = []string{"vars_a.txt", "vars_loop.txt", "vars_set.txt", "vars_nested.txt", "sub/vars_deep.txt",
	"vars_import.txt", "vars_dir.txt", "vars_global.txt", "link_in.txt", "inc.txt", "missing.txt"}

// loadRefused are names goose's loader refuses today (outside the folder, through `..`, or a symlink
// whose real path leaves it); mj-oracle's loader (goose 1.38's) reads them.
var loadRefused = []string{"../beside_vars.txt", "../other/inc.txt", "sub/../vars_a.txt", "link_out.txt", "./../beside_vars.txt"}

// loadParents are the parents an extending recipe names.
var loadParents = []string{"parent_params.yaml", "parent_inc.yaml", "parent_vars.yaml", "missing.yaml", "../beside_parent.yaml"}

// loadVarNames are the variables the loaded templates (and the recipes) use; a recipe declares some.
var loadVarNames = []string{"pa", "pb", "pitems", "pflag", "pset", "pn", "pdeep", "pimp", "pr", "pg", "ptitle", "pbody",
	"pdesc", "pbeside", "pother", "own", "x", "recipe_dir", "punused"}

// GenerateLoads returns n recipes that load templates (kind "loads"), from a random stream of their own
// so that the seed's other cases stay as they were.
func GenerateLoads(seed uint64, n int) []Case {
	g := &tmplGen{r: rand.New(rand.NewPCG(seed, 0x10ad5)), calls: rand.New(rand.NewPCG(seed, 0x10ad6))}
	cases := make([]Case, 0, n)
	for i := range n {
		text := g.loadsRecipe()
		cases = append(cases, Case{Name: fmt.Sprintf("%d/loads/%d", seed, i), Kind: "loads", Text: text, Values: g.values(text)})
	}
	return cases
}

// loadName is a template name: mostly one inside the folder, now and then one goose refuses.
func (g *tmplGen) loadName() string {
	if g.chance(0.15) {
		return g.pick(loadRefused)
	}
	return g.pick(loadInside)
}

// loadStmt is one statement that loads a template (or would, in a branch not taken).
func (g *tmplGen) loadStmt() string {
	n := fmt.Sprintf("%q", g.loadName())
	var s string
	switch g.r.IntN(11) {
	case 0, 1:
		s = "{% include " + n + " %}"
	case 2:
		s = "{% include " + n + " ignore missing %}"
	case 3:
		s = `{% include ["missing.txt", ` + n + `] %}`
	case 4:
		s = "{% include " + n + " without context %}"
	case 5:
		s = "{% import " + n + " as m %}{{ m }}"
	case 6:
		s = "{% import " + n + " as m %}" + g.pick([]string{"", "{{ m.a }}", "{{ m.b }}"})
	case 7:
		s = "{% from " + n + " import " + g.pick([]string{"a", "a as c, b", "b"}) + " %}" + g.pick([]string{"", "{{ a }}"})
	case 8:
		// only names goose reads go in a branch (refusals.go finds a refused load by its name's first place)
		n = fmt.Sprintf("%q", g.pick(loadInside))
		return "{% if " + g.pick([]string{"true", "false", "own", "not own"}) + " %}{% include " + n + " %}{% endif %}"
	case 9:
		return "{% for i in [1, 2] %}{% include " + n + " %}{% endfor %}"
	default:
		return "{% set " + g.pick([]string{"x", "own"}) + " = 1 %}{% include " + n + " %}"
	}
	return s
}

// loadsRecipe is a whole recipe: its prompt loads templates, or it extends a parent and fills its blocks.
func (g *tmplGen) loadsRecipe() string {
	params := g.loadParams()
	if g.chance(0.25) {
		var b strings.Builder
		fmt.Fprintf(&b, "{%% extends %q %%}\n", g.pick(loadParents))
		if g.chance(0.6) {
			b.WriteString("{% block body %}" + g.pick([]string{"", "{{ own }}", "{{ super() }} more"}))
			if g.chance(0.5) {
				b.WriteString(g.loadStmt())
			}
			b.WriteString("{% endblock %}\n")
		}
		if g.chance(0.3) {
			b.WriteString("{% block title %}T {{ " + g.pick([]string{"own", "ptitle", "'lit'"}) + " }}{% endblock %}\n")
		}
		if params != "" {
			b.WriteString("{% block params %}" + params + "{% endblock %}\n")
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("title: T\ndescription: D" + g.pick([]string{"", " {{ own }}", " {{ pa }}"}) + "\nprompt: |\n")
	for k := 1 + g.r.IntN(2); k > 0; k-- {
		b.WriteString("  " + g.loadStmt() + "\n")
	}
	b.WriteString(params)
	return b.String()
}

// loadParams is a parameters list declaring some of the variables (or none).
func (g *tmplGen) loadParams() string {
	if g.chance(0.2) {
		return ""
	}
	var b strings.Builder
	b.WriteString("parameters:\n")
	declared := 0
	for _, n := range loadVarNames {
		if !g.chance(0.35) {
			continue
		}
		declared++
		fmt.Fprintf(&b, "  - key: %s\n    input_type: string\n    requirement: required\n    description: d\n", n)
	}
	if declared == 0 {
		return ""
	}
	return b.String()
}
