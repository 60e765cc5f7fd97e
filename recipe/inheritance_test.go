// usesInheritance answers what the regexp it replaces answered.

package recipe

import (
	"regexp"
	"testing"
)

var inheritanceRE = regexp.MustCompile(`\{%-?\s*(extends|include)`)

func TestUsesInheritanceMatchesRegexp(t *testing.T) {
	cases := []string{
		"", "{%", "{% extends 'a' %}", "{%- include 'a' %}", "{%-\n\t include", "{%  -include", "{%%extends",
		"{% if x %}{% endif %}", "text {% raw %}{% extends %}", "{%- -extends", "{%\fextends", "{%\vextends",
		"{ % extends", "{%extend", "{%includes", "a {% if %} b {%include", "{%{%extends", "{%-", "{%- ",
		"extends include", "{# {% extends #}", "{{ '{%' }} extends",
	}
	for _, c := range cases {
		if got, want := usesInheritance(c), inheritanceRE.MatchString(c); got != want {
			t.Errorf("usesInheritance(%q) = %v, the regexp says %v", c, got, want)
		}
	}
}

func FuzzUsesInheritance(f *testing.F) {
	f.Add("{%- include 'a' %}")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := usesInheritance(s), inheritanceRE.MatchString(s); got != want {
			t.Errorf("usesInheritance(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}
