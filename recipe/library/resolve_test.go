// Name resolution: goose's folder list (canonical, Rust path order, de-duplicated), lookup order, messages.

package library

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testEnv is HOME=<tmp>/home, cwd=<tmp>/home/proj, config=<tmp>/home/.config/goose (all real folders).
func testEnv(t *testing.T) (Env, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	env := Env{Cwd: filepath.Join(home, "proj"), Home: home, ConfigDir: filepath.Join(home, ".config", "goose")}
	mkdir(t, env.Cwd)
	return env, tmp
}

func mkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSearchDirsOrder(t *testing.T) {
	env, tmp := testEnv(t)
	home := env.Home
	// goose-runtime-1.38.md §9.1: lexicographic, not the listed order; a global folder sorts first
	want := []string{
		filepath.Join(home, ".agents/recipes"),
		filepath.Join(home, ".config/goose/recipes"),
		env.Cwd,
		filepath.Join(env.Cwd, ".agents/recipes"),
		filepath.Join(env.Cwd, ".goose/recipes"),
	}
	if diff := cmp.Diff(want, env.SearchDirs()); diff != "" {
		t.Errorf("search folders (-want +got):\n%s", diff)
	}

	// GOOSE_RECIPE_PATH: component order ("/x/a/b" before "/x/a-b", which byte order would swap), an
	// existing folder reached through a symlink canonicalised and de-duplicated with the working folder,
	// relative folders that do not exist kept as given and sorted after every absolute one
	mkdir(t, filepath.Join(tmp, "lib", "a", "b"))
	mkdir(t, filepath.Join(tmp, "lib", "a-b"))
	if err := os.Symlink(env.Cwd, filepath.Join(tmp, "proj-link")); err != nil {
		t.Fatal(err)
	}
	env.RecipePath = strings.Join([]string{filepath.Join(tmp, "lib", "a-b"), "zz/missing", filepath.Join(tmp, "lib", "a", "b"), filepath.Join(tmp, "proj-link"), "aa/missing"}, ":")
	env.HasRecipePath = true
	want = []string{
		filepath.Join(home, ".agents/recipes"),
		filepath.Join(home, ".config/goose/recipes"),
		env.Cwd,
		filepath.Join(env.Cwd, ".agents/recipes"),
		filepath.Join(env.Cwd, ".goose/recipes"),
		filepath.Join(tmp, "lib", "a", "b"),
		filepath.Join(tmp, "lib", "a-b"),
		"aa/missing",
		"zz/missing",
	}
	if diff := cmp.Diff(want, env.SearchDirs()); diff != "" {
		t.Errorf("search folders with GOOSE_RECIPE_PATH (-want +got):\n%s", diff)
	}
}

func TestComparePaths(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"/a/b", "/a-b", true},   // component order: "a" < "a-b"
		{"/a", "/a/b", true},     // a prefix first
		{"/z", "a", true},        // a root before any name
		{"./a", "a", true},       // CurDir before a name
		{"a//b", "a/./b", false}, // equal components
		{"a/./b", "a//b", false},
	} {
		if got := comparePaths(c.a, c.b) < 0; got != c.less {
			t.Errorf("comparePaths(%q, %q) < 0 = %v, want %v", c.a, c.b, got, c.less)
		}
	}
	if comparePaths("a//b/", "a/./b") != 0 {
		t.Error("a//b/ and a/./b should be the same path")
	}
}

func TestResolveOrder(t *testing.T) {
	env, tmp := testEnv(t)
	recipe := func(title string) string { return "title: " + title + "\ndescription: d\nprompt: p\n" }
	// the same name in the project and in ~/.agents/recipes: the global one sorts first and wins
	writeFile(t, filepath.Join(env.Cwd, ".goose/recipes/review.yaml"), recipe("project"))
	writeFile(t, filepath.Join(env.Home, ".agents/recipes/review.yaml"), recipe("global"))
	// NAME.yaml before NAME.json in one folder
	writeFile(t, filepath.Join(env.Cwd, "both.json"), `{"title": "json", "description": "d", "prompt": "p"}`)
	writeFile(t, filepath.Join(env.Cwd, "both.yaml"), recipe("yaml"))
	// only json
	writeFile(t, filepath.Join(env.ConfigDir, "recipes/only.json"), `{"title": "only json", "description": "d", "prompt": "p"}`)
	// a GOOSE_RECIPE_PATH folder
	writeFile(t, filepath.Join(tmp, "lib/extra.yaml"), recipe("extra"))
	env.RecipePath, env.HasRecipePath = filepath.Join(tmp, "lib"), true
	rs := Resolver{Env: env}
	for _, c := range []struct{ name, path, title string }{
		{"review", filepath.Join(env.Home, ".agents/recipes/review.yaml"), "global"},
		{"both", filepath.Join(env.Cwd, "both.yaml"), "yaml"},
		{"only", filepath.Join(env.ConfigDir, "recipes/only.json"), "only json"},
		{"extra", filepath.Join(tmp, "lib/extra.yaml"), "extra"},
	} {
		res, err := rs.Resolve(c.name)
		if err != nil {
			t.Errorf("Resolve(%s): %v", c.name, err)
			continue
		}
		r, err := Parse(res.Text)
		if err != nil {
			t.Fatal(err)
		}
		if res.Path != c.path || res.Dir != filepath.Dir(c.path) || r.Title != c.title || !res.ByName {
			t.Errorf("Resolve(%s) = %s (title %q), want %s (title %q)", c.name, res.Path, r.Title, c.path, c.title)
		}
	}
	// a path is read as given (relative to the working folder)
	if res, err := rs.Resolve(".goose/recipes/review.yaml"); err != nil || res.Path != filepath.Join(env.Cwd, ".goose/recipes/review.yaml") || res.ByName {
		t.Errorf("path: %+v, %v", res, err)
	}
}

func TestResolveMessages(t *testing.T) {
	env, _ := testEnv(t)
	rs := Resolver{Env: env}
	for _, name := range []string{"a/b", `a\b`, "~x", ".hidden", "notes.txt", "x.yml"} {
		_, err := rs.Resolve(name)
		if err == nil || err.Error() != "Recipe file "+name+" is not a json or yaml file" {
			t.Errorf("Resolve(%q) = %v", name, err)
		}
	}
	_, err := rs.Resolve("nope")
	want := "ℹ️  Failed to retrieve nope.yaml or nope.json in " + strings.Join(env.SearchDirs(), ":")
	if err == nil || err.Error() != want || !errors.Is(err, ErrNotFound) {
		t.Errorf("not found:\n got %v\nwant %s", err, want)
	}
	rs.GitHubRepo = "org/recipes"
	if _, err := rs.Resolve("nope"); err == nil || !strings.Contains(err.Error(), "GOOSE_RECIPE_GITHUB_REPO=org/recipes is not searched") {
		t.Errorf("GitHub note missing: %v", err)
	}
}

func TestIsName(t *testing.T) {
	for arg, want := range map[string]bool{"review": true, "my-recipe_2": true, "review.yaml": false, "a/b": false, ".x": false, "~": false, "a.b": false, "": false} {
		if IsName(arg) != want {
			t.Errorf("IsName(%q) = %v", arg, !want)
		}
	}
}
