// Package schema embeds the recipe JSON Schema (field names, types and docs live only there), compiles it
// with santhosh-tekuri/jsonschema and exposes its structure for validation, completion and hover.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
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
	doc      map[string]any
	Objects  map[string]*Object // by x-name: recipe, parameter, extension, settings, ...
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

func load() (*Schema, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	if err := c.AddResource(resourceURL, bytes.NewReader(raw)); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	compiled, err := c.Compile(resourceURL)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s := &Schema{compiled: compiled, doc: doc, Objects: map[string]*Object{}}
	s.indexObject(doc)
	defs, _ := doc["definitions"].(map[string]any)
	for _, d := range defs {
		if m, ok := d.(map[string]any); ok {
			s.indexObject(m)
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

func (s *Schema) indexObject(m map[string]any) {
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
	order := propertyOrder(raw, name, props)
	for _, pname := range order {
		pm, _ := props[pname].(map[string]any)
		f := &Field{Name: pname, Required: required[pname]}
		f.Description, _ = pm["description"].(string)
		target, def := s.resolve(pm)
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

// propertyOrder returns property names in the order they appear in the schema text (maps lose it).
func propertyOrder(text []byte, _ string, props map[string]any) []string {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	pos := map[string]int{}
	for _, n := range names {
		pos[n] = bytes.Index(text, []byte(`"`+n+`":`))
	}
	sort.SliceStable(names, func(i, j int) bool { return pos[names[i]] < pos[names[j]] })
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
	err := s.compiled.Validate(instance)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Keyword: "error", Msg: err.Error()}}
	}
	var out []Violation
	s.collect(ve, &out)
	return out
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
