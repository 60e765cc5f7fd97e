// Package render applies parameter values to a recipe the way goose does at run time and renders it with
// strict undefined behaviour, for `goose-ls run` and render previews.
package render

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/template"
)

// MissingError lists required parameters that got no value.
type MissingError struct {
	Keys []string
}

func (e *MissingError) Error() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = "--params " + k + "=your_value"
	}
	return "Please provide the following parameters in the command line: " + strings.Join(parts, " ")
}

// Asker asks the user for a `user_prompt` parameter's value; nil means no one can be asked.
type Asker func(key, description string) (string, error)

// Values resolves the value of every declared parameter: the given value, else the default, else (for
// user_prompt) the asker's answer. File parameters are replaced by the content of the file they name.
// `recipe_dir` is always set. Undeclared given values are kept (goose passes them through).
func Values(f *recipe.File, given map[string]string, fsys recipe.FS, ask Asker) (map[string]string, error) {
	if f.Recipe == nil {
		return nil, errors.New("recipe could not be parsed")
	}
	if fsys == nil {
		fsys = recipe.OSFS{}
	}
	out := make(map[string]string, len(given)+1)
	for k, v := range given {
		out[k] = v
	}
	out[recipe.BuiltinRecipeDir] = f.Dir()
	var missing []string
	for _, p := range f.Recipe.Parameters {
		v, ok := given[p.Key]
		if !ok && p.Default != nil {
			v, ok = p.Default.Value, true
		}
		if !ok && p.Requirement == "user_prompt" && ask != nil {
			answer, err := ask(p.Key, p.Description)
			if err != nil {
				return nil, err
			}
			v, ok = answer, true
		}
		if !ok {
			missing = append(missing, p.Key)
			continue
		}
		if p.InputType == "file" {
			path := v
			if !filepath.IsAbs(path) {
				if abs, err := filepath.Abs(path); err == nil {
					path = abs
				}
			}
			data, err := fsys.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("Failed to read parameter file %s: %w", v, err)
			}
			v = string(data)
		}
		out[p.Key] = v
	}
	if len(missing) > 0 { // in declaration order, as goose lists them
		return nil, &MissingError{Keys: missing}
	}
	return out, nil
}

// emptyQuotes is goose's `:\s*""`, which it rewrites to a pair of single quotes before the run-time render;
// Rust's `\s` is Unicode's White_Space and RE2's only ASCII, so the class spells Unicode's out (U+2028, NEL, …).
var emptyQuotes = regexp.MustCompile(`:[\t-\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]*""`)

// Render renders the recipe text with values under strict undefined behaviour, as `goose run` does.
func Render(f *recipe.File, values map[string]string, fsys recipe.FS) (string, error) {
	return RenderContext(context.Background(), f, values, fsys)
}

// RenderContext is Render stopping when ctx is done. Either way the render has the template engine's
// budget (steps, a cap on every value and on the output, bounded recursion), so a hostile recipe ends
// with an error instead of exhausting the machine.
func RenderContext(ctx context.Context, f *recipe.File, values map[string]string, fsys recipe.FS) (string, error) {
	if fsys == nil {
		fsys = recipe.OSFS{}
	}
	text := string(f.Text[f.BOM:])
	text = emptyQuotes.ReplaceAllString(text, ": ''")
	pre := template.Preprocess(text)
	if pre.Err != nil {
		return "", fmt.Errorf("Failed to render the recipe: %w", pre.Err)
	}
	tpl, err := template.Parse("recipe", pre.Text)
	if err != nil {
		return "", fmt.Errorf("Failed to render the recipe %w", located(err, tpl, nil))
	}
	vars := make(map[string]template.Value, len(values))
	for k, v := range values {
		vars[k] = template.StringValue(v)
	}
	out, err := tpl.Render(vars, template.RenderOptions{Undefined: template.Strict, Loader: recipe.TemplateLoader(f.Dir(), fsys), Context: ctx})
	if err != nil {
		return "", fmt.Errorf("Failed to render the recipe %w", located(err, tpl, out))
	}
	return out.Text, nil
}

// locatedError is a template error with minijinja's location suffix, as goose prints it:
// `undefined value (in recipe:3)`, `… (in parent.yaml:1)` for an error in a loaded template.
type locatedError struct {
	err  error
	text string
}

func (e *locatedError) Error() string { return e.text }
func (e *locatedError) Unwrap() error { return e.err }

// located adds ` (in <template>:<line>)` to a syntax or run-time error of tpl (or of a template the
// render loaded, in out); other errors are returned as they are.
func located(err error, tpl *template.Template, out *template.Output) error {
	var (
		name = "recipe"
		at   int
	)
	var se *template.SyntaxError
	var re *template.RuntimeError
	switch {
	case errors.As(err, &se) && se.Line > 0:
		return &locatedError{err: err, text: fmt.Sprintf("%s (in %s:%d)", err.Error(), name, se.Line)}
	case errors.As(err, &se):
		// an unclosed block is reported at the very end; minijinja's line is within the text it lexed,
		// which ends before the trailing newline
		at = se.EngineRange().Start
		if tpl != nil {
			at = min(at, len(strings.TrimSuffix(strings.TrimSuffix(tpl.Source, "\n"), "\r")))
		}
	case errors.As(err, &re) && re.Where != "":
		return &locatedError{err: err, text: err.Error() + re.Where}
	case errors.As(err, &re):
		name, at = re.Template, re.R.Start
	default:
		return err
	}
	source := ""
	if tpl != nil && tpl.Name == name {
		source = tpl.Source
	} else if out != nil {
		for _, t := range out.Loaded {
			if t.Name == name {
				source = t.Source
				break
			}
		}
	}
	line := 1 + strings.Count(source[:min(max(at, 0), len(source))], "\n")
	return &locatedError{err: err, text: fmt.Sprintf("%s (in %s:%d)", err.Error(), name, line)}
}
