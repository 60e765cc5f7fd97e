// Parameter rules: goose's checks (file defaults, optional defaults, duplicates, template variables vs
// parameters) and the ones its docs state but its code does not enforce.

package recipe

import (
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/template"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// BuiltinRecipeDir is the variable goose provides itself.
const BuiltinRecipeDir = "recipe_dir"

// minijinja's global functions: goose's variable check still counts them as parameters.
var templateGlobals = map[string]bool{"range": true, "dict": true, "namespace": true, "debug": true}

func pairOf(n *Node, key string) *yamltree.Pair {
	if n == nil {
		return nil
	}
	return n.Pair(key)
}

func (f *File) checkParameters() {
	seen := map[string]*Parameter{}
	for _, p := range f.Recipe.Parameters {
		if p.KeyNode != nil && p.Key != "" {
			if first, dup := seen[p.Key]; dup {
				f.add(Diagnostic{R: p.KeyNode.R, Severity: SeverityError, Code: CodeParamDuplicateKey,
					Message: fmt.Sprintf("Duplicate parameter definition: %s.", p.Key),
					Related: []Related{{R: first.KeyNode.R, Message: "first defined here"}}})
			} else {
				seen[p.Key] = p
			}
		}
		if p.InputType == "file" && p.Default != nil {
			f.add(Diagnostic{R: pairRange(pairOf(p.Node, "default")), Severity: SeverityError, Code: CodeParamFileDefault,
				Message: "File parameters cannot have default values to avoid importing sensitive user files: " + p.Key,
				Data:    map[string]string{"param": p.Key}})
		}
		if p.Requirement == "optional" && p.Default == nil {
			r := fieldRange(p.Node, "requirement")
			f.add(Diagnostic{R: r, Severity: SeverityError, Code: CodeParamOptionalNoDefault,
				Message: fmt.Sprintf("Optional parameters missing default values in the recipe: %s. Please provide defaults.", p.Key),
				Data:    map[string]string{"param": p.Key}})
		}
		if p.InputType == "select" && (p.Options == nil || p.Options.Kind != yamltree.Seq || len(p.Options.Items) == 0) {
			r := fieldRange(p.Node, "input_type")
			f.add(Diagnostic{R: r, Severity: SeverityWarning, Code: CodeSelectOptions,
				Message: fmt.Sprintf("select parameter %s has no `options`: goose's docs require them (goose itself does not check)", p.Key),
				Data:    map[string]string{"param": p.Key}})
		}
		if p.Requirement == "required" && p.Default != nil && p.InputType != "file" {
			f.add(Diagnostic{R: pairRange(pairOf(p.Node, "default")), Severity: SeverityWarning, Code: CodeRequiredDefault,
				Message: fmt.Sprintf("required parameter %s has a default: goose's docs say required parameters have none (goose uses it silently); make it optional or drop the default", p.Key),
				Data:    map[string]string{"param": p.Key}})
		}
	}
	f.checkTemplateVariables()
}

// TemplateNames is the set of variable names goose compares with the parameters (recipe_dir removed):
// the file's own and those of every template it loaded.
func (f *File) TemplateNames() map[string]bool {
	names := map[string]bool{}
	if f.Analysis == nil {
		return names
	}
	for _, u := range f.Analysis.Uses {
		names[u.Name] = true
	}
	for _, t := range f.Parents {
		for _, u := range template.Analyze(t).Uses {
			names[u.Name] = true
		}
	}
	delete(names, BuiltinRecipeDir)
	return names
}

func (f *File) checkTemplateVariables() {
	if f.Analysis == nil {
		return
	}
	keys := map[string]bool{}
	for _, p := range f.Recipe.Parameters {
		if p.Key != "" {
			keys[p.Key] = true
		}
	}
	for _, u := range f.Analysis.Uses {
		if u.Name == BuiltinRecipeDir || keys[u.Name] {
			continue
		}
		msg := fmt.Sprintf("Missing definitions for parameters in the recipe file: %s.", u.Name)
		switch {
		case templateGlobals[u.Name]:
			msg += fmt.Sprintf(" (goose's variable check counts the builtin function `%s` as a parameter)", u.Name)
		case strings.Contains(u.Name, ".") && keys[u.Root]:
			msg += fmt.Sprintf(" (parameter values are strings: `%s` has no attributes)", u.Root)
		case strings.Contains(u.Name, "."):
			msg += " (attribute access on an undefined value; for literal text such as GitHub's `${{ … }}`, wrap it in {% raw %}…{% endraw %})"
		}
		d := Diagnostic{R: f.fromPre(u.R), Severity: SeverityError, Code: CodeParamUndefined, Message: msg,
			Data: map[string]string{"name": u.Name}}
		f.add(d)
	}
	// goose counts the variables of every template its validation render loaded (extends, include,
	// import, from ... import, and what those load in turn): each missing one is reported at the
	// statement of this file that led to the load
	type siteName struct {
		at   template.Range
		name string
	}
	reported := map[siteName]bool{}
	for i, t := range f.Parents {
		var site template.Range // the file's start when the render did not record one
		if i < len(f.parentAt) {
			site = f.parentAt[i]
		}
		for _, u := range template.Analyze(t).Uses {
			at := siteName{site, u.Name}
			if u.Name == BuiltinRecipeDir || keys[u.Name] || reported[at] {
				continue
			}
			reported[at] = true
			f.add(Diagnostic{R: f.fromPre(at.at), Severity: SeverityError, Code: CodeParamUndefined,
				Message: fmt.Sprintf("Missing definitions for parameters in the recipe file: %s. (used in %s)", u.Name, t.Name),
				Data:    map[string]string{"name": u.Name}})
		}
	}
	names := f.TemplateNames()
	for _, p := range f.Recipe.Parameters {
		if p.Key == "" || names[p.Key] {
			continue
		}
		r := fieldRange(p.Node, "key")
		msg := fmt.Sprintf("Unnecessary parameter definitions: %s.", p.Key)
		for _, u := range f.Analysis.Uncounted {
			if u.Root == p.Key {
				msg += fmt.Sprintf(" (goose's variable check does not count its use at line %d: a template name, a slice, or a filter block's arguments)", f.Lines.Line(f.fromPre(u.RootR).Start)+1)
				break
			}
		}
		f.add(Diagnostic{R: r, Severity: SeverityError, Code: CodeParamUnused, Tags: []Tag{TagUnnecessary},
			Message: msg,
			Data:    map[string]string{"param": p.Key}})
	}
}
