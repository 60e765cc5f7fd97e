// Refactors: extract the selected text of a string value into a new parameter.

package recipe

import (
	"regexp"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

var nonWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// paramNameFor derives a parameter name from text (lower-case words joined by _), unique in f.
func (f *File) paramNameFor(text string) string {
	words := strings.Fields(nonWord().ReplaceAllString(strings.ToLower(text), " "))
	if len(words) > 3 {
		words = words[:3]
	}
	base := strings.Join(words, "_")
	if base == "" || (base[0] >= '0' && base[0] <= '9') {
		base = "value_" + base
	}
	name := base
	for i := 2; f.Recipe.Param(name) != nil; i++ {
		name = base + "_" + string(rune('0'+i%10))
	}
	return name
}

// ExtractParameter replaces the selection (inside one quoted or block string value, on one line) with
// `{{ name }}` and adds an optional parameter whose default is the selected text.
func (f *File) ExtractParameter(sel Range) (Fix, bool) {
	if f.Tree == nil || f.Recipe == nil || sel.End <= sel.Start || f.Lines.Line(sel.Start) != f.Lines.Line(sel.End) {
		return Fix{}, false
	}
	loc := f.Locate(sel.Start)
	n := loc.Node
	if n == nil || n.Kind != yamltree.Scalar || loc.OnKey || sel.End > n.R.End || loc.Use != nil {
		return Fix{}, false
	}
	switch n.Style {
	case yamltree.SingleQuoted, yamltree.DoubleQuoted:
		if sel.Start <= n.R.Start || sel.End >= n.R.End {
			return Fix{}, false
		}
	case yamltree.Literal, yamltree.Folded:
		if f.Lines.Line(sel.Start) == f.Lines.Line(n.R.Start) {
			return Fix{}, false // the header line
		}
	default:
		if sel.Start == n.R.Start {
			return Fix{}, false // a plain value may not start with `{{`
		}
	}
	selected := string(f.Text[sel.Start:sel.End])
	if strings.ContainsAny(selected, "{}\"'\\") {
		return Fix{}, false
	}
	name := f.paramNameFor(selected)
	add, ok := f.addParameterEdit(name)
	if !ok {
		return Fix{}, false
	}
	// make the new entry optional with the selection as its default
	add.New = strings.Replace(add.New, "requirement: required", "requirement: optional", 1)
	dash := strings.Index(add.New, "- key: ")
	indent := add.New[strings.LastIndex(add.New[:dash], "\n")+1 : dash]
	add.New = strings.Replace(add.New, "  description: Describe "+name, "  default: \""+selected+"\""+f.newline()+indent+"  description: Describe "+name, 1)
	return Fix{Title: "Extract into parameter " + name, Edits: []Edit{{R: sel, New: "{{ " + name + " }}"}, add}}, true
}
