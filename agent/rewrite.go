// goose 1.38's load-time recipe rewriting (Recipe::from_content): analyze next to a builtin developer,
// summon for a recipe with sub_recipes; and the default profile a recipe without `extensions` runs with.

package agent

// The platform extensions goose 1.38 enables by default (config/migrations.rs), by config key.
const (
	extDeveloper        = "developer"
	extAnalyze          = "analyze"
	extApps             = "apps"
	extExtensionManager = "extensionmanager"
	extSkills           = "skills"
	extSummon           = "summon"
	extTodo             = "todo"
	extTom              = "tom"
)

// defaultProfile is the extensions a run gets when its recipe has no `extensions` key (nor sub_recipes):
// every platform extension goose 1.38 enables on a fresh config, sorted as goose lists them.
var defaultProfile = []string{extAnalyze, extApps, extDeveloper, extExtensionManager, extSkills, extSummon, extTodo, extTom}

// platformEntry is the entry goose appends: `{type: platform, name: NAME, description: "",
// display_name: null, bundled: null, available_tools: []}`.
func platformEntry(name string) ExtensionDoc {
	return ExtensionDoc{Type: "platform", Name: name, AvailableTools: []string{}}
}

// rewriteRecipe applies both of goose's load-time functions, in goose's order.
func rewriteRecipe(doc *Doc) {
	ensureAnalyzeForDeveloper(doc)
	ensureSummonForSubRecipes(doc)
}

// ensureAnalyzeForDeveloper appends analyze when an entry is `type: builtin` with name exactly
// `developer` and no entry of any type is named `analyze`.
func ensureAnalyzeForDeveloper(doc *Doc) {
	builtinDeveloper, hasAnalyze := false, false
	for _, e := range doc.Extensions {
		builtinDeveloper = builtinDeveloper || (e.Type == "builtin" && e.Name == extDeveloper)
		hasAnalyze = hasAnalyze || e.Name == extAnalyze
	}
	if builtinDeveloper && !hasAnalyze && doc.hasExtensions {
		doc.Extensions = append(doc.Extensions, platformEntry(extAnalyze))
	}
}

// ensureSummonForSubRecipes gives a recipe with a sub_recipes key (any list, even empty) the summon
// extension: the only extension when it has no `extensions` key, else appended unless one is named summon.
func ensureSummonForSubRecipes(doc *Doc) {
	if !doc.hasSubRecipes {
		return
	}
	if !doc.hasExtensions {
		doc.Extensions, doc.hasExtensions = []ExtensionDoc{platformEntry(extSummon)}, true
		return
	}
	for _, e := range doc.Extensions {
		if e.Name == extSummon {
			return
		}
	}
	doc.Extensions = append(doc.Extensions, platformEntry(extSummon))
}

// runExtensions is the list a run starts: a sub-agent's inherited list, the recipe's (rewritten) list,
// or the default profile.
func runExtensions(doc *Doc, opts *RunOptions) []ExtensionDoc {
	if opts.sub != nil {
		return opts.sub.extensions
	}
	if doc.hasExtensions {
		return append(append([]ExtensionDoc(nil), doc.Extensions...), opts.Extensions...)
	}
	out := make([]ExtensionDoc, len(defaultProfile), len(defaultProfile)+len(opts.Extensions))
	for i, name := range defaultProfile {
		out[i] = platformEntry(name)
	}
	return append(out, opts.Extensions...)
}
