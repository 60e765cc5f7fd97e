// A parsed template and its analysis hold no string that points into the source text (the lexer copies
// identifiers and literals), so a template re-used across edits does not keep an old text alive.

package template

import (
	"reflect"
	"testing"
	"unsafe"
)

// stringsInto lists the strings reachable from v (Source and Name fields aside) whose bytes lie inside src.
func stringsInto(v reflect.Value, src string, seen map[uintptr]bool, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if len(s) == 0 {
			return
		}
		base, p := uintptr(unsafe.Pointer(unsafe.StringData(src))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
		if p >= base && p < base+uintptr(len(src)) {
			*out = append(*out, s)
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			if seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
		}
		stringsInto(v.Elem(), src, seen, out)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.Name == "Source" && v.Type() == reflect.TypeFor[Template]() {
				continue
			}
			stringsInto(v.Field(i), src, seen, out)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			stringsInto(v.Index(i), src, seen, out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			stringsInto(k, src, seen, out)
			stringsInto(v.MapIndex(k), src, seen, out)
		}
	}
}

func TestParsedTemplateOwnsItsStrings(t *testing.T) {
	src := "Hello {{ user.name | upper }} and {{ items[0] }}.\n{% if mode == 'strict' %}{{ x | default(\"none\") }}{% endif %}\n" +
		"{% for item in list | split(',') %}{{ item | trim }}{% endfor %}{% set n = 0x1F %}{{ n + 1.5 }}\n"
	tpl, err := Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	stringsInto(reflect.ValueOf(tpl), src, map[uintptr]bool{}, &found)
	stringsInto(reflect.ValueOf(Analyze(tpl)), src, map[uintptr]bool{}, &found)
	if len(found) > 0 {
		t.Errorf("the template and its analysis point into the source text: %q", found)
	}
	// the walk does see strings inside the source (the test can fail)
	var self []string
	stringsInto(reflect.ValueOf(struct{ S string }{src[6:10]}), src, map[uintptr]bool{}, &self)
	if len(self) != 1 {
		t.Errorf("a substring of the source was not found: %q", self)
	}
}
