// LoadTimeAdditions: goose 1.38's analyze-for-developer and summon-for-sub-recipes rules (§1), case by case.

package library

import (
	"strings"
	"testing"
)

func TestLoadTimeAdditions(t *testing.T) {
	head := "title: t\ndescription: d\nprompt: p\n"
	cases := []struct {
		name string
		src  string
		want string // extension names after loading, "-" for no extensions key
	}{
		{"nothing", "", "-"},
		{"builtin developer gets analyze", "extensions:\n- {type: builtin, name: developer}\n", "developer analyze"},
		{"platform developer does not count", "extensions:\n- {type: platform, name: developer}\n", "developer"},
		{"stdio named developer does not count", "extensions:\n- {type: stdio, name: developer, cmd: x, args: []}\n", "developer"},
		{"case-sensitive name", "extensions:\n- {type: builtin, name: Developer}\n", "Developer"},
		{"analyze already there (any type)", "extensions:\n- {type: builtin, name: developer}\n- {type: stdio, name: analyze, cmd: a, args: []}\n", "developer analyze"},
		{"sub_recipes without extensions: summon only", "sub_recipes: []\n", "summon"},
		{"sub_recipes with extensions: appended", "sub_recipes: []\nextensions:\n- {type: builtin, name: memory}\n", "memory summon"},
		{"summon already there", "sub_recipes: []\nextensions:\n- {type: builtin, name: summon}\n", "summon"},
		{"both, analyze first", "sub_recipes: []\nextensions:\n- {type: builtin, name: developer}\n", "developer analyze summon"},
		{"null sub_recipes is absent", "sub_recipes: null\n", "-"},
		{"empty extensions list stays a list", "extensions: []\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Parse([]byte(head + c.src))
			if err != nil {
				t.Fatal(err)
			}
			got := "-"
			if r.Extensions != nil {
				var names []string
				for _, e := range r.Extensions {
					names = append(names, e.Name)
				}
				got = strings.Join(names, " ")
			}
			if got != c.want {
				t.Errorf("extensions = %q, want %q", got, c.want)
			}
		})
	}
	r, _ := Parse([]byte(head + "sub_recipes: []\n"))
	want := `"extensions":[{"type":"platform","name":"summon","description":"","display_name":null,"bundled":null,"available_tools":[]}]`
	if !strings.Contains(r.JSON(), want) {
		t.Errorf("summon entry serialized as\n%s\nwant it to contain\n%s", r.JSON(), want)
	}
}
