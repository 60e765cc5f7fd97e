// The goose-ls side: the product's own pipeline (recipe.Check, recipe/render) on one input.

package differential

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
	"github.com/goose-ls/goose-ls/recipe/template"
)

// checkTimeout bounds one check of the engine (a hang is reported as a disagreement, not waited for).
const checkTimeout = 10 * time.Second

// EngineResult is what goose-ls says about one input, in the oracle's terms; nil pointers mean "no error".
type EngineResult struct {
	// Syntax is the TPL-SYNTAX message, Runtime the TPL-RUNTIME one (the validation render).
	Syntax, Runtime *string
	// Lenient is the validation render's output when it succeeded.
	Lenient *string
	// Vars is what goose-ls compares with the parameters (recipe.File.TemplateNames).
	Vars []string
	// VarsMain is the analysis of the file's own template (recipe.File.Analysis), sorted.
	VarsMain []string
	// YAML is the first YAML-SYNTAX message, in file order.
	YAML *string
	// Strict and StrictErr are the run-time render's result (only when values were given).
	Strict, StrictErr *string
	// Internal is an INTERNAL-ERROR or CHECK-STOPPED message: the engine failed on this input.
	Internal *string
	// Missing and Unnecessary are the names of the PARAM-UNDEFINED and PARAM-UNUSED diagnostics (goose's
	// "Missing definitions" and "Unnecessary parameter definitions"), sorted, each once.
	Missing, Unnecessary []string
}

// RunEngine checks text as the recipe dir/recipe.yaml, and renders it with values when values is not nil.
func RunEngine(dir, text string, values map[string]string) (res EngineResult) {
	defer func() {
		if r := recover(); r != nil {
			res.Internal = ptr(fmt.Sprintf("panic: %v", r))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	path := filepath.Join(dir, "recipe.yaml")
	f := recipe.Check(path, []byte(text), &recipe.Options{NoSubRecipes: true, Roots: []string{dir}, Context: ctx})
	var yamlDiags []recipe.Diagnostic
	for _, d := range f.Diags {
		switch d.Code {
		case recipe.CodeTplSyntax:
			res.Syntax = first(res.Syntax, d.Message)
		case recipe.CodeTplRuntime:
			res.Runtime = first(res.Runtime, d.Message)
		case recipe.CodeYAMLSyntax:
			yamlDiags = append(yamlDiags, d)
		case recipe.CodeInternalError, recipe.CodeCheckStopped:
			res.Internal = first(res.Internal, d.Code+": "+d.Message)
		case recipe.CodeParamUndefined:
			res.Missing = addName(res.Missing, d.Data["name"])
		case recipe.CodeParamUnused:
			res.Unnecessary = addName(res.Unnecessary, d.Data["param"])
		}
	}
	sort.SliceStable(yamlDiags, func(i, j int) bool { return yamlDiags[i].R.Start < yamlDiags[j].R.Start })
	if len(yamlDiags) > 0 {
		res.YAML = ptr(yamlDiags[0].Message)
	}
	if res.Syntax == nil {
		for n := range f.TemplateNames() {
			res.Vars = append(res.Vars, n)
		}
		sort.Strings(res.Vars)
		if f.Analysis != nil {
			res.VarsMain = f.Analysis.Names()
			sort.Strings(res.VarsMain)
		}
		if res.Runtime == nil {
			res.Lenient = lenientOutput(ctx, dir, text)
		}
	}
	if values != nil {
		out, err := render.RenderContext(ctx, f, values, nil)
		if err != nil {
			res.StrictErr = ptr(err.Error())
		} else {
			// the file's byte order mark stays beside the rendered body (lenientOutput)
			res.Strict = ptr(string(f.Text[:f.BOM]) + out)
		}
	}
	return res
}

// lenientOutput is the validation render's text, computed as recipe.Check computes it (check.go): a leading
// byte order mark is kept beside the rendered body (File.BOM; the YAML stage skips it as libyaml does), so
// the text goose-ls parses is the mark followed by the render — minijinja's output of the whole file.
func lenientOutput(ctx context.Context, dir, text string) *string {
	body, hadBOM := strings.CutPrefix(text, "\uFEFF")
	pre := template.Preprocess(body)
	if pre.Err != nil {
		return nil
	}
	tpl, err := template.Parse("recipe", pre.Text)
	if err != nil {
		return nil
	}
	out, err := tpl.Render(nil, template.RenderOptions{Undefined: template.Lenient, Loader: recipe.TemplateLoader(dir, recipe.OSFS{}), Context: ctx})
	if err != nil {
		return nil
	}
	if hadBOM {
		return ptr("\uFEFF" + out.Text)
	}
	return &out.Text
}

// addName adds n to the sorted set names.
func addName(names []string, n string) []string {
	i, found := slices.BinarySearch(names, n)
	if found {
		return names
	}
	return slices.Insert(names, i, n)
}

func first(cur *string, msg string) *string {
	if cur != nil {
		return cur
	}
	return &msg
}

func ptr[T any](v T) *T { return &v }
