// `goose-ls run RECIPE --explain`: goose's explanation of a recipe (recipes/recipe.rs explain_recipe,
// print_recipe.rs) — title, description, parameters, the values they would get, what is missing; runs nothing.

package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func Explain(f *RunFlags, stdout, stderr io.Writer) int {
	lr, err := LoadValid(f.Recipe)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	tpl, err := library.Template(lr.File)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	values, missing, err := explainValues(tpl, f.Params, lr.Dir, recipe.ConfinedFS(lr.Roots))
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	fmt.Fprint(stdout, explainText(tpl, values, missing))
	return 0
}

// explainValue is one line of "Parameters used to load this recipe".
type explainValue struct{ Key, Value string }

// explainValues is goose's apply_values_to_parameters without an asker: the given values (all of them),
// recipe_dir, then each declared parameter's given value or default, file parameters read; the rest are
// missing, in declaration order. goose prints the values from a hash map; goose-ls prints the declared
// parameters in order, then other given keys sorted, then recipe_dir.
func explainValues(r *library.Recipe, given map[string]string, dir string, fsys recipe.FS) ([]explainValue, []string, error) {
	var values []explainValue
	var missing []string
	declared := map[string]bool{recipe.BuiltinRecipeDir: true}
	for _, p := range r.Parameters {
		declared[p.Key] = true
		v, ok := given[p.Key]
		if !ok && p.Default != nil {
			v, ok = *p.Default, true
		}
		if !ok {
			missing = append(missing, p.Key)
			continue
		}
		if p.InputType == "file" {
			data, err := fsys.ReadFile(v)
			if err != nil {
				return nil, nil, fmt.Errorf("Failed to read parameter file %s: %s", v, recipe.ReadError(err))
			}
			v = string(data)
		}
		values = append(values, explainValue{p.Key, v})
	}
	var extra []string
	for k := range given {
		if !declared[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		values = append(values, explainValue{k, given[k]})
	}
	values = append(values, explainValue{recipe.BuiltinRecipeDir, dir})
	return values, missing, nil
}

// explainText is print_recipe_explanation + print_required_parameters_for_template, without colours.
func explainText(r *library.Recipe, values []explainValue, missing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "🔍 Loading recipe: %s\n", r.Title)
	fmt.Fprintf(&b, "📄 Description:\n   %s\n", r.Description)
	if len(r.Parameters) > 0 {
		b.WriteString("⚙️  Recipe Parameters:\n")
		for _, p := range r.Parameters {
			def := ""
			if p.Default != nil {
				def = fmt.Sprintf(" (default: %s)", *p.Default)
			}
			fmt.Fprintf(&b, "   - %s (%s, %s)%s: %s\n", p.Key, p.InputType, p.Requirement, def, p.Description)
		}
	}
	b.WriteString("📥 Parameters used to load this recipe:\n")
	for _, v := range values {
		label := ""
		if v.Key == recipe.BuiltinRecipeDir {
			label = " (built-in)"
		}
		fmt.Fprintf(&b, "   %s%s: %s\n", v.Key, label, v.Value)
	}
	if len(missing) > 0 {
		b.WriteString("🔴 Missing parameters in the command line if you want to run the recipe:\n")
		flags := make([]string, len(missing))
		for i, k := range missing {
			fmt.Fprintf(&b, "   - %s\n", k)
			flags[i] = "--params " + k + "=your_value"
		}
		b.WriteString("📩 Please provide the following parameters in the command line if you want to run the recipe::\n")
		fmt.Fprintf(&b, "  %s\n", strings.Join(flags, " "))
	}
	return b.String()
}
