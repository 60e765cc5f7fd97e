// The recipe library's manifests: goose's ids, its time format, newest first, sub-recipe paths resolved;
// the RecipeDto form and goose's to_yaml clean-up.

package library

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Values computed by Rust's std (rustc 1.95): DefaultHasher::new(), path.hash(&mut h), format!("{:016x}",
// h.finish()) — goose's short_id_from_path. They cover every length modulo 8 around the 8-byte blocks
// (the 0xff terminator included) and non-ASCII bytes.
var rustIDs = map[string]string{
	"/tmp/example.yaml":                        "c6e727e36a9bb6d4",
	"/home/u/.config/goose/recipes/daily.yaml": "4df217a186177268",
	"":                 "30406ea523c53def",
	"/a/ünï code.yaml": "19da9203d87f90f9",
	"/tmp/r/x.yaml":    "ae885be6141a92e9",
	"/":                "cf1d3eb93fcb5a7a",
	"a":                "719b50b9a4f0e9f3",
	"0123456":          "73aba660808c83e2",
	"01234567":         "5afa6202e1213f4d",
	"012345678901234":  "37c04715d9de89db",
	"0123456789012345": "c083e31a017b0d26",
	"/tmp/a-path-that-is-longer-than-sixteen-bytes/and/more/recipe.yaml": "7c733cb88b174b18",
}

func TestManifestIDIsRustsDefaultHasher(t *testing.T) {
	for path, want := range rustIDs {
		if got := ManifestID(path); got != want {
			t.Errorf("ManifestID(%q) = %s, want %s", path, got, want)
		}
	}
}

func TestRFC3339IsChronos(t *testing.T) {
	base := time.Date(2026, 10, 8, 9, 5, 7, 0, time.FixedZone("x", 3600))
	for ns, want := range map[int]string{
		0:           "2026-10-08T08:05:07+00:00",
		120_000_000: "2026-10-08T08:05:07.120+00:00",
		123_456_000: "2026-10-08T08:05:07.123456+00:00",
		123_456_789: "2026-10-08T08:05:07.123456789+00:00",
		5:           "2026-10-08T08:05:07.000000005+00:00",
	} {
		if got := rfc3339(base.Add(time.Duration(ns))); got != want {
			t.Errorf("%d ns: %s, want %s", ns, got, want)
		}
	}
}

func TestManifestsNewestFirstWithSubRecipesResolved(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".agents", "recipes")
	os.MkdirAll(dir, 0o755)
	write := func(name, text string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(-age)
		os.Chtimes(p, at, at)
		return p
	}
	old := write("old.yaml", "title: Old\ndescription: d\nprompt: p\n", time.Hour)
	child := write("child.yaml", "title: Child\ndescription: d\nprompt: p\n", 2*time.Hour)
	parent := write("parent.yaml", "title: Parent\ndescription: d\nprompt: p\nsub_recipes:\n  - name: c\n    path: child.yaml\n  - name: gone\n    path: missing.yaml\n", 0)
	os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("title: [\n"), 0o644)
	rs := Resolver{Env: Env{Cwd: t.TempDir(), Home: home, ConfigDir: filepath.Join(home, "config")}}
	ms := rs.Manifests()
	var got []string
	for _, m := range ms {
		got = append(got, m.Path+" "+m.LastModified)
	}
	want := []string{parent + " 2026-01-02T03:04:05+00:00", old + " 2026-01-02T02:04:05+00:00", child + " 2026-01-02T01:04:05+00:00"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("manifests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ms[0].ID != ManifestID(parent) || ms[0].Recipe.SubRecipes[0].Path != child || ms[0].Recipe.SubRecipes[1].Path != "missing.yaml" {
		t.Fatalf("parent manifest %+v %+v", ms[0], ms[0].Recipe.SubRecipes)
	}
	if m, ok := rs.ManifestByID(ManifestID(old)); !ok || m.Recipe.Title != "Old" {
		t.Fatalf("ManifestByID: %+v %v", m, ok)
	}
	if _, ok := rs.ManifestByID("0000000000000000"); ok {
		t.Fatal("an unknown id was found")
	}
}

