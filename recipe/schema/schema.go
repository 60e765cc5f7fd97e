// Package schema embeds the recipe JSON Schema (field names, types and docs live only there), compiles it
// with santhosh-tekuri/jsonschema and exposes its structure for validation, completion and hover.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

//go:embed recipe.schema.json
var raw []byte

// JSON returns the schema document as published (for `goose-ls schema` and yaml-language-server).
func JSON() []byte { return raw }

const resourceURL = "file:///goose-recipe.schema.json"

// Field describes one property of an object in the schema.
type Field struct {
	Name        string
	Description string
	Enum        []string
	EnumDocs    map[string]string
	Required    bool
	Def         string // definition the field's value refers to, if an object
	// Text marks string fields that serde fills from any plain scalar (title: 12345 is "12345").
	Text bool
}

// Object is an object type of the schema (recipe, parameter, extension, ...).
type Object struct {
	Name        string
	Description string
	Fields      []*Field
	byName      map[string]*Field
	// FieldsByType lists the fields valid for each extension `type`.
	FieldsByType map[string][]string
}

// Field returns the named field, or nil.
func (o *Object) Field(name string) *Field { return o.byName[name] }

// Names lists the object's field names in schema order.
func (o *Object) Names() []string {
	out := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		out[i] = f.Name
	}
	return out
}

// Schema is the compiled schema plus its structure.
type Schema struct {
	compiled *jsonschema.Schema
	// rootOnly and byProperty split validation at the top level (split.go).
	rootOnly   *jsonschema.Schema
	byProperty map[string]*jsonschema.Schema
	byItems    map[string]*jsonschema.Schema
	doc        map[string]any
	Objects    map[string]*Object // by x-name: recipe, parameter, extension, settings, ...
	// RequiredByType lists the required extension fields for each extension `type`.
	RequiredByType map[string][]string
}

// stripDiscriminator removes the extension definition's allOf from doc (a decoded copy of the schema
// text, changed in place) and returns the compact text and what the allOf required per type.
func stripDiscriminator(doc map[string]any) ([]byte, map[string][]string, error) {
	defs, _ := doc["definitions"].(map[string]any)
	ext, _ := defs["extension"].(map[string]any)
	out := map[string][]string{}
	all, _ := ext["allOf"].([]any)
	for _, branch := range all {
		b, _ := branch.(map[string]any)
		typ := fmt.Sprint(b["if"].(map[string]any)["properties"].(map[string]any)["type"].(map[string]any)["const"])
		for _, r := range b["then"].(map[string]any)["required"].([]any) {
			out[typ] = append(out[typ], fmt.Sprint(r))
		}
	}
	delete(ext, "allOf")
	leaves := map[string]bool{}
	for name, d := range defs {
		if m, ok := d.(map[string]any); ok && isLeaf(m) {
			leaves[name] = true
		}
	}
	inlineLeafRefs(doc, defs, leaves)
	compact, err := json.Marshal(doc)
	return compact, out, err
}

// copyJSON is a deep copy of a decoded JSON value (maps and slices copied, scalars shared): the compiled
// copy is changed in place while the published one stays for the field index. Cheaper than decoding the
// text again (every process compiles the schema once).
func copyJSON(v any) any {
	switch n := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(n))
		for k, e := range n {
			m[k] = copyJSON(e)
		}
		return m
	case []any:
		l := make([]any, len(n))
		for i, e := range n {
			l[i] = copyJSON(e)
		}
		return l
	}
	return v
}

// inlineLeafRefs replaces references to definitions that hold no further references (text, string,
// stringList, ...) by their content, and drops annotations: each $ref hop costs jsonschema an allocation-
// heavy scope change on every value it validates.
func inlineLeafRefs(node any, defs map[string]any, leaves map[string]bool) {
	switch n := node.(type) {
	case map[string]any:
		if ref, ok := n["$ref"].(string); ok && strings.HasPrefix(ref, "#/definitions/") {
			name := strings.TrimPrefix(ref, "#/definitions/")
			if d, ok := defs[name].(map[string]any); ok && leaves[name] {
				delete(n, "$ref")
				for k, v := range d {
					n[k] = v
				}
			}
		}
		for k, v := range n {
			if k == "description" || k == "title" || strings.HasPrefix(k, "x-") {
				if _, isStr := v.(string); isStr || strings.HasPrefix(k, "x-") {
					delete(n, k)
					continue
				}
			}
			inlineLeafRefs(v, defs, leaves)
		}
	case []any:
		for _, v := range n {
			inlineLeafRefs(v, defs, leaves)
		}
	}
}

