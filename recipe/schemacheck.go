// Schema validation: the YAML tree becomes a JSON instance, and each schema error becomes a diagnostic
// at the offending node with serde's wording and path.

package recipe

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/schema"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// instance converts a node to the value jsonschema validates.
func instance(n *Node) any {
	switch n.Kind {
	case yamltree.Map:
		m := make(map[string]any, len(n.Pairs))
		for _, p := range n.Pairs {
			if _, dup := m[p.Key.Value]; dup {
				continue
			}
			m[p.Key.Value] = instance(p.Value)
		}
		return m
	case yamltree.Seq:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = instance(it)
		}
		return s
	}
	switch n.Type {
	case yamltree.Null:
		return nil
	case yamltree.Bool:
		return strings.EqualFold(n.Value, "true")
	case yamltree.Int:
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return json.Number(strconv.FormatInt(v, 10))
		}
		if strings.HasPrefix(n.Value, "0o") {
			if v, err := strconv.ParseInt(n.Value[2:], 8, 64); err == nil {
				return json.Number(strconv.FormatInt(v, 10))
			}
		}
		return json.Number(strings.TrimPrefix(n.Value, "+"))
	case yamltree.Float:
		v := strings.ToLower(strings.TrimPrefix(n.Value, "+"))
		switch v {
		case ".inf":
			return math.MaxFloat64
		case "-.inf":
			return -math.MaxFloat64
		case ".nan":
			return 0.0
		}
		if strings.HasPrefix(v, ".") || strings.HasPrefix(v, "-.") {
			v = strings.Replace(v, ".", "0.", 1)
		}
		if strings.HasSuffix(v, ".") {
			v += "0"
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return json.Number(v)
		}
		return 0.0
	}
	return n.Value
}

