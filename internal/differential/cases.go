// Cases: the deterministic mix of generated templates, corpus windows and mutations, and YAML mutations.

package differential

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
)

// Case is one input given to goose-ls and to the references.
type Case struct {
	// Name says where it comes from: "seed/kind/index".
	Name string
	// Kind is "template" (grammar), "corpus-template" (a window or mutation of a corpus recipe) or "yaml".
	Kind string
	Text string
	// Values are goose's --params for the run-time render.
	Values map[string]string
	// Mutations lists the YAML mutation kinds applied (YAML cases).
	Mutations []string
}

// IsTemplate reports whether the case counts as a template case.
func (c Case) IsTemplate() bool { return c.Kind != "yaml" }

var paramKeyRE = regexp.MustCompile(`(?m)^\s*-?\s*key:\s*['"]?([A-Za-z_][A-Za-z0-9_]*)`)

var valuePool = []string{"v", "1", "", "a b", "{{ x }}", "ü", "true", "[1, 2]", "line\nnext", "-3", "it's"}

// values gives goose's string parameters to the pool's names and to the recipe's declared keys, leaving
// one out now and then so strict renders fail as goose's do.
func (g *tmplGen) values(text string) map[string]string {
	vals := map[string]string{}
	names := append([]string{}, varPool...)
	for _, m := range paramKeyRE.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	for _, n := range names {
		if n == "recipe_dir" || g.chance(0.1) {
			continue
		}
		vals[n] = g.pick(valuePool)
	}
	return vals
}

// corpusTemplate is a window of a corpus recipe, often with a generated statement or a broken tag in it.
func (g *tmplGen) corpusTemplate(recipe string) string {
	lines := strings.Split(recipe, "\n")
	start := g.r.IntN(len(lines))
	// prefer windows that hold template syntax
	for try := 0; try < 8; try++ {
		s := g.r.IntN(len(lines))
		if strings.Contains(lines[s], "{{") || strings.Contains(lines[s], "{%") {
			start = s
			break
		}
	}
	n := 1 + g.r.IntN(30)
	if g.chance(0.15) {
		start, n = 0, len(lines)
	}
	end := min(len(lines), start+n)
	window := append([]string{}, lines[start:end]...)
	for k := g.r.IntN(3); k > 0; k-- {
		at := g.r.IntN(len(window))
		switch g.r.IntN(5) {
		case 0:
			window = insertAt(window, at, indentOf(window[at])+g.stmt())
		case 1:
			window = insertInLine(g, window, at, g.emit())
		case 2:
			window = insertInLine(g, window, at, g.pick([]string{"{%", "%}", "{{", "}}", "{#", "#}", "-", "|", "(", "'"}))
		case 3:
			window[at] = strings.NewReplacer("{%", "{{", "%}", "}}").Replace(window[at])
		default:
			if l := window[at]; len(l) > 0 {
				i := g.r.IntN(len(l))
				for i > 0 && !isRuneStart(l[i]) {
					i--
				}
				j := i + 1
				for j < len(l) && !isRuneStart(l[j]) {
					j++
				}
				window[at] = l[:i] + l[j:]
			}
		}
	}
	return strings.Join(window, "\n")
}

// Generate returns the cases of one seed: nTemplate template cases (two thirds from the grammar, a third
// from the corpus) and nYAML YAML mutations of corpus recipes.
func Generate(seed uint64, nTemplate, nYAML int, corpus []string) []Case {
	g := &tmplGen{r: rand.New(rand.NewPCG(seed, 0x90053)), calls: rand.New(rand.NewPCG(seed, 0xca115))}
	cases := make([]Case, 0, nTemplate+nYAML)
	for i := range nTemplate {
		c := Case{Kind: "template"}
		if i%3 == 2 {
			c.Kind = "corpus-template"
			c.Text = g.corpusTemplate(corpus[g.r.IntN(len(corpus))])
		} else {
			c.Text = g.template()
		}
		c.Name = fmt.Sprintf("%d/%s/%d", seed, c.Kind, i)
		c.Values = g.values(c.Text)
		cases = append(cases, c)
	}
	for i := range nYAML {
		text, kinds := g.mutateYAML(corpus[g.r.IntN(len(corpus))])
		cases = append(cases, Case{Name: fmt.Sprintf("%d/yaml/%d", seed, i), Kind: "yaml", Text: text, Mutations: kinds, Values: g.values(text)})
	}
	return cases
}