func isLeaf(def map[string]any) bool { return !mentionsRef(def) && def["x-name"] == nil }

// mentionsRef reports a "$ref" key or string anywhere in v (what the JSON text's `"$ref"` would show).
func mentionsRef(v any) bool {
	switch n := v.(type) {
	case map[string]any:
		for k, e := range n {
			if k == "$ref" || mentionsRef(e) {
				return true
			}
		}
	case []any:
		for _, e := range n {
			if mentionsRef(e) {
				return true
			}
		}
	case string:
		return n == "$ref"
	}
	return false
}

var (
	once   sync.Once
	loaded *Schema
	errLd  error
)

// Load compiles the embedded schema once.
func Load() (*Schema, error) {
	once.Do(func() { loaded, errLd = load() })
	return loaded, errLd
}

// MustLoad is Load for callers that cannot proceed without the schema (it is embedded and tested).
func MustLoad() *Schema {
	s, err := Load()
	if err != nil {
		panic(err)
	}
	return s
}

// newCompiler compiles the embedded schema as draft-07 without validating it against the draft's
// meta-schema on every start (TestEmbeddedSchemaIsValidDraft7 does that once).
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	return c
}

func load() (*Schema, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	// The published schema discriminates extensions with allOf/if/then (for yaml-language-server); the
	// compiled copy drops those branches, and RequiredByType checks them without jsonschema building an
	// error for every failed `if`, which made validation several times slower.
	work := copyJSON(doc).(map[string]any)
	compact, requiredByType, err := stripDiscriminator(work)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c := newCompiler()
	if err := c.AddResource(resourceURL, bytes.NewReader(compact)); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	compiled, err := c.Compile(resourceURL)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	rootOnly, byProperty, byItems, err := compileSplit(c, work)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s := &Schema{compiled: compiled, rootOnly: rootOnly, byProperty: byProperty, byItems: byItems, doc: doc, Objects: map[string]*Object{},
		RequiredByType: requiredByType}
	order := keyOrder(raw)
	s.indexObject(doc, order, "/properties")
	defs, _ := doc["definitions"].(map[string]any)
	for name, d := range defs {
		if m, ok := d.(map[string]any); ok {
			s.indexObject(m, order, "/definitions/"+name+"/properties")
		}
	}
	return s, nil
}

func (s *Schema) resolve(m map[string]any) (map[string]any, string) {
	ref, _ := m["$ref"].(string)
	if !strings.HasPrefix(ref, "#/definitions/") {
		return m, ""
	}
	name := strings.TrimPrefix(ref, "#/definitions/")
	defs, _ := s.doc["definitions"].(map[string]any)
	d, _ := defs[name].(map[string]any)
	return d, name
}

