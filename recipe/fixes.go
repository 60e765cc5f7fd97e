// Quick fixes: each diagnostic that has an obvious repair gets an edit computed here, with the
// indentation of the surrounding YAML.

package recipe

import (
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Edit replaces a byte range with new text.
type Edit struct {
	R   Range
	New string
}

// Fix is a titled set of edits that repairs one diagnostic.
type Fix struct {
	Title     string
	Edits     []Edit
	Preferred bool
}

// Fixes returns the quick fixes for a diagnostic of f.
func (f *File) Fixes(d Diagnostic) []Fix {
	switch d.Code {
	case CodeParamUndefined:
		name := d.Data["name"]
		if name == "" || strings.ContainsAny(name, ".") {
			return nil
		}
		if e, ok := f.addParameterEdit(name); ok {
			return []Fix{{Title: fmt.Sprintf("Add parameter %q", name), Edits: []Edit{e}, Preferred: true}}
		}
	case CodeParamUnused:
		if p := f.Recipe.Param(d.Data["param"]); p != nil {
			return []Fix{{Title: fmt.Sprintf("Remove parameter %q", p.Key), Edits: []Edit{f.removeLinesEdit(p.Node, true)}, Preferred: true}}
		}
	case CodeParamOptionalNoDefault:
		if p := f.Recipe.Param(d.Data["param"]); p != nil {
			if e, ok := f.addKeyEdit(p.Node, "default", `""`); ok {
				return []Fix{{Title: "Add a default", Edits: []Edit{e}, Preferred: true}}
			}
		}
	case CodeParamFileDefault:
		if p := f.Recipe.Param(d.Data["param"]); p != nil {
			if pr := p.Node.Pair("default"); pr != nil {
				return []Fix{{Title: "Remove the default of a file parameter", Edits: []Edit{f.removePairEdit(pr)}, Preferred: true}}
			}
		}
	case CodeSelectOptions:
		if p := f.Recipe.Param(d.Data["param"]); p != nil && p.Node.Pair("options") == nil {
			if e, ok := f.addKeyEdit(p.Node, "options", "[option1, option2]"); ok {
				return []Fix{{Title: "Add options", Edits: []Edit{e}}}
			}
		}
	case CodeUnknownVariant, CodeUnknownField, CodeSubrecipeUnknownValue:
		if s := d.Data["suggestion"]; s != "" {
			r := d.R
			if q := f.Text[r.Start]; r.End-r.Start >= 2 && (q == '"' || q == '\'') && f.Text[r.End-1] == q {
				r = Range{Start: r.Start + 1, End: r.End - 1} // keep the quotes
			}
			return []Fix{{Title: fmt.Sprintf("Change to %q", s), Edits: []Edit{{R: r, New: s}}, Preferred: true}}
		}
	case CodeInvalidType, CodeYAMLSyntax:
		if startsWithTemplate(f.Text, d.R.Start) {
			v := string(f.Text[d.R.Start:d.R.End])
			return []Fix{{Title: "Quote the value", Edits: []Edit{{R: d.R, New: "'" + strings.ReplaceAll(v, "'", "''") + "'"}}, Preferred: true}}
		}
	case CodeMissingField:
		return f.missingFieldFix(d)
	case CodeSubrecipeMissingValue:
		return f.missingValuesFix(d)
	}
	return nil
}

// missingValuesFix adds the sub-recipe's required parameters to its `values` (creating the map).
func (f *File) missingValuesFix(d Diagnostic) []Fix {
	missing := strings.Split(d.Data["missing"], ",")
	if f.Recipe == nil || len(missing) == 0 || missing[0] == "" {
		return nil
	}
	for _, s := range f.Recipe.SubRecipes {
		if s.Node.R.Start > d.R.Start || d.R.Start > s.Node.R.End {
			continue
		}
		nl := f.newline()
		if s.Values != nil && s.Values.Kind == yamltree.Map && !s.Values.Flow && len(s.Values.Pairs) > 0 {
			var edits []Edit
			for _, k := range missing {
				if e, ok := f.addKeyEdit(s.Values, k, `""`); ok {
					edits = append(edits, e)
				}
			}
			if len(edits) == 0 {
				return nil
			}
			// all insertions land at the same place: join them in order
			joined := edits[0]
			for _, e := range edits[1:] {
				joined.New += e.New
			}
			return []Fix{{Title: "Add values for " + strings.Join(missing, ", "), Edits: []Edit{joined}, Preferred: true}}
		}
		if s.Values != nil {
			return nil // a flow map or a scalar: leave it to the author
		}
		col := f.column(s.Node.Pairs[0].Key.R.Start)
		pad := strings.Repeat(" ", col)
		text := pad + "values:" + nl
		for _, k := range missing {
			text += pad + "  " + k + ": \"\"" + nl
		}
		last := s.Node.Pairs[len(s.Node.Pairs)-1]
		at := f.lineAfter(max(last.Value.R.End, last.Key.R.End))
		return []Fix{{Title: "Add values for " + strings.Join(missing, ", "), Edits: []Edit{{R: Range{Start: at, End: at}, New: text}}, Preferred: true}}
	}
	return nil
}

// lineIndent is the column of the first non-space character on off's line.
func (f *File) lineIndent(off int) int {
	l := f.Lines.Line(off)
	s := f.Lines.LineStart(l)
	i := s
	for i < len(f.Text) && f.Text[i] == ' ' {
		i++
	}
	return i - s
}

// column is off's byte column.
func (f *File) column(off int) int { return f.Lines.BytePos(off).Col }

// lineAfter is the offset just past the end of the line holding off (after its line break).
func (f *File) lineAfter(off int) int {
	l := f.Lines.Line(off)
	if l+1 < f.Lines.LineCount() {
		return f.Lines.LineStart(l + 1)
	}
	return len(f.Text)
}

func (f *File) newline() string {
	if strings.Contains(string(f.Text), "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// addParameterEdit appends a parameter entry to `parameters`, creating the list when there is none.
func (f *File) addParameterEdit(name string) (Edit, bool) {
	nl := f.newline()
	entry := func(col int) string {
		pad := strings.Repeat(" ", col)
		return pad + "- key: " + name + nl +
			pad + "  input_type: string" + nl +
			pad + "  requirement: required" + nl +
			pad + "  description: Describe " + name + nl
	}
	if f.Tree == nil {
		return Edit{}, false
	}
	if pr := f.Tree.Pair("parameters"); pr != nil {
		list := pr.Value
		if list.Kind == yamltree.Seq && !list.Flow && len(list.Items) > 0 {
			last := list.Items[len(list.Items)-1]
			col := f.column(list.R.Start)
			at := f.lineAfter(last.R.End)
			prefix := ""
			if at == len(f.Text) && !strings.HasSuffix(string(f.Text), "\n") {
				prefix = nl
			}
			return Edit{R: Range{Start: at, End: at}, New: prefix + entry(col)}, true
		}
		if list.IsNull() {
			at := f.lineAfter(pr.Key.R.End)
			return Edit{R: Range{Start: at, End: at}, New: entry(f.column(pr.Key.R.Start) + 2)}, true
		}
		return Edit{}, false
	}
	at := len(f.Text)
	prefix := ""
	if at > 0 && f.Text[at-1] != '\n' {
		prefix = nl
	}
	return Edit{R: Range{Start: at, End: at}, New: prefix + "parameters:" + nl + entry(2)}, true
}

// removeLinesEdit deletes the whole lines of a list entry (with its `- ` line when dash is set).
func (f *File) removeLinesEdit(n *Node, dash bool) Edit {
	start := f.Lines.LineStart(f.Lines.Line(n.R.Start))
	return Edit{R: Range{Start: start, End: f.lineAfter(n.R.End)}}
}

// removePairEdit deletes a `key: value` entry's lines.
func (f *File) removePairEdit(p *yamltree.Pair) Edit {
	start := f.Lines.LineStart(f.Lines.Line(p.Key.R.Start))
	end := f.lineAfter(max(p.Value.R.End, p.Key.R.End))
	// a key that shares its line with a list dash (`- default: x`) keeps the line: delete the pair only
	if f.column(p.Key.R.Start) != f.lineIndent(p.Key.R.Start) {
		return Edit{R: Range{Start: p.Key.R.Start, End: end}}
	}
	return Edit{R: Range{Start: start, End: end}}
}

// addKeyEdit adds `key: value` to a block mapping, after its last entry, at its keys' column.
func (f *File) addKeyEdit(m *Node, key, value string) (Edit, bool) {
	if m == nil || m.Kind != yamltree.Map || m.Flow || len(m.Pairs) == 0 {
		return Edit{}, false
	}
	last := m.Pairs[len(m.Pairs)-1]
	col := f.column(m.Pairs[0].Key.R.Start)
	if len(m.Pairs) > 1 {
		col = f.column(m.Pairs[1].Key.R.Start)
	}
	at := f.lineAfter(max(last.Value.R.End, last.Key.R.End))
	nl := f.newline()
	prefix := ""
	if at == len(f.Text) && len(f.Text) > 0 && f.Text[len(f.Text)-1] != '\n' {
		prefix = nl
	}
	return Edit{R: Range{Start: at, End: at}, New: prefix + strings.Repeat(" ", col) + key + ": " + value + nl}, true
}

// missingFieldFix adds a missing required field to the mapping the diagnostic sits on.
func (f *File) missingFieldFix(d Diagnostic) []Fix {
	field := d.Data["field"]
	if field == "" || f.Tree == nil {
		return nil
	}
	loc := f.Locate(d.R.Start)
	target := f.Tree
	if len(loc.Path) > 1 {
		target = nodeAtPath(f.Tree, loc.Path[:len(loc.Path)-1])
	}
	placeholder := `""`
	if field == "args" || field == "checks" {
		placeholder = "[]"
	}
	if e, ok := f.addKeyEdit(target, field, placeholder); ok {
		return []Fix{{Title: fmt.Sprintf("Add %q", field), Edits: []Edit{e}}}
	}
	return nil
}
