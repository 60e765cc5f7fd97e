// The files a checked recipe depends on, for the language server to re-check it when one changes:
// computed from the tree and the text only, with no file-system access (it runs after every check).

package recipe

import (
	"bytes"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Dependencies lists the files whose change can change this recipe's check or its links: sub-recipe
// paths, `{{ recipe_dir }}/…` links and extends/include parents, resolved as Links resolves them, whether
// or not they exist yet (a file created later is a change too). Unlike Links it opens nothing.
func (f *File) Dependencies() []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if f.Recipe != nil {
		for _, s := range f.Recipe.SubRecipes {
			if n := s.PathNode; n != nil && n.Kind == yamltree.Scalar {
				if p, ok := ResolveSubRecipePath(f.Dir(), s.Path); ok {
					add(p)
				}
			}
		}
	}
	if bytes.Contains(f.Text, []byte("recipe_dir")) {
		for _, m := range recipeDirPathRE().FindAllSubmatchIndex(f.Text, -1) {
			if p, err := confinedPath(f.Dir(), string(f.Text[m[2]:m[3]])); err == nil {
				add(p)
			}
		}
	}
	if bytes.Contains(f.Text, []byte("{%")) && (bytes.Contains(f.Text, []byte("extends")) || bytes.Contains(f.Text, []byte("include"))) {
		for _, m := range extendsNameRE().FindAllSubmatchIndex(f.Text, -1) {
			if p, err := confinedPath(f.Dir(), string(f.Text[m[2]:m[3]])); err == nil {
				add(p)
			}
		}
	}
	return out
}
