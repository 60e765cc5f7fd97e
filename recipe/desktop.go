// Desktop compatibility hints: goose Desktop's recipe form (ui/desktop recipeFormSchema.ts) is stricter than
// the CLI, so a recipe that runs with `goose run` can fail to open or save in Desktop; say why, as hints.

package recipe

import (
	"fmt"
	"unicode/utf16"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// jsLength is a string's length as JavaScript (and so zod's min/max) counts it: UTF-16 code units,
// counted without converting the string (the instructions of a large recipe are measured on every check).
func jsLength(s string) int {
	n := 0
	for _, r := range s { // a string's runes are never surrogates: RuneLen is 1 or 2
		n += utf16.RuneLen(r)
	}
	return n
}

// desktopHint adds a CodeDesktopForm hint saying what Desktop's form would say.
func (f *File) desktopHint(r Range, format string, args ...any) {
	f.add(Diagnostic{R: r, Severity: SeverityHint, Code: CodeDesktopForm,
		Message: "goose Desktop: " + fmt.Sprintf(format, args...) + " (the CLI accepts it; Desktop's recipe form does not)"})
}

// checkDesktop reports what Desktop's recipe form refuses and the CLI accepts: title of 3–100 characters,
// description of 10–500, instructions present and at least 20 characters, parameter keys and descriptions
// not empty, and only Desktop's input types.
func (f *File) checkDesktop() {
	r := f.Recipe
	f.desktopLength(r.Title, "title", "Title", 3, 100)
	f.desktopLength(r.Description, "description", "Description", 10, 500)
	switch text, ok := scalarText(r.Instructions); {
	case r.Instructions == nil || r.Instructions.IsNull() || (ok && text == ""):
		rng := f.holderRange(nil)
		if p := f.Tree.Pair("instructions"); p != nil {
			rng = p.Key.R
		} else if p := f.Tree.Pair("prompt"); p != nil {
			rng = p.Key.R
		}
		f.desktopHint(rng, "Instructions are required")
	case ok && jsLength(text) < 20:
		f.desktopHint(r.Instructions.R, "Instructions must be at least 20 characters")
	}
	for _, p := range r.Parameters {
		if p.KeyNode != nil && p.KeyNode.Kind == yamltree.Scalar && p.Key == "" {
			f.desktopHint(p.KeyNode.R, "Parameter key is required")
		}
		if d := p.Node.Get("description"); d != nil && d.Kind == yamltree.Scalar && p.Description == "" {
			f.desktopHint(d.R, "Parameter description is required")
		}
		if p.InputType == "object" || p.InputType == "array" {
			f.desktopHint(p.Node.Get("input_type").R, "input_type %s is not one of string, number, boolean, date, file, select", p.InputType)
		}
	}
}

// desktopLength checks a required string field's length against Desktop's bounds.
func (f *File) desktopLength(n *Node, key, label string, min, max int) {
	text, ok := scalarText(n)
	if n == nil || (!ok && !n.IsNull()) {
		return // missing or not a string: the schema check reports it
	}
	length := jsLength(text)
	rng := n.R
	if n.IsNull() || rng.Start == rng.End {
		if p := f.Tree.Pair(key); p != nil {
			rng = p.Key.R
		}
	}
	switch {
	case length == 0:
		f.desktopHint(rng, "%s is required", label)
	case length < min:
		f.desktopHint(rng, "%s must be at least %d characters", label, min)
	case length > max:
		f.desktopHint(rng, "%s must be %d characters or less", label, max)
	}
}
