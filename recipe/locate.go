// Cursor location: which YAML path, key or value, and which template construct an offset is in — the
// shared basis of completion, hover and navigation.

package recipe

import (
	"strconv"

	"github.com/goose-ls/goose-ls/recipe/template"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Step is one step of a YAML path: a mapping key or a sequence index.
type Step struct {
	Key   string
	Index int // -1 for keys
}

// Location describes what is at an offset.
type Location struct {
	Path  []Step         // from the recipe root to the innermost node containing the offset
	Node  *yamltree.Node // innermost node
	Pair  *yamltree.Pair // the mapping entry whose key or value holds the offset
	OnKey bool           // the offset is on the entry's key
	// Use is the template variable use under the offset, if any.
	Use *template.VarUse
	// InTemplate reports that the offset is inside `{{ }}` or `{% %}`.
	InTemplate bool
	TagKind    template.TagKind
}

// PathString renders the path as serde does: parameters[0].key.
func (l *Location) PathString() string {
	s := ""
	for _, st := range l.Path {
		if st.Index >= 0 {
			s += "[" + strconv.Itoa(st.Index) + "]"
			continue
		}
		if s != "" {
			s += "."
		}
		s += st.Key
	}
	return s
}

// Locate finds what is at offset off (a byte offset into f.Text).
func (f *File) Locate(off int) *Location {
	loc := &Location{}
	if f.Tree != nil {
		locateIn(f.Tree, off, loc)
	}
	if f.Analysis != nil {
		for i := range f.Analysis.Uses {
			u := &f.Analysis.Uses[i]
			if r := f.fromPre(u.R); r.Start <= off && off <= r.End {
				loc.Use = u
			}
		}
	}
	if f.Template != nil {
		for _, t := range f.Template.Tags {
			if r := f.fromPre(t.R); r.Start < off && off < r.End {
				loc.InTemplate, loc.TagKind = t.Kind != template.TagComment, t.Kind
			}
		}
	}
	return loc
}

func locateIn(n *yamltree.Node, off int, loc *Location) {
	loc.Node = n
	switch n.Kind {
	case yamltree.Map:
		for _, p := range n.Pairs {
			if p.Key.R.Start <= off && off <= p.Key.R.End {
				loc.Path = append(loc.Path, Step{Key: p.Key.Value, Index: -1})
				loc.Pair, loc.OnKey, loc.Node = p, true, p.Key
				return
			}
			if p.Value.R.Start <= off && off <= p.Value.R.End && !(p.Value.Empty && off != p.Value.R.Start) {
				loc.Path = append(loc.Path, Step{Key: p.Key.Value, Index: -1})
				loc.Pair, loc.OnKey = p, false
				locateIn(p.Value, off, loc)
				return
			}
		}
	case yamltree.Seq:
		for i, it := range n.Items {
			if it.R.Start <= off && off <= it.R.End {
				loc.Path = append(loc.Path, Step{Index: i})
				locateIn(it, off, loc)
				return
			}
		}
	}
}

// ParamAt returns the parameter whose entry contains off, or nil.
func (f *File) ParamAt(off int) *Parameter {
	if f.Recipe == nil {
		return nil
	}
	for _, p := range f.Recipe.Parameters {
		if p.Node.R.Start <= off && off <= p.Node.R.End {
			return p
		}
	}
	return nil
}

// UseRange maps a template use's range to the file.
func (f *File) UseRange(u *template.VarUse) Range { return f.fromPre(u.R) }