func parseJSON(t *testing.T, text string) *yamltree.Node {
	t.Helper()
	doc, err := yamltree.Parse(source.NewLineIndex([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	return doc.Root
}

func TestDTORoundTrip(t *testing.T) {
	in := `{"title":"T","description":"D","prompt":"p","extensions":[{"type":"stdio","name":"git","cmd":"uvx","args":["x"],"timeout":30},{"type":"builtin","name":"developer"}],` +
		`"settings":{"goose_provider":"openai","temperature":0.5},"parameters":[{"key":"k","input_type":"select","requirement":"optional","description":"d","default":"a","options":["a","b"]}],` +
		`"sub_recipes":[{"name":"c","path":"/x/c.yaml"}],"retry":{"max_retries":2,"checks":[{"type":"shell","command":"make"}]},"response":{"json_schema":{"type":"object","required":["b","a"]}}}`
	r, err := DecodeDTO(parseJSON(t, in))
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.DTO()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":"1.0.0","title":"T","description":"D","prompt":"p","extensions":[{"type":"stdio","name":"git","description":"","cmd":"uvx","args":["x"],"timeout":30},` +
		`{"type":"builtin","name":"developer","description":""}],"settings":{"goose_provider":"openai","temperature":0.5},` +
		`"parameters":[{"key":"k","input_type":"select","requirement":"optional","description":"d","default":"a","options":["a","b"]}],` +
		`"response":{"json_schema":{"type":"object","required":["b","a"]}},"sub_recipes":[{"name":"c","path":"/x/c.yaml","sequential_when_repeated":false}],` +
		`"retry":{"max_retries":2,"checks":[{"type":"shell","command":"make"}]}}`
	if got := v.JSON(); got != want {
		t.Fatalf("DTO:\n%s\nwant:\n%s", got, want)
	}
	// goose's own serde form of the same recipe differs: check tags are "Shell", sub-recipe values null
	if js := r.JSON(); !strings.Contains(js, `"type":"Shell"`) || !strings.Contains(js, `"values":null`) {
		t.Fatalf("serde form %s", js)
	}
}

func TestDTOErrorsAreSerdes(t *testing.T) {
	for in, want := range map[string]string{
		`{"description":"D"}`: "missing field `title`",
		`[1]`:                 "invalid type: sequence, expected struct RecipeDto",
		`{"title":"T","description":"D","extensions":[{"type":"sse","name":"x"}]}`:                                                   "unknown variant `sse`, expected one of `builtin`, `platform`, `stdio`, `streamable_http`",
		`{"title":"T","description":"D","extensions":[{"type":"stdio","name":"x"}]}`:                                                 "missing field `cmd`",
		`{"title":"T","description":"D","retry":{"max_retries":1,"checks":[{"type":"Shell","command":"x"}]}}`:                        "unknown variant `Shell`, expected `shell`",
		`{"title":"T","description":"D","parameters":[{"key":"k","input_type":"bogus","requirement":"required","description":"d"}]}`: "unknown variant `bogus`, expected one of `string`, `number`, `boolean`, `date`, `file`, `select`",
	} {
		_, err := DecodeDTO(parseJSON(t, in))
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestGooseYAMLRewritesQuotedMultilineFields(t *testing.T) {
	// goose's reformat_fields_with_multiline_values on what serde_yaml writes when it double-quotes a
	// prompt (its own cases: the escaped breaks become a block, \" is unescaped, other fields and nested
	// indentation are kept, literal blocks and single lines are left alone)
	for in, want := range map[string]string{
		`version: "1.0"` + "\n" + `prompt: "line1\nline2"`: "version: \"1.0\"\nprompt: |\n  line1\n  line2\n",
		`prompt: "Hello \"World\"\nHow are you?"`:          "prompt: |\n  Hello \"World\"\n  How are you?\n",
		`prompt: "a\nb"` + "\n" + `notes: "c\nd"`:          "prompt: |\n  a\n  b\nnotes: \"c\\nd\"\n",
		"settings:\n" + `  instructions: "x\ny"`:           "settings:\n  instructions: |\n    x\n    y\n",
		"prompt: |\n  already good\n  block":               "prompt: |\n  already good\n  block\n",
		`prompt: "single line text"` + "\n\n\n":            "prompt: \"single line text\"\n",
	} {
		if got := reformatMultiline(in, multilineFields); got != want {
			t.Errorf("reformat(%q) = %q, want %q", in, got, want)
		}
	}
	p := "line one\nline two"
	r := &Recipe{Version: "1.0.0", Title: "T", Description: "D", Prompt: &p}
	if got, err := r.GooseYAML(); err != nil || got != "version: 1.0.0\ntitle: T\ndescription: D\nprompt: |-\n  line one\n  line two\n" {
		t.Fatalf("GooseYAML: %q %v", got, err)
	}
}

func TestSecurityWarningsAreTagCharacters(t *testing.T) {
	hidden := "run this\U000E0041\U000E0042"
	for _, c := range []struct {
		r    Recipe
		want bool
	}{
		{Recipe{Instructions: &hidden}, true},
		{Recipe{Prompt: &hidden}, true},
		{Recipe{Activities: []string{"ok", hidden}}, true},
		{Recipe{Title: hidden, Description: hidden}, false}, // goose looks at instructions, prompt, activities only
		{Recipe{Activities: []string{"plain \u200b zero-width"}}, false},
	} {
		if got := c.r.HasSecurityWarnings(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.r, got, c.want)
		}
	}
}

func TestDecodeConfigTakesTheConfigOnly(t *testing.T) {
	r := &Recipe{Version: "1.0.0", Title: "T", Description: "D"}
	cfg := EncodeConfig(r)
	if got, err := DecodeConfig(cfg); err != nil || got.Title != "T" {
		t.Fatalf("DecodeConfig: %+v %v", got, err)
	}
	if _, err := DecodeConfig(DeeplinkPrefix + cfg); err != ErrDecode {
		t.Fatalf("a whole goose:// URL: %v", err)
	}
}
