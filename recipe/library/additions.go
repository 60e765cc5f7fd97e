// goose's load-time rewriting of every parsed recipe (goose-runtime-1.38.md §1, recipe/mod.rs
// ensure_analyze_for_developer and ensure_summon_for_subrecipes).

package library

// LoadTimeAdditions applies what goose 1.38 does at the end of every `Recipe::from_content`, in its order:
//
//  1. analyze for developer: when `extensions` holds an entry with `type: builtin` and `name` exactly
//     `developer`, and no extension of any type is named `analyze`, a platform extension `analyze` is
//     appended at the end.
//  2. summon for sub-recipes: when the recipe has a `sub_recipes` key (any list, even empty), a platform
//     extension `summon` is appended if no extension of any type is named `summon`; without an
//     `extensions` key the list becomes just `[summon]` (so such a recipe runs with summon only).
//
// The added entries serialize as `type: platform`, `name`, `description: ”`, `display_name: null`,
// `bundled: null`, `available_tools: []`. It returns the names it added. The run (agent/) should call it
// on the rendered recipe, so that runs, --render-recipe and deeplinks agree.
func LoadTimeAdditions(r *Recipe) []string {
	var added []string
	hasBuiltinDeveloper := false
	for _, e := range r.Extensions {
		if e.Type == "builtin" && e.Name == "developer" {
			hasBuiltinDeveloper = true
		}
	}
	if hasBuiltinDeveloper && !r.hasExtension("analyze") {
		r.Extensions = append(r.Extensions, platformExtension("analyze"))
		added = append(added, "analyze")
	}
	if r.SubRecipes != nil && !r.hasExtension("summon") {
		if r.Extensions == nil {
			r.Extensions = []Extension{}
		}
		r.Extensions = append(r.Extensions, platformExtension("summon"))
		added = append(added, "summon")
	}
	return added
}

func (r *Recipe) hasExtension(name string) bool {
	for _, e := range r.Extensions {
		if e.Name == name {
			return true
		}
	}
	return false
}
