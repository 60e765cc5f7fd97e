// Top-level split validation reports exactly what whole-document validation reports, with and without
// the per-document cache, on every corpus recipe and on invalid documents; and the cache only serves a
// property whose value is unchanged.

package recipe

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func violationStrings(t *testing.T, root *Node, cache *schemaCache, whole bool) []string {
	t.Helper()
	sc := schemaObjects()
	vs := schemaViolations(sc, root, cache)
	if whole {
		vs = sc.Validate(instance(root))
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%q %s %v %s %v %s", v.Pointer, v.Keyword, v.Missing, v.Expected, v.Enum, v.Msg)
	}
	slices.Sort(out)
	return out
}

var invalidSchemaDocs = []string{
	"title: t\n",
	"description: d\nparameters: 3\n",
	"title: t\ndescription: d\nparameters:\n  - key: a\n    input_type: strin\n    requirement: maybe\n",
	"title: t\ndescription: d\nsettings:\n  temperature: hot\n  max_turns: -1\nretry:\n  checks: []\n",
	"title: t\ndescription: d\nextensions:\n  - type: stdio\n    name: x\n    timeout: soon\n  - 3\n",
	"title: [1]\ndescription: {a: b}\nunknown: 1\nsub_recipes:\n  - name: a\n",
	"title: t\ntitle: u\ndescription: d\n",
	"- a\n- b\n",
	"just text\n",
}

func TestSplitValidationMatchesWhole(t *testing.T) {
	var docs []string
	docs = append(docs, invalidSchemaDocs...)
	root := filepath.Join("..", "..", "shared", "corpus", "recipes")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			docs = append(docs, string(data))
		}
		return err
	})
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	if len(docs) < 100 {
		t.Fatalf("only %d documents", len(docs))
	}
	checked, withViolations := 0, 0
	for i, src := range docs {
		f := Check(fmt.Sprintf("/doc%d.yaml", i), []byte(src), &Options{NoSubRecipes: true})
		if f.Tree == nil {
			continue
		}
		checked++
		want := violationStrings(t, f.Tree, nil, true)
		if len(want) > 0 {
			withViolations++
		}
		cache := &schemaCache{}
		for pass, c := range []*schemaCache{nil, cache, cache} { // uncached, filling, served
			if diff := cmp.Diff(want, violationStrings(t, f.Tree, c, false)); diff != "" {
				t.Errorf("doc %d pass %d: split validation differs (-whole +split):\n%s", i, pass, diff)
			}
		}
	}
	if checked < 100 || withViolations < 6 {
		t.Errorf("only %d documents had a tree, %d with violations", checked, withViolations)
	}
}

// cachedNames lists the top-level properties whose values the cache holds.
func cachedNames(c *schemaCache) map[string]bool {
	names := map[string]bool{}
	for k := range c.entries {
		if !k.item {
			names[k.name] = true
		}
	}
	return names
}

func TestSchemaCacheServesOnlyUnchangedValues(t *testing.T) {
	cache := &schemaCache{}
	check := func(src string) []string {
		f := Check("/c.yaml", []byte(src), &Options{NoSubRecipes: true})
		return violationStrings(t, f.Tree, cache, false)
	}
	good := "title: t\ndescription: d\nsettings:\n  temperature: 0.5\n"
	bad := "title: t\ndescription: d\nsettings:\n  temperature: hot\n"
	if got := check(good); len(got) != 0 {
		t.Fatalf("valid document: %v", got)
	}
	if got := check(bad); len(got) != 1 || !strings.Contains(got[0], `["settings" "temperature"]`) {
		t.Errorf("changed settings served from the cache: %v", got)
	}
	if !cachedNames(cache)["settings"] {
		t.Error("settings not cached")
	}
	if got := check(good); len(got) != 0 {
		t.Errorf("fixed settings still reported: %v", got)
	}
	check("title: t\ndescription: d\n")
	check("title: t\ndescription: e\n")
	if cachedNames(cache)["settings"] {
		t.Error("a key removed two checks ago stayed in the cache")
	}
}

// List items are cached by value: an item's violation follows it when items move, and an edit
// re-validates only the item it changed.
func TestSchemaCacheItemsMoveWithTheirValues(t *testing.T) {
	cache := &schemaCache{}
	check := func(src string) []string {
		f := Check("/c.yaml", []byte(src), &Options{NoSubRecipes: true})
		return violationStrings(t, f.Tree, cache, false)
	}
	item := func(key, req string) string {
		return "  - key: " + key + "\n    input_type: string\n    requirement: " + req + "\n    description: d\n"
	}
	head := "title: t\ndescription: d\nprompt: p\nparameters:\n"
	if got := check(head + item("a", "optional") + item("b", "opional")); len(got) != 1 || !strings.Contains(got[0], `["parameters" "1" "requirement"]`) {
		t.Errorf("typo in the second item: %v", got)
	}
	if got := check(head + item("z", "required") + item("a", "optional") + item("b", "opional")); len(got) != 1 || !strings.Contains(got[0], `["parameters" "2" "requirement"]`) {
		t.Errorf("an item inserted before the typo: %v", got)
	}
	if got := check(head + item("z", "required") + item("a", "optional") + item("b", "optional")); len(got) != 0 {
		t.Errorf("typo fixed: %v", got)
	}
}
