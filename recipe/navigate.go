// Navigation data: the parameter under the cursor, its declaration and every use.

package recipe

import (
	"errors"
	"io/fs"
	"regexp"
	"sort"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/template"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// ParamRef is a parameter name under the cursor with its declaration and uses.
type ParamRef struct {
	Name string
	// Decl is the range of the `key:` value (empty when the parameter is not declared).
	Decl  Range
	Param *Parameter
	// Uses are the root-identifier ranges of every template use.
	Uses []Range
	// At is the range under the cursor (a use or the declaration).
	At Range
}

// ParamRefAt returns the parameter at off (on a `{{ use }}` or on a parameter's key value), or nil.
func (f *File) ParamRefAt(off int) *ParamRef {
	if f.Recipe == nil {
		return nil
	}
	var name string
	var at Range
	if f.Analysis != nil {
		for _, uses := range [][]template.VarUse{f.Analysis.Uses, f.Analysis.Uncounted} {
			for i := range uses {
				if r := f.fromPre(uses[i].RootR); r.Start <= off && off <= r.End {
					name, at = uses[i].Root, r
				}
			}
		}
	}
	if name == "" {
		for _, p := range f.Recipe.Parameters {
			if p.KeyNode != nil && p.KeyNode.R.Start <= off && off <= p.KeyNode.R.End && p.Key != "" {
				name, at = p.Key, InnerRange(p.KeyNode)
			}
		}
	}
	if name == "" || name == BuiltinRecipeDir {
		return nil
	}
	ref := &ParamRef{Name: name, At: at, Param: f.Recipe.Param(name)}
	if ref.Param != nil && ref.Param.KeyNode != nil {
		ref.Decl = InnerRange(ref.Param.KeyNode)
	}
	if f.Analysis != nil {
		for _, uses := range [][]template.VarUse{f.Analysis.Uses, f.Analysis.Uncounted} {
			for _, u := range uses {
				if u.Root == name {
					ref.Uses = append(ref.Uses, f.fromPre(u.RootR))
				}
			}
		}
		sort.Slice(ref.Uses, func(i, j int) bool { return ref.Uses[i].Start < ref.Uses[j].Start })
	}
	return ref
}

// InnerRange is a scalar's range without its quotes (edits to a quoted value keep the quotes).
func InnerRange(n *yamltree.Node) Range {
	r := n.R
	if (n.Style == yamltree.SingleQuoted || n.Style == yamltree.DoubleQuoted) && r.End-r.Start >= 2 {
		return Range{Start: r.Start + 1, End: r.End - 1}
	}
	return r
}

// recipeDirPathRE finds `{{ recipe_dir }}/some/file` references anywhere in the text.
var recipeDirPathRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{-?\s*recipe_dir\s*-?\}\}/([A-Za-z0-9_./-]+[A-Za-z0-9_])`)
})

var extendsNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{%-?\s*(?:extends|include)\s+["']([^"']+)["']`) })

// linkable reports whether an editor may be pointed at path: inside the roots (symlinks resolved) and a
// regular file, or not there yet (a file still to be written). An editor opens a link itself, so a
// link to a file goose-ls would refuse to read is not offered.
func linkable(reader confinedReader, path string) bool {
	err := reader.Stat(path)
	return err == nil || errors.Is(err, fs.ErrNotExist)
}

// LinkAt returns the file a sub-recipe path or an extends/include name at off points to.
func (f *File) LinkAt(off int) (path string, r Range, ok bool) {
	if f.Recipe != nil {
		for _, s := range f.Recipe.SubRecipes {
			if n := s.PathNode; n != nil && n.Kind == yamltree.Scalar && n.R.Start <= off && off <= n.R.End {
				if p, ok := ResolveSubRecipePath(f.Dir(), s.Path); ok && linkable(f.reader(nil), p) {
					return p, n.R, true
				}
			}
		}
	}
	for _, l := range f.Links() {
		if l.R.Start <= off && off <= l.R.End {
			return l.Target, l.R, true
		}
	}
	return "", Range{}, false
}

// Link is a reference from the recipe to another file.
type Link struct {
	Target string
	R      Range
}

// Links lists the document links: sub-recipe paths inside the roots, extends/include names and
// `{{ recipe_dir }}/…` paths inside the recipe's folder; links to files that would be refused are left out.
func (f *File) Links() []Link {
	var out []Link
	inDir := newConfinedReader(nil, []string{f.Dir()})
	if f.Recipe != nil {
		for _, s := range f.Recipe.SubRecipes {
			if n := s.PathNode; n != nil && n.Kind == yamltree.Scalar {
				if p, ok := ResolveSubRecipePath(f.Dir(), s.Path); ok && linkable(f.reader(nil), p) {
					out = append(out, Link{Target: p, R: n.R})
				}
			}
		}
	}
	for _, m := range recipeDirPathRE().FindAllSubmatchIndex(f.Text, -1) {
		if p, err := confinedPath(f.Dir(), string(f.Text[m[2]:m[3]])); err == nil && linkable(inDir, p) {
			dup := false
			for _, l := range out {
				dup = dup || (l.R.Start <= m[0] && m[1] <= l.R.End)
			}
			if !dup {
				out = append(out, Link{Target: p, R: Range{Start: m[0], End: m[1]}})
			}
		}
	}
	for _, m := range extendsNameRE().FindAllSubmatchIndex(f.Text, -1) {
		name := string(f.Text[m[2]:m[3]])
		if p, err := confinedPath(f.Dir(), name); err == nil && linkable(inDir, p) {
			out = append(out, Link{Target: p, R: Range{Start: m[2], End: m[3]}})
		}
	}
	return out
}

// ValueKeysFor returns the ranges of `values` keys named key in f's sub-recipes that point to child.
func (f *File) ValueKeysFor(child, key string) []Range {
	if f.Recipe == nil {
		return nil
	}
	var out []Range
	for _, s := range f.Recipe.SubRecipes {
		p, ok := ResolveSubRecipePath(f.Dir(), s.Path)
		if !ok || p != child || s.Values == nil || s.Values.Kind != yamltree.Map {
			continue
		}
		for _, pr := range s.Values.Pairs {
			if pr.Key.Value == key {
				out = append(out, InnerRange(pr.Key))
			}
		}
	}
	return out
}