// nodeAt follows JSON pointer tokens from root.
func nodeAt(root *Node, ptr []string) *Node {
	n := root
	for _, tok := range ptr {
		switch {
		case n == nil:
			return nil
		case n.Kind == yamltree.Map:
			n = n.Get(tok)
		case n.Kind == yamltree.Seq:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
	}
	return n
}

// serdePath renders pointer tokens the way serde_yaml prefixes errors: parameters[0].input_type. Paths
// stop inside internally tagged enums (extensions, retry checks), whose content serde buffers.
func serdePath(ptr []string) string {
	var b strings.Builder
	for i, tok := range ptr {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			if i > 0 && (ptr[i-1] == "extensions" || ptr[i-1] == "checks") {
				return b.String()
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func (f *File) prefix(ptr []string) string {
	if f.Wrapper {
		return ""
	}
	if p := serdePath(ptr); p != "" {
		return p + ": "
	}
	return ""
}

// holderRange is where a problem with a whole object goes: a list entry's first line, or the key that
// holds the object, or the document's first key.
func (f *File) holderRange(ptr []string) Range {
	n := nodeAt(f.Tree, ptr)
	if len(ptr) == 0 {
		if n != nil && len(n.Pairs) > 0 {
			return n.Pairs[0].Key.R
		}
		return Range{}
	}
	parent := nodeAt(f.Tree, ptr[:len(ptr)-1])
	if parent != nil && parent.Kind == yamltree.Map {
		if p := parent.Pair(ptr[len(ptr)-1]); p != nil {
			return p.Key.R
		}
	}
	return entryRange(n)
}

func (f *File) checkSchema() {
	sc := schemaObjects()
	f.checkDuplicateKeys(f.Tree, nil)
	for _, v := range schemaViolations(sc, f.Tree, f.cache.schemaCache()) {
		f.violation(v)
	}
	if f.Wrapper {
		f.checkWrapperScalars(sc)
	}
	// required fields per extension type (the schema's if/then, checked here for speed)
	if exts := f.Tree.Get("extensions"); exts != nil && exts.Kind == yamltree.Seq {
		for i, e := range exts.Items {
			if e.Kind != yamltree.Map {
				continue
			}
			typ, _ := scalarText(e.Get("type"))
			var missing []string
			for _, field := range sc.RequiredByType[typ] {
				if e.Get(field) == nil {
					missing = append(missing, field)
				}
			}
			if len(missing) > 0 {
				f.violation(schema.Violation{Pointer: []string{"extensions", strconv.Itoa(i)}, Keyword: "required", Missing: missing})
			}
		}
	}
}

func (f *File) violation(v schema.Violation) {
	n := nodeAt(f.Tree, v.Pointer)
	pre := f.prefix(v.Pointer)
	switch v.Keyword {
	case "required":
		for _, m := range v.Missing {
			d := Diagnostic{R: f.holderRange(v.Pointer), Severity: SeverityError, Code: CodeMissingField,
				Message: fmt.Sprintf("%smissing field `%s`", pre, m), Data: map[string]string{"field": m}}
			f.add(d)
		}
	case "type":
		if n == nil {
			return
		}
		msg := fmt.Sprintf("%sinvalid type: %s, expected %s", pre, n.Describe(), v.Expected)
		if n.Kind == yamltree.Map && startsWithTemplate(f.Text, n.R.Start) {
			msg += " (a value that starts with `{{` is read by YAML as a map: quote it)"
		}
		f.add(Diagnostic{R: n.R, Severity: SeverityError, Code: CodeInvalidType, Message: msg})
	case "enum":
		if n == nil {
			return
		}
		quoted := make([]string, len(v.Enum))
		for i, e := range v.Enum {
			quoted[i] = "`" + e + "`"
		}
		d := Diagnostic{R: n.R, Severity: SeverityError, Code: CodeUnknownVariant,
			Message: fmt.Sprintf("%sunknown variant `%s`, expected one of %s", pre, n.Value, strings.Join(quoted, ", "))}
		if s := closest(n.Value, v.Enum); s != "" {
			d.Message += fmt.Sprintf(" (did you mean `%s`?)", s)
			d.Data = map[string]string{"suggestion": s}
		}
		f.add(d)
	case "minimum":
		if n == nil {
			return
		}
		f.add(Diagnostic{R: n.R, Severity: SeverityError, Code: CodeInvalidType,
			Message: fmt.Sprintf("%sinvalid value: %s, expected %s", pre, n.Describe(), v.Expected)})
	default:
		r := Range{}
		if n != nil {
			r = n.R
		}
		f.add(Diagnostic{R: r, Severity: SeverityError, Code: CodeInvalidType, Message: pre + v.Msg})
	}
}

func startsWithTemplate(text []byte, off int) bool {
	return off+1 < len(text) && text[off] == '{' && text[off+1] == '{'
}

// checkDuplicateKeys reports a key written twice in one mapping (serde refuses duplicate fields). It
// runs on every check over the whole tree: ptr's backing array is shared by siblings (nothing keeps it:
// prefix builds a string), and small mappings are searched without a map.
func (f *File) checkDuplicateKeys(n *Node, ptr []string) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yamltree.Map:
		var seen map[string]*yamltree.Pair
		if len(n.Pairs) > 8 {
			seen = make(map[string]*yamltree.Pair, len(n.Pairs))
		}
		for i, p := range n.Pairs {
			var first *yamltree.Pair
			if seen != nil {
				first = seen[p.Key.Value]
			} else {
				for _, q := range n.Pairs[:i] {
					if q.Key.Value == p.Key.Value {
						first = q
						break
					}
				}
			}
			if first != nil {
				f.add(Diagnostic{R: p.Key.R, Severity: SeverityError, Code: CodeDuplicateField,
					Message: fmt.Sprintf("%sduplicate field `%s`", f.prefix(ptr), p.Key.Value),
					Related: []Related{{R: first.Key.R, Message: "first defined here"}}})
				continue
			}
			if seen != nil {
				seen[p.Key.Value] = p
			}
			f.checkDuplicateKeys(p.Value, append(ptr, p.Key.Value))
		}
	case yamltree.Seq:
		for i, it := range n.Items {
			f.checkDuplicateKeys(it, append(ptr, strconv.Itoa(i)))
		}
	}
}

// checkWrapperScalars applies the Desktop wrapper's stricter reading: inside `recipe:` goose deserialises
// from a YAML value, so a number or boolean where a string belongs is an error there (it is accepted in a
// plain file).
func (f *File) checkWrapperScalars(sc *schema.Schema) {
	check := func(n *Node, obj *schema.Object) {
		if n == nil || n.Kind != yamltree.Map || obj == nil {
			return
		}
		for _, p := range n.Pairs {
			fd := obj.Field(p.Key.Value)
			v := p.Value
			if fd == nil || !fd.Text || v.Kind != yamltree.Scalar || v.Style != yamltree.Plain {
				continue
			}
			if v.Type == yamltree.Int || v.Type == yamltree.Float || v.Type == yamltree.Bool {
				f.add(Diagnostic{R: v.R, Severity: SeverityError, Code: CodeInvalidType,
					Message: fmt.Sprintf("invalid type: %s, expected a string (inside the Desktop `recipe:` wrapper goose does not convert plain scalars; quote it)", v.Describe())})
			}
		}
	}
	check(f.Tree, sc.Objects["recipe"])
	for _, name := range []string{"settings", "author", "retry"} {
		check(f.Tree.Get(name), sc.Objects[name])
	}
	for _, p := range f.Recipe.Parameters {
		check(p.Node, sc.Objects["parameter"])
	}
	for _, s := range f.Recipe.SubRecipes {
		check(s.Node, sc.Objects["sub_recipe"])
	}
}
