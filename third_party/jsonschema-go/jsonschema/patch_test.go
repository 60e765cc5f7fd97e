// goose-ls patch: the field tables and the tag expression, built on first use, serve as upstream's init did.
package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPatchLazyFieldTables(t *testing.T) {
	tables := schemaFields()
	if len(tables.infos) == 0 || len(tables.byName) == 0 {
		t.Fatal("no field tables")
	}
	for i := 1; i < len(tables.infos); i++ {
		if tables.infos[i-1].jsonName > tables.infos[i].jsonName {
			t.Fatalf("infos not sorted by JSON name at %s", tables.infos[i].jsonName)
		}
	}
	for _, name := range []string{"properties", "items", "$ref", "minLength", "dependencies"} {
		if _, ok := tables.byName[name]; !ok {
			t.Errorf("no field for %q", name)
		}
	}
	var s Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string","minLength":2}},"$defs":{"d":{"type":"integer"}}}`), &s); err != nil {
		t.Fatal(err)
	}
	sub, err := dereferenceJSONPointer(&s, "/properties/a")
	if err != nil || sub.Type != "string" {
		t.Fatalf("pointer /properties/a: %v, %v", sub, err)
	}
	if sub, err = dereferenceJSONPointer(&s, "/$defs/d"); err != nil || sub.Type != "integer" {
		t.Fatalf("pointer /$defs/d: %v, %v", sub, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(map[string]any{"a": "x"}); err == nil {
		t.Error("minLength 2 accepted \"x\"")
	}
	if err := rs.Validate(map[string]any{"a": "xy"}); err != nil {
		t.Error(err)
	}
	type tagged struct {
		A int `jsonschema:"WORD=x"`
	}
	if _, err := For[tagged](nil); err == nil || !strings.Contains(err.Error(), "=") {
		t.Errorf("a tag beginning WORD= was accepted: %v", err)
	}
}
