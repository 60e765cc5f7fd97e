// goose's load-time recipe rewriting (Recipe::from_content): analyze next to a builtin developer, summon
// for a recipe with sub_recipes; and the default profile a recipe without `extensions` runs with
// (platform_defaults.go).

package agent

// The platform extensions goose-ls knows, by config key.
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

// runExtensions is the list a run starts: a sub-agent's inherited list, or the recipe's (rewritten) list
// or the default profile, followed by the caller's own (RunOptions.Extensions).
func runExtensions(doc *Doc, opts *RunOptions) []ExtensionDoc {
	if opts.sub != nil {
		return opts.sub.extensions
	}
	if doc.hasExtensions {
		return append(append([]ExtensionDoc(nil), doc.Extensions...), opts.Extensions...)
	}
	profile := defaultProfile(opts)
	out := make([]ExtensionDoc, len(profile), len(profile)+len(opts.Extensions))
	for i, name := range profile {
		out[i] = platformEntry(name)
	}
	return append(out, opts.Extensions...)
}
