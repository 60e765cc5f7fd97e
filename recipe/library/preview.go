// A render preview for editors (the language server's goose.render): the rendered text, the recipe as
// --render-recipe prints it, and what stopped the render as diagnostics on the recipe's own text.

package library

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
	"github.com/goose-ls/goose-ls/recipe/template"
)

// Codes of the render diagnostics (documented with goose.render in docs/protocol.md).
const (
	CodeRenderMissing = "RENDER-MISSING-VALUE"  // a required parameter has no value
	CodeRenderError   = "RENDER-ERROR"          // the strict render failed (an undefined value, a filter error…)
	CodeRenderInvalid = "RENDER-INVALID-RECIPE" // the rendered text is not a recipe goose can load
)

// Preview is the outcome of RenderPreview.
type Preview struct {
	Text    string            // the rendered text; "" when the render did not happen or failed
	YAML    string            // the loaded recipe as --render-recipe prints it; "" unless the text loads
	Values  map[string]string // the values the render used (given, defaults, recipe_dir)
	Missing []string          // required parameters without a value
	Diags   []recipe.Diagnostic
}

// RenderPreview renders the checked file f with the given values plus the parameters' defaults, the way
// `goose run --render-recipe` loads it, without asking anyone (user_prompt parameters without a value are
// missing). Problems become diagnostics on f's text: a missing value at its parameter's key, a render
// error on the line it happened, a rendered text goose cannot load at the start of the file.
func RenderPreview(ctx context.Context, f *recipe.File, given map[string]string, fsys recipe.FS) *Preview {
	p := &Preview{}
	if f.Recipe == nil || f.Template == nil {
		p.Diags = append(p.Diags, recipe.Diagnostic{Severity: recipe.SeverityError, Code: CodeRenderInvalid,
			Message: "the recipe cannot be rendered: its template or YAML does not parse (see the file's diagnostics)"})
		return p
	}
	values, err := render.Values(f, given, fsys, nil)
	var missing *render.MissingError
	switch {
	case errors.As(err, &missing):
		p.Missing = missing.Keys
		for _, k := range missing.Keys {
			r := recipe.Range{}
			if prm := f.Recipe.Param(k); prm != nil && prm.KeyNode != nil {
				r = prm.KeyNode.R
			}
			p.Diags = append(p.Diags, recipe.Diagnostic{R: r, Severity: recipe.SeverityError, Code: CodeRenderMissing,
				Message: fmt.Sprintf("no value for `%s`: %s", k, missing.Error())})
		}
		return p
	case err != nil:
		p.Diags = append(p.Diags, recipe.Diagnostic{Severity: recipe.SeverityError, Code: CodeRenderError, Message: err.Error()})
		return p
	}
	p.Values = values
	out, err := Render(ctx, f, values, fsys)
	if out == nil {
		p.Diags = append(p.Diags, recipe.Diagnostic{R: renderErrorRange(f, err), Severity: recipe.SeverityError, Code: CodeRenderError, Message: err.Error()})
		return p
	}
	p.Text = out.Text
	if err != nil {
		p.Diags = append(p.Diags, recipe.Diagnostic{Severity: recipe.SeverityError, Code: CodeRenderInvalid,
			Message: "goose cannot load the rendered recipe: " + err.Error()})
		return p
	}
	if y, err := out.Recipe.YAML(); err == nil {
		p.YAML = y
	}
	return p
}

// renderErrorRange is the line of f where the render failed (the render's pre-processed text has the
// original's lines), or the start of the file.
func renderErrorRange(f *recipe.File, err error) recipe.Range {
	var re *template.RuntimeError
	if !errors.As(err, &re) || re.Template != "recipe" || f.Pre == nil || re.R.Start > len(f.Pre.Text) {
		return recipe.Range{}
	}
	line := strings.Count(f.Pre.Text[:re.R.Start], "\n")
	if line >= f.Lines.LineCount() {
		return recipe.Range{}
	}
	return recipe.Range{Start: f.Lines.LineStart(line), End: f.Lines.LineEnd(line)}
}