// indexObject indexes the object schema m (found at JSON pointer ptr/.. of the schema text) when it has an
// x-name; order is the schema text's key order by pointer, read once per load.
func (s *Schema) indexObject(m map[string]any, order map[string][]string, ptr string) {
	name, _ := m["x-name"].(string)
	if name == "" {
		return
	}
	o := &Object{Name: name, byName: map[string]*Field{}}
	o.Description, _ = m["description"].(string)
	required := map[string]bool{}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			required[fmt.Sprint(r)] = true
		}
	}
	props, _ := m["properties"].(map[string]any)
	for _, pname := range propertyOrder(order[ptr], props) {
		pm, _ := props[pname].(map[string]any)
		f := &Field{Name: pname, Required: required[pname]}
		f.Description, _ = pm["description"].(string)
		target, def := s.resolve(pm)
		f.Text = def == "text"
		if f.Description == "" && target != nil {
			f.Description, _ = target["description"].(string)
		}
		if target != nil {
			if _, isObj := target["x-name"]; isObj {
				f.Def, _ = target["x-name"].(string)
			}
		}
		if items, ok := pm["items"].(map[string]any); ok {
			if it, _ := s.resolve(items); it != nil {
				if n, ok := it["x-name"].(string); ok {
					f.Def = n
				}
			}
		}
		_ = def
		if enum, ok := pm["enum"].([]any); ok {
			for _, e := range enum {
				f.Enum = append(f.Enum, fmt.Sprint(e))
			}
		}
		if docs, ok := pm["x-enum-docs"].(map[string]any); ok {
			f.EnumDocs = map[string]string{}
			for k, v := range docs {
				f.EnumDocs[k] = fmt.Sprint(v)
			}
		}
		o.Fields = append(o.Fields, f)
		o.byName[pname] = f
	}
	if fbt, ok := m["x-fields-by-type"].(map[string]any); ok {
		o.FieldsByType = map[string][]string{}
		for k, v := range fbt {
			for _, n := range v.([]any) {
				o.FieldsByType[k] = append(o.FieldsByType[k], fmt.Sprint(n))
			}
		}
	}
	s.Objects[name] = o
}

// propertyOrder returns an object's property names in schema-text order (keys, when it lists every one of
// them; Go maps lose the order, and completion lists fields in the order the schema gives them), else sorted.
func propertyOrder(keys []string, props map[string]any) []string {
	if len(keys) == len(props) {
		return keys
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Violation is one leaf schema error.
type Violation struct {
	// Pointer is the JSON pointer of the offending instance value, split into tokens.
	Pointer []string
	// Keyword is the failing keyword: required, type, enum, minimum, ...
	Keyword string
	// Missing lists the absent properties for `required`.
	Missing []string
	// Expected is the expected type in serde's words ("a string", "u64", ...), for `type`.
	Expected string
	// Enum lists the allowed values, for `enum`.
	Enum []string
	Msg  string
}

// Validate checks an instance (built from YAML: map[string]any, []any, string, json.Number, bool, nil).
func (s *Schema) Validate(instance any) []Violation {
	return s.violations(s.compiled.Validate(instance), nil)
}

func (s *Schema) collect(ve *jsonschema.ValidationError, out *[]Violation) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			s.collect(c, out)
		}
		return
	}
	v := Violation{Pointer: splitPointer(ve.InstanceLocation), Msg: ve.Message}
	kw := ve.KeywordLocation
	if i := strings.LastIndex(kw, "/"); i >= 0 {
		v.Keyword = kw[i+1:]
	}
	abs := ve.AbsoluteKeywordLocation
	frag := ""
	if i := strings.Index(abs, "#"); i >= 0 {
		frag = abs[i+1:]
	}
	parent := s.lookup(strings.TrimSuffix(frag, "/"+v.Keyword))
	switch v.Keyword {
	case "required":
		for _, part := range strings.Split(strings.TrimPrefix(ve.Message, "missing properties: "), ",") {
			part = strings.Trim(strings.TrimSpace(part), "'")
			if part != "" {
				v.Missing = append(v.Missing, part)
			}
		}
	case "type":
		if parent != nil {
			v.Expected, _ = parent["x-expected"].(string)
		}
		if v.Expected == "" {
			v.Expected = "a " + strings.TrimPrefix(ve.Message, "expected ")
		}
	case "enum":
		if parent != nil {
			if enum, ok := parent["enum"].([]any); ok {
				for _, e := range enum {
					v.Enum = append(v.Enum, fmt.Sprint(e))
				}
			}
		}
	case "minimum":
		if parent != nil {
			v.Expected, _ = parent["x-expected"].(string)
		}
	}
	*out = append(*out, v)
}

// lookup resolves a JSON pointer fragment inside the schema document.
func (s *Schema) lookup(ptr string) map[string]any {
	var cur any = s.doc
	for _, tok := range splitPointer(ptr) {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

func splitPointer(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	parts := strings.Split(p, "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts
}
