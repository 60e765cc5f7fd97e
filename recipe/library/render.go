// A recipe rendered with parameter values the way `goose run` loads it (build_recipe/mod.rs): the strict
// render, the parse into goose's types, the load-time additions, sub-recipe paths made absolute.

package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// Rendered is the outcome of a render: the text the template produced and, when it parses, the recipe.
type Rendered struct {
	Text   string
	Recipe *Recipe
}

// Render renders f with values (already resolved: see render.Values) under strict undefined behaviour,
// parses the text into goose's recipe, applies LoadTimeAdditions and makes each sub-recipe path absolute
// and canonical against the recipe's folder ("Sub-recipe file does not exist: PATH" otherwise). On a
// parse error the text is still returned.
func Render(ctx context.Context, f *recipe.File, values map[string]string, fsys recipe.FS) (*Rendered, error) {
	text, err := render.RenderContext(ctx, f, values, fsys)
	if err != nil {
		return nil, err
	}
	out := &Rendered{Text: text}
	r, err := Parse([]byte(text))
	if err != nil {
		return out, err
	}
	for i := range r.SubRecipes {
		p, err := resolveSubRecipePath(r.SubRecipes[i].Path, f.Dir())
		if err != nil {
			return out, err
		}
		r.SubRecipes[i].Path = p
	}
	out.Recipe = r
	return out, nil
}

// resolveSubRecipePath is goose's resolve_sub_recipe_path: relative to the parent's folder, must exist,
// canonical.
func resolveSubRecipePath(p, dir string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("Sub-recipe file does not exist: %s", p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("Failed to resolve sub-recipe path %s: %w", p, err)
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return "", fmt.Errorf("Failed to resolve sub-recipe path %s: %w", p, err)
	}
	return abs, nil
}

// Template is the recipe as goose parses its template without rendering it (template_recipe.rs
// parse_recipe_content), from a checked file: `{{ x }}` kept literally (after goose's brace
// pre-processing), rendered only when the file uses extends/include; load-time additions applied. This
// is what a deeplink carries and what --explain describes.
func Template(f *recipe.File) (*Recipe, error) {
	if f.Tree == nil {
		return nil, fmt.Errorf("recipe could not be parsed")
	}
	root := f.Tree
	r, err := Decode(root)
	if err != nil {
		return nil, err
	}
	LoadTimeAdditions(r)
	return r, nil
}
