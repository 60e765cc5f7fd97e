// Validation split at the document's top level: the root's own keywords against the key names, each
// top-level property's value against its subschema, and the items of a list property (parameters,
// extensions, …) one by one, so a caller can keep the result of a property or an item whose value did
// not change (the language server re-checks a document on every keystroke, and an edit changes one item).

package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// rootOnlyURL is the resource holding the root schema with every property's subschema replaced by true.
const rootOnlyURL = "file:///goose-recipe.root-only.schema.json"

// compileSplit compiles the root-only schema and each top-level property's subschema. doc is the
// decoded schema the full schema was compiled from (its $id removed so both resources can coexist); it
// is only read.
func compileSplit(c *jsonschema.Compiler, doc map[string]any) (root *jsonschema.Schema, byName, byItems map[string]*jsonschema.Schema, err error) {
	props, _ := doc["properties"].(map[string]any)
	byName = make(map[string]*jsonschema.Schema, len(props))
	byItems = map[string]*jsonschema.Schema{}
	for name := range props {
		sub, err := c.Compile(resourceURL + "#/properties/" + escapePointer(name))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("property %s: %w", name, err)
		}
		byName[name] = sub
		if p, ok := props[name].(map[string]any); ok && onlyItems(p) {
			items, err := c.Compile(resourceURL + "#/properties/" + escapePointer(name) + "/items")
			if err != nil {
				return nil, nil, nil, fmt.Errorf("property %s: %w", name, err)
			}
			byItems[name] = items
		}
	}
	rootOnly := map[string]any{}
	for k, v := range doc {
		switch k {
		case "$id", "definitions":
		case "properties":
			open := make(map[string]any, len(props))
			for name := range props {
				open[name] = true
			}
			rootOnly[k] = open
		default:
			rootOnly[k] = v
		}
	}
	text, err := json.Marshal(rootOnly)
	if err != nil {
		return nil, nil, nil, err
	}
	rc := newCompiler()
	if err := rc.AddResource(rootOnlyURL, bytes.NewReader(text)); err != nil {
		return nil, nil, nil, err
	}
	root, err = rc.Compile(rootOnlyURL)
	return root, byName, byItems, err
}

// onlyItems reports that a property's subschema checks of an array nothing but its type and its items
// (keywords that relate items, such as uniqueItems, would need the whole array).
func onlyItems(p map[string]any) bool {
	if _, ok := p["items"].(map[string]any); !ok {
		return false
	}
	for k := range p {
		switch k {
		case "type", "items", "description", "title", "x-expected":
		default:
			return false
		}
	}
	return true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// HasProperty reports whether the schema describes the top-level property name.
func (s *Schema) HasProperty(name string) bool { return s.byProperty[name] != nil }

// ValidateRoot checks the root's own keywords (type, required, ...) for a document with these top-level
// keys; ValidateProperty checks what lies below. Together they report what Validate reports.
func (s *Schema) ValidateRoot(keys []string) []Violation {
	m := make(map[string]any, len(keys))
	for _, k := range keys {
		m[k] = nil
	}
	return s.violations(s.rootOnly.Validate(m), nil)
}

// ValidateProperty checks the value of the top-level property name (HasProperty must hold); pointers in
// the result start with name.
func (s *Schema) ValidateProperty(name string, value any) []Violation {
	return s.violations(s.byProperty[name].Validate(value), []string{name})
}

// HasItems reports whether the items of the top-level property name can be validated one by one: when
// its value is a sequence, ValidateItem on each item reports what ValidateProperty reports.
func (s *Schema) HasItems(name string) bool { return s.byItems[name] != nil }

// ValidateItem checks one item of the sequence value of the top-level property name (HasItems must
// hold); pointers in the result start inside the item.
func (s *Schema) ValidateItem(name string, item any) []Violation {
	return s.violations(s.byItems[name].Validate(item), nil)
}

// violations turns a validation error into leaf violations whose pointers start with prefix.
func (s *Schema) violations(err error, prefix []string) []Violation {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Keyword: "error", Msg: err.Error()}}
	}
	var out []Violation
	s.collect(ve, &out)
	if len(prefix) > 0 {
		for i := range out {
			out[i].Pointer = append(prefix[:len(prefix):len(prefix)], out[i].Pointer...)
		}
	}
	return out
}
